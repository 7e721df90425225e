"""Seconds per single-deal round: the solver against a plain depth-first search, same deals.

    nice -n 10 python benchmarks/montana_speed.py --ranks 8 --deals 300 --plain-nodes 2000000

Solvers: ``table`` (transposition table, the default), ``table+prune`` (plus the stuck-card
bound), ``plain`` (no table, no pruning; a node limit keeps it bounded and its limit count is
reported).  Each deal is solved by every solver in turn, so machine load hits all alike.
"""
from __future__ import annotations

import argparse
import json
import platform
import statistics

from solvers.stats import percentile
from solvers.montana import DEFAULT_MAX_STATES, Rules, deal_from_seed, solve_round
from solvers.result import Limits, Status

SOLVERS = {"table": dict(), "table+prune": dict(prune=True), "plain": dict(table=False)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ranks", type=int, default=8)
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-states", type=int, default=DEFAULT_MAX_STATES)
    ap.add_argument("--plain-nodes", type=int, default=2_000_000,
                    help="node limit of the plain search")
    args = ap.parse_args()
    rules = Rules(args.ranks)
    solve_round(deal_from_seed(0, 3), rules=Rules(3))  # load the compiled kernel first
    times = {name: [] for name in SOLVERS}
    limits = {name: 0 for name in SOLVERS}
    disagree = 0
    for seed in range(args.seed, args.seed + args.deals):
        cells = deal_from_seed(seed, args.ranks)
        outcomes = {}
        for name, options in SOLVERS.items():
            cap = Limits(nodes=args.plain_nodes) if name == "plain" else Limits()
            r = solve_round(cells, cap, rules, args.max_states, **options)
            times[name].append(r.seconds)
            limits[name] += r.status is Status.LIMIT
            if r.status is not Status.LIMIT:
                outcomes[name] = (r.status, r.value)
        disagree += len(set(outcomes.values())) > 1
    report = {"machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
              "python": platform.python_version(), "ranks": args.ranks, "deals": args.deals,
              "seed": args.seed, "max_states": args.max_states, "plain_nodes": args.plain_nodes,
              "disagreements": disagree, "solvers": {}}
    base = statistics.median(times["plain"])
    for name in SOLVERS:
        med, p99 = statistics.median(times[name]), percentile(sorted(times[name]), 99)
        report["solvers"][name] = {"median_s": med, "p99_s": p99, "total_s": sum(times[name]),
                                   "limit": limits[name], "median_vs_plain": med / base}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
