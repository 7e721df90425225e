"""Re-check the recorded Agnes win rates after the determinism fix (results in docs/agnes.md).

    nice -n 10 python examples/agnes_winrate_recheck.py --jobs 2

Before the fix a solve's state count, and so a ``limit`` at the state or depth cap, depended on
what its process had solved before.  A won or lost result was exact either way (the table is a
cache), so the recorded files can differ from a deterministic run only in state counts and in
which deals end ``limit``.  This script re-solves, with the recorded settings (seed 2024,
``--max-nodes 20000000``, then spelt ``--max-states``, the default table), every deal recorded
as ``limit`` (in the per-deal files or in the earlier re-solve list) and a sample of the
decided deals (every ``--every``-th
deal) of every variant, on the run engine, each as ``puzzlegen agnes winrate`` solves it
(``puzzlegen.winrate.play``).  It writes the new records to
examples/output/agnes_recheck_seed2024.jsonl and prints, per variant, how the results and
state counts compare (the recorded ``states`` are today's ``nodes``: the positions a search
examines), then the win-rate table with the re-solved deals in place.
"""
from __future__ import annotations

import argparse
import json
from functools import partial
from pathlib import Path

from agnes_winrate import GAME, normalised, summary  # this folder's script
from puzzlegen import runs, winrate
from puzzlegen.clitools import jobs_argument
from solvers.result import Limits

RESULTS = Path(__file__).resolve().parent / "output"
SEED, DEALS, MAX_NODES, TABLE_BITS = 2024, 10_000, 20_000_000, 21
VARIANTS = ["Up-Suit-None", "Up-Suit-None-NoSplit", "Down-Color-None", "Up-Color-None",
            "Up-Suit-HighRun", "Up-Suit-HighRun-NoSplit", "Up-Suit-AnyRun-NoSplit",
            "Up-Suit-AnyRun"]

def recorded(rules: str) -> dict[int, dict]:
    """The recorded per-deal records (their ``states`` read as ``nodes``), with the earlier
    re-solves of limit deals noted."""
    lines = {r["index"]: normalised(r) for r in runs.read_records(
        RESULTS / f"agnes_winrate_{rules}_seed{SEED}.jsonl")}
    for text in (RESULTS / f"agnes_winrate_limit_deals_resolved_seed{SEED}.txt").read_text() \
            .splitlines():
        name, index, result, nodes = text.split()
        if name == rules:
            lines[int(index)] = {**lines[int(index)], "resolved": {"result": result,
                                                                   "nodes": int(nodes)}}
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=20)
    parser.add_argument("--jobs", type=jobs_argument, default=1)
    parser.add_argument("--out", default=str(RESULTS / f"agnes_recheck_seed{SEED}.jsonl"))
    args = parser.parse_args()
    report, table, out = [], [], []
    for name in VARIANTS:
        old = recorded(name)
        limits = {k for k, r in old.items() if r["result"] == "limit"}
        sample = sorted(limits | set(range(0, DEALS, args.every)))
        keys = dict(game_name="agnes", rules_text=name, limits=Limits(nodes=MAX_NODES),
                    tuning={"table_bits": TABLE_BITS})
        first = GAME.format_deal(GAME.numbered_deal(SEED, 0, GAME.parse_rules(name)))
        new = {r["index"]: r for r in runs.run(
            partial(winrate.play, seed=SEED, **keys), sample, jobs=args.jobs,
            setup=partial(winrate.warm_up, first, **keys), desc=name)}
        out += [{"rules": name, **r, "recorded": old[k]} for k, r in new.items()]
        decided = [k for k in sample if k not in limits]
        changed = [k for k in decided if new[k]["result"] != old[k]["result"]]
        same_states = sum(new[k]["nodes"] == old[k]["nodes"] for k in decided)
        drift = [abs(new[k]["nodes"] - old[k]["nodes"]) / old[k]["nodes"] for k in decided]
        was_limit = {r: sum(new[k]["result"] == r for k in limits) for r in ("won", "lost",
                                                                             "limit")}
        resolved = [k for k in limits if "resolved" in old[k]]
        as_before = sum(new[k]["result"] == old[k]["resolved"]["result"] for k in resolved)
        report.append(f"| {name} | {len(decided)} | {len(changed)} | {same_states} | "
                      f"{100 * sum(drift) / len(drift):.2f}% | {100 * max(drift):.1f}% | "
                      f"{len(limits)} | {was_limit['won']} | {was_limit['lost']} | "
                      f"{was_limit['limit']} | {as_before} of {len(resolved)} |")
        if changed:
            report.append(f"|   changed: {', '.join(map(str, changed))} | | | | | | | | | | |")
        merged = [new.get(k, old[k]) if k in limits else old[k] for k in sorted(old)]
        s = summary(merged, name)
        w, band = s["win_rate"], s["limits_lost_won"]
        table.append(f"| {name} | {s['deals']:,} | {s['won']:,} | {s['lost']:,} | {s['limit']} | "
                     f"{100 * w['rate']:.2f}% [{100 * w['wilson95'][0]:.2f}%, "
                     f"{100 * w['wilson95'][1]:.2f}%] | "
                     + (f"{100 * band['rate'][0]:.2f}%..{100 * band['rate'][1]:.2f}% "
                        f"[{100 * band['wilson95'][0]:.2f}%, {100 * band['wilson95'][1]:.2f}%]"
                        if s["limit"] else "(no limit)") + " |")
    Path(args.out).write_text("".join(json.dumps(line) + "\n" for line in out))
    print("| rules | decided deals re-solved | result changed | same state count | mean state "
          "drift | max drift | limit deals re-solved | now won | now lost | still limit | "
          "as the earlier re-solve |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(report))
    print()
    print("| rules | deals | won | lost | limit | win rate of decided deals [Wilson 95%] "
          "| limits lost..won [Wilson 95%] |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(table))


if __name__ == "__main__":
    main()
