"""Seconds per layout of the Montana kernel against the kernel of an earlier git revision.

    nice -n 10 python benchmarks/montana_vs_revision.py --rev 554348f --ranks 13 --deals 40 \\
        --max-states 10000000
    nice -n 10 python benchmarks/montana_vs_revision.py --rev f349a2f --ranks 7 --deals 300 \\
        --movable-twos --hop-budgets none --no-columns --no-bound

``solvers/montana`` at ``--rev`` is copied (``git show``) into a temporary package; each deal's
single round is solved by the old and the current code in turn, so machine load hits both
alike.  Both must give the same result, moves and layouts (the number of moves made, ``nodes``,
may differ); the count of deals that differ is printed and should be 0.  With
``--movable-twos`` the current code searches as ``--hop-budgets``, ``--no-columns`` and
``--no-bound`` say (the defaults of ``solvers.montana.Search`` otherwise), so the same command
measures a reduction against the plain search of an older revision: then only ``status`` and
``locked`` must agree (``differing_results``), and the layouts and seconds are compared.
"""
from __future__ import annotations

import argparse
import importlib
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import solvers.montana as current
from solvers.errors import BadInput
from solvers.result import Limits

ROOT = Path(__file__).resolve().parent.parent


def parse_budgets(text: str) -> tuple[int, ...]:
    """``--hop-budgets``: comma-separated numbers, or ``none`` (as ``puzzlegen montana``'s)."""
    if text.strip().lower() == "none":
        return ()
    parts = [part.strip() for part in text.split(",")]
    if not all(part.isascii() and part.isdigit() for part in parts):
        raise argparse.ArgumentTypeError(f"takes comma-separated numbers or none, got {text!r}")
    return tuple(map(int, parts))


def load_revision(rev: str, where: Path):
    """``solvers/montana`` as of ``rev``, imported as the package ``montana_at_rev``;
    :class:`BadInput` when ``rev`` names no commit of this repository."""
    known = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                           cwd=ROOT, capture_output=True, text=True)
    if known.returncode != 0:
        raise BadInput(f"--rev {rev!r} names no commit of this repository")
    package = where / "montana_at_rev"
    package.mkdir()
    listed = subprocess.run(["git", "ls-tree", "--name-only", rev, "solvers/montana/"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout.split()
    for path in (p for p in listed if p.endswith(".py")):
        text = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout
        (package / Path(path).name).write_text(text.replace("solvers.montana", "montana_at_rev"))
    sys.path.insert(0, str(where))
    return importlib.import_module("montana_at_rev")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", required=True)
    ap.add_argument("--ranks", type=int, default=13)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-states", type=int, default=10_000_000)
    ap.add_argument("--movable-twos", action="store_true")
    ap.add_argument("--hop-budgets", type=parse_budgets,
                    default=current.Search.hop_budgets, help="comma-separated, or none")
    ap.add_argument("--pass-states", type=int, default=current.Search.pass_states)
    ap.add_argument("--no-columns", action="store_true")
    ap.add_argument("--no-bound", action="store_true")
    args = ap.parse_args()
    search = current.Search(columns=not args.no_columns, bound=not args.no_bound,
                            hop_budgets=args.hop_budgets, pass_states=args.pass_states)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            versions = {args.rev: load_revision(args.rev, Path(tmp)), "current": current}
        except BadInput as exc:
            ap.error(str(exc))
        for m in versions.values():
            m.solve_round(m.deal_from_seed(0, 3), rules=m.Rules(3))  # compile/load first
        times = {name: [] for name in versions}
        nodes = {name: 0 for name in versions}
        layouts = {name: 0 for name in versions}
        limits = {name: 0 for name in versions}
        differ = differ_results = 0
        for seed in range(args.seed, args.seed + args.deals):
            seen, results = set(), set()
            for name, m in versions.items():
                rules = m.Rules(args.ranks, movable_twos=args.movable_twos)
                extra = {"search": search} if m is current else {}
                r = m.solve_round(m.deal_from_seed(seed, args.ranks), Limits(), rules,
                                  args.max_states, **extra)
                times[name].append(r.seconds)
                nodes[name] += r.nodes
                layouts[name] += r.details["states"]
                limits[name] += r.status.value == "limit"
                seen.add((r.status.value, r.value, r.details["states"],
                          tuple(map(str, r.moves))))
                if r.status.value != "limit":
                    results.add((r.status.value, r.value))
            differ += len(seen) > 1
            differ_results += len(results) > 1
    old, new = (sum(times[name]) for name in versions)
    print(json.dumps({"rev": args.rev, "ranks": args.ranks, "deals": args.deals,
                      "seed": args.seed, "max_states": args.max_states,
                      "movable_twos": args.movable_twos,
                      "search": vars(search) if args.movable_twos else None,
                      "differing_deals": differ, "differing_results": differ_results,
                      **{name: {"total_s": sum(t), "median_s": statistics.median(t),
                                "states": layouts[name], "limit": limits[name],
                                "us_per_state": 1e6 * sum(t) / layouts[name],
                                "nodes": nodes[name]}
                         for name, t in times.items()},
                      "speedup_total": old / new}, indent=1))


if __name__ == "__main__":
    main()
