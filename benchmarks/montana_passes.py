"""Layouts and seconds of each hop-budget pass alone, on 52-card single deals with movable Twos.

    python benchmarks/montana_passes.py --seeds 3278,3238 --hop-budgets 0,1,2,3 --cap 30000000

Each budget's pass is searched on its own (a fresh table stamp, no layouts carried over, no
best carried over) up to ``--cap`` layouts, in the order given, until one wins.  One JSON line a
pass: ``seed``, ``budget``, ``result`` (won; exhausted, which is exact only if ``budget_hit`` is
false; or limit at the cap), ``locked`` (the most found), ``layouts``, ``budget_hit`` (a hop was
refused) and ``seconds``.  What a schedule of passes costs on these deals follows from the lines
(a pass capped at C costs its first C layouts; it wins only if it won within C).
"""
from __future__ import annotations

import argparse
import json
import sys

from puzzlegen.clitools import check_memory
from puzzlegen.commands.montana import parse_budgets
from solvers.errors import BadInput
from solvers.montana import api, kernel
from solvers.montana.rules import Rules, deal_from_seed

RESULTS = {kernel.WON: "won", kernel.EXHAUSTED: "exhausted", kernel.LIMIT: "limit"}


def passes(seed: int, ranks: int, budgets: list[int], cap: int):
    """One line per pass of ``budgets`` on deal ``seed`` (``api.search_pass``, as
    ``solve_round`` makes them), until a pass wins."""
    rules = Rules(ranks, movable_twos=True)
    board = api._encode(deal_from_seed(seed, ranks), ranks)
    for budget in budgets:
        (status, best, _, _, _, stored, hit, _), seconds = api.search_pass(board, rules, budget,
                                                                           cap, cap)
        yield {"seed": seed, "budget": budget, "result": RESULTS[int(status)],
               "locked": int(best), "layouts": int(stored), "budget_hit": bool(hit),
               "seconds": round(seconds, 2)}
        if status == kernel.WON:
            return


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", required=True, help="comma-separated seeds")
    ap.add_argument("--ranks", type=int, default=13)
    ap.add_argument("--hop-budgets", default="0,1,2,3",
                    help="the passes: comma-separated hop budgets, rising (as in montana solve)")
    ap.add_argument("--cap", type=int, default=30_000_000, help="layouts a pass may store")
    args = ap.parse_args()
    try:
        seeds = [int(x) for x in args.seeds.split(",")]
    except ValueError:
        print("error: --seeds takes comma-separated numbers", file=sys.stderr)
        raise SystemExit(2) from None
    try:
        budgets = api.Search(hop_budgets=parse_budgets(args.hop_budgets)).hop_budgets
        if not budgets:
            raise BadInput("--hop-budgets none leaves no pass to measure")
        Rules(args.ranks)
        if args.cap < 1:
            raise BadInput(f"--cap must be at least 1, got {args.cap}")
        check_memory(f"--cap {args.cap}", api.table_bytes(args.cap, args.ranks))
    except BadInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    api.solve_round(deal_from_seed(0, 3), rules=Rules(3, movable_twos=True))  # compile first
    for seed in seeds:
        for line in passes(seed, args.ranks, budgets, args.cap):
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
