"""The move questions, stated exactly: which moves they allow and which boards they reach.

* ``off``: the top ``units`` units of stack ``src`` leave it (they may end anywhere);
* ``onto``: they end, in order, on the non-empty stack ``dst``;
* ``into``: they end, in order, alone in the empty stack ``dst``;
* ``exchange``: they trade places with the top ``units2`` units of stack ``dst``.

Every move on the way is reversible, except the one that lifts the bottom card of a moved
group off the card beneath it: that card may be a face-down card (which stays unturned and
takes nothing) or a card it does not follow.
"""
from __future__ import annotations

from dataclasses import dataclass

from solvers.errors import BadInput
from solvers.spider.rules import (Board, Move, card_text, completes_suit, follows,
                                  source_reversible, unit_starts)

@dataclass(frozen=True)
class Question:
    """A move question on a board; stacks are 0-based, ``units2`` only for ``exchange``."""

    kind: str
    src: int
    units: int
    dst: int | None = None
    units2: int = 0

    @property
    def roles(self) -> tuple[int, ...]:
        return (self.src,) if self.dst is None else (self.src, self.dst)


def group_start(stack: tuple[int, ...], units: int, number: int) -> int:
    """Index of the bottom card of the top ``units`` units of a stack (1-based ``number``)."""
    starts = unit_starts(stack)
    if not 1 <= units <= len(starts):
        raise BadInput(f"stack {number} has {len(starts)} unit(s) on top, so {units} "
                       f"cannot be moved")
    return starts[-units]


def _fits(group: tuple[int, ...], base: tuple[int, ...], number: int) -> None:
    if base and not follows(group[0], base[-1]):
        raise BadInput(f"the run from {card_text(group[0])} cannot go onto stack {number}: "
                       f"its top card is {card_text(base[-1])}")


def ask(board: Board, src: int, units: int, dst: int | None = None,
        units2: int | None = None) -> Question:
    """Validate a question (stacks 0-based); the kind follows from ``dst`` and ``units2``."""
    def check_stack(i: int) -> None:
        if not 0 <= i < len(board):
            raise BadInput(f"no stack {i + 1}: the board has {len(board)} stacks")
    check_stack(src)
    if not board[src]:
        raise BadInput(f"stack {src + 1} is empty: there is nothing to move")
    start = group_start(board[src], units, src + 1)
    if dst is None:
        if units2 is not None:
            raise BadInput("an exchange needs a second stack")
        return Question("off", src, units)
    check_stack(dst)
    if dst == src:
        raise BadInput("the source and destination stacks are the same")
    group = board[src][start:]
    if units2 is not None:
        if not board[dst]:
            raise BadInput(f"stack {dst + 1} is empty: there is nothing to exchange")
        start2 = group_start(board[dst], units2, dst + 1)
        _fits(group, board[dst][:start2], dst + 1)
        _fits(board[dst][start2:], board[src][:start], src + 1)
        return Question("exchange", src, units, dst, units2)
    if not board[dst]:
        return Question("into", src, units, dst)
    _fits(group, board[dst], dst + 1)
    return Question("onto", src, units, dst)


def lifts(board: Board, q: Question) -> frozenset[tuple[int, int]]:
    """(stack, index) pairs where a move may take cards off irreversibly: the groups' bottoms."""
    out = {(q.src, group_start(board[q.src], q.units, q.src + 1))}
    if q.kind == "exchange":
        out.add((q.dst, group_start(board[q.dst], q.units2, q.dst + 1)))
    return frozenset(out)


def targets(board: Board, q: Question) -> dict[int, tuple[int, ...]]:
    """What each role stack must hold for the question to be answered yes."""
    a = group_start(board[q.src], q.units, q.src + 1)
    base, group = board[q.src][:a], board[q.src][a:]
    if q.kind == "off":
        return {q.src: base}
    if q.kind in ("onto", "into"):
        return {q.src: base, q.dst: board[q.dst] + group}
    b = group_start(board[q.dst], q.units2, q.dst + 1)
    return {q.src: base + board[q.dst][b:], q.dst: board[q.dst][:b] + group}


def allowed_fn(board: Board, q: Question):
    """The predicate ``allowed(state, move)`` for the question's searches."""
    lift = lifts(board, q)

    def allowed(state: Board, move: Move) -> bool:
        if completes_suit(state, move):
            return False
        return (source_reversible(state, move)
                or (move.src, len(state[move.src]) - len(move.cards)) in lift)
    return allowed


def goal_fn(board: Board, q: Question):
    """The predicate ``goal(state)``: every role stack holds its target."""
    want = tuple(targets(board, q).items())
    return lambda state: all(state[i] == cards for i, cards in want)


def with_empties(board: Board, q: Question, n: int) -> tuple[Board, Question]:
    """The board with its non-empty stacks and exactly ``n`` empty stacks (for ``into`` the
    destination is one of them), and the question renumbered to match."""
    keep = [i for i, s in enumerate(board) if s]
    new = {old: new for new, old in enumerate(keep)}
    stacks = [board[i] for i in keep]
    dst = new.get(q.dst) if q.dst is not None else None
    if q.kind == "into":
        if n < 1:
            raise ValueError("an empty destination is one of the empty stacks: n >= 1")
        dst = len(stacks)
    stacks += [()] * n
    return tuple(stacks), Question(q.kind, new[q.src], q.units, dst, q.units2)

