"""Seconds per layout of the Montana kernel against the kernel of an earlier git revision.

    nice -n 10 python benchmarks/montana_vs_revision.py --rev 554348f --ranks 13 --deals 40 \\
        --max-states 10000000

``solvers/montana`` at ``--rev`` is copied (``git show``) into a temporary package; each deal's
single round is solved by the old and the current code in turn, so machine load hits both
alike.  Both must give the same result, moves and layouts (the number of moves made, ``nodes``,
may differ); the count of deals that differ is printed and should be 0.
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
from solvers.result import Limits

ROOT = Path(__file__).resolve().parent.parent


def load_revision(rev: str, where: Path):
    """``solvers/montana`` as of ``rev``, imported as the package ``montana_at_rev``."""
    package = where / "montana_at_rev"
    package.mkdir()
    for name in ("__init__", "api", "kernel", "rules"):
        text = subprocess.run(["git", "show", f"{rev}:solvers/montana/{name}.py"], cwd=ROOT,
                              check=True, capture_output=True, text=True).stdout
        (package / f"{name}.py").write_text(text.replace("solvers.montana", "montana_at_rev"))
    sys.path.insert(0, str(where))
    return importlib.import_module("montana_at_rev")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", required=True)
    ap.add_argument("--ranks", type=int, default=13)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-states", type=int, default=10_000_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        versions = {args.rev: load_revision(args.rev, Path(tmp)), "current": current}
        for m in versions.values():
            m.solve_round(m.deal_from_seed(0, 3), rules=m.Rules(3))  # compile/load first
        times = {name: [] for name in versions}
        nodes = {name: 0 for name in versions}
        states = differ = 0
        for seed in range(args.seed, args.seed + args.deals):
            seen = set()
            for name, m in versions.items():
                r = m.solve_round(m.deal_from_seed(seed, args.ranks), Limits(),
                                  m.Rules(args.ranks), args.max_states)
                times[name].append(r.seconds)
                nodes[name] += r.nodes
                seen.add((r.status.value, r.value, r.details["states"],
                          tuple(map(str, r.moves))))
            states += r.details["states"]
            differ += len(seen) > 1
    old, new = (sum(times[name]) for name in versions)
    print(json.dumps({"rev": args.rev, "ranks": args.ranks, "deals": args.deals,
                      "seed": args.seed, "max_states": args.max_states, "states": states,
                      "differing_deals": differ,
                      **{name: {"total_s": sum(t), "median_s": statistics.median(t),
                                "us_per_state": 1e6 * sum(t) / states, "nodes": nodes[name]}
                         for name, t in times.items()},
                      "speedup_total": old / new}, indent=1))


if __name__ == "__main__":
    main()
