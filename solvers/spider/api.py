"""Public surface: parse and print boards, the DoF report, move questions, random positions."""
from __future__ import annotations

import random

from solvers.cards import Card
from solvers.errors import BadInput
from solvers.result import Limits, Status
from solvers.spider import calc, oracle
from solvers.spider.question import Question, ask, goal_fn
from solvers.spider.rules import (FACE_DOWN, Board, empty_count, format_board, parse_board,
                                  replay, unit_starts)


def dof_report(board: Board, exact: bool = False, limits: Limits = Limits()) -> dict:
    """The contract fields ``empty_stacks``, ``dof``, ``max_empty_stacks``, ``max_dof``, with
    ``status``, ``method`` and the ``moves`` reaching the most empty stacks.  ``exact`` uses the
    oracle instead of the calculator.  On a limit the maxima are null."""
    result = (oracle if exact else calc).max_empty_stacks(board, limits)
    if result.solved:
        end = replay(board, result.moves, reversible=True)
        assert empty_count(end) == result.value, "the solver's line does not replay"
    n = empty_count(board)
    most = result.value if result.solved else None
    return {"status": result.status.value, "empty_stacks": n, "dof": calc.dof(n),
            "max_empty_stacks": most, "max_dof": None if most is None else calc.dof(most),
            "method": "oracle" if exact else result.details.get("method"),
            "moves": [m.to_json() for m in result.moves], "nodes": result.nodes,
            "seconds": round(result.seconds, 6)}


def move_report(board: Board, q: Question, exact: bool = False,
                limits: Limits = Limits()) -> dict:
    """Answer a move question: ``possible`` (null on a limit), ``needed_empty_stacks`` (an
    empty destination counts; its searches share what time ``limits`` leaves), the pure-board
    ``capacity`` with this many empty stacks, and a line of ``moves`` when a search found one
    (replayed to the question's goal first)."""
    engine = oracle if exact else calc
    result = oracle.answer(board, q, limits) if exact else calc.answer(board, q, limits, True)
    if result.moves:
        assert goal_fn(board, q)(replay(board, result.moves)), "the solver's line does not replay"
    need = engine.needed_empty_stacks(board, q, limits.after(seconds_used=result.seconds))
    n = empty_count(board)
    out = {"question": q.kind, "from": q.src + 1, "units": q.units,
           "to": None if q.dst is None else q.dst + 1,
           "status": result.status.value,
           "possible": None if result.status is Status.LIMIT else result.solved,
           "empty_stacks": n, "needed_empty_stacks": need.value if need.solved else None,
           "method": "oracle" if exact else result.details.get("method"),
           "moves": [m.to_json() for m in result.moves],
           "nodes": result.nodes + need.nodes,
           "seconds": round(result.seconds + need.seconds, 6)}
    if q.kind == "exchange":
        out["units2"] = q.units2
    else:
        out["capacity"] = calc.capacity(q.kind, n)
    return out


def random_board(rng: random.Random, stacks: int = 4, ranks: int = 6) -> Board:
    """A small random board: two suits, ``ranks`` consecutive ranks, stacks of a face-down
    card, a stray card and a descending run (each part optional), some stacks empty."""
    low = rng.randint(1, 14 - ranks)
    out = []
    for _ in range(stacks):
        if rng.random() < 0.25:
            out.append(())
            continue
        cards = [FACE_DOWN] if rng.random() < 0.4 else []
        if rng.random() < 0.4:
            cards.append(Card(rng.randint(low, low + ranks - 1), rng.choice((2, 3))).index)
        top = rng.randint(low, low + ranks - 1)
        length = rng.randint(1, min(4, top - low + 1))
        cards += [Card(top - i, rng.choice((2, 3))).index for i in range(length)]
        out.append(tuple(cards))
    return tuple(out)


def random_question(rng: random.Random, board: Board) -> Question | None:
    """A random valid move question on the board (None when the board offers none)."""
    sources = [i for i, s in enumerate(board) if unit_starts(s)]
    if not sources:
        return None
    src = rng.choice(sources)
    units = rng.randint(1, len(unit_starts(board[src])))
    kind = rng.choice(("off", "onto", "into", "exchange"))
    others = [i for i in range(len(board)) if i != src]
    rng.shuffle(others)
    for dst in [None] if kind == "off" else others:
        try:
            if kind == "exchange":
                if not unit_starts(board[dst]):
                    continue
                q = ask(board, src, units, dst, rng.randint(1, len(unit_starts(board[dst]))))
            else:
                q = ask(board, src, units, dst)
        except BadInput:
            continue
        if q.kind == kind:
            return q
    return None


__all__ = ["Board", "Question", "ask", "calc", "dof_report", "format_board", "move_report",
           "oracle", "parse_board", "random_board", "random_question"]
