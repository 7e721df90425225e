"""Merge chunked ``montana winrate --per-deal`` files; re-solve ``limit`` deals with a bigger table.

    for s in 0 1000 ... 9000; do nice -n 10 puzzlegen montana winrate --ranks 13 --redeals 2 \\
        --deals 1000 --seed $s --jobs 2 --max-states 40000000 \\
        --per-deal examples/output/montana-13-redeals2-seed$s.jsonl --json; done
    nice -n 10 python examples/montana_winrate.py \\
        examples/output/montana-13-redeals2-seed*.jsonl --ranks 13 --redeals 2 \\
        --resolve-max-states 170000000 --check 2 --out examples/output/montana-13-redeals2.jsonl

The search visits layouts in an order that does not depend on the table's size (a larger table
only lets it go on further), so a deal re-solved with ``--resolve-max-states`` gets exactly what
a whole run with that ``--max-states`` would get.  ``--resolved FILE`` keeps the re-solved
deals as they finish, so a long re-solve continues where it stopped.  ``--check K`` re-solves
the K decided deals that needed the most layouts and stops with an error unless their per-deal
lines come out the same (seconds aside).  ``--forget`` re-solves with a table that forgets
layouts that cannot recur instead of stopping when full: a deal then gets what an unbounded
table would give, unless it reaches ``--resolve-max-nodes`` moves.  Later files win for a
seed given twice, so a file of re-solved deals can follow the chunks; but a file whose run had
other rules than the command's, or two files that decide a seed's first deal differently (an
exact answer, whatever the search settings), stop the merge with an error.  Prints the
``winrate --json`` summary of the merged deals (seed rules and, in ``first_round``, the first
deal alone).
"""
from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from typing import NoReturn

from puzzlegen import runs
from puzzlegen.clitools import jobs_argument
from puzzlegen.commands.montana import parse_budgets, play, summarize
from puzzlegen.fileio import write_atomic
from solvers.montana import FORGET_MAX_NODES, Rules, Search
from solvers.result import Limits


def _outcome(row: dict, forget: bool) -> dict:
    """A per-deal line without its seconds (and, with a forgetting table, which stores a layout
    again when it meets it again, without its layout counts)."""
    if not forget:
        return {**row, "seconds": 0}
    return {**row, "seconds": 0, "states": 0, "first": {**row["first"], "states": 0}}


def fail(message: str) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


def first_deal(row: dict) -> tuple | None:
    """A per-deal line's exact answer for the first deal, None if it ended at ``limit``."""
    first = row["first"]
    return None if first["result"] == "limit" else (first["result"], first["locked"])


def merged(files: list[str], rules: dict) -> dict[int, dict]:
    """The per-deal lines of ``files`` by seed, later files winning; every file's run must have
    ``rules`` (files without a run header are taken as they are)."""
    rows: dict[int, dict] = {}
    for name in files:
        try:
            with open(name, encoding="utf-8") as fh:
                header = json.loads(fh.readline() or "{}").get("run", {})
            records = list(runs.read_records(name))
        except (OSError, ValueError, AttributeError) as exc:
            fail(f"cannot read {name}: {exc}")
        if not all(isinstance(r, dict) and {"seed", "result", "first"} <= set(r) for r in records):
            fail(f"{name} is not a per-deal file of montana winrate")
        other = [f"{k} {json.dumps(header[k])}, not {json.dumps(rules[k])}"
                 for k in rules if k in header and header[k] != rules[k]]
        if other:
            fail(f"{name} was run with other rules: {'; '.join(other)}")
        for row in records:
            old = rows.get(row["seed"])
            if old and None not in (first_deal(old), first_deal(row)) \
                    and first_deal(old) != first_deal(row):
                fail(f"seed {row['seed']}: {name} says {first_deal(row)}, an earlier file "
                     f"{first_deal(old)}")
            rows[row["seed"]] = row
    if not rows:
        fail("the files hold no deals")
    return dict(sorted(rows.items()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--ranks", type=int, default=13)
    ap.add_argument("--redeals", type=int, default=2)
    ap.add_argument("--movable-twos", action="store_true")
    ap.add_argument("--hop-budgets", type=parse_budgets, default=Search.hop_budgets,
                    help="comma-separated, or none")
    ap.add_argument("--pass-states", type=int, default=Search.pass_states)
    ap.add_argument("--no-columns", action="store_true")
    ap.add_argument("--no-bound", action="store_true")
    ap.add_argument("--no-reach", action="store_true")
    ap.add_argument("--no-safe", action="store_true")
    ap.add_argument("--resolve-max-states", type=int, default=0,
                    help="re-solve the limit deals with this table size (0: do not)")
    ap.add_argument("--forget", action="store_true",
                    help="re-solve with a forgetting table (see puzzlegen montana --forget): "
                         "the answer of an unbounded table, within --resolve-max-nodes")
    ap.add_argument("--resolve-max-nodes", type=int, default=None,
                    help="moves a re-solved deal may make (default none; with --forget "
                         f"{FORGET_MAX_NODES:,}, as puzzlegen montana)")
    ap.add_argument("--check", type=int, default=0,
                    help="re-solve this many decided deals (the biggest) and require the same "
                         "lines")
    ap.add_argument("--resolved", help="keep the re-solved deals in this per-deal file as they "
                                        "finish, and continue from it (resumable)")
    ap.add_argument("--jobs", type=jobs_argument, default=1)
    ap.add_argument("--out", help="write the merged per-deal lines here")
    args = ap.parse_args()
    if args.resolve_max_nodes is not None and args.resolve_max_nodes < 1:
        fail(f"--resolve-max-nodes must be at least 1, got {args.resolve_max_nodes}")
    if args.forget and args.resolve_max_nodes is None:
        args.resolve_max_nodes = FORGET_MAX_NODES
    rows = merged(args.files, {"ranks": args.ranks, "redeals": args.redeals,
                               "movable_twos": args.movable_twos, "gaps": "after-locked"})
    rules = Rules(args.ranks, movable_twos=args.movable_twos)
    search = Search(columns=not args.no_columns, bound=not args.no_bound,
                    reach=not args.no_reach, safe=not args.no_safe,
                    hop_budgets=args.hop_budgets, pass_states=args.pass_states)
    resolved = checked = 0
    if args.resolve_max_states:
        seeds = [s for s, r in rows.items() if r["result"] == "limit"]
        decided = [s for s, r in rows.items() if r["result"] != "limit"]
        seeds += sorted(decided, key=lambda s: -rows[s]["states"])[:args.check]
        fn = partial(play, rules=rules, redeals=args.redeals,
                     limits=Limits(nodes=args.resolve_max_nodes),
                     max_states=args.resolve_max_states, prune=False, search=search,
                     forget=args.forget)
        store = {} if not args.resolved else dict(
            key="seed", per_deal=args.resolved, resume=True,
            fingerprint={"command": "montana_winrate.py re-solve", "ranks": args.ranks,
                         "redeals": args.redeals, "movable_twos": args.movable_twos,
                         "max_states": args.resolve_max_states, "search": vars(search),
                         **({"forget": True, "max_nodes": args.resolve_max_nodes}
                            if args.forget else {})})
        for new in runs.run(fn, seeds, jobs=args.jobs, **store):
            old = rows[new["seed"]]
            if old["result"] == "limit":
                rows[new["seed"]] = new
                resolved += 1
                continue
            if _outcome(old, args.forget) != _outcome(new, args.forget):
                raise SystemExit(f"error: seed {new['seed']} differs with the bigger table")
            checked += 1
    if args.out:
        write_atomic(args.out, "".join(json.dumps(r) + "\n" for r in rows.values()))
    summary = summarize(list(rows.values()), {
        "ranks": args.ranks, "redeals": args.redeals, "movable_twos": args.movable_twos,
        "seeds": [min(rows), max(rows)], "limit_deals_resolved_with": args.resolve_max_states,
        "resolved": resolved, "checked_same": checked})
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
