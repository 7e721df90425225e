"""How many of a player's choices along a puzzle's stored solution keep it winnable.

    python examples/choices.py puzzles/agnes-up-suit-anyrun-nosplit.json
    python examples/choices.py puzzles/montana-8.json

An exact measure no level is built on, for the packs of every game whose solver starts
mid-game (``Game.first_moves``: Agnes, and Montana within one round): at every position of the
stored solution with more than one legal move, the game's solve decides the position each legal
move leads to.  Per
puzzle: the choices, the mean share of moves that keep the deal winnable, the forced choices
(one winning move), and the log10 chance that moves picked at random at each of those positions
all keep it winnable; a move the solver could not decide within ``--max-nodes`` positions
examined (Agnes and Montana) or ``--max-states`` stored (Montana's table) counts as losing and
is counted in ``limit``.  Then each level's medians and, for adjacent levels, P(a
puzzle of the easier level is easier), ties counting half (as benchmarks/separation.py).
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
from typing import Iterator

from puzzlegen import packs
from puzzlegen.grading import LEVELS
from puzzlegen.separation import easier_share
from solvers import game as games
from solvers.errors import BadInput
from solvers.result import Limits, Status

#: figure -> whether a higher value is easier
FIGURES = {"mean_share": True, "forced": False, "line_log10": True}


def positions(game, deal, rules, solution: list[str], limits: Limits) -> Iterator[list[Status]]:
    """The verdicts of the legal moves at each position of the stored solution: the game's
    solve from the position each leads to (``Game.first_moves``)."""
    moves = [game.parse_move(text) for text in solution]
    game.start_after(deal, rules, moves)  # the whole line is one the solver starts within
    start = game.start_after(deal, rules, [])
    for move in moves:
        options = game.first_moves(deal, rules, start)
        yield [game.solve(deal, rules, limits, start=after).status for _, after in options]
        start = next(after for legal, after in options if legal == move)


def choices(game, entry: dict, limits: Limits) -> dict:
    """The figures of one pack entry (its stored solution replayed by the rule book)."""
    deal, rules = packs.read_entry(game, entry)
    winning, legal, undecided = [], [], 0
    for verdicts in positions(game, deal, rules, entry["solution"], limits):
        if len(verdicts) > 1:
            undecided += verdicts.count(Status.LIMIT)
            winning.append(verdicts.count(Status.SOLVED))
            legal.append(len(verdicts))
    shares = [w / n for w, n in zip(winning, legal)]
    return {"id": entry["id"], "level": entry["level"], "choices": len(shares),
            "mean_share": statistics.fmean(shares) if shares else 1.0,
            "forced": winning.count(1),
            "line_log10": sum(math.log10(s) for s in shares), "limit": undecided}


def report(path: str, limits: Limits) -> dict:
    pack = packs.load(path)
    game = games.get(pack["game"])
    if game.first_moves(*packs.read_entry(game, pack["puzzles"][0])) is None:
        raise BadInput(f"{path} is a {game.title} pack: its solver cannot start mid-game")
    rows = [choices(game, entry, limits) for entry in pack["puzzles"]]
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
    ap.add_argument("pack", help="a pack of a game whose solver starts mid-game (Agnes, Montana)")
    ap.add_argument("--max-nodes", type=int, default=2_000_000,
                    help="positions each exact solve examines (default 2,000,000)")
    ap.add_argument("--max-states", type=int, default=2_000_000,
                    help="positions each exact solve stores (Montana; default 2,000,000)")
    args = ap.parse_args()
    for name in ("max_nodes", "max_states"):
        if getattr(args, name) < 1:
            ap.exit(2, f"error: --{name.replace('_', '-')} must be 1 or more, not "
                       f"{getattr(args, name)}\n")
    try:
        print(json.dumps(report(args.pack, Limits(nodes=args.max_nodes,
                                                  states=args.max_states)), indent=1))
    except (BadInput, OSError) as exc:
        ap.exit(2, f"error: {exc}\n")


if __name__ == "__main__":
    main()
