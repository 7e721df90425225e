"""Helpers of the puzzle page tests: build a pack's page, open it in the session's Chromium."""
from __future__ import annotations

import json
import time
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
    page.evaluate("window.localStorage.clear()")
    page.goto(path.as_uri() + (f"#{puzzle}" if puzzle else ""))
    return reloaded(page)


def reloaded(page, patience: float = 30.0):
    """``page`` reloaded, returned once the new document's app has drawn its board from what
    the old document stored.  A mark left on the old document must be gone, so no assertion
    reads the old board, nor the new one before its script ran (its #board carries the
    template's ``data-status``).  Chromium hands a write to its storage asynchronously, and a
    new document may read the storage before the old one's last write arrived: then it is
    reloaded again, with growing pauses, for up to ``patience`` seconds (a loaded machine has
    taken more than 5 s); a write never arriving fails the test.  Every key is compared, the
    pack's progress by its games and attempts (the open puzzle is the URL's)."""
    before = stored_everything(page)
    deadline = time.monotonic() + patience
    pause = 0.1
    while True:
        page.evaluate("window.beforeReload = true")
        page.reload()
        page.wait_for_function("() => !window.beforeReload && !!(window.puzzlegen || {}).app")
        if stored_everything(page) == before or time.monotonic() > deadline:
            break
        time.sleep(pause)
        pause = min(2 * pause, 2.0)
    assert stored_everything(page) == before, "what was stored before the reload was lost"
    return page


def stored_everything(page) -> dict:
    """Every key of the page's storage, the pack's progress parsed to its games and attempts
    (none stored is none played)."""
    return page.evaluate("""() => {
  const all = {};
  for (let i = 0; i < window.localStorage.length; i++) {
    const key = window.localStorage.key(i);
    all[key] = window.localStorage.getItem(key);
  }
  const own = "puzzlegen:" + window.puzzlegen.app.pack.key;
  const progress = JSON.parse(all[own] || "{}");
  all[own] = { games: progress.games || {}, attempts: progress.attempts || {} };
  return all;
}""")


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
