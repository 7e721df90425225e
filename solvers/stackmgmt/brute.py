"""The exhaustive oracle: depth-first search over every play, for small cases.

It knows nothing of the analysis: it tries every removal and every move of a top card off a
stack of two or more onto an empty stack, and remembers the positions already reached (up to the
order of the stacks).  Every move shrinks the cards left or the cards in stacks of two or more,
so no line repeats a position.  A limit of positions stored (its memory), of positions examined
or of time stops it undecided, never with an answer.
"""
from __future__ import annotations

import time

from solvers.stackmgmt.rules import Board, Card, Move, Remove


def position_bytes(cards: int) -> int:
    """Memory one stored position of a case of ``cards`` cards may take, the boards along the
    search path included (measured: 8 to 19 bytes a card)."""
    return 24 * cards + 400


def brute_force(stacks: list[list[Card]], max_states: int | None = None,
                max_seconds: float | None = None, max_nodes: int | None = None
                ) -> tuple[list[Remove | Move] | None, bool, dict]:
    """``(line, decided, counts)``: a winning line (None if there is none or the search
    stopped), whether the search finished within the limits, and ``counts``: ``nodes``, the
    positions examined (the start and each play), ``states``, the positions stored, and
    ``stopped_by``, the limit that stopped the search (``states``, ``nodes`` or ``seconds``;
    None if it finished)."""
    root = Board(stacks)
    examined = 1

    def end(line: list | None, stopped_by: str | None = None) -> tuple:
        return line, stopped_by is None, {"nodes": examined, "states": len(seen),
                                          "stopped_by": stopped_by}

    seen = {tuple(sorted(map(tuple, root.stacks)))}
    if root.won():
        return end([])
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
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
        if max_nodes is not None and examined >= max_nodes:
            return end(None, "nodes")
        examined += 1
        child = board.copy()
        child.play(move)
        if child.won():
            return end(line + [move])
        key = tuple(sorted(map(tuple, child.stacks)))
        if key in seen:
            continue
        if max_states is not None and len(seen) >= max_states:
            return end(None, "states")
        if deadline is not None and time.perf_counter() > deadline:
            return end(None, "seconds")
        seen.add(key)
        line.append(move)
        frames.append((child, iter(list(child.useful_moves()))))
    return end(None)
