"""The README's Montana win-rate tables are what the recorded per-deal files say.

The figures are copied by hand into the README (and docs/montana.md, benchmarks/montana.md);
here they are recomputed from the per-deal files in ``examples/output`` by the merge script
(``examples/montana_winrate.py``), as benchmarks/montana.md runs it, so a table that drifts from
its files fails.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = "examples/output/"
#: The movable-Twos run's files in merge order (later files win: re-solves follow their chunks).
MOVABLE = [f"montana-13-movable-twos-redeals2{part}.jsonl"
           for part in ("", "-resolved", "-seed450", "-forget", "-seed3001")]


def merge(files: list[str], rules: str) -> dict:
    proc = subprocess.run([sys.executable, "examples/montana_winrate.py",
                           *(RESULTS + f for f in files), "--rules", rules],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def readme_row(label: str) -> list[str]:
    """The cells after the first of the README table row that starts with ``label``."""
    rows = [line for line in (ROOT / "README.md").read_text().splitlines()
            if line.startswith(f"| {label} |")]
    assert len(rows) == 1, label
    return [cell.strip() for cell in rows[0].strip("|").split("|")[1:]]


def percent(x: float) -> str:
    return f"{100 * x:.2f}%"


def cells(summary: dict) -> list[str]:
    """deals, won, lost, limit, win rate (Wilson), band (Wilson), as the README writes them."""
    rate, band = summary["win_rate"], summary["limits_lost_won"]
    return [f"{summary[k]:,}" for k in ("deals", "won", "lost", "limit")] + [
        f"{percent(rate['rate'])} ({percent(rate['wilson95'][0])}..{percent(rate['wilson95'][1])})",
        f"{percent(band['rate'][0])}..{percent(band['rate'][1])} "
        f"(Wilson {percent(band['wilson95'][0])}..{percent(band['wilson95'][1])})"]


def test_the_movable_twos_table_is_the_merge_of_its_files():
    summary = merge(MOVABLE, "13-movable-twos-redeals2")
    assert summary["deals"] == 10_000 and summary["limit"] <= 50  # 10,000 deals, at most 0.5% `limit`
    single = readme_row("movable Twos, single deal (the published rule)")
    assert single[:6] == cells(summary["first_round"])
    assert readme_row("movable Twos, two reshuffles")[:6] == cells(summary)
    prose = re.sub(r"\s+", " ", (ROOT / "README.md").read_text())
    assert "**10,000 deals** (seeds 0..9,999)" in prose
    assert f"{summary['seconds']['total']:,.0f} s of solver time" in prose


def test_the_fixed_twos_table_is_its_merged_file():
    summary = merge(["montana-13-redeals2.jsonl"], "13-redeals2")
    assert (summary["deals"], summary["limit"]) == (10_000, 0)
    for label, figures in (("the seed's rules: two reshuffles", summary),
                           ("a single deal, no reshuffle", summary["first_round"])):
        rate = figures["win_rate"]
        assert readme_row(label) == [
            f"{figures['won']:,}", f"{percent(rate['rate'])} ({percent(rate['wilson95'][0])}.."
                                   f"{percent(rate['wilson95'][1])})"]
