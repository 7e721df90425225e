"""A new game is one package plus one line.

Near Swaps (``tests/swaps``: ``game.py`` and the page's ``page.js``, nothing else) is written
only for this test.  Registered with the one line below, it goes through the whole pipeline as
every shipped game does: the command line finds it, a calibration is built for it, deals are
graded and a pack generated, validated, shown, made into a page that a real browser plays to a
win, and printed as a book.  No file of puzzlegen names it.
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from puzzlegen import calibration, codes, packs
from puzzlegen.cli import cli
from solvers import game as games

from pages import fresh

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """The game's package copied to a folder of its own (its calibration is written beside it),
    and registered: the one line a new game adds to ``solvers.game.REGISTRY``."""
    root = tmp_path_factory.mktemp("newgame")
    shutil.copytree(HERE / "swaps", root / "near_swaps")
    sys.path.insert(0, str(root))
    patch = pytest.MonkeyPatch()
    patch.setitem(games.REGISTRY, "swaps", "near_swaps.game")
    yield root
    patch.undo()
    sys.path.remove(str(root))
    games._games.pop("swaps", None)
    for name in [m for m in sys.modules if m.startswith("near_swaps")]:
        del sys.modules[name]


def puzzlegen(*args: str):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def pack(folder) -> Path:
    """A calibration of 6-card rows built by the calibration command, then a pack."""
    table = folder / "near_swaps" / "calibration-swaps-6.json"
    result = CliRunner().invoke(calibration.main, ["--game", "swaps", "--rules", "6", "--deals",
                                                   "2000", "--out", str(table)])
    assert result.exit_code == 0, result.output
    out = folder / "swaps.json"
    puzzlegen("swaps", "generate", "--rules", "6", "--level", "easy,hard", "--count", "2",
              "--seed", "1", "--jobs", "1", "--out", str(out))
    return out


def test_the_command_line_lists_and_runs_the_new_game(folder):
    assert "Near Swaps: generate, grade, solve, winrate." in puzzlegen("--help")
    assert {"grade", "generate", "solve", "winrate"} <= set(puzzlegen("swaps", "--help").split())


def test_the_new_game_has_a_win_rate_with_a_resumable_per_deal_file(folder):
    """``winrate`` comes from the contract: the shared figures, one record a deal, resumed."""
    records = folder / "swaps.jsonl"
    args = ["swaps", "winrate", "--rules", "6", "--deals", "40", "--seed", "3", "--jobs", "1",
            "--json", "--per-deal", str(records)]
    first = json.loads(puzzlegen(*args))
    assert first["deals"] == 40 and first["won"] + first["lost"] == 40 and not first["limit"]
    lines = records.read_text().splitlines()
    assert [json.loads(line)["seed"] for line in lines[1:]] == list(range(3, 43))
    again = json.loads(puzzlegen(*args, "--resume"))
    assert {k: again[k] for k in ("won", "lost", "win_rate")} == \
        {k: first[k] for k in ("won", "lost", "win_rate")}
    record = json.loads(lines[1])
    for tampered in ({**record, "result": "drawn"}, {**record, "nodes": -1}, {"seed": 3}):
        records.write_text("\n".join([lines[0], json.dumps(tampered)]) + "\n")
        bad = CliRunner().invoke(cli, args[:-2] + ["--per-deal", str(records), "--resume"])
        assert bad.exit_code == 2 and bad.output.startswith("error: "), tampered


def test_the_new_game_solves_exactly_from_the_contract(folder):
    """``solve`` comes from the contract: a win (two swaps), no win, and a limit."""
    won = json.loads(puzzlegen("swaps", "solve", "--rules", "6", "--json", "2S AS 3S 5S 4S 6S"))
    assert won["status"] == "solved" and sorted(won["moves"]) == ["2S-AS", "5S-4S"]
    text = puzzlegen("swaps", "solve", "--rules", "6", "2S AS 3S 5S 4S 6S")
    assert "solved, value 6\nnodes: " in text and "solution: " in text
    lost = json.loads(puzzlegen("swaps", "solve", "--rules", "6", "--json", "6S 5S 4S 3S 2S AS"))
    assert lost["status"] == "unsolvable" and lost["moves"] == []
    stopped = json.loads(puzzlegen("swaps", "solve", "--rules", "6", "--max-states", "1",
                                   "--json", "2S AS 3S 5S 4S 6S"))
    assert stopped["status"] == "limit"
    bad = CliRunner().invoke(cli, ["swaps", "solve", "--rules", "6", "2S AS"])
    assert bad.exit_code == 2 and bad.output.startswith("error: ")


def test_a_grade_is_the_same_for_both_copies_of_a_deal(pack):
    """2S AS 3S 5S 4S 6S and its mirror (read right to left, each rank r as 7 - r) are one
    puzzle (the same grade; the solution and the code are each deal's own); 6S 5S 4S 3S 2S AS
    is winnable nowhere."""
    one, mirror = (json.loads(puzzlegen("swaps", "grade", "--rules", "6", "--json", deal))
                   for deal in ("2S AS 3S 5S 4S 6S", "AS 3S 2S 4S 6S 5S"))
    assert one["metrics"]["shortest"] == 2 and one["level"] != "unsolvable"
    assert {k: v for k, v in one.items() if k not in ("solution", "code")} == \
        {k: v for k, v in mirror.items() if k not in ("solution", "code")}
    assert one["code"] != mirror["code"]
    lost = json.loads(puzzlegen("swaps", "grade", "--rules", "6", "--json",
                                "6S 5S 4S 3S 2S AS"))
    assert lost["level"] == "unsolvable"


def test_the_pack_validates_and_shows(pack):
    data = packs.load(pack)
    assert data["game"] == "swaps" and [p["level"] for p in data["puzzles"]] == \
        ["easy", "easy", "hard", "hard"]
    assert f"{pack}: valid (4 puzzles)" in puzzlegen("pack", "validate", str(pack))
    shown = puzzlegen("pack", "show", str(pack))
    assert all(p["id"] in shown and f"code: {code_of(p)}" in shown for p in data["puzzles"])


def code_of(entry: dict) -> str:
    """The puzzle code of a pack entry of the new game (a text code: it gives no pool)."""
    game = games.get("swaps")
    rules = game.entry_rules(entry)
    return codes.encode(game, rules, game.parse_deal(entry["deal"], rules))


def test_the_book_prints(pack, tmp_path):
    puzzlegen("pack", "print", str(pack), "--out", str(tmp_path / "book.pdf"))
    assert (tmp_path / "book.pdf").read_bytes().startswith(b"%PDF")
    puzzlegen("pack", "print", str(pack), "--format", "svg", "--out", str(tmp_path / "book"))
    pages = sorted(p.name for p in (tmp_path / "book").iterdir())
    assert len(pages) == 6 and "contents.svg" in pages
    entry = packs.load(pack)["puzzles"][0]
    first = (tmp_path / "book" / f"{entry['id']}.svg").read_text()
    assert "Swap neighbouring cards" in first and f"Code {code_of(entry)}" in first


def test_a_browser_plays_the_page_to_a_win(pack, tmp_path, browser_page):
    """The hard puzzle, opened by its code, played by clicks along its stored solution: every
    swap legal, the board solved at the end."""
    page_file = tmp_path / "swaps.html"
    puzzlegen("pack", "html", str(pack), "--out", str(page_file))
    entry = packs.load(pack)["puzzles"][-1]
    page = fresh(browser_page, page_file, code_of(entry))
    assert page.get_attribute("#board", "data-puzzle-id") == entry["id"]
    row = entry["deal"].split()
    for move in entry["solution"]:
        a, b = (row.index(card) for card in move.split("-"))
        page.click(f'#board .cell[data-col="{a}"]')
        page.click(f'#board .cell[data-col="{b}"]')
        row[a], row[b] = row[b], row[a]
        assert page.get_attribute("#board", "data-status") in ("playing", "solved")
    assert page.get_attribute("#board", "data-status") == "solved"
    assert [page.get_attribute(f'#board .cell[data-col="{c}"]', "data-card")
            for c in range(6)] == ["AS", "2S", "3S", "4S", "5S", "6S"]
