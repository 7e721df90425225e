"""Agreement and speed against quagnes 1.1.0, deal by deal, in one process.

For each rule variant and deals 0..N-1 of a seed: our result and CPU time, quagnes's result and CPU
time (quagnes with a state limit so a run stays bounded).  Won/lost must agree wherever both
finish; the speed ratio is total quagnes CPU over total puzzlegen CPU on the deals both finished.

    nice -n 10 python benchmarks/agnes_vs_quagnes.py --rules Up-Suit-None,Down-Color-None \
        --deals 1000 --seed 2024 --quagnes-max-states 20000 --out agree.jsonl

``--whole-run`` also times, per variant, the whole in-process ``agnes winrate --jobs 1`` run on
the same deals (kernel loading, the losing-state table, dealing, every solve, the summary) in a
fresh process (its imports excluded), so that fixed costs per run count as they do for a user;
the summary line then gives ratios over every deal, capped quagnes searches included at the CPU
they took (``--sample-table`` prints them).
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

import quagnes

from solvers.agnes import Deal, parse_rules, solve
from solvers.agnes.rules import QUAGNES_SUIT_TO_OURS
from solvers.cards import Card
from solvers.result import Limits, Status

OURS = {Status.SOLVED: "won", Status.UNSOLVABLE: "lost", Status.LIMIT: "limit"}
# quagnes's spelling of our moves to empty piles, and its play() return codes (as the tests'
# tests/agnes_peer.py has them).
_EMPTY = {"None": "none", "Any1": "any 1", "AnyRun": "any run", "High1": "high 1",
          "HighRun": "high run"}
RESULT = {1: "won", 2: "lost", 3: "limit"}


def run_variant(name: str, start: int, deals: int, seed: int, q_max: int, our_max: int,
                out) -> dict:
    rules = parse_rules(name)
    kwargs = dict(move_to_empty_pile=_EMPTY[rules.empty], move_same_suit=rules.same_suit,
                  split_runs=rules.split, face_up=rules.face_up, max_states=q_max)
    random.seed(seed)
    tally = {"rules": rules.name, "deals": deals, "both": 0, "agree": 0, "disagree": [],
             "q_limit": 0, "our_limit": 0, "q_cpu": 0.0, "our_cpu": 0.0, "won": 0,
             "only_ours": 0, "only_quagnes": 0, "q_cpu_all": 0.0, "our_cpu_all": 0.0}
    for _ in range(start):
        quagnes.Agnes(**kwargs)
    for index in range(start, start + deals):
        game = quagnes.Agnes(**kwargs)
        deal = Deal(tuple(Card(c.rank + 1, QUAGNES_SUIT_TO_OURS[c.suit])
                          for c in game._initial_deck))
        t = time.process_time()
        ours = solve(deal, rules, Limits(nodes=our_max), with_moves=False)
        our_cpu = time.process_time() - t
        t = time.process_time()
        theirs = RESULT[game.play()]
        q_cpu = time.process_time() - t
        mine = OURS[ours.status]
        out.write(json.dumps({"rules": rules.name, "index": index, "ours": mine,
                              "states": ours.nodes, "our_cpu": round(our_cpu, 5),
                              "quagnes": theirs, "quagnes_states": game.n_states_checked,
                              "quagnes_cpu": round(q_cpu, 5)}) + "\n")
        tally["q_limit"] += theirs == "limit"
        tally["our_limit"] += mine == "limit"
        if "limit" not in (mine, theirs):
            tally["both"] += 1
            tally["won"] += mine == "won"
            tally["q_cpu"] += q_cpu
            tally["our_cpu"] += our_cpu
            if mine == theirs:
                tally["agree"] += 1
            else:
                tally["disagree"].append(index)
        tally["q_cpu_all"] += q_cpu
        tally["our_cpu_all"] += our_cpu
        tally["only_ours"] += theirs == "limit" != mine
        tally["only_quagnes"] += mine == "limit" != theirs
    tally["ratio"] = tally["q_cpu"] / tally["our_cpu"] if tally["our_cpu"] else None
    tally["ratio_all"] = tally["q_cpu_all"] / tally["our_cpu_all"]
    return tally


def whole_run_cpu(name: str, start: int, deals: int, seed: int, our_max: int) -> float:
    """CPU seconds of a whole in-process ``agnes winrate --jobs 1`` run, in a fresh process."""
    code = ("import sys, time; from puzzlegen.cli import cli; t = time.process_time(); "
            "cli.main(sys.argv[1:], standalone_mode=False); "
            "print(time.process_time() - t, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, "agnes", "winrate", "--rules", name,
                           "--deals", str(deals), "--start", str(start), "--seed", str(seed),
                           "--max-nodes", str(our_max), "--jobs", "1", "--json"],
                          check=True, capture_output=True, text=True)
    return float(done.stderr.split()[-1])


def sample_table(summary_path: str) -> str:
    """Markdown table of ``--whole-run`` summary lines: every deal counted."""
    out = ["| Rules | Deals | Both decided | Only we decide | Only quagnes decides "
           "| quagnes CPU s (all deals) | our solves CPU s | whole winrate run CPU s "
           "| ratio: solves | ratio: whole run | ratio: both decided |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for line in Path(summary_path).read_text().splitlines():
        t = json.loads(line)
        if "run_cpu" not in t:
            continue
        out.append(f"| {t['rules']} | {t['deals']} | {t['both']} | {t['only_ours']} "
                   f"| {t['only_quagnes']} | {t['q_cpu_all']:.1f} | {t['our_cpu_all']:.2f} "
                   f"| {t['run_cpu']:.2f} | {t['ratio_all']:.0f}x "
                   f"| {t['q_cpu_all'] / t['run_cpu']:.0f}x | {t['ratio']:.0f}x |")
    return "\n".join(out)


def table(per_deal_path: str) -> str:
    """Markdown table from the per-deal lines (the last line per variant and deal counts)."""
    rows: dict[tuple[str, int], dict] = {}
    for line in Path(per_deal_path).read_text().splitlines():
        row = json.loads(line)
        rows[row["rules"], row["index"]] = row
    out = ["| Rules | Deals | Both finished | Agree | Disagree | quagnes limit | our limit "
           "| quagnes CPU s | our CPU s | ratio |", "|---|---|---|---|---|---|---|---|---|---|"]
    for name in dict.fromkeys(rules for rules, _ in rows):
        mine = [r for (rules, _), r in rows.items() if rules == name]
        both = [r for r in mine if "limit" not in (r["ours"], r["quagnes"])]
        q_cpu = sum(r["quagnes_cpu"] for r in both)
        our_cpu = sum(r["our_cpu"] for r in both)
        agree = sum(r["ours"] == r["quagnes"] for r in both)
        out.append(f"| {name} | {len(mine)} | {len(both)} | {agree} | {len(both) - agree} "
                   f"| {sum(r['quagnes'] == 'limit' for r in mine)} "
                   f"| {sum(r['ours'] == 'limit' for r in mine)} | {q_cpu:.1f} | {our_cpu:.2f} "
                   f"| {q_cpu / our_cpu:.0f}x |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="", help="comma-separated rule names")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--start", type=int, default=0, help="first deal index")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--quagnes-max-states", type=int, default=20000)
    parser.add_argument("--max-nodes", type=int, default=50_000_000,
                        help="positions our search examines (agnes --max-nodes)")
    parser.add_argument("--out", default="agnes_vs_quagnes.jsonl")
    parser.add_argument("--whole-run", action="store_true",
                        help="also time the whole agnes winrate run of each variant")
    parser.add_argument("--table", metavar="JSONL", help="only print the table of a per-deal file")
    parser.add_argument("--sample-table", metavar="JSONL",
                        help="only print the table of --whole-run summary lines")
    args = parser.parse_args()
    if args.table:
        print(table(args.table))
        return
    if args.sample_table:
        print(sample_table(args.sample_table))
        return
    solve(Deal(tuple(Card.from_index(i) for i in range(52))), parse_rules("Up-Suit-None"))  # compile
    with open(args.out, "a", encoding="utf-8") as out:
        for name in args.rules.split(","):
            tally = run_variant(name, args.start, args.deals, args.seed,
                                args.quagnes_max_states, args.max_nodes, out)
            out.flush()
            if args.whole_run:
                tally["run_cpu"] = whole_run_cpu(name, args.start, args.deals, args.seed,
                                                 args.max_nodes)
            tally["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
            print(json.dumps(tally), flush=True)


if __name__ == "__main__":
    main()
