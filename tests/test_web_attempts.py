"""The page's puzzle codes and attempts, in a real headless Chromium: a puzzle opened by its
code, a code of no puzzle of the pack and text that is no code told apart (and shown as text),
a win by clicks recorded as an attempt that survives a reload and is exported as JSON whose moves
replay by the game's rules, a game finished with the Solution button recorded as a solution
view without congratulations, and no request leaving the browser."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzlegen import codes
from solvers.stacksquared import Deal, Position
from solvers.stacksquared.game import GAME, Grid
from solvers.stacksquared.rules import Move

from pages import beside, built, fresh, reloaded, saved

ROOT = Path(__file__).resolve().parent.parent
COUNTS = ("moves_made", "undos", "restarts", "hints", "solution_views")


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """The page of the shipped 3x4 pack's first two puzzles, and that pack."""
    folder = tmp_path_factory.mktemp("attempts")
    pack = json.loads((ROOT / "puzzles/stacksquared-3x4-hard.json").read_text())
    pack["puzzles"] = pack["puzzles"][:2]
    source = folder / "small.json"
    source.write_text(json.dumps(pack))
    return built(source, folder, "small"), pack


def code_of(entry: dict) -> str:
    grid = Grid(entry["rows"], entry["cols"])
    return codes.encode(GAME, grid, Deal.parse(entry["deal"], grid.rows, grid.cols))


def click_move(page, position: Position, move: str) -> Position:
    m = Move.parse(move)
    for card in (m.mover, m.dest):
        index = position.cell_of(card)
        page.click(f'#board .cell[data-row="{index // 4}"][data-col="{index % 4}"]')
    return position.play(m)


def history(page) -> list[tuple[str, str]]:
    return page.eval_on_selector_all("#attempts li",
                                     "items => items.map(i => [i.dataset.result, i.textContent])")


def exported(page, folder: Path) -> dict:
    with page.expect_download() as download:
        page.click('[data-action="export"]')
    path = folder / "attempts.json"
    download.value.save_as(path)
    return json.loads(path.read_text())


def test_a_code_opens_its_puzzle_and_other_text_is_told_apart(small, browser_page):
    path, pack = small
    second = pack["puzzles"][1]
    page = fresh(browser_page, path, code_of(second))
    assert page.get_attribute("#board", "data-puzzle-id") == second["id"]
    assert page.text_content("#puzzle-code") == f"Puzzle code: {code_of(second)}"
    assert page.text_content("#message") == ""
    other = codes.encode(GAME, Grid(3, 4), Deal.from_seed(7, 3, 4))
    page.goto(path.as_uri() + "#" + other)
    assert page.text_content("#message") == f"The code {other} is a 3x4 puzzle that this pack " \
                                            f"does not hold."
    montana = "1m.8.GQA9me_x-aTgjvjAY9kdY"
    page.goto(path.as_uri() + "#" + montana)
    assert "a puzzle of another game (m)" in page.text_content("#message")
    hostile = '<img src=x onerror="window.hacked=1">'
    for text in (other[:-1] + ("A" if other[-1] != "A" else "B"), hostile, "%E0%A4%A"):
        page.goto(path.as_uri() + "#" + text)
        assert "is not a puzzle code (mistyped?)" in page.text_content("#message"), text
        assert page.get_attribute("#board", "data-puzzle-id") == second["id"]
    assert page.evaluate("window.hacked") is None and page.locator("#message img").count() == 0


def test_attempts_are_recorded_shown_exported_and_never_sent(small, browser_page, tmp_path):
    path, pack = small
    requests = []
    browser_page.context.on("request", lambda request: requests.append(request.url))
    entry, other = pack["puzzles"]
    page = fresh(browser_page, path, entry["id"])
    assert history(page) == [] and page.is_visible("#no-attempts")
    start = Position.start(Deal.parse(entry["deal"], 3, 4))
    click_move(page, start, entry["solution"][0])
    page.click('[data-action="undo"]')
    page.click('[data-action="hint"]')
    position = start
    for move in entry["solution"]:
        position = click_move(page, position, move)
    assert page.get_attribute("#board", "data-status") == "solved"
    assert page.text_content("#message") == f"Solved in {len(entry['solution'])} moves!"
    reloaded(page)
    [(result, text)] = history(page)
    assert result == "solved" and f"{len(entry['solution'])} moves on the board" in text
    assert "1 undo" in text and "1 hint" in text and "0 solution steps" in text
    # The other puzzle finished with the Solution button: a solution view, not a solve.
    page.click(f'[data-select-puzzle="{other["id"]}"]')
    for _ in other["solution"]:
        page.click('[data-action="solution"]')
    assert page.get_attribute("#board", "data-status") == "solved"
    assert "Solved" not in page.text_content("#message")
    assert "recorded as a solution view, not a solve" in page.text_content("#message")
    assert [r for r, _ in history(page)] == ["shown"]
    marks = {p["id"]: page.text_content(f'[data-select-puzzle="{p["id"]}"] .mark').strip()
             for p in pack["puzzles"]}
    assert marks == {entry["id"]: "\u2713", other["id"]: ""}
    assert not saved(page)["games"][other["id"]]["solved"]
    data = exported(page, tmp_path)
    assert {k: data[k] for k in ("format", "version", "game", "pack")} == \
        {"format": "puzzlegen-attempts", "version": 1, "game": "stacksquared",
         "pack": "3x4, hard: 2 puzzles"}
    won, shown = data["attempts"]
    assert [won["puzzle"], won["code"], won["result"]] == [entry["id"], code_of(entry), "solved"]
    assert [won[k] for k in COUNTS] == [len(entry["solution"]) + 1, 1, 0, 1, 0]
    assert [shown["puzzle"], shown["result"], shown["moves_made"], shown["solution_views"]] == \
        [other["id"], "shown", 0, len(other["solution"])]
    for attempt in (won, shown):
        game, grid, deal = codes.decode(attempt["code"])
        assert game.line_problem(deal, grid, attempt["moves"], True) is None
        assert attempt["started"].endswith("Z") and 0 <= attempt["seconds"] < 600
    sent = set(requests) - {beside(path).as_uri()}  # a reload's check opens a blank page
    assert requests and sent == {path.as_uri()}, requests   # the page itself, no more
