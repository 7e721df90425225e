"""CP-SAT (OR-Tools) construction of deals with required structure.

A deal is one integer variable per cell (its card, all different).  The model plants a
single-stack solution: a random merge plan over the cells (each move joins two occupied cells
in one line) fixes which dealt cards are the tops at every move, and each such pair must be
compatible, so every constructed deal is solvable by construction (and is still re-verified by
the exact solver before it enters a pack).  On top of the plan it can demand:

- ``line_edges``: at most this many compatible pairs of cards sharing a row or column;
- ``max_partners``: at most this many compatible cards in each card's row and column.

Random deals have many compatible line pairs; a solvable deal with very few is rare, and
annealing, whose neighbours mostly break solvability when pairs are scarce, seldom reaches one.
CP-SAT reaches the sparse corner directly (``benchmarks/design_bench.py --only-cpsat`` measures this).
Reproducible: the plan comes from ``random.Random`` seeded per deal, the solver runs one worker
with a fixed ``random_seed`` and random hints, and stops at the first feasible deal.
"""
from __future__ import annotations

import random
from typing import Iterator

from ortools.sat.python import cp_model

from solvers.cards import Card
from solvers.stacksquared import Deal

def compat_literal(model: cp_model.CpModel, rank, suit, a: int, b: int):
    """A literal true exactly when the cards of cells a and b are compatible."""
    same_suit, near = model.NewBoolVar(f"suit{a}_{b}"), model.NewBoolVar(f"near{a}_{b}")
    model.Add(suit[a] == suit[b]).OnlyEnforceIf(same_suit)
    model.Add(suit[a] != suit[b]).OnlyEnforceIf(same_suit.Not())
    gap = model.NewIntVar(0, 12, f"gap{a}_{b}")
    model.AddAbsEquality(gap, rank[a] - rank[b])
    model.Add(gap <= 1).OnlyEnforceIf(near)
    model.Add(gap >= 2).OnlyEnforceIf(near.Not())
    both = model.NewBoolVar(f"compat{a}_{b}")
    model.AddBoolOr([same_suit, near]).OnlyEnforceIf(both)
    model.AddBoolAnd([same_suit.Not(), near.Not()]).OnlyEnforceIf(both.Not())
    return both


def same_line(a: int, b: int, cols: int) -> bool:
    return a // cols == b // cols or a % cols == b % cols


def merge_plan(rows: int, cols: int, rng: random.Random) -> list[tuple[int, int]]:
    """A random sequence of (mover cell, destination cell) merging every cell into one stack."""
    n = rows * cols
    while True:
        occupied, plan = set(range(n)), []
        while len(occupied) > 1:
            pairs = [(a, b) for a in sorted(occupied) for b in sorted(occupied)
                     if a != b and same_line(a, b, cols)]
            if not pairs:
                break
            a, b = rng.choice(pairs)
            occupied.remove(a)
            plan.append((a, b))
        if len(occupied) == 1:
            return plan


def construct(rows: int, cols: int, rng: random.Random, line_edges: int | None = None,
              max_partners: int | None = None, seconds: float = 10.0) -> Deal | None:
    """A deal with a planted single-stack solution and the required structure, or None."""
    n = rows * cols
    model = cp_model.CpModel()
    rank = [model.NewIntVar(0, 12, f"rank{i}") for i in range(n)]
    suit = [model.NewIntVar(0, 3, f"suit{i}") for i in range(n)]
    card = [model.NewIntVar(0, 51, f"card{i}") for i in range(n)]
    for i in range(n):
        model.Add(card[i] == 4 * rank[i] + suit[i])
    model.AddAllDifferent(card)
    literal = {}

    def compat(a: int, b: int):
        key = (min(a, b), max(a, b))
        if key not in literal:
            literal[key] = compat_literal(model, rank, suit, *key)
        return literal[key]

    top = list(range(n))  # the cell whose dealt card tops each cell's stack
    for a, b in merge_plan(rows, cols, rng):
        model.AddBoolOr([compat(top[a], top[b])])
        top[b] = top[a]
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n) if same_line(a, b, cols)]
    if line_edges is not None:
        model.Add(sum(compat(a, b) for a, b in pairs) <= line_edges)
    if max_partners is not None:
        for a in range(n):
            model.Add(sum(compat(x, y) for x, y in pairs if a in (x, y)) <= max_partners)
    for i in range(n):
        model.AddHint(card[i], rng.randrange(52))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = rng.randrange(2 ** 31)
    solver.parameters.max_time_in_seconds = seconds
    if solver.Solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return Deal(rows, cols, tuple(Card.from_index(solver.Value(c)) for c in card))


def start_deals(rows: int, cols: int, seed: int, line_edges: int | None = None,
                max_partners: int | None = None) -> Iterator[Deal]:
    """An endless, reproducible stream of constructed deals (those CP-SAT finds in time)."""
    k = 0
    while True:
        deal = construct(rows, cols, random.Random(f"{seed}:cpsat:{k}"), line_edges, max_partners)
        k += 1
        if deal is not None:
            yield deal
