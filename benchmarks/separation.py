"""Do a game's levels separate on the figure no level is built on?

For the packs given (one game), the puzzles are grouped by level; for each pair of adjacent
levels present, the probability that a puzzle of the easier level is easier on the game's
``check_figure`` (higher = easier; ties count half) is printed, with each level's median.

  python benchmarks/separation.py puzzles/agnes-*.json [--figure NAME]

``--figure`` checks another figure of the metrics (a dotted path; higher = easier).
"""
from __future__ import annotations

import argparse
import json
import statistics

from puzzlegen import packs
from puzzlegen.grading import LEVELS, figure
from solvers import game as games
from solvers.errors import BadInput


def easier_share(easy: list[float], hard: list[float]) -> float:
    """P(a value of ``easy`` beats one of ``hard``), ties counting half."""
    wins = sum((a > b) + 0.5 * (a == b) for a in easy for b in hard)
    return wins / (len(easy) * len(hard))


def separation(paths: list[str], name: str | None = None) -> dict:
    loaded = [packs.load(p) for p in paths]
    names = {pack["game"] for pack in loaded}
    if len(names) != 1:
        raise BadInput(f"give the packs of one game, not {sorted(names)}")
    game = games.get(names.pop())
    name = name or game.check_figure
    by_level: dict[str, list[float]] = {}
    for pack in loaded:
        for entry in pack["puzzles"]:
            try:
                value = figure(entry["metrics"], name)
            except (KeyError, TypeError):
                raise BadInput(f"no figure {name!r} in the metrics of a {game.name} puzzle") \
                    from None
            by_level.setdefault(entry["level"], []).append(float(value))
    levels = [name for name in LEVELS if name in by_level]
    return {"game": game.name, "figure": name,
            "levels": {name: {"puzzles": len(by_level[name]),
                              "median": statistics.median(by_level[name])} for name in levels},
            "easier_is_easier": {f"{a}<{b}": round(easier_share(by_level[a], by_level[b]), 3)
                                 for a, b in zip(levels, levels[1:])}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("packs", nargs="+", help="pack files of one game")
    ap.add_argument("--figure", help="a dotted path into the metrics (default: the game's "
                                     "check figure)")
    args = ap.parse_args()
    try:
        print(json.dumps(separation(args.packs, args.figure), indent=1))
    except (OSError, ValueError) as e:
        ap.exit(2, f"error: {e}\n")


if __name__ == "__main__":
    main()
