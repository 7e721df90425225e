"""Do a game's levels separate on the figure no level is built on?

For the packs given (one game), the puzzles are grouped by level; for each pair of adjacent
levels present, the probability that a puzzle of the easier level is easier on the game's
``check_figure`` (higher = easier; ties count half) is printed, with each level's median
(``puzzlegen.separation``; the tests hold every shipped pack to it).

  python benchmarks/separation.py puzzles/agnes-*.json [--figure NAME]

``--figure`` checks another figure of the metrics (a dotted path; higher = easier).
"""
from __future__ import annotations

import argparse
import json

from puzzlegen.separation import separation


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
