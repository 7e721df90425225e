"""Helpers of the puzzle page tests: build a pack's page, open it in the session's Chromium."""
from __future__ import annotations

import json
import time
import urllib.parse
import urllib.request
from pathlib import Path

from click.testing import CliRunner

from puzzlegen.cli import cli


def built(pack: Path, folder: Path, name: str = "page") -> Path:
    """``puzzlegen pack html`` of the pack file ``pack``, written as ``folder/name.html``."""
    out = folder / f"{name}.html"
    result = CliRunner().invoke(cli, ["pack", "html", str(pack), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def refusal(pack: Path, folder: Path, rules: str) -> str:
    """``pack html`` of ``pack``'s first puzzle under ``rules``: must fail with exit status 2 and
    no page written; returns its output, starting with the puzzle's id."""
    data = json.loads(pack.read_text())
    data["puzzles"] = [dict(data["puzzles"][0], rules=rules)]
    source, out = folder / "changed.json", folder / "changed.html"
    source.write_text(json.dumps(data))
    result = CliRunner().invoke(cli, ["pack", "html", str(source), "--out", str(out)])
    assert result.exit_code == 2 and not out.exists()
    prefix = f"error: puzzle {data['puzzles'][0]['id']}: "
    assert result.output.startswith(prefix)
    return result.output.removeprefix(prefix)


def opened(browser_context, path: Path):
    """A tab with the page at ``path`` loaded, for calls into its scripts (a fixture's body:
    ``yield from``); closed after."""
    page = browser_context.new_page()
    page.goto(path.as_uri())
    yield page
    page.close()


def fresh(page, path: Path, puzzle: str | None = None):
    """The page at ``path`` opened with no saved progress, at ``puzzle`` if given (its window's
    storage cleared: a test may open puzzles fresh in turn)."""
    page.goto(path.as_uri())
    connected(page)
    page.evaluate("window.localStorage.clear()")
    arrived(page)  # else the next document's writes may reach the browser before the clear
    page.goto(path.as_uri() + (f"#{puzzle}" if puzzle else ""))
    connected(page)
    return reloaded(page)


def reloaded(page, patience: float = 30.0):
    """``page`` reloaded, returned once the new document's app has drawn its board from what
    the old document stored.  Chromium hands a document's writes to the window's storage
    asynchronously, so the reload waits until another tab of the window reads every key the
    page holds (``arrived``): what the browser holds then, the new document must read.  A mark
    left on the old document must be gone, so no assertion reads the old board, nor the new one
    before its script ran (its #board carries the template's ``data-status``).  Every key is
    compared, the pack's progress by its games and attempts (the open puzzle is the URL's)."""
    before = stored_everything(page)
    arrived(page, patience)
    reload(page)
    connected(page)
    assert stored_everything(page) == before, "what was stored before the reload was lost"
    return page


def reload(page) -> None:
    """``page`` reloaded, returned once the new document's app has started."""
    page.evaluate("window.beforeReload = true")
    page.reload()
    page.wait_for_function("() => !window.beforeReload && !!(window.puzzlegen || {}).app")


#: The key ``connected`` writes and removes.
PROBE = "puzzlegen-test-probe"


def connected(page, patience: float = 5.0, tries: int = 5) -> None:
    """Make sure ``page``'s document reaches the window's storage: a key it writes must reach the
    other tab (``watching``).  Under load Chromium has opened a document whose writes never
    left it (another tab never saw them, the document's own reload did); such a document is
    reloaded, up to ``tries`` times.  The key is removed, and its removal seen, before the
    return."""
    watcher = watching(page)
    for _ in range(tries):
        token = str(time.monotonic_ns())
        page.evaluate("([key, token]) => window.localStorage.setItem(key, token)", [PROBE, token])
        seen = until(lambda: every_key(watcher).get(PROBE) == token, patience)
        page.evaluate("(key) => window.localStorage.removeItem(key)", PROBE)
        if seen:
            assert until(lambda: PROBE not in every_key(watcher), 30.0), "a removal never arrived"
            return
        reload(page)
    raise AssertionError(f"the page's storage never reached the browser in {tries} documents")


def until(condition, patience: float) -> bool:
    """Whether ``condition()`` came true within ``patience`` seconds (polled)."""
    deadline = time.monotonic() + patience
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def arrived(page, patience: float = 30.0):
    """Wait until another tab of ``page``'s window reads every key ``page``'s storage holds;
    fails after ``patience`` seconds (a loaded machine has taken more than 5 s)."""
    expected = every_key(page)
    assert until(lambda: every_key(watching(page)) == expected, patience), \
        ("a storage write never reached the browser", expected, every_key(watching(page)))


def watching(page):
    """The window's tab on a blank page of ``page``'s origin (a file beside the page's), opened
    once and left open with the window: it runs no app, so it writes nothing."""
    context = page.context
    watcher = getattr(context, "puzzlegen_watcher", None)
    if watcher is None:
        url = urllib.parse.urlsplit(page.url)
        assert url.scheme == "file", "the page tests open pages from files"
        blank = beside(Path(urllib.request.url2pathname(url.path)))
        if not blank.exists():
            blank.write_text("<!doctype html><title>blank</title>\n")
        watcher = context.new_page()
        watcher.goto(blank.as_uri())
        context.puzzlegen_watcher = watcher
        page.bring_to_front()
    return watcher


def beside(path: Path) -> Path:
    """The blank page ``arrived`` opens beside the page file ``path``."""
    return path.with_name("blank.html")


def every_key(page) -> dict:
    """Every key of the page's storage with its text."""
    return page.evaluate("""() => Object.fromEntries(Array.from(
  { length: window.localStorage.length }, (_, i) => window.localStorage.key(i))
  .map((key) => [key, window.localStorage.getItem(key)]))""")


def stored_everything(page) -> dict:
    """Every key of the page's storage (``every_key``), the pack's progress parsed to its games
    and attempts (none stored is none played)."""
    everything = every_key(page)
    own = "puzzlegen:" + page.evaluate("window.puzzlegen.app.pack.key")
    progress = json.loads(everything.get(own) or "{}")
    everything[own] = {"games": progress.get("games") or {},
                       "attempts": progress.get("attempts") or {}}
    return everything


#: The progress the page's storage holds for its pack (app.js's ``store``), as a JS expression.
STORED = ('JSON.parse(window.localStorage.getItem("puzzlegen:" + window.puzzlegen.app.pack.key)'
          ' || "{}")')


def saved(page) -> dict:
    """The progress the page's storage holds for its pack."""
    return page.evaluate(f"() => {STORED}")


HISTORY = """([name, args, positions]) => {
  const g = window.puzzlegen.games[name];
  const alone = positions.map((p) => new g.Searcher(...args).decide(p).verdict);
  const shared = new g.Searcher(...args);
  const after = positions.map((p) => shared.decide(p).verdict);
  const reversed = positions.slice().reverse().map((p) => shared.decide(p).verdict).reverse();
  return [alone, after, reversed];
}"""


def decisions_alone_and_after_others(game, name: str, args: list, positions: list) -> list:
    """The page search's verdicts on ``positions`` (``game``'s position objects) from a new
    ``Searcher(*args)`` each, and from one searcher deciding them all in order, then in reverse;
    asserts the three agree and returns the first."""
    alone, after, reversed_ = game.evaluate(HISTORY, [name, args, positions])
    assert after == alone and reversed_ == alone
    return alone
