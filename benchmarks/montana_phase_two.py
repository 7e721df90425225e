"""How far the reach bound is from the truth at phase-two layouts (movable Twos, 52 cards).

    python benchmarks/montana_phase_two.py --deals 200 --seed 1000

Plays each deal at random (``random.Random(seed)``, movable Twos) until the four Twos fill the
first column, then on to the end of the line, and takes up to ``--per-deal`` of the phase-two
layouts met, evenly spaced along it.  For each: the reach bound (``api.reach_bound``) and
the exact most locked cards from there (``solve_round``: the fixed-Twos game), with the layouts
that search stored.  A bound that cuts a phase-two layout must come down to the best a lost
round reaches (38..45 cards for most): this prints how often the bound is 48 and where the
exact values of those layouts lie.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
from collections import Counter

from solvers.montana import Rules, api, deal_from_seed, solve_round
from solvers.montana.layout import phase_two
from solvers.montana.rules import apply_move, legal_moves
from solvers.result import Status


def phase_two_line(seed: int, rules: Rules) -> list:
    """The phase-two layouts of one random line of play from the deal."""
    rnd = random.Random(seed)
    cells = deal_from_seed(seed, rules.ranks)
    met = []
    while moves := legal_moves(cells, rules):
        cells = apply_move(cells, rnd.choice(moves), rules)
        if phase_two(api._encode(cells, rules.ranks), rules.ranks):
            met.append(cells)
    return met


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--per-deal", type=int, default=3)
    ap.add_argument("--max-states", type=int, default=3_000_000)
    args = ap.parse_args()
    rules = Rules(13, movable_twos=True)
    n = rules.ranks
    bounds, exact_at_48, states, limits = Counter(), Counter(), [], 0
    for seed in range(args.seed, args.seed + args.deals):
        met = phase_two_line(seed, rules)
        step = max(1, len(met) // args.per_deal)
        for cells in met[::step][:args.per_deal]:
            bound = api.reach_bound(cells, n)[0]
            bounds[bound] += 1
            result = solve_round(cells, rules=rules, max_states=args.max_states)
            if result.status is Status.LIMIT:
                limits += 1
                continue
            states.append(result.details["states"])
            if bound == 4 * (n - 1):
                exact_at_48[result.value] += 1
    layouts = sum(bounds.values())
    print(json.dumps({
        "deals": args.deals, "seed": args.seed, "layouts": layouts, "limit": limits,
        "bound_48_share": bounds[4 * (n - 1)] / layouts if layouts else None,
        "bound": dict(sorted(bounds.items())),
        "exact_where_bound_48": dict(sorted(exact_at_48.items())),
        "exact_where_bound_48_median": statistics.median(exact_at_48.elements())
        if exact_at_48 else None,
        "layouts_stored_median": statistics.median(states) if states else None,
        "layouts_stored_max": max(states, default=None)}, indent=1))


if __name__ == "__main__":
    main()
