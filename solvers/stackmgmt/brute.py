"""The exhaustive oracle: depth-first search over every play, for small cases.

It knows nothing of the analysis: it tries every removal and every move of a top card off a
stack of two or more onto an empty stack, and remembers the positions already reached (up to the
order of the stacks).  Every move shrinks the cards left or the cards in stacks of two or more,
so no line repeats a position.  A node or time limit stops it undecided, never with an answer.
"""
from __future__ import annotations

import time

from solvers.stackmgmt.rules import Board, Card, Move, Remove


def position_bytes(cards: int) -> int:
    """Memory one stored position of a case of ``cards`` cards may take, the boards along the
    search path included (measured: 8 to 19 bytes a card)."""
    return 24 * cards + 400


def brute_force(stacks: list[list[Card]], max_nodes: int | None = None,
                max_seconds: float | None = None
                ) -> tuple[list[Remove | Move] | None, bool, int]:
    """``(line, decided, nodes)``: a winning line (None if there is none or the search stopped),
    whether the search finished within the limits, and the positions examined."""
    root = Board(stacks)
    if root.won():
        return [], True, 1
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    seen = {tuple(sorted(map(tuple, root.stacks)))}
    line: list[Remove | Move] = []
    frames = [(root, iter(list(root.useful_moves())))]
    while frames:
        board, moves = frames[-1]
        move = next(moves, None)
        if move is None:
            frames.pop()
            if line:
                line.pop()
            continue
        child = board.copy()
        child.play(move)
        if child.won():
            return line + [move], True, len(seen)
        key = tuple(sorted(map(tuple, child.stacks)))
        if key in seen:
            continue
        if (max_nodes is not None and len(seen) >= max_nodes) or \
                (deadline is not None and time.perf_counter() > deadline):
            return None, False, len(seen)
        seen.add(key)
        line.append(move)
        frames.append((child, iter(list(child.useful_moves()))))
    return None, True, len(seen)
