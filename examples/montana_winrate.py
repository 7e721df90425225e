"""Merge chunked ``montana winrate --per-deal`` files; re-solve ``limit`` deals with a bigger table.

    for s in 0 1000 ... 9000; do nice -n 10 puzzlegen montana winrate --rules 13-redeals2 \\
        --deals 1000 --seed $s --jobs 2 --max-states 40000000 --no-forget \\
        --per-deal examples/output/montana-13-redeals2-seed$s.jsonl --json; done
    nice -n 10 python examples/montana_winrate.py \\
        examples/output/montana-13-redeals2-seed*.jsonl --rules 13-redeals2 \\
        --resolve-max-states 170000000 --check 2 --out examples/output/montana-13-redeals2.jsonl

The search visits layouts in an order that does not depend on the table's size (a larger table
only lets it go on further), so a deal re-solved with ``--resolve-max-states`` gets exactly what
a whole run with that ``--max-states`` would get.  ``--resolved FILE`` keeps the re-solved
deals as they finish, so a long re-solve continues where it stopped.  ``--check K`` re-solves
the K decided deals that needed the most layouts and stops with an error unless their per-deal
records come out the same (seconds aside).  ``--forget`` re-solves with a table that forgets
layouts that cannot recur instead of stopping when full: a deal then gets what an unbounded
table would give, unless it reaches ``--resolve-max-nodes`` moves.  A re-solved deal is played
as ``puzzlegen montana winrate`` plays it (``puzzlegen.winrate.play``: a numbered deal draws its
reshuffles from its own number).

Later files win for a seed given twice, so a file of re-solved deals can follow the chunks; but
a file whose run had other rules than ``--rules``, or two files that decide a seed's first deal
differently (an exact answer, whatever the search settings), stop the merge with an error.
Files of the earlier ``montana winrate --ranks N --redeals R ...`` are read too: their headers'
rules are translated to ``--rules`` names and their records (``locked``, no ``nodes``) to
today's (``value``).  Prints the ``winrate --json`` summary of the merged deals (the rules'
figures and, in ``first_round``, the first deal alone).
"""
from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from typing import NoReturn

from puzzlegen import runs, winrate
from puzzlegen.clitools import check_memory, jobs_argument
from puzzlegen.fileio import write_atomic
from solvers import game as games
from solvers.errors import BadInput
from solvers.montana import FORGET_MAX_NODES
from solvers.montana.game import Variant
from solvers.montana.rules import Rules
from solvers.result import Limits

GAME = games.get("montana")
#: The tuning a re-solve takes from the command line (the reshuffles are the deal's own).
RESOLVE_TUNING = [t for t in GAME.tuning if t.name != "redeal_seed"]
#: The run seed of the re-solves: a Montana run's deal ``n`` is the deal of seed ``n``.
RUN_SEED = 0


def fail(message: str) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


def normalised(row: dict) -> dict:
    """A per-deal record in today's shape: an earlier run's ``locked`` is its ``value`` (such a
    record has no ``nodes``)."""
    if "value" in row or "locked" not in row:
        return row
    return {"value" if k == "locked" else k: v for k, v in row.items()}


def _outcome(row: dict, forget: bool) -> dict:
    """A per-deal record without its seconds and ``nodes`` where only one record has them (and,
    with a forgetting table, which stores a layout again when it meets it again, without its
    layout and move counts)."""
    out = {k: v for k, v in row.items() if k not in ("seconds", "nodes")}
    if forget:
        out = {**out, "states": 0, "first": {**out["first"], "states": 0}}
    return out


def same_outcome(old: dict, new: dict, forget: bool) -> bool:
    if _outcome(old, forget) != _outcome(new, forget):
        return False
    return forget or "nodes" not in old or "nodes" not in new or old["nodes"] == new["nodes"]


def first_deal(row: dict) -> tuple | None:
    """A per-deal record's exact answer for the first deal, None if it ended at ``limit``."""
    first = row["first"]
    return None if first["result"] == "limit" else (first["result"], first["locked"])


def header_rules(header: dict, rules: Variant) -> str | None:
    """The rules a per-deal file's run had, named as ``--rules`` names them: today's ``rules``,
    or an earlier run's ``ranks``, ``redeals``, ``gaps`` and ``movable_twos`` (a setting the
    header does not name is taken as the command's); None when the header names none."""
    if "rules" in header:
        try:
            return GAME.format_rules(GAME.parse_rules(str(header["rules"])))
        except BadInput:
            return str(header["rules"])
    old = {"ranks", "redeals", "gaps", "movable_twos"} & set(header)
    if not old:
        return None
    try:
        gaps = header.get("gaps", "random" if rules.rules.random_gaps else "after-locked")
        theirs = Variant(Rules(int(header.get("ranks", rules.ranks)),
                               movable_twos=bool(header.get("movable_twos",
                                                            rules.rules.movable_twos)),
                               random_gaps=gaps == "random"),
                         int(header.get("redeals", rules.redeals)))
        return GAME.format_rules(theirs)
    except (BadInput, TypeError, ValueError) as exc:
        return f"unreadable rules ({exc})"


def merged(files: list[str], rules: Variant) -> dict[int, dict]:
    """The per-deal records of ``files`` by seed, later files winning; every file's run must
    have ``rules`` (files without a run header are taken as they are)."""
    ours = GAME.format_rules(rules)
    key = GAME.deal_key
    rows: dict[int, dict] = {}
    for name in files:
        try:
            with open(name, encoding="utf-8") as fh:
                header = json.loads(fh.readline() or "{}").get("run", {})
            records = [normalised(r) for r in runs.read_records(name)]
        except (OSError, ValueError, AttributeError, TypeError) as exc:
            fail(f"cannot read {name}: {exc}")
        if not all(isinstance(r, dict) and {key, "result", "value", "first"} <= set(r)
                   and isinstance(r["first"], dict) for r in records):
            fail(f"{name} is not a per-deal file of montana winrate")
        theirs = header_rules(header, rules) if isinstance(header, dict) else None
        if theirs is not None and theirs != ours:
            fail(f"{name} was run with other rules: {theirs}, not {ours}")
        for row in records:
            old = rows.get(row[key])
            if old and None not in (first_deal(old), first_deal(row)) \
                    and first_deal(old) != first_deal(row):
                fail(f"seed {row[key]}: {name} says {first_deal(row)}, an earlier file "
                     f"{first_deal(old)}")
            rows[row[key]] = row
    if not rows:
        fail("the files hold no deals")
    return dict(sorted(rows.items()))


def add_tuning(ap: argparse.ArgumentParser) -> None:
    """The solver's tuning (``puzzlegen montana winrate``'s options) for the re-solves;
    ``--forget`` is off unless given (a re-solve's table is the size it names)."""
    for tune in RESOLVE_TUNING:
        dest = "tune_" + tune.name
        if tune.kind is bool:
            default = False if tune.name == "forget" else tune.default
            text = ("re-solve with a forgetting table (see puzzlegen montana winrate "
                    "--forget): the answer of an unbounded table, within --resolve-max-nodes"
                    if tune.name == "forget" else tune.help)
            ap.add_argument(tune.option, dest=dest, action=argparse.BooleanOptionalAction,
                            default=default, help=text.replace("%", "%%"))
        else:
            ap.add_argument(tune.option, dest=dest, type=partial(_tuning_value, tune),
                            default=tune.default, metavar=tune.name.upper(),
                            help=tune.help.replace("%", "%%") + f" [default: {tune.default}]")


def _tuning_value(tune, text: str):
    """A tuning option's value: a string, or a whole number from ``low`` to ``high``."""
    if tune.kind is not int:
        return text
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if (tune.low is not None and value < tune.low) or (tune.high is not None
                                                        and value > tune.high):
        raise argparse.ArgumentTypeError(f"{value} is out of range (at least {tune.low})")
    return value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--rules", default="13-redeals2",
                    help="the runs' rules, as puzzlegen montana winrate --rules names them "
                         "[default: 13-redeals2]")
    add_tuning(ap)
    ap.add_argument("--resolve-max-states", type=int, default=0,
                    help="re-solve the limit deals with this table size (0: do not)")
    ap.add_argument("--resolve-max-nodes", type=int, default=None,
                    help="moves a re-solved deal may make (default none; with --forget "
                         f"{FORGET_MAX_NODES:,}, as puzzlegen montana)")
    ap.add_argument("--check", type=int, default=0,
                    help="re-solve this many decided deals (the biggest) and require the same "
                         "records")
    ap.add_argument("--resolved", help="keep the re-solved deals in this per-deal file as they "
                                        "finish, and continue from it (resumable)")
    ap.add_argument("--jobs", type=jobs_argument, default=1)
    ap.add_argument("--out", help="write the merged per-deal records here")
    args = ap.parse_args()
    try:
        rules = GAME.parse_rules(args.rules)
    except BadInput as exc:
        fail(f"--rules: {exc}")
    text = GAME.format_rules(rules)
    tuning = {tune.name: getattr(args, "tune_" + tune.name) for tune in RESOLVE_TUNING}
    if args.resolve_max_nodes is not None and args.resolve_max_nodes < 1:
        fail(f"--resolve-max-nodes must be at least 1, got {args.resolve_max_nodes}")
    if args.tune_forget and args.resolve_max_nodes is None:
        args.resolve_max_nodes = FORGET_MAX_NODES
    limits = Limits(states=args.resolve_max_states or None, nodes=args.resolve_max_nodes)
    if args.resolve_max_states:
        try:   # the tables of the workers must fit before any work
            need, _ = GAME.memory(rules, limits, **tuning)
            check_memory(f"--resolve-max-states {args.resolve_max_states:,}"
                         + (f" with {args.jobs} jobs" if args.jobs > 1 else ""),
                         args.jobs * need)
        except BadInput as exc:
            fail(str(exc))
    rows = merged(args.files, rules)
    resolved = checked = 0
    if args.resolve_max_states:
        seeds = [s for s, r in rows.items() if r["result"] == "limit"]
        decided = [s for s, r in rows.items() if r["result"] != "limit"]
        seeds += sorted(decided, key=lambda s: -rows[s]["states"])[:args.check]
        keys = dict(game_name=GAME.name, rules_text=text, seed=RUN_SEED)
        fn = partial(winrate.play, **keys, limits=limits, tuning=tuning)
        store = {} if not args.resolved else dict(
            key=GAME.deal_key, per_deal=args.resolved, resume=True,
            check=partial(winrate.check, **keys),
            fingerprint={"command": "montana_winrate.py re-solve", "rules": text,
                         "max_states": limits.states, "max_nodes": limits.nodes, **tuning})
        try:
            for new in runs.run(fn, seeds, jobs=args.jobs, **store):
                old = rows[new[GAME.deal_key]]
                if old["result"] == "limit":
                    rows[new[GAME.deal_key]] = new
                    resolved += 1
                    continue
                if not same_outcome(old, new, args.tune_forget):
                    fail(f"seed {new[GAME.deal_key]} differs with the bigger table")
                checked += 1
        except BadInput as exc:
            fail(str(exc))
    if args.out:
        write_atomic(args.out, "".join(json.dumps(r) + "\n" for r in rows.values()))
    summary = {"rules": text, "seeds": [min(rows), max(rows)],
               "limit_deals_resolved_with": args.resolve_max_states,
               **({"resolve_max_nodes": args.resolve_max_nodes, **tuning}
                  if args.resolve_max_states else {}),
               "resolved": resolved, "checked_same": checked,
               **winrate.summarize(GAME, rules, list(rows.values()))}
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
