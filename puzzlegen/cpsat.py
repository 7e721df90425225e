"""CP-SAT (OR-Tools) construction of deals with required structure.

A deal is one integer variable per cell (its card, all different).  The model plants a
single-stack solution: a random merge plan over the cells (each move joins two occupied cells
in one line, never two incompatible fixed cards) fixes which dealt cards are the tops at every
move, and each such pair must be compatible, so every constructed deal is solvable by
construction (and is still re-verified by the exact solver before it enters a pack).  On top of
the plan it enforces a designer's :class:`~puzzlegen.constraints.Constraints` (required cards,
fixed cells, theme, at most ``max_line_pairs`` compatible pairs sharing a row or column) and can
demand:

- ``line_edges``: a further bound on those pairs (``generate --method cpsat`` uses r*c - 2);
- ``max_partners``: at most this many compatible cards in each card's row and column.

Random deals have many compatible line pairs; a solvable deal with very few is rare, and
annealing, whose neighbours mostly break solvability when pairs are scarce, seldom reaches one.
CP-SAT reaches the sparse corner directly (``--max-line-pairs 8``: 11.8 times rejection
sampling's rate, ``benchmarks/constraints.md``).
Reproducible: the plan and the hints come from ``random.Random`` seeded per deal, and the solver
runs one worker with a fixed ``random_seed`` under a deterministic work limit (not wall time),
stopping at the first feasible deal, so the deals depend on the seed alone
(``benchmarks/constraints_bench.py`` measures it against rejection sampling).
"""
from __future__ import annotations

import random
from typing import Iterator, Mapping

from ortools.sat.python import cp_model

from puzzlegen.constraints import NO_CONSTRAINTS, Constraints, line_cell_pairs, random_deal
from solvers.cards import Card
from solvers.errors import BadInput
from solvers.stacksquared import Deal, compatible
from solvers.stacksquared.rules import same_line

#: Deterministic time units (about seconds of one core) one construction may use.
WORK = 5.0
#: Random merge plans tried before a plan is given up (fixed cards may rule pairs out).
PLAN_TRIES = 100
#: Constructions in a row without a deal before ``start_deals`` gives up.
MAX_MISSES = 20

def compat_literal(model: cp_model.CpModel, rank, suit, a: int, b: int):
    """A literal true exactly when the cards of cells a and b are compatible (linear
    reifications only: they propagate better than an absolute value)."""
    same_suit, near = model.NewBoolVar(f"suit{a}_{b}"), model.NewBoolVar(f"near{a}_{b}")
    model.Add(suit[a] == suit[b]).OnlyEnforceIf(same_suit)
    model.Add(suit[a] != suit[b]).OnlyEnforceIf(same_suit.Not())
    below = []  # rank[x] - rank[y] <= 1, both ways round
    for x, y in ((a, b), (b, a)):
        literal = model.NewBoolVar(f"below{x}_{y}")
        model.Add(rank[x] - rank[y] <= 1).OnlyEnforceIf(literal)
        model.Add(rank[x] - rank[y] >= 2).OnlyEnforceIf(literal.Not())
        below.append(literal)
    model.AddBoolAnd(below).OnlyEnforceIf(near)
    model.AddBoolOr([lit.Not() for lit in below]).OnlyEnforceIf(near.Not())
    both = model.NewBoolVar(f"compat{a}_{b}")
    model.AddBoolOr([same_suit, near]).OnlyEnforceIf(both)
    model.AddBoolAnd([same_suit.Not(), near.Not()]).OnlyEnforceIf(both.Not())
    return both


def line_connected(cells, cols: int) -> bool:
    """The cells are linked by shared rows and columns (so they can still merge into one)."""
    cells = list(cells)
    if not cells:
        return True
    seen, todo = set(), [("r", cells[0] // cols)]
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            for c in cells:
                if node in (("r", c // cols), ("c", c % cols)):
                    todo += [("r", c // cols), ("c", c % cols)]
    return all(("r", c // cols) in seen for c in cells)


def merge_plan(rows: int, cols: int, rng: random.Random,
               fixed: Mapping[int, Card] | None = None) -> list[tuple[int, int]] | None:
    """A random sequence of (mover cell, destination cell) merging every cell into one stack,
    never asking two fixed cards that are incompatible to merge; None if none was found.  A
    mover is only taken when the cells left stay line-connected, so plans rarely dead-end."""
    fixed = fixed or {}
    n = rows * cols
    for _ in range(PLAN_TRIES):
        top, plan = {cell: cell for cell in range(n)}, []  # occupied cell -> its top's cell
        while len(top) > 1:
            movers = [a for a in sorted(top) if line_connected(set(top) - {a}, cols)]
            pairs = [(a, b) for a in movers for b in sorted(top)
                     if a != b and same_line(a, b, cols)
                     and not (top[a] in fixed and top[b] in fixed
                              and not compatible(fixed[top[a]], fixed[top[b]]))]
            if not pairs:
                break
            a, b = rng.choice(pairs)
            top[b] = top.pop(a)
            plan.append((a, b))
        if len(top) == 1:
            return plan
    return None


def card_variables(model: cp_model.CpModel, n: int, constraints: Constraints):
    """Card, rank (0..12) and suit variables per cell, all different, within the theme and the
    fixed cells, with every required card in some cell."""
    deck = [c.index for c in constraints.deck]
    card = [model.NewIntVarFromDomain(cp_model.Domain.FromValues(
        [constraints.at[i].index] if i in constraints.at else deck), f"card{i}") for i in range(n)]
    ranks = cp_model.Domain.FromValues(sorted({c.rank - 1 for c in constraints.deck}))
    suits = cp_model.Domain.FromValues(sorted({c.suit for c in constraints.deck}))
    rank = [model.NewIntVarFromDomain(ranks, f"rank{i}") for i in range(n)]
    suit = [model.NewIntVarFromDomain(suits, f"suit{i}") for i in range(n)]
    for i in range(n):
        model.Add(card[i] == 4 * rank[i] + suit[i])
    model.AddAllDifferent(card)
    free = [i for i in range(n) if i not in constraints.at]
    for needed in sorted(constraints.require - set(constraints.at.values())):
        here = [model.NewBoolVar(f"has{needed.index}_{i}") for i in free]
        for i, literal in zip(free, here):
            model.Add(card[i] == needed.index).OnlyEnforceIf(literal)
        model.AddExactlyOne(here)
    return card, rank, suit


def construct(rows: int, cols: int, rng: random.Random,
              constraints: Constraints = NO_CONSTRAINTS, line_edges: int | None = None,
              max_partners: int | None = None, work: float = WORK) -> Deal | None:
    """A deal meeting ``constraints`` with a planted single-stack solution, or None when the
    random plan admits none or ``work`` deterministic time units run out.  ``line_edges`` bounds
    the compatible line pairs further (the smaller of it and ``max_line_pairs`` holds)."""
    n = rows * cols
    plan = merge_plan(rows, cols, rng, constraints.at)
    if plan is None:
        return None
    model = cp_model.CpModel()
    card, rank, suit = card_variables(model, n, constraints)
    literal = {}

    def compat(a: int, b: int):
        key = (min(a, b), max(a, b))
        if key not in literal:
            literal[key] = compat_literal(model, rank, suit, *key)
        return literal[key]

    top = list(range(n))  # the cell whose dealt card tops each cell's stack
    for a, b in plan:
        model.AddBoolOr([compat(top[a], top[b])])
        top[b] = top[a]
    pairs = line_cell_pairs(rows, cols)
    bounds = [b for b in (constraints.max_line_pairs, line_edges) if b is not None]
    if bounds:
        model.Add(sum(compat(a, b) for a, b in pairs) <= min(bounds))
    if max_partners is not None:
        for a in range(n):
            model.Add(sum(compat(x, y) for x, y in pairs if a in (x, y)) <= max_partners)
    for i, hint in enumerate(random_deal(rows, cols, rng, constraints).cards):
        model.AddHint(card[i], hint.index)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = rng.randrange(2 ** 31)
    solver.parameters.max_deterministic_time = work
    if solver.Solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return Deal(rows, cols, tuple(Card.from_index(solver.Value(c)) for c in card))


def start_deals(rows: int, cols: int, seed: int, constraints: Constraints = NO_CONSTRAINTS,
                line_edges: int | None = None, max_partners: int | None = None,
                work: float = WORK) -> Iterator[Deal]:
    """An endless stream of constructed deals that depends on the seed alone; raises
    :class:`BadInput` after ``MAX_MISSES`` constructions in a row find none."""
    k = misses = 0
    while True:
        deal = construct(rows, cols, random.Random(f"{seed}:cpsat:{k}"), constraints,
                         line_edges, max_partners, work)
        k += 1
        misses = 0 if deal is not None else misses + 1
        if deal is not None:
            yield deal
        elif misses == MAX_MISSES:
            raise BadInput(f"CP-SAT found no deal meeting the constraints with a single-stack "
                           f"solution in {MAX_MISSES} tries in a row")
