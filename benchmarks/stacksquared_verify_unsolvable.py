"""Independent check of the solver's 'no single stack' verdicts on 4x4 deals.

    python benchmarks/stacksquared_verify_unsolvable.py [--last-seed 100000] [--max-states 2000000]

Lists the seeds the solver calls unsolvable, then re-decides each with a plain memoised
depth-first search in pure Python that shares no code with the solver (rules written out again
here; no move ordering; one obvious prune: a top with no compatible top left can never join the
others), and prints any disagreement.
"""
from __future__ import annotations

import argparse
import sys

from solvers.cards import freecell_deal
from solvers.stacksquared import Deal, solve


def plain_single_stack(cards: list[tuple[int, int]], cols: int, max_states: int) -> bool | None:
    """True/False: a single stack is reachable or not; None if ``max_states`` ran out."""
    n = len(cards)
    dead: set[tuple] = set()

    def fits(x, y):
        return x[1] == y[1] or abs(x[0] - y[0]) <= 1

    def win(tops: tuple) -> bool:
        alive = [i for i in range(n) if tops[i] is not None]
        if len(alive) == 1:
            return True
        if tops in dead:
            return False
        if any(not any(fits(tops[a], tops[b]) for b in alive if b != a) for a in alive):
            return False
        if len(dead) >= max_states:
            raise MemoryError
        for a in alive:
            for b in alive:
                if a != b and (a // cols == b // cols or a % cols == b % cols) \
                        and fits(tops[a], tops[b]):
                    nxt = list(tops)
                    nxt[b], nxt[a] = tops[a], None
                    if win(tuple(nxt)):
                        return True
        dead.add(tops)
        return False

    sys.setrecursionlimit(10000)
    try:
        return win(tuple(cards))
    except MemoryError:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--last-seed", type=int, default=100000)
    parser.add_argument("--max-states", type=int, default=2_000_000)
    args = parser.parse_args()
    seeds = [s for s in range(args.last_seed + 1) if not solve(Deal.from_seed(s), max_score=False).solved]
    print(f"solver: {len(seeds)} of seeds 0..{args.last_seed} have no single stack: {seeds}", flush=True)
    confirmed, undecided, disagree = 0, [], []
    for s in seeds:
        cards = [(c.rank, c.suit) for c in freecell_deal(s)[:16]]
        verdict = plain_single_stack(cards, 4, args.max_states)
        if verdict is None:
            undecided.append(s)
        elif verdict:
            disagree.append(s)
        else:
            confirmed += 1
        print(f"seed {s}: {verdict}", flush=True)
    print(f"plain search: {confirmed} confirmed unsolvable, {len(disagree)} found solvable "
          f"{disagree}, {len(undecided)} over the state limit {undecided}")


if __name__ == "__main__":
    main()
