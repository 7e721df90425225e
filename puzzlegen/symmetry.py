"""Canonical form of a StacksSquared deal up to the symmetries of the game, for dedupe.

Permuting rows, permuting columns, transposing a square grid and relabelling the suits all map
legal moves to legal moves, so such deals are the same puzzle.  The canonical form is the
smallest row-major tuple of card indices over those symmetries.  For a fixed suit relabelling,
transposition and choice of first row, the smallest tuple sorts the columns by that row (its
cards are distinct) and the other rows by their first card, so only 24 * 2 * rows candidates
need comparing.
"""
from __future__ import annotations

from itertools import permutations

from solvers.stacksquared import Deal


def canonical(deal: Deal) -> tuple[int, ...]:
    """The canonical form: equal for two deals exactly when a symmetry maps one onto the other."""
    grids = [[[deal.cards[r * deal.cols + c] for c in range(deal.cols)] for r in range(deal.rows)]]
    if deal.rows == deal.cols:
        grids.append([list(col) for col in zip(*grids[0])])
    best = None
    for suits in permutations(range(4)):
        for grid in grids:
            relabelled = [[(card.rank - 1) * 4 + suits[card.suit] for card in row] for row in grid]
            for first in relabelled:
                order = sorted(range(len(first)), key=first.__getitem__)
                rows = sorted(([row[c] for c in order] for row in relabelled if row is not first),
                              key=lambda row: row[0])
                candidate = tuple(x for row in [[first[c] for c in order]] + rows for x in row)
                if best is None or candidate < best:
                    best = candidate
    return best
