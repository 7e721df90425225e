"""Every game's page fits the window, from a phone to a desktop, in a real headless Chromium."""
from __future__ import annotations

from pathlib import Path

import pytest

import pages
from puzzlegen import packs
from puzzlegen.grading import grade
from solvers import game as games

ROOT = Path(__file__).resolve().parent.parent
PACKS = ["stacksquared-4x4-expert", "montana-8", "stackmgmt-8x4-k4", "agnes-up-suit-anyrun-nosplit",
         "montana-13"]


def pack_file(name: str, folder: Path) -> Path:
    """The shipped pack ``name``; ``montana-13``, the widest board (13 columns), is one
    52-card deal graded here."""
    if name != "montana-13":
        return ROOT / f"puzzles/{name}.json"
    game = games.get("montana")
    rules = game.parse_rules("13")
    deal = game.deal_from_seed(8, rules)
    entry = packs.puzzle_entry(game, "wide", deal, rules, grade(game, deal, rules))
    path = folder / "montana-13.json"
    path.write_text(packs.dumps(packs.build(game, [entry], "curated", None, {"seeds": [8]})))
    return path


@pytest.mark.parametrize("name", PACKS)
def test_the_board_fits_the_window_at_every_width(name, tmp_path, browser_context):
    """No sideways scrolling and the whole board inside the window, beside the puzzle list or
    (on a phone) under it."""
    path = pages.built(pack_file(name, tmp_path), tmp_path)
    page = browser_context.new_page()
    try:
        for width in (375, 640, 700, 800, 1000, 1400):
            page.set_viewport_size({"width": width, "height": 700})
            page.goto(path.as_uri())
            box = page.locator("#board").bounding_box()
            assert page.evaluate("document.documentElement.scrollWidth") <= width, width
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, width
    finally:
        page.close()
