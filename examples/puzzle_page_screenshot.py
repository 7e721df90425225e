"""Take the screenshot of the puzzle page in docs/ (docs/puzzle-page.png) with headless Chromium.

    pip install ".[test]" && python examples/puzzle_page_screenshot.py

Builds the page of puzzles/stacksquared-4x4-expert.json, plays three moves of the first puzzle's
stored solution, asks for a hint and saves the window.  Chromium: /usr/bin/chromium or
$PUZZLEGEN_CHROMIUM.
"""
from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from puzzlegen import packs, web

ROOT = Path(__file__).resolve().parent.parent
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    pack = packs.load(ROOT / "puzzles/stacksquared-4x4-expert.json")
    pack["puzzles"] = pack["puzzles"][:25]
    with tempfile.TemporaryDirectory() as folder:
        page_file = Path(folder) / "page.html"
        page_file.write_text(web.page(pack, "stacksquared-4x4-expert"))
        with sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(
                Path(folder) / "profile", headless=True, args=FLAGS,
                executable_path=os.environ.get("PUZZLEGEN_CHROMIUM", "/usr/bin/chromium"),
                viewport={"width": 980, "height": 760})
            page = context.new_page()
            page.goto(page_file.as_uri())
            for _ in range(3):
                page.click('[data-action="solution"]')
            page.click('[data-action="hint"]')
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(ROOT / "docs/puzzle-page.png"))
            context.close()


if __name__ == "__main__":
    main()
