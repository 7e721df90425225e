"""The seed README's 10,000-deal win-rate table, recomputed, beside quagnes's published figures.

Runs ``puzzlegen agnes winrate`` for each variant (per-deal lines in examples/output/), then
prints a Markdown table from every per-deal file present, so a run split over several sessions
(``--only``) still gives one table.

    nice -n 10 python examples/agnes_winrate.py --deals 10000 --seed 2024 --jobs 2
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from puzzlegen.clitools import jobs_argument
from puzzlegen.runs import read_records
from solvers import game as games, stats

GAME = games.get("agnes")

RESULTS = Path(__file__).resolve().parent / "output"
# quagnes README (10,000 deals each): wins, completed deals, mean and max states (quagnes counts).
PUBLISHED = {
    "Down-Color-None": ("99 (1.0% [0.8%, 1.2%])", "10,000", "89.0 (156.1)", "63.7"),
    "Up-Color-None": ("113 (1.1% [0.9%, 1.4%], 1.2% [1.0%, 1.4%])", "9,996", "72.6 (112.8)",
                      "46.3"),
    "Up-Suit-None": ("42 (0.4% [0.3%, 0.6%])", "10,000", "10.2 (163.9)", "8.5"),
    "Up-Suit-None-NoSplit": ("40 (0.4% [0.3%, 0.5%])", "10,000", "5.9 (94.1)", "6.1"),
    "Up-Suit-HighRun": ("1454 (14.5% [13.9%, 15.2%])", "10,000", "207.3 (999.3)", "31.9"),
    "Up-Suit-HighRun-NoSplit": ("1411 (14.1% [13.4%, 14.8%])", "10,000", "112.9 (500.9)", "22.6"),
    "Up-Suit-AnyRun-NoSplit": ("6384 (63.8% [62.9%, 64.8%])", "10,000", "59.2 (340.2)", "16.1"),
    "Up-Suit-AnyRun": ("not published (memory)", "-", "-", "-"),
}


def per_deal_file(rules: str, seed: int) -> Path:
    return RESULTS / f"agnes_winrate_{rules}_seed{seed}.jsonl"


def normalised(record: dict) -> dict:
    """A per-deal record in today's shape: an earlier run's ``states`` (the positions it
    examined) is its ``nodes``."""
    if "nodes" in record or "states" not in record:
        return record
    return {"nodes" if k == "states" else k: v for k, v in record.items()}


def summary(records: list[dict], rules: str) -> dict:
    """The figures of a variant's table row: the win figures every game shares and the game's
    own (``nodes_decided``: positions examined per decided deal) of the per-deal records, today's
    or an earlier run's (which have no seconds)."""
    records = [normalised(r) for r in records]
    return {**stats.tally(records), **GAME.summary(records, GAME.parse_rules(rules))}


def run(rules: str, args) -> None:
    """One variant's run; its error line (puzzlegen's own) ends this script with its status."""
    cmd = [sys.executable, "-c", "from puzzlegen.cli import main; main()", "agnes", "winrate",
           "--rules", rules, "--deals", str(args.deals), "--seed", str(args.seed),
           "--jobs", str(args.jobs), "--max-nodes", str(args.max_nodes),
           "--per-deal", str(per_deal_file(rules, args.seed)), "--resume", "--json"]
    status = subprocess.run(cmd).returncode
    if status:
        raise SystemExit(status)


def table(seed: int) -> str:
    rows = ["| Rules | Deals | Won | Lost | Limit | Win rate of decided deals [Wilson 95%] "
            "| Limits lost..won [Wilson 95%] | Mean (SD) states (10^3) | Max states (10^6) "
            "| quagnes published: wins | completed | mean (SD) 10^3 | max 10^6 |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for rules, published in PUBLISHED.items():
        path = per_deal_file(rules, seed)
        if not path.exists():
            continue
        s = summary(list(read_records(path)), rules)
        w, band, nodes = s["win_rate"], s["limits_lost_won"], s["nodes_decided"]
        rate = (f"{100 * w['rate']:.2f}% [{100 * w['wilson95'][0]:.2f}%, "
                f"{100 * w['wilson95'][1]:.2f}%]")
        lost_won = (f"{100 * band['rate'][0]:.2f}%..{100 * band['rate'][1]:.2f}% "
                    f"[{100 * band['wilson95'][0]:.2f}%, {100 * band['wilson95'][1]:.2f}%]"
                    if s["limit"] else "(no limit)")
        rows.append(f"| {rules} | {s['deals']:,} | {s['won']:,} | {s['lost']:,} | {s['limit']} "
                    f"| {rate} | {lost_won} | {nodes['mean'] / 1e3:.1f} "
                    f"({nodes['sd'] / 1e3:.1f}) | {nodes['max'] / 1e6:.2f} | "
                    + " | ".join(published) + " |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=jobs_argument, default=1)
    parser.add_argument("--max-nodes", type=int, default=20_000_000,
                        help="positions a deal's search examines (agnes winrate --max-nodes)")
    parser.add_argument("--only", default=",".join(PUBLISHED), help="comma-separated variants")
    parser.add_argument("--table-only", action="store_true", help="just print the table")
    args = parser.parse_args()
    unknown = [rules for rules in args.only.split(",") if rules not in PUBLISHED]
    if unknown:
        parser.exit(2, f"error: --only {unknown[0]}: not one of {', '.join(PUBLISHED)}\n")
    RESULTS.mkdir(exist_ok=True)
    if not args.table_only:
        for rules in args.only.split(","):
            run(rules, args)
    print(table(args.seed))


if __name__ == "__main__":
    main()
