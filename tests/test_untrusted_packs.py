"""Packs are shared files: untrusted input.  Whatever a pack holds, every pack command ends in
bounded time and memory, with status 0, 1 (validate: wrong claims) or 2 and one ``error:`` line,
never a traceback; text from the pack reaches a terminal inert (no escape sequences, carriage
returns or bidirectional overrides) and a page only as escaped data."""
from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import forked
from puzzlegen import clitools, packs
from solvers.errors import BadInput

REPO = Path(__file__).resolve().parent.parent
#: Two puzzles of a shipped pack of each game with a page.
BASES = ["stacksquared-4x4-easy", "montana-8", "stackmgmt-8x4-k4",
         "agnes-up-suit-anyrun-nosplit"]
#: Characters a terminal acts on, raw: escape, carriage return, backspace, bidi overrides.
ACTIVE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
HOSTILE = ["\x1b[2K\rspoof.json: valid (25 puzzles)\x1b[8m", "__DATA__", "__SCRIPTS__",
           "__TITLE__", "</script><script>alert(1)</script>", "\u202egnp.exe", "\x00", "\r",
           "a\nb", "&amp;<b>", "${x}", "'\"", "\ud7ff\ue000"]
COMMANDS = [["validate", "--sample", "0"], ["show"], ["show", "--json"],
            ["html", "--out", "page.html"], ["print", "--out", "book.pdf"]]


def base(name: str) -> dict:
    pack = json.loads((REPO / "puzzles" / f"{name}.json").read_text())
    return dict(pack, puzzles=pack["puzzles"][:2])


def check(command: list[str], text: str, cwd: Path, seconds: float = 30.0,
          memory: int = 1_500_000_000) -> forked.Run:
    """Run ``pack COMMAND pack.json`` on ``text`` under a memory cap and check how it ends."""
    (cwd / "pack.json").write_text(text, encoding="utf-8", errors="surrogatepass")
    started = time.monotonic()
    run = forked.run(["puzzlegen", "pack", command[0], "pack.json", *command[1:]], cwd,
                     patience=seconds, more_memory=memory)
    took = time.monotonic() - started
    what = f"pack {' '.join(command)}"
    assert run.code is not None and not run.interrupted, f"{what} ran past {seconds} s"
    assert took < seconds, f"{what} took {took:.1f} s"
    assert "Traceback" not in run.err and "MemoryError" not in run.err, run.err[-800:]
    assert run.code in ((0, 1, 2) if command[0] == "validate" else (0, 2)), (run.code, run.err)
    assert not ACTIVE.search(run.out.replace("\n", "")), f"{what}: raw control text on stdout"
    assert not ACTIVE.search(run.err.replace("\n", "")), f"{what}: raw control text on stderr"
    lines = [line for line in run.err.splitlines() if line.strip()]
    if run.code == 2:
        assert len(lines) == 1 and lines[0].startswith("error: "), run.err
        assert len(lines[0]) <= clitools.MAX_ERROR
    if run.code == 0 and command[0] == "html":
        page = (cwd / "page.html").read_text()
        data = re.search(r'<script type="application/json" id="pack-data">(.*?)</script>', page,
                         re.S)
        assert data and json.loads(data[1])["puzzles"], "the page's data does not parse"
        assert page.count("<script") == 2 and "__DATA__" not in page.split("<body>")[0]
    return run


def hostile_text() -> st.SearchStrategy[str]:
    return st.sampled_from(HOSTILE) | st.text(max_size=12)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | hostile_text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(hostile_text(), inner,
                                                                max_size=3),
    max_leaves=8)


@st.composite
def tampered(draw, pack: dict) -> str:
    """``pack`` with one field of a puzzle, or of the pack, replaced by a random value (NaN
    and infinities included, as Python's json writes them), as text; or its text cut short."""
    pack = json.loads(json.dumps(pack))
    where = draw(st.sampled_from(["puzzle", "top", "made"]))
    target = {"puzzle": pack["puzzles"][draw(st.integers(0, 1))], "top": pack,
              "made": pack["created_with"]}[where]
    field = draw(st.sampled_from(sorted(target)) | hostile_text())
    target[field] = draw(json_values | hostile_text())
    text = json.dumps(pack, indent=1)
    if draw(st.integers(0, 9)) == 0:
        text = text[:draw(st.integers(0, len(text)))]
    return text


@pytest.mark.parametrize("name", BASES)
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_fuzzed_packs_end_in_bounded_time_and_memory(name, command, tmp_path_factory):
    pack = base(name)

    @settings(max_examples=6, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(text=tampered(pack))
    def fuzz(text):
        cwd = tmp_path_factory.mktemp("pack")
        check(command, text, cwd)

    fuzz()


def spoofing(name: str) -> dict:
    """``name``'s two puzzles, the first with a terminal-spoofing id and a broken solution."""
    pack = base(name)
    entry = pack["puzzles"][0]
    entry["id"] = HOSTILE[0]
    entry["explanation"] = "fine\x1b]0;title\x07\r\u202eevil"
    entry["solution"] = entry["solution"][::-1]
    return pack


@pytest.mark.parametrize("command", [["validate", "--sample", "0"], ["show"]], ids=" ".join)
def test_a_spoofing_id_cannot_fake_a_verdict(command, tmp_path):
    run = check(command, json.dumps(spoofing("stacksquared-4x4-easy")), tmp_path)
    assert "\\x1b[2K" in run.err and "spoof.json: valid (25 puzzles)\\x1b[8m" in run.err
    if command[0] == "validate":
        assert run.code == 1 and "pack.json: not valid: " in run.err.splitlines()[-1]


@pytest.mark.parametrize("title", ["__DATA__", "__SCRIPTS__", "__STYLE__",
                                   "</title><script>alert(1)</script>"])
def test_titles_cannot_steer_the_page(title, tmp_path):
    (tmp_path / "pack.json").write_text(json.dumps(base("stacksquared-4x4-easy")))
    run = forked.run(["puzzlegen", "pack", "html", "pack.json", "--out", "p.html", "--title",
                      title], tmp_path)
    assert run.code == 0, run.err
    page = (tmp_path / "p.html").read_text()
    head = page.split("</title>")[0]
    assert head.endswith(title.replace("<", "&lt;").replace(">", "&gt;"))
    data = re.search(r'id="pack-data">(.*?)</script>', page, re.S)[1]
    assert json.loads(data)["title"] == title
    assert page.count("<script") == 2


@pytest.mark.parametrize("text,fragment", [
    ('{"a": NaN}', "holds NaN"),
    ('{"a": -Infinity}', "holds -Infinity"),
    ('{"a": 1e999}', "holds the number 1e999"),
    ('{"a": ' + "9" * 5000 + "}", "an integer of 5,000 digits"),
    ('{"a": 12345678901234567890}', "an integer of 20 digits"),
    ("[" * 100_000, "nests arrays and objects more than 64 deep"),
    ('"' + '\\"' * 500_000, "is not JSON: Unterminated string starting at line 1, column 1"),
])
@pytest.mark.parametrize("command", [["validate"], ["show"], ["html", "--out", "x.html"]],
                         ids=" ".join)
def test_numbers_and_shapes_json_allows_a_pack_refuses(command, text, fragment, tmp_path):
    run = check(command, text, tmp_path, seconds=10)
    assert run.code == 2 and fragment in run.err, run.err


def test_reading_is_linear_in_the_file(tmp_path):
    """The escaped quotes that took a backtracking pattern minutes: 1 MB in well under 2 s."""
    started = time.monotonic()
    with pytest.raises(BadInput, match="is not JSON"):
        (tmp_path / "q.json").write_text('"' + '\\"' * 500_000)
        packs.load(tmp_path / "q.json")
    assert time.monotonic() - started < 2


def test_a_large_hostile_pack_stays_within_its_memory_bound(tmp_path):
    """30 MB of empty objects, the costliest JSON per byte, under a cap of
    :data:`packs.MEMORY_PER_BYTE` bytes a byte (and the modules already loaded)."""
    pack = base("stacksquared-4x4-easy")
    pack["puzzles"][0]["metrics"]["junk"] = [{}] * 10_000_000
    text = json.dumps(pack, separators=(",", ":"))
    assert 29_000_000 < len(text) < packs.MAX_BYTES
    run = check(["show"], text, tmp_path, seconds=60,
                memory=packs.MEMORY_PER_BYTE * len(text))
    assert run.code == 0 and "4x4" in run.out
