"""A winning line of play for a winnable case, built from the checker's path.

Let the path's ace stacks be A1..Ak and t the lowest ace above the bottom of Ak.  Play in two
phases.  First, remove whatever can be removed and move top cards off stacks of two or more onto
empty stacks, but never move a card of A1..Ak-1, nor t or a card below it.  The ace of the
source then never shows, so fewer than N suits show and an empty stack remains; when nothing
more can be done every other stack holds a single ace (or is that empty stack).  Second, move t
onto the empty stack and remove cards until none can be: every ace but those of the path now
shows, so each dig uncovers the next king and then the next ace, down to the source's ace.
With S < N suits the first phase alone wins (nothing is frozen).
"""
from __future__ import annotations

from solvers.stackmgmt.checker import Verdict
from solvers.stackmgmt.rules import Board, Card, Move, Remove


def winning_line(stacks: list[list[Card]], verdict: Verdict) -> list[Remove | Move]:
    """The moves that win ``stacks`` (bottom to top) for a ``possible`` verdict."""
    board = Board(stacks)
    line: list[Remove | Move] = []
    empty: list[int] = []

    def play(move: Remove | Move) -> None:
        """Make ``move``, then every removal it sets off (each frees at most one more)."""
        pending = [move]
        while pending:
            m = pending.pop()
            line.append(m)
            for i in board.play(m):
                if board.beaten(i):
                    pending.append(Remove(i, board.stacks[i][-1]))
            if isinstance(m, Remove) and not board.stacks[m.stack]:
                empty.append(m.stack)

    keep = [0] * len(stacks)
    for a in verdict.path[:-1]:
        keep[a] = len(stacks[a])
    if verdict.path:
        keep[verdict.path[-1]] = verdict.frozen
    for i in range(len(stacks)):
        if board.beaten(i):
            play(Remove(i, board.stacks[i][-1]))
    for i, stack in enumerate(board.stacks):
        while len(stack) > max(1, keep[i]) and empty:
            play(Move(i, empty.pop(), stack[-1]))
    if verdict.path and empty:
        t = verdict.path[-1]
        play(Move(t, empty.pop(), board.stacks[t][-1]))
    if not board.won():
        raise AssertionError("the winning line did not win: the checker's path is wrong")
    return line
