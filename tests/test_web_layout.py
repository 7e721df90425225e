"""Every game's page fits the window, from a phone to a desktop, in a real headless Chromium."""
from __future__ import annotations

from pathlib import Path

import pytest

import pages

ROOT = Path(__file__).resolve().parent.parent
PACKS = ["stacksquared-4x4-expert", "montana-8", "montana-13", "stackmgmt-8x4-k4",
         "agnes-up-suit-anyrun-nosplit"]


@pytest.mark.parametrize("name", PACKS)
def test_the_board_fits_the_window_at_every_width(name, tmp_path, browser_context):
    """No sideways scrolling and the whole board inside the window, beside the puzzle list or
    (on a phone) under it."""
    path = pages.built(ROOT / f"puzzles/{name}.json", tmp_path)
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
