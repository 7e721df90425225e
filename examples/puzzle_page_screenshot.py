"""Take the screenshots of the puzzle pages in docs/ with headless Chromium.

    pip install ".[test]" && python examples/puzzle_page_screenshot.py

For each shipped pack of ``SHOTS`` builds its page, opens a puzzle, plays moves of its stored
solution, asks for a hint and saves the window as ``docs/<name>.png``.  Chromium:
/usr/bin/chromium, another on the path, or $PUZZLEGEN_CHROMIUM.
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from puzzlegen import packs, web
from puzzlegen.web import browser

ROOT = Path(__file__).resolve().parent.parent


#: docs/<name>.png <- (the pack, the puzzle shown, the solution's moves played first)
SHOTS = {"puzzle-page": ("stacksquared-4x4-expert", "4x4-expert-001", 3),
         "montana-page": ("montana-8", "8-master-001", 3),
         "stackmgmt-page": ("stackmgmt-8x4-k4", "8x4-k4-hard-002", 3),
         "agnes-page": ("agnes-up-suit-anyrun-nosplit", "Up-Suit-AnyRun-NoSplit-easy-002", 12)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.parse_args()
    try:
        with tempfile.TemporaryDirectory() as folder, browser.headless(980, 760) as context:
            shoot(context, Path(folder))
    except browser.Unavailable as exc:
        ap.exit(2, f"error: {exc}\n")


def shoot(context, folder: Path) -> None:
    """Every screenshot of ``SHOTS``, the pages built in ``folder``."""
    for name, (pack_name, puzzle, moves) in SHOTS.items():
        pack = packs.load(ROOT / f"puzzles/{pack_name}.json")
        page_file = folder / f"{name}.html"
        page_file.write_text(web.page(pack, packs.title(pack)))
        page = context.new_page()
        page.goto(f"{page_file.as_uri()}#{puzzle}")
        for _ in range(moves):
            page.click('[data-action="solution"]')
        page.click('[data-action="hint"]')
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(ROOT / f"docs/{name}.png"))
        page.close()


if __name__ == "__main__":
    main()
