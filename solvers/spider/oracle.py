"""The exact oracle: plain breadth-first search over every board the allowed moves reach.

No reductions, no formulas: each stack keeps its identity and every legal move is tried.  Meant
for small boards; a search stopped by a limit returns ``Status.LIMIT``.
"""
from __future__ import annotations

from solvers.result import Limits, SolveResult, Status
from solvers.spider.question import Question, allowed_fn, goal_fn, with_empties
from solvers.spider.rules import Board, format_board, is_reversible
from solvers.spider.search import bfs, most_empty


def _same(board: Board) -> Board:
    return board


def max_empty_stacks(board: Board, limits: Limits = Limits()) -> SolveResult:
    """``value``: the most empty stacks over the boards reachable by reversible moves."""
    return most_empty(board, is_reversible, _same, limits)


def answer(board: Board, q: Question, limits: Limits = Limits()) -> SolveResult:
    """``SOLVED`` with a shortest line of moves if the question's target is reachable."""
    return bfs(board, allowed_fn(board, q), goal_fn(board, q), _same, limits)


def needed_empty_stacks(board: Board, q: Question, limits: Limits = Limits(),
                        most: int = 6) -> SolveResult:
    """``value``: the fewest empty stacks (counting an empty destination) with which the
    question is answered yes, the board's other stacks unchanged; tries 0, 1, ... ``most``.
    The moves play on ``details["board"]``, the board with that many empty stacks."""
    nodes, seconds = 0, 0.0
    for n in range(1 if q.kind == "into" else 0, most + 1):
        b, qn = with_empties(board, q, n)
        result = answer(b, qn, limits.after(seconds_used=seconds))
        nodes, seconds = nodes + result.nodes, seconds + result.seconds
        if result.status is not Status.UNSOLVABLE:
            return SolveResult(result.status, result.moves, nodes, seconds,
                               n if result.solved else None, {"board": format_board(b)})
    return SolveResult(Status.UNSOLVABLE, [], nodes, seconds)
