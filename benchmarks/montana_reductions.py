"""Layouts per decided round of the movable-Twos rule, before and after each reduction.

    nice -n 10 python benchmarks/montana_reductions.py --ranks 8 --deals 300 --max-states 2000000
    nice -n 10 python benchmarks/montana_reductions.py --ranks 13 --deals 40 \\
        --max-states 10000000 --out benchmarks/results/montana-13-reductions.jsonl

Each deal's single round (no reshuffle) is solved by every search in turn (so machine load hits all
alike): ``plain`` (no reduction), each reduction alone (``columns``; ``bound``: the stuck-card bound
at phase-two layouts; ``reach``: the reach bound at every layout; ``safe``; ``passes``), ``before``
(the default before the reach bound and safe moves), ``pass2`` (the default with one win-first
pass of hop budget 2 instead of four of budgets 0..3) and ``all`` (the default).
``--forget`` with ``--max-nodes`` searches as the 52-card runs do (a forgetting table: a round
ends at ``limit`` only at the node cap). ``--seeds`` takes a
list of seeds instead of ``--seed``/``--deals``. Layouts are compared on the deals every search
decided; every two searches that decide a deal must agree on won/lost and the most locked cards
(``disagreements``: should be 0). ``limit_share`` gives, for each table size up to ``--max-states``,
the share of deals that would end at ``limit`` with it: the search order does not depend on the
table size, so a round decided with L layouts in the table is decided by any table of L or more (the
hop-budget passes end at their own cap, whatever the table).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys

from puzzlegen.fileio import write_atomic
from solvers.montana import Rules, Search, api, deal_from_seed, solve_round
from solvers.result import Limits, Status

SEARCHES = {**api.SEARCHES, "before": Search(reach=False, safe=False),
            "pass2": Search(hop_budgets=(2,))}  # one pass of budget 2: measured, not adopted
TABLES = (1_000_000, 2_000_000, 5_000_000, 10_000_000, 20_000_000, 40_000_000, 89_000_000)


def needs_table(row: dict) -> float:
    """The table a round needs to be decided (infinite if it was not)."""
    if row["result"] == "limit":
        return float("inf")
    return 0 if row["pass"] is not None else row["table"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ranks", type=int, default=13)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seeds", help="comma-separated seeds (instead of --seed and --deals)")
    ap.add_argument("--max-states", type=int, default=10_000_000)
    ap.add_argument("--searches", default=",".join(SEARCHES),
                    help="comma-separated names among " + ", ".join(SEARCHES))
    ap.add_argument("--forget", action="store_true",
                    help="a forgetting table (puzzlegen montana --forget): rounds end only at "
                         "--max-nodes")
    ap.add_argument("--max-nodes", type=int, default=None, help="moves a round may make")
    ap.add_argument("--out", help="write one JSON line per deal and search here")
    args = ap.parse_args()
    if args.max_nodes is not None and args.max_nodes < 1:
        print(f"error: --max-nodes must be at least 1, got {args.max_nodes}", file=sys.stderr)
        raise SystemExit(2)
    names = args.searches.split(",")
    rules = Rules(args.ranks, movable_twos=True)
    solve_round(deal_from_seed(0, 3), rules=Rules(3))  # load the compiled kernel first
    rows = []
    seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else \
        list(range(args.seed, args.seed + args.deals))
    for seed in seeds:
        cells = deal_from_seed(seed, args.ranks)
        for name in names:
            r = solve_round(cells, Limits(nodes=args.max_nodes), rules, args.max_states,
                            search=SEARCHES[name], forget=args.forget)
            rows.append({"seed": seed, "search": name,
                         "result": {Status.SOLVED: "won", Status.UNSOLVABLE: "lost",
                                    Status.LIMIT: "limit"}[r.status],
                         "locked": r.value, "states": r.details["states"],
                         "table": r.details["table"], "pass": r.details["pass"],
                         "seconds": round(r.seconds, 4)})
    if args.out:
        write_atomic(args.out, "".join(json.dumps(r) + "\n" for r in rows))
    by = {name: {r["seed"]: r for r in rows if r["search"] == name} for name in names}
    common = [s for s in seeds if all(by[name][s]["result"] != "limit" for name in names)]
    disagreements = sum(
        len({(by[name][s]["result"], by[name][s]["locked"]) for name in names
             if by[name][s]["result"] != "limit"}) > 1 for s in seeds)
    tables = [t for t in TABLES if t <= args.max_states]
    report = {"ranks": args.ranks, "deals": len(seeds), "seeds": f"{seeds[0]}..{seeds[-1]}",
              "max_states": args.max_states, "decided_by_all": len(common),
              "disagreements": disagreements, "searches": {}}
    base = by[names[0]]
    for name in names:
        mine = by[name]
        layouts = [mine[s]["states"] for s in common]
        report["searches"][name] = {
            "won": sum(r["result"] == "won" for r in mine.values()),
            "lost": sum(r["result"] == "lost" for r in mine.values()),
            "limit": sum(r["result"] == "limit" for r in mine.values()),
            "seconds": round(sum(r["seconds"] for r in mine.values()), 2),
            "layouts_common_total": sum(layouts),
            "layouts_common_median": statistics.median(layouts) if layouts else None,
            "vs_first_total": (sum(layouts) / sum(base[s]["states"] for s in common)
                               if common else None),
            "vs_first_median_ratio": (statistics.median(mine[s]["states"] / base[s]["states"]
                                                        for s in common) if common else None),
            "limit_share": {t: sum(needs_table(r) > t for r in mine.values()) / len(seeds)
                            for t in tables}}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
