"""Are the Agnes deals beyond the grade's measure harder than every measured one?

    python examples/agnes_beyond.py --rules Up-Suit-AnyRun-NoSplit --sample 12 --games 1000000
    python examples/agnes_beyond.py --sample 12 --games 10000 --check-nodes 1000
    python examples/agnes_beyond.py --seeds 1141,3829,5116,6882 --games 1000000

A calibration (its per-deal file ``solvers/agnes/calibration-agnes-RULES.jsonl``) records a
winnable deal that the grade's bold games never win (``game.bold_chance``: 100,000 over levels
of progress, then 1,000 checked move by move by the exact solver) as beyond the measure and ranks
it above every measured deal.
This script draws ``--sample`` of those deals (``random.Random(--seed)``), or takes the deals
``--seeds``, and estimates the bold player's chance on each with ``--games`` games
(``game.chance`` on the canonical deal, the grade's own random stream; with ``--check-nodes``,
split move by move with the exact filter's search of that many positions).  Per deal: the
hardness when some game won (else null), the cards home at best, the CPU seconds, and the
percentile the shipped table gives that hardness; then how many were measured.
"""
from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from puzzlegen import calibration, clitools, grading
from solvers.agnes.game import GAME, cards_home, chance
from solvers.agnes.players import BOLD, PARTICLE_BYTES
from solvers.errors import BadInput

# The per-deal files are in the checkout (they are not installed with the tables).
ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="Up-Suit-AnyRun-NoSplit")
    ap.add_argument("--sample", type=int, default=12, help="beyond deals to measure")
    ap.add_argument("--games", type=int, default=1_000_000, help="bold games a deal")
    ap.add_argument("--seed", type=int, default=1, help="seed of the sample")
    ap.add_argument("--seeds", help="these deals (comma-separated numbers) instead of a sample")
    ap.add_argument("--check-nodes", type=int, default=0,
                    help="split move by move, each move checked by an exact search of this many "
                         "positions (default 0: over levels of progress, unchecked)")
    args = ap.parse_args()
    if args.sample < 1 or args.games < 1 or args.check_nodes < 0:
        ap.exit(2, "error: --sample and --games must be 1 or more, --check-nodes 0 or more\n")
    try:
        clitools.check_memory(f"--games {args.games:,}", args.games * PARTICLE_BYTES)
        rules = GAME.parse_rules(args.rules)
        table = grading.load(GAME, rules)
        records = calibration.read_figures(ROOT / "solvers" / "agnes"
                                           / f"calibration-{GAME.calibration_key(rules)}.jsonl")
    except (BadInput, OSError) as exc:
        ap.exit(2, f"error: {exc}\n")
    beyond = [r["seed"] for r in records if r.get("beyond")]
    if args.seeds:
        try:
            chosen = sorted({int(seed) for seed in args.seeds.split(",")})
        except ValueError:
            ap.exit(2, f"error: --seeds {args.seeds}: not comma-separated deal numbers\n")
        if chosen[0] < 0:
            ap.exit(2, "error: --seeds: deal numbers are 0 or more\n")
    else:
        chosen = sorted(random.Random(args.seed).sample(beyond, min(args.sample, len(beyond))))
    measured = 0
    for seed in chosen:
        deal = GAME.canonical(GAME.deal_from_seed(seed, rules), rules)
        start = time.process_time()
        found = chance(deal, rules, BOLD, args.games, check_nodes=args.check_nodes)
        hardness = None if found.reached is not None else round(-found.log10, 3)
        measured += hardness is not None
        print(json.dumps({"seed": seed, "hardness": hardness, "reached": cards_home(found),
                          "percentile": None if hardness is None
                          else grading.percentile_of(table, hardness),
                          "cpu_s": round(time.process_time() - start, 1)}), flush=True)
    print(json.dumps({"rules": rules.name, "games": args.games,
                      "check_nodes": args.check_nodes, "beyond": len(beyond),
                      "sampled": len(chosen), "measured": measured}))


if __name__ == "__main__":
    main()
