"""How many of a player's choices along an Agnes puzzle's stored solution keep it winnable.

    python benchmarks/agnes_choices.py puzzles/agnes-up-suit-anyrun-nosplit.json

An exact measure no level is built on: at every position of the stored solution with more than
one legal move, the solver decides each move's position (``api.move_verdicts``).  Per
puzzle: the choices, the mean share of moves that keep the deal winnable, the forced choices
(one winning move), and the log10 chance that moves picked at random at each of those positions
all keep it winnable; a move the solver could not decide within ``--max-states`` counts as
losing and is counted in ``limit``.  Then each level's medians and, for adjacent levels, P(a
puzzle of the easier level is easier), ties counting half (as benchmarks/separation.py).
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

from puzzlegen import packs
from puzzlegen.grading import LEVELS
from solvers.agnes import rules as R
from solvers.agnes.api import move_verdicts
from solvers.errors import BadInput
from solvers.result import Limits, Status

sys.path.insert(0, str(Path(__file__).resolve().parent))
from separation import easier_share  # noqa: E402

#: figure -> whether a higher value is easier
FIGURES = {"mean_share": True, "forced": False, "line_log10": True}


def choices(entry: dict, limits: Limits) -> dict:
    """The figures of one Agnes pack entry (its stored solution is replayed by the rule book)."""
    deal, rules = R.parse_deck(entry["deal"]), R.parse_rules(entry["rules"])
    board = R.Board.start(deal, rules)
    winning, legal_counts, undecided = [], [], 0
    for text in entry["solution"]:
        if len(board.legal_moves()) > 1:
            verdicts = [status for _, status in move_verdicts(board, limits)]
            undecided += verdicts.count(Status.LIMIT)
            winning.append(verdicts.count(Status.SOLVED))
            legal_counts.append(len(verdicts))
        board.apply(R.parse_move(text))
    shares = [w / n for w, n in zip(winning, legal_counts)]
    return {"id": entry["id"], "level": entry["level"], "choices": len(shares),
            "mean_share": round(statistics.fmean(shares), 4) if shares else 1.0,
            "forced": winning.count(1),
            "line_log10": round(sum(math.log10(s) for s in shares), 3), "limit": undecided}


def report(path: str, limits: Limits) -> dict:
    pack = packs.load(path)
    if pack["game"] != "agnes":
        raise BadInput(f"{path} is a {pack['game']} pack, not an Agnes one")
    rows = [choices(entry, limits) for entry in pack["puzzles"]]
    levels = [name for name in LEVELS if any(r["level"] == name for r in rows)]
    by_level = {name: [r for r in rows if r["level"] == name] for name in levels}
    figures = {}
    for name, higher_is_easier in FIGURES.items():
        sign = 1 if higher_is_easier else -1
        values = {lv: [sign * r[name] for r in by_level[lv]] for lv in levels}
        figures[name] = {
            "medians": {lv: statistics.median(r[name] for r in by_level[lv]) for lv in levels},
            "easier_is_easier": {f"{a}<{b}": round(easier_share(values[a], values[b]), 3)
                                 for a, b in zip(levels, levels[1:])}}
    return {"pack": path, "figures": figures, "puzzles": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pack", help="an Agnes pack file")
    ap.add_argument("--max-states", type=int, default=2_000_000,
                    help="cap of each exact solve (default 2,000,000)")
    args = ap.parse_args()
    if args.max_states < 1:
        ap.exit(2, f"error: --max-states must be 1 or more, not {args.max_states}\n")
    try:
        print(json.dumps(report(args.pack, Limits(nodes=args.max_states)), indent=1))
    except (BadInput, OSError) as exc:
        ap.exit(2, f"error: {exc}\n")


if __name__ == "__main__":
    main()
