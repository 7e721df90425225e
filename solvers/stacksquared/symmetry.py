"""The symmetries of StacksSquared and the canonical form of a deal.

Five kinds of symmetry map legal moves to legal moves, so they turn a deal into the same puzzle:
permuting the rows, permuting the columns, transposing the grid (an r x c deal becomes a c x r
one), relabelling the suits and reversing the ranks (A <-> K, 2 <-> Q, ...: adjacency is kept).
The canonical deal has at most as many rows as columns and is the smallest row-major tuple of
card indices over all symmetric copies.  For a fixed card relabelling, orientation and first row,
the smallest tuple sorts the columns by that row (its cards are distinct) and the other rows by
their first card.  The first row must hold the smallest card any map gives, so only the card
maps that give it, in each orientation, are compared.
"""
from __future__ import annotations

from itertools import permutations

from solvers.cards import Card
from solvers.stacksquared.rules import Deal

#: Every relabelling of the cards that keeps compatibility: suit permutation x rank reversal.
CARD_MAPS = [(suits, flip) for suits in permutations(range(4)) for flip in (False, True)]


def map_card(card: Card, suits: tuple[int, ...], flip: bool) -> Card:
    return Card(14 - card.rank if flip else card.rank, suits[card.suit])


#: For each card map of ``CARD_MAPS``, the mapped deck index of every deck index.
INDEX_MAPS = [[map_card(Card.from_index(i), suits, flip).index for i in range(52)]
              for suits, flip in CARD_MAPS]


def _grids(deal: Deal) -> list[list[list[int]]]:
    """The deal's grid of card indices, and its transpose, each with no more rows than columns
    if it can."""
    cells = [c.index for c in deal.cards]
    grid = [cells[r * deal.cols:(r + 1) * deal.cols] for r in range(deal.rows)]
    flipped = [list(col) for col in zip(*grid)]
    if deal.rows == deal.cols:
        return [grid, flipped]
    return [grid if deal.rows < deal.cols else flipped]


def canonical_with_map(deal: Deal) -> tuple[Deal, dict[Card, Card]]:
    """The canonical deal and the card map (original card -> canonical card) that gives it."""
    cells = [c.index for c in deal.cards]
    # The canonical tuple starts with the smallest card any map can give, in the first row.
    lowest = min(min(index_map[c] for c in cells) for index_map in INDEX_MAPS)
    best, best_key = None, None
    for m, index_map in enumerate(INDEX_MAPS):
        if min(index_map[c] for c in cells) != lowest:
            continue
        for grid in _grids(deal):
            relabelled = [[index_map[c] for c in row] for row in grid]
            first = next(row for row in relabelled if lowest in row)
            order = sorted(range(len(first)), key=first.__getitem__)
            rows = sorted([row[c] for c in order] for row in relabelled if row is not first)
            candidate = tuple(first[c] for c in order) + tuple(x for row in rows for x in row)
            if best is None or candidate < best:
                best, best_key = candidate, (m, len(grid), len(grid[0]))
    m, rows, cols = best_key
    suits, flip = CARD_MAPS[m]
    canon = Deal(rows, cols, tuple(Card.from_index(i) for i in best))
    return canon, {c: map_card(c, suits, flip) for c in deal.cards}


def canonical_deal(deal: Deal) -> Deal:
    """The canonical deal: the same for two deals exactly when a symmetry maps one onto the
    other."""
    return canonical_with_map(deal)[0]


def canonical(deal: Deal) -> tuple[int, ...]:
    """The canonical deal's shape and card indices, as a hashable key for dedupe."""
    canon = canonical_deal(deal)
    return (canon.rows, canon.cols) + tuple(c.index for c in canon.cards)
