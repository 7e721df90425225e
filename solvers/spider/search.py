"""Breadth-first search over Spider boards, shared by the oracle and the calculator.

States are boards; ``key`` maps a board to what identifies it (the board itself for the oracle,
a symmetry-reduced form for the calculator).  A search stops with ``limit`` when it has
expanded ``limits.nodes`` boards, stored ``limits.states`` boards (each stored board costs
memory: see ``STATE_BYTES``) or spent ``limits.seconds``.
"""
from __future__ import annotations

import functools
import gc
import time
from collections import deque
from typing import Callable, Hashable

from solvers.result import Limits, SolveResult, Status
from solvers.spider.rules import Board, Move, apply, empty_count, legal_moves

Allowed = Callable[[Board, Move], bool]

#: Memory one stored board may take at most (measured: about 700 bytes on a 16-stack board).
STATE_BYTES = 1000


def _path(seen: dict, key: Hashable) -> list[Move]:
    moves = []
    while seen[key][1] is not None:
        parent, move = seen[key]
        moves.append(move)
        key = parent
    return moves[::-1]


def _over(limits: Limits, nodes: int, t0: float) -> bool:
    """Whether ``nodes`` expanded boards or the time (looked at every node: reading the clock
    costs a thousandth of expanding one) reach a limit."""
    return ((limits.nodes is not None and nodes >= limits.nodes)
            or (limits.seconds is not None and time.perf_counter() - t0 >= limits.seconds))


def _collector_paused(search: Callable) -> Callable:
    """Run ``search`` with Python's cycle collector paused.  A search stores only tuples and
    dicts that form no cycles, and in a large process each full collection its allocations
    trigger would stall it for tenths of a second, past its time limit."""
    @functools.wraps(search)
    def paused(*args, **kwargs):
        enabled = gc.isenabled()
        gc.disable()
        try:
            return search(*args, **kwargs)
        finally:
            if enabled:
                gc.enable()
    return paused


def _result(status: Status, moves: list[Move], nodes: int, t0: float, seen: dict,
            value: int | None = None) -> SolveResult:
    """A search's result: ``nodes`` expanded, ``details["states"]`` boards stored."""
    return SolveResult(status, moves, nodes, time.perf_counter() - t0, value,
                       {"states": len(seen)})


def _successors(state: Board, k: Hashable, allowed: Allowed, key: Callable[[Board], Hashable],
                seen: dict, queue: deque, limits: Limits) -> list[tuple[Board, Hashable]] | None:
    """Store and queue the boards one allowed move from ``state`` that were not seen before,
    and return them; None when ``limits.states`` stored boards stopped it."""
    fresh = []
    for move in legal_moves(state):
        if allowed(state, move):
            nxt = apply(state, move)
            nk = key(nxt)
            if nk not in seen:
                if limits.states is not None and len(seen) >= limits.states:
                    return None
                seen[nk] = (k, move)
                queue.append((nxt, nk))
                fresh.append((nxt, nk))
    return fresh


@_collector_paused
def bfs(start: Board, allowed: Allowed, goal: Callable[[Board], bool],
        key: Callable[[Board], Hashable], limits: Limits) -> SolveResult:
    """Shortest line of allowed moves from ``start`` to a board meeting ``goal``."""
    t0 = time.perf_counter()
    seen = {key(start): (None, None)}
    queue = deque([(start, key(start))])
    nodes = 0
    while queue:
        state, k = queue.popleft()
        if goal(state):
            return _result(Status.SOLVED, _path(seen, k), nodes, t0, seen)
        if _over(limits, nodes, t0):
            return _result(Status.LIMIT, [], nodes, t0, seen)
        nodes += 1
        if _successors(state, k, allowed, key, seen, queue, limits) is None:
            return _result(Status.LIMIT, [], nodes, t0, seen)
    return _result(Status.UNSOLVABLE, [], nodes, t0, seen)


@_collector_paused
def most_empty(start: Board, allowed: Allowed, key: Callable[[Board], Hashable],
               limits: Limits, ceiling: int | None = None) -> SolveResult:
    """Explore every board reachable by allowed moves; ``value`` is the most empty stacks seen
    and ``moves`` reach such a board.  The search stops early on reaching ``ceiling``, a proven
    upper bound.  On a limit, ``value`` is only a lower bound."""
    t0 = time.perf_counter()
    best, best_key = empty_count(start), key(start)
    seen = {best_key: (None, None)}
    queue = deque([(start, best_key)])
    nodes = 0
    while queue and best != ceiling:
        state, k = queue.popleft()
        if _over(limits, nodes, t0):
            return _result(Status.LIMIT, _path(seen, best_key), nodes, t0, seen, best)
        nodes += 1
        fresh = _successors(state, k, allowed, key, seen, queue, limits)
        for nxt, nk in fresh or ():
            if empty_count(nxt) > best:
                best, best_key = empty_count(nxt), nk
        if fresh is None:
            return _result(Status.LIMIT, _path(seen, best_key), nodes, t0, seen, best)
    return _result(Status.SOLVED, _path(seen, best_key), nodes, t0, seen, best)
