"""What a forgetting table costs: moves and seconds of single-deal rounds with a table that
holds every layout against forgetting tables that hold a fraction of them, same deals, same run.

    nice -n 10 python benchmarks/montana_forget.py --ranks 13 --movable-twos \\
        --seeds 670,765,1315,1628,1896,1916 --max-states 40000000 --fractions 0.25,0.1

Each deal is first solved with ``--max-states`` (no forgetting; deals it leaves at ``limit`` are
skipped), then with ``--forget`` and a table of each fraction of the layouts that round stored
(at least 1,000), in turn, so machine load hits all alike.  The forgetting searches must give
the same status, locked cards and line of play (``disagreements``: should be 0) unless they end
at ``limit`` (the layouts that may recur filled the table).  Reports, per fraction, the ratio of
moves made and of seconds to the full table's, over the deals both decided.
"""
from __future__ import annotations

import argparse
import json
import statistics

from solvers.montana import Rules, deal_from_seed, solve_round
from solvers.result import Limits, Status


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ranks", type=int, default=13)
    ap.add_argument("--movable-twos", action="store_true")
    ap.add_argument("--seeds", required=True, help="comma-separated seeds")
    ap.add_argument("--max-states", type=int, default=40_000_000)
    ap.add_argument("--fractions", default="0.25,0.1")
    args = ap.parse_args()
    rules = Rules(args.ranks, movable_twos=args.movable_twos)
    fractions = [float(f) for f in args.fractions.split(",")]
    solve_round(deal_from_seed(0, 3), rules=Rules(3))  # load the compiled kernel first
    rows, disagree = [], 0
    for seed in map(int, args.seeds.split(",")):
        cells = deal_from_seed(seed, args.ranks)
        full = solve_round(cells, rules=rules, max_states=args.max_states)
        if full.status is Status.LIMIT:
            continue
        row = {"seed": seed, "result": full.status.value, "table": full.details["table"],
               "nodes": full.nodes, "seconds": round(full.seconds, 3), "forget": {}}
        for f in fractions:
            size = max(1000, int(full.details["table"] * f))
            r = solve_round(cells, Limits(), rules, size, forget=True)
            same = (r.status, r.value, r.moves) == (full.status, full.value, full.moves)
            disagree += r.status is not Status.LIMIT and not same
            row["forget"][str(f)] = {"table": size, "result": r.status.value, "nodes": r.nodes,
                                     "forgotten": r.details["forgotten"],
                                     "seconds": round(r.seconds, 3)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    summary = {"ranks": args.ranks, "movable_twos": args.movable_twos, "deals": len(rows),
               "disagreements": disagree, "fractions": {}}
    for f in map(str, fractions):
        both = [r for r in rows if r["forget"][f]["result"] != "limit"]
        summary["fractions"][f] = {
            "decided": len(both),
            "nodes_ratio_median": statistics.median(r["forget"][f]["nodes"] / r["nodes"]
                                                    for r in both) if both else None,
            "nodes_ratio_total": sum(r["forget"][f]["nodes"] for r in both)
            / max(1, sum(r["nodes"] for r in both)),
            "seconds_ratio_total": sum(r["forget"][f]["seconds"] for r in both)
            / max(1e-9, sum(r["seconds"] for r in both))}
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
