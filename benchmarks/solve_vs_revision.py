"""Solve times of any game's solver at this checkout against those of a git revision, in one run.

    nice -n 10 python benchmarks/solve_vs_revision.py --rev c402ff6 --game stacksquared \\
        --rules 4x4 --seeds 0..1999 --rounds 5
    nice -n 10 python benchmarks/solve_vs_revision.py --rev c402ff6 --game agnes \\
        --rules Up-Suit-AnyRun --seeds 0..99

The revision's ``solvers/`` is extracted (``git archive``) into a temporary folder.  Each round
solves the same deals (``Game.deal_from_seed``, the game's default limits) in a fresh process
for each side in turn, the revision's first, after one warm-up round that compiles or loads both
sides' kernels, so that machine load hits both alike; with ``--warm`` each process solves the
first deal once before its clock starts, which leaves out loading the kernels.  Printed, as
JSON: each side's process CPU seconds per round and their medians, the ratio new / base of the
medians, and the seeds whose result (status, value, moves) differs between the sides, which a
change meant only to be faster must leave empty.  The revision must have the game contract
(``solvers/game.py``).  Both sides run from their source trees on numba's JIT (cached in each
tree); an ahead-of-time build of the checkout's search made in place (``solvers/aot.py``) would
serve its side only: remove it first.
"""
from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child(game_name: str, rules_text: str, first: int, last: int, warm: bool) -> None:
    """One side's round (run with ``solvers`` of that side first on the path): JSON on stdout."""
    from solvers import game as games
    game = games.get(game_name)
    rules = game.parse_rules(rules_text)
    deals = [game.deal_from_seed(seed, rules) for seed in range(first, last + 1)]
    if warm:
        game.solve(deals[0], rules, game.default_limits)
    start = time.process_time()
    results = [game.solve(deal, rules, game.default_limits) for deal in deals]
    seconds = time.process_time() - start
    print(json.dumps({"seconds": seconds, "results": [
        [r.status.value, r.value, hashlib.sha256(
            " ".join(map(game.format_move, r.moves)).encode()).hexdigest()[:16]]
        for r in results]}))


def extract(rev: str, folder: Path) -> None:
    """``solvers/`` of ``rev`` into ``folder``."""
    archive = subprocess.run(["git", "archive", "--format=tar", rev, "solvers"], cwd=ROOT,
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")


def side(tree: Path, args) -> dict:
    """One round of one side, in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, __file__, "--child", "--game", args.game, "--rules",
                           args.rules, "--seeds", args.seeds, *(["--warm"] if args.warm else [])],
                          env=env, capture_output=True, text=True, cwd=tree)
    if done.returncode:
        sys.exit(f"error: the {'revision' if tree != ROOT else 'checkout'}'s round failed: "
                 f"{done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ''}")
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", help="the git revision to compare with")
    ap.add_argument("--game", default="stacksquared")
    ap.add_argument("--rules", default=None, help="the game's rules (default: its default)")
    ap.add_argument("--seeds", default="0..199", help="A..B: the deals (default 0..199)")
    ap.add_argument("--rounds", type=int, default=5, help="timed rounds a side (default 5)")
    ap.add_argument("--warm", action="store_true",
                    help="solve the first deal once before the clock starts, so that the times "
                         "leave out loading the kernels (a few tenths of a second a process)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    try:
        first, last = (int(part) for part in args.seeds.split(".."))
    except ValueError:
        ap.exit(2, f"error: --seeds takes A..B, not {args.seeds!r}\n")
    if first > last or first < 0 or args.rounds < 1:
        ap.exit(2, "error: --seeds needs 0 <= A <= B, and --rounds 1 or more\n")
    if args.child:
        child(args.game, args.rules, first, last, args.warm)
        return
    if not args.rev:
        ap.exit(2, "error: give --rev, the revision to compare with\n")
    if args.rules is None:
        from solvers import game as games
        args.rules = games.get(args.game).default_rules
    with tempfile.TemporaryDirectory() as folder:
        try:
            extract(args.rev, Path(folder))
        except subprocess.CalledProcessError as exc:
            ap.exit(2, f"error: no solvers/ at {args.rev}: {exc.stderr.decode().strip()}\n")
        trees = {"base": Path(folder), "new": ROOT}
        rounds = {name: [] for name in trees}
        outputs = {}
        for number in range(args.rounds + 1):       # round 0 warms both sides up
            for name, tree in trees.items():
                out = side(tree, args)
                outputs[name] = out["results"]
                if number:
                    rounds[name].append(round(out["seconds"], 4))
    medians = {name: statistics.median(values) for name, values in rounds.items()}
    differ = [first + i for i, (a, b) in enumerate(zip(outputs["base"], outputs["new"]))
              if a != b]
    print(json.dumps({"rev": args.rev, "game": args.game, "rules": args.rules,
                      "seeds": args.seeds, "warm": args.warm, "seconds": rounds,
                      "median": {k: round(v, 4) for k, v in medians.items()},
                      "ratio_new_over_base": round(medians["new"] / medians["base"], 3)
                      if medians["base"] else None,
                      "differing_seeds": differ}, indent=1))


if __name__ == "__main__":
    main()
