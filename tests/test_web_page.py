"""The puzzle page (``pack html``) driven by clicks and keys in a real headless Chromium.

Every verdict the page gives is checked against the rules module and the exact solver.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from puzzlegen import packs
from puzzlegen.grading import grade
from puzzlegen.web import browser
from solvers.stacksquared import Deal, Position
from solvers.stacksquared.difficulty import Decider, tops
from solvers.stacksquared.game import GAME, Grid
from solvers.stacksquared.rules import Move

from pages import STORED, built, fresh, reloaded, saved

ROOT = Path(__file__).resolve().parent.parent


def make_page(pack: dict, folder: Path, name: str) -> Path:
    source = folder / f"{name}.json"
    source.write_text(packs.dumps(pack))
    return built(source, folder, name)


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict:
    """Pages for two 4x4 expert puzzles, the shipped 3x4 pack and a 3x3 pack with an
    unsolvable deal; with their packs."""
    folder = tmp_path_factory.mktemp("pages")
    expert = json.loads((ROOT / "puzzles/stacksquared-4x4-expert.json").read_text())
    expert["puzzles"] = expert["puzzles"][:2]
    small = json.loads((ROOT / "puzzles/stacksquared-3x4-hard.json").read_text())
    deals = [Deal.from_seed(s, 3, 3) for s in (1, 3)]
    grid = Grid(3, 3)
    mixed = packs.build(GAME, [packs.puzzle_entry(GAME, f"p{s}", d, grid, grade(GAME, d, grid))
                               for s, d in zip((1, 3), deals)], "curated", None, {})
    return {name: (make_page(pack, folder, name), pack)
            for name, pack in (("expert", expert), ("small", small), ("mixed", mixed))}


def cell(page, index: int, cols: int):
    return page.locator(f'#board .cell[data-row="{index // cols}"][data-col="{index % cols}"]')


def click_move(page, a: int, b: int, cols: int) -> None:
    cell(page, a, cols).click()
    cell(page, b, cols).click()


def board_tops(page) -> list[str | None]:
    """The top card of each cell as the page shows it (None when empty)."""
    cards = page.eval_on_selector_all("#board .cell", "cells => cells.map(c => c.dataset.card)")
    return [c or None for c in cards]


def python_tops(position: Position) -> list[str | None]:
    return [None if t is None else str(t) for t in position.tops]


def status(page) -> str:
    return page.get_attribute("#board", "data-status")


def cells_of(position: Position, move: str) -> tuple[int, int]:
    m = Move.parse(move)
    return position.cell_of(m.mover), position.cell_of(m.dest)


def test_page_is_self_contained(pages, browser_page):
    path, pack = pages["small"]
    text = path.read_text()
    assert "http://" not in text and "https://" not in text
    requests = []
    browser_page.on("request", lambda r: requests.append(r.url))
    fresh(browser_page, path)
    assert requests and all(url.startswith(("file:", "data:")) for url in requests), requests
    listed = browser_page.eval_on_selector_all("[data-select-puzzle]",
                                               "bs => bs.map(b => b.dataset.selectPuzzle)")
    assert listed == [p["id"] for p in pack["puzzles"]]
    first = pack["puzzles"][0]
    assert browser_page.text_content("#puzzle-level") == " ".join(
        [f"Level: {first['level']} (percentile {first['percentile']}).", first["explanation"],
         GAME.skill_words(first["metrics"])])


def test_stored_solution_played_by_clicks_solves(pages, browser_page):
    path, pack = pages["expert"]
    entry = pack["puzzles"][1]
    page = fresh(browser_page, path, entry["id"])
    assert page.get_attribute("#board", "data-puzzle-id") == entry["id"]
    position = Position.start(Deal.parse(entry["deal"], 4, 4))
    assert board_tops(page) == python_tops(position)
    for move in entry["solution"]:
        assert status(page) == "playing"
        a, b = cells_of(position, move)
        click_move(page, a, b, 4)
        position = position.play(Move.parse(move))
        assert board_tops(page) == python_tops(position)
    assert status(page) == "solved"
    assert "Solved" in page.text_content("#message")
    mark = page.text_content(f'[data-select-puzzle="{entry["id"]}"] .mark')
    assert mark.strip() == "\u2713"


def solve_by_clicks(page, entry: dict, rows: int = 3, cols: int = 4) -> None:
    """The stored solution played by clicks (a game finished with the Solution button is a
    solution view, which marks no puzzle solved)."""
    position = Position.start(Deal.parse(entry["deal"], rows, cols))
    for move in entry["solution"]:
        click_move(page, *cells_of(position, move), cols)
        position = position.play(Move.parse(move))


def first_illegal(position: Position) -> tuple[int, int, str]:
    """An illegal move between two stacks: (mover cell, destination cell, the rules' reason)."""
    n = len(position.tops)
    for a in range(n):
        for b in range(n):
            if a != b and position.tops[a] and position.tops[b]:
                reason = position.why_illegal(Move(position.tops[a], position.tops[b]))
                if reason:
                    return a, b, reason
    raise AssertionError("no illegal move")


def test_illegal_move_is_refused_with_the_rules_reason(pages, browser_page):
    path, pack = pages["small"]
    entry = pack["puzzles"][0]
    page = fresh(browser_page, path, entry["id"])
    position = Position.start(Deal.parse(entry["deal"], 3, 4))
    a, b, reason = first_illegal(position)
    click_move(page, a, b, 4)
    assert board_tops(page) == python_tops(position)
    assert status(page) == "playing"
    assert reason in page.text_content("#message")
    assert "0 moves" in page.text_content("#puzzle-stats")


def test_undo_restart_and_reload_keep_progress(pages, browser_page):
    path, pack = pages["small"]
    entry = pack["puzzles"][2]
    page = fresh(browser_page, path, entry["id"])
    start = Position.start(Deal.parse(entry["deal"], 3, 4))
    positions = [start]
    for move in entry["solution"][:3]:
        click_move(page, *cells_of(positions[-1], move), 4)
        positions.append(positions[-1].play(Move.parse(move)))
    page.click('[data-action="undo"]')
    assert board_tops(page) == python_tops(positions[2])
    reloaded(page)
    assert page.get_attribute("#board", "data-puzzle-id") == entry["id"]
    assert board_tops(page) == python_tops(positions[2])
    assert "2 moves" in page.text_content("#puzzle-stats")
    page.click('[data-action="restart"]')
    assert board_tops(page) == python_tops(start)
    reloaded(page)
    assert board_tops(page) == python_tops(start)


def test_progress_of_a_solved_puzzle_survives_a_reload(pages, browser_page):
    path, pack = pages["small"]
    entry = pack["puzzles"][3]
    page = fresh(browser_page, path, entry["id"])
    solve_by_clicks(page, entry)
    assert status(page) == "solved"
    other = pack["puzzles"][4]["id"]
    page.click(f'[data-select-puzzle="{other}"]')
    assert page.get_attribute("#board", "data-puzzle-id") == other
    reloaded(page)
    assert page.get_attribute("#board", "data-puzzle-id") == other
    assert page.text_content(f'[data-select-puzzle="{entry["id"]}"] .mark').strip() == "\u2713"
    page.click(f'[data-select-puzzle="{entry["id"]}"]')
    assert status(page) == "solved"


def test_two_tabs_of_a_pack_keep_each_others_progress(pages, browser_page, browser_context):
    """A tab stores only its own change: a second tab of the pack, opened before the first
    solved a puzzle, marks it solved at once and neither wipes that solve when it opens
    another puzzle nor when it plays."""
    path, pack = pages["small"]
    solved, other = pack["puzzles"][3], pack["puzzles"][4]
    page = fresh(browser_page, path, solved["id"])
    second = browser_context.new_page()
    second.goto(path.as_uri() + f"#{solved['id']}")
    page.bring_to_front()  # a tab out of view is slow to take clicks (its frames are throttled)
    solve_by_clicks(page, solved)
    assert status(page) == "solved"
    second.bring_to_front()
    second.wait_for_function("""(id) => document.querySelector(
        `[data-select-puzzle="${id}"] .mark`).textContent === '\u2713'""", arg=solved["id"])
    second.click(f'[data-select-puzzle="{other["id"]}"]')
    second.click('[data-action="solution"]')
    second.close()
    page.wait_for_function(f"(id) => ({STORED}.games || {{}})[id]", arg=other["id"])
    reloaded(page)
    assert status(page) == "solved"
    assert page.text_content(f'[data-select-puzzle="{solved["id"]}"] .mark').strip() == "\u2713"
    page.click(f'[data-select-puzzle="{other["id"]}"]')
    assert "1 move" in page.text_content("#puzzle-stats")


def test_a_window_keeps_its_progress_from_every_other(pages, browser_page, chromium):
    """Each test's window (``browser_context``) starts with empty storage and no other window
    sees what it stores: no test reads, nor stores back, progress an earlier one left."""
    path, pack = pages["small"]
    entry = pack["puzzles"][3]
    assert browser_page.context.pages == [browser_page]
    browser_page.goto(path.as_uri())
    assert saved(browser_page).get("games") == {}
    page = fresh(browser_page, path, entry["id"])
    page.click('[data-action="solution"]')
    assert list(saved(page)["games"]) == [entry["id"]]
    other = browser.window(chromium)
    try:
        tab = other.new_page()
        tab.goto(path.as_uri() + f"#{entry['id']}")
        assert saved(tab).get("games") == {}
        assert "0 moves" in tab.text_content("#puzzle-stats")
    finally:
        other.close()


def hinted_move(page) -> tuple[int, int]:
    def index(selector):
        found = page.locator(f"#board .cell.{selector}")
        assert found.count() == 1, selector
        return int(found.get_attribute("data-row")) * 4 + int(found.get_attribute("data-col"))
    return index("hint-from"), index("hint-to")


def winnable(decider: Decider, position: Position) -> bool:
    return decider.decide(tops(position))[0]


def test_hints_are_exact_on_and_off_the_stored_line(pages, browser_page):
    path, pack = pages["small"]
    entry = pack["puzzles"][5]
    deal = Deal.parse(entry["deal"], 3, 4)
    decider = Decider(deal)
    page = fresh(browser_page, path, entry["id"])
    position = Position.start(deal)
    # At the start (the stored line): the hint's move keeps one stack reachable.
    page.click('[data-action="hint"]')
    a, b = hinted_move(page)
    assert winnable(decider, position.play(Move(position.tops[a], position.tops[b])))
    # Off the stored line, still winnable: the page's own search answers.
    legal = list(position.legal_moves())
    off = next(m for m in legal if str(m) != entry["solution"][0]
               and winnable(decider, position.play(m)))
    click_move(page, position.cell_of(off.mover), position.cell_of(off.dest), 4)
    position = position.play(off)
    page.click('[data-action="hint"]')
    assert "Still solvable" in page.text_content("#message")
    a, b = hinted_move(page)
    assert winnable(decider, position.play(Move(position.tops[a], position.tops[b])))
    # After a losing move: the hint says so, and how many moves to undo.
    losing = next(m for m in position.legal_moves() if not winnable(decider, position.play(m)))
    click_move(page, position.cell_of(losing.mover), position.cell_of(losing.dest), 4)
    page.click('[data-action="hint"]')
    assert "undo 1 move" in page.text_content("#message")
    page.click('[data-action="undo"]')
    assert board_tops(page) == python_tops(position)


def test_solution_steps_rejoin_the_stored_line(pages, browser_page):
    path, pack = pages["small"]
    entry = pack["puzzles"][6]
    deal = Deal.parse(entry["deal"], 3, 4)
    page = fresh(browser_page, path, entry["id"])
    position = Position.start(deal)
    off = next(m for m in position.legal_moves() if str(m) != entry["solution"][0])
    click_move(page, position.cell_of(off.mover), position.cell_of(off.dest), 4)
    page.click('[data-action="solution"]')            # back to where the game left the line
    assert board_tops(page) == python_tops(position)
    for k, move in enumerate(entry["solution"], 1):
        page.click('[data-action="solution"]')
        position = position.play(Move.parse(move))
        assert board_tops(page) == python_tops(position)
        assert f"step {k} of {len(entry['solution'])}" in page.text_content("#message") \
            or status(page) == "solved"
    assert status(page) == "solved"


def test_stuck_and_the_unsolvable_goal(pages, browser_page):
    """``stuck``: more than one stack and no legal move; a deal without a single stack is
    ``solved`` at its maximum score (then no move is left either)."""
    path, pack = pages["mixed"]
    rng = random.Random(5)
    for entry in pack["puzzles"]:
        page = fresh(browser_page, path, entry["id"])
        deal = Deal.parse(entry["deal"], 3, 3)
        position = Position.start(deal)
        while list(position.legal_moves()):
            move = rng.choice(list(position.legal_moves()))
            click_move(page, position.cell_of(move.mover), position.cell_of(move.dest), 3)
            position = position.play(move)
        expected = "solved" if position.score() == entry["metrics"]["max_score"] else "stuck"
        assert status(page) == expected, entry["id"]
        assert board_tops(page) == python_tops(position)
        if expected == "stuck":
            assert position.stacks() > 1
        page.click('[data-action="restart"]')
        for move in entry["solution"]:
            page.click('[data-action="solution"]')
        assert status(page) == "solved"
    assert {e["level"] for e in pack["puzzles"]} >= {"unsolvable"}


def test_keyboard_alone_plays_a_move(pages, browser_page):
    path, pack = pages["small"]
    entry = pack["puzzles"][7]
    page = fresh(browser_page, path, entry["id"])
    position = Position.start(Deal.parse(entry["deal"], 3, 4))
    a, b = cells_of(position, entry["solution"][0])
    cell(page, 0, 4).focus()

    def walk(src: int, dst: int) -> None:
        for _ in range(abs(dst // 4 - src // 4)):
            page.keyboard.press("ArrowDown" if dst // 4 > src // 4 else "ArrowUp")
        for _ in range(abs(dst % 4 - src % 4)):
            page.keyboard.press("ArrowRight" if dst % 4 > src % 4 else "ArrowLeft")

    walk(0, a)
    page.keyboard.press("Enter")
    walk(a, b)
    page.keyboard.press("Enter")
    assert board_tops(page) == python_tops(position.play(Move.parse(entry["solution"][0])))
    page.keyboard.press("Tab")                        # the board's buttons are reachable too
    focused = page.evaluate("document.activeElement.tagName")
    assert focused == "BUTTON"


def test_phone_sized_screen_fits_without_sideways_scrolling(pages, browser_context):
    path, _ = pages["expert"]
    page = browser_context.new_page()
    try:
        page.set_viewport_size({"width": 375, "height": 667})
        page.goto(path.as_uri())
        width = page.evaluate("document.documentElement.scrollWidth")
        box = page.locator("#board").bounding_box()
        cell_box = cell(page, 0, 4).bounding_box()
        assert width <= 375 and box["x"] >= 0 and box["x"] + box["width"] <= 375
        assert cell_box["width"] >= 44 * 0.9      # about a finger's width per card
    finally:
        page.close()
