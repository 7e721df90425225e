"""How long a hint takes in a pack's puzzle page, in headless Chromium.

    pip install ".[test]" && python benchmarks/page_hints.py puzzles/montana-8.json

Builds the pack's page (``pack html``) and, for every puzzle, times the page's own hint at the
start and after each legal first move that leaves the stored solution (where the hint has to
search); prints one line a puzzle (the slowest hint, its verdict) and a summary as JSON.
Chromium: /usr/bin/chromium, another on the path, or $PUZZLEGEN_CHROMIUM.
"""
from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path

from puzzlegen import packs, web
from puzzlegen.web import browser
from solvers.errors import BadInput

TIMES = browser.hints_off_the_line(
    '(() => { const t = performance.now(), answer = g.hint(history, puzzle); '
    'return {ms: performance.now() - t, verdict: answer.verdict || "none"}; })()')


def timed(path: str) -> dict:
    pack = packs.load(path)
    with tempfile.TemporaryDirectory() as folder, browser.headless() as context:
        page_file = Path(folder) / "page.html"
        page_file.write_text(web.page(pack, Path(path).stem))
        page = context.new_page()
        page.goto(page_file.as_uri())
        hints = page.evaluate(TIMES)
    rows = []
    for entry, times in zip(pack["puzzles"], hints):
        slowest = max(times, key=lambda t: t["ms"])
        rows.append({"id": entry["id"], "hints": len(times), "slowest_ms": round(slowest["ms"], 1),
                     "slowest_verdict": slowest["verdict"]})
    every = [t["ms"] for times in hints for t in times]
    verdicts = [t["verdict"] for times in hints for t in times]
    return {"pack": path, "hints": len(every), "median_ms": round(statistics.median(every), 1),
            "max_ms": round(max(every), 1),
            "verdicts": {v: verdicts.count(v) for v in sorted(set(verdicts))}, "puzzles": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pack", help="a pack file the puzzle page plays")
    args = ap.parse_args()
    try:
        print(json.dumps(timed(args.pack), indent=1))
    except (BadInput, OSError, browser.Unavailable) as exc:
        ap.exit(2, f"error: {exc}\n")


if __name__ == "__main__":
    main()
