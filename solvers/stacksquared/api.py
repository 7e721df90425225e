"""StacksSquared public API: deals, the exact solver and its result.

``solve(deal)`` answers both questions exactly: is there a single-stack solution, and what is the
maximum score.  A deal with a single-stack solution scores ``(r*c)**2`` at once; otherwise a
branch-and-bound search over tops and sizes finds the maximum.
"""
from __future__ import annotations

import time
from functools import lru_cache

import numpy as np

from solvers.cards import Card
from solvers.result import Limits, SolveResult, Status
from solvers.stacksquared.codes import ALL_CUTS, DONE, PORTFOLIO, SEARCH
from solvers.stacksquared.rules import Deal, Move, Position, compatible, same_line

#: Distinct states one search may store unless told otherwise (about 0.5 GB at worst for 4x4).
DEFAULT_LIMITS = Limits(states=4_000_000)


@lru_cache(maxsize=None)
def line_masks(rows: int, cols: int) -> np.ndarray:
    """For each cell, the bitmask of the other cells in its row or column."""
    masks = np.zeros(rows * cols, dtype=np.uint64)
    for a in range(rows * cols):
        for b in range(rows * cols):
            if a != b and same_line(a, b, cols):
                masks[a] |= np.uint64(1 << b)
    return masks


@lru_cache(maxsize=None)
def compat_masks() -> np.ndarray:
    """For each card index, the bitmask of the other card indices it may merge with."""
    deck = [Card.from_index(i) for i in range(52)]
    masks = np.zeros(52, dtype=np.uint64)
    for x in deck:
        for y in deck:
            if x != y and compatible(x, y):
                masks[x.index] |= np.uint64(1 << y.index)
    return masks


def position_arrays(position: Position) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's view of a position: card index per cell (-1 empty) and stack sizes."""
    card = np.array([-1 if t is None else t.index for t in position.tops], dtype=np.int8)
    return card, np.array(position.sizes, dtype=np.int64)


def cells_to_moves(position: Position, froms, tos) -> list[Move]:
    """Name the kernel's (mover cell, destination cell) pairs by their top cards."""
    tops = list(position.tops)
    moves = []
    for a, b in zip(froms.tolist(), tos.tolist()):
        moves.append(Move(tops[a], tops[b]))
        tops[b], tops[a] = tops[a], None
    return moves


@lru_cache(maxsize=None)
def search_kernel():
    """``kernel.solve_search``: compiled ahead of time when built for these sources, else numba's
    JIT (numba is imported only then)."""
    compiled = SEARCH.load()
    if compiled is not None:
        return compiled.solve_search
    from solvers.stacksquared import kernel
    return kernel.solve_search


def run_search(position: Position, *, with_sizes: bool, floor: int, ceiling: int,
               limits: Limits, plan: int = PORTFOLIO, cuts: int = ALL_CUTS):
    """One kernel search from ``position``: (outcome, best, moves, nodes, states)."""
    card, size = position_arrays(position)
    outcome, best, froms, tos, nodes, states = search_kernel()(
        card, size, line_masks(position.rows, position.cols), with_sizes, floor, ceiling,
        limits.node_cap, limits.state_cap, limits.second_cap, plan, cuts)
    return outcome, int(best), cells_to_moves(position, froms, tos), int(nodes), int(states)


def solve(deal: Deal, limits: Limits = DEFAULT_LIMITS, max_score: bool = True) -> SolveResult:
    """Decide single-stack solvability and (unless ``max_score=False``) the exact maximum score.

    Status ``solved``: a single-stack solution (the moves).  ``unsolvable``: none exists; with
    ``max_score`` the moves reach the exact maximum.  ``limit``: a limit stopped the search;
    ``single_stack`` or ``max_score`` is then ``None`` where undecided, and ``best_score`` is the
    best score the moves reach (a lower bound, not the maximum).
    """
    n = deal.size
    start = time.perf_counter()
    position = Position.start(deal)
    outcome, best, moves, nodes, states = run_search(
        position, with_sizes=False, floor=n * n - 1, ceiling=n * n, limits=limits)
    details = {"single_stack": None, "max_score": None, "states": states}
    if outcome != DONE:
        return SolveResult(Status.LIMIT, [], nodes, time.perf_counter() - start, None, details)
    if best == n * n:
        details.update(single_stack=True, max_score=n * n)
        return SolveResult(Status.SOLVED, moves, nodes, time.perf_counter() - start, n * n, details)
    details["single_stack"] = False
    if not max_score:
        return SolveResult(Status.UNSOLVABLE, [], nodes, time.perf_counter() - start, None, details)
    # Without one stack the best conceivable score is one stack of all cards but one, and that
    # one alone: the search stops as soon as it reaches that.
    more = limits.after(nodes, time.perf_counter() - start)
    outcome, best, moves, more_nodes, states = run_search(
        position, with_sizes=True, floor=position.score(), ceiling=(n - 1) ** 2 + 1, limits=more)
    nodes += more_nodes
    details["states"] = max(details["states"], states)
    seconds = time.perf_counter() - start
    if outcome != DONE:
        details["best_score"] = best
        return SolveResult(Status.LIMIT, moves, nodes, seconds, None, details)
    details["max_score"] = best
    return SolveResult(Status.UNSOLVABLE, moves, nodes, seconds, best, details)


def warm_up() -> None:
    """Load (or compile) the search kernel now, e.g. before forking worker processes."""
    solve(Deal.parse("AS 2S", rows=1, cols=2))


def table_bytes(max_states: int, cells: int) -> int:
    """Memory the state table of one search may take when it stores ``max_states`` states of a
    grid of ``cells`` cells: a key of two bytes a cell (in 8-byte words, the slot's status in
    spare bits), the table kept below 70% full (so up to 2.9 slots a state), and the old table
    beside the new while it doubles."""
    slot = 2 * 8 * ((cells + 7) // 8)
    return int(max_states * slot * 2.9 * 1.5)
