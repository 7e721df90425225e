"""Stack Management (Code Jam 2017 World Finals) rules, in readable pure Python.

N stacks of face-up cards; a card is a ``(value, suit)`` pair of positive integers and no card
occurs twice.  Stacks are lists from bottom to top.  Two kinds of move:

* remove: a top card may be removed when a card of the same suit with a higher value is on top
  of another stack (written ``remove (7,2) from 3``);
* move: the top card of a stack may be put on an empty stack (written ``move (7,2) from 3 to 1``).

The game is won when every stack holds at most one card.  Stacks are numbered from 1 in
notation and from 0 in code.  ``replay`` is the independent checker of every printed line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

from solvers.errors import BadInput

Card = tuple[int, int]


def format_card(card: Card) -> str:
    return f"({card[0]},{card[1]})"


@dataclass(frozen=True)
class Remove:
    """Remove ``card``, the top of ``stack``, beaten by a higher card of its suit on top."""

    stack: int
    card: Card

    def __str__(self) -> str:
        return f"remove {format_card(self.card)} from {self.stack + 1}"

    def to_json(self) -> dict:
        return {"remove": list(self.card), "from": self.stack + 1}


@dataclass(frozen=True)
class Move:
    """Put ``card``, the top of ``source``, on the empty stack ``target``."""

    source: int
    target: int
    card: Card

    def __str__(self) -> str:
        return f"move {format_card(self.card)} from {self.source + 1} to {self.target + 1}"

    def to_json(self) -> dict:
        return {"move": list(self.card), "from": self.source + 1, "to": self.target + 1}


_MOVE_RE = re.compile(r"\s*(remove|move)\s+\(\s*([0-9]+)\s*,\s*([0-9]+)\s*\)\s+from\s+([0-9]+)"
                      r"(?:\s+to\s+([0-9]+))?\s*$")


def parse_move(text: str) -> Remove | Move:
    """The inverse of ``str(move)``; :class:`BadInput` if ``text`` is not a move."""
    m = _MOVE_RE.match(text)
    if not m or (m[1] == "move") != (m[5] is not None) or "0" in (m[4], m[5]):
        raise BadInput(f"malformed move {text.strip()!r}: expected 'remove (V,S) from A' or "
                       f"'move (V,S) from A to B' with stacks numbered from 1")
    card = (int(m[2]), int(m[3]))
    if m[1] == "remove":
        return Remove(int(m[4]) - 1, card)
    return Move(int(m[4]) - 1, int(m[5]) - 1, card)


class Board:
    """A position.  ``high[suit]`` is the highest value of that suit ever on top: it never
    drops, because the highest card showing can neither be removed nor hidden."""

    def __init__(self, stacks: Iterable[Sequence[Card]]) -> None:
        self.stacks = [list(s) for s in stacks]
        self.high: dict[int, int] = {}
        self.holder: dict[int, int] = {}
        for i in range(len(self.stacks)):
            self._expose(i)

    def _expose(self, i: int) -> int | None:
        """Note the new top of stack ``i``; return a stack whose top it has just beaten."""
        if not self.stacks[i]:
            return None
        value, suit = self.stacks[i][-1]
        if value <= self.high.get(suit, 0):
            return i
        beaten = self.holder.get(suit)
        self.high[suit], self.holder[suit] = value, i
        return beaten

    def beaten(self, i: int) -> bool:
        """Whether the top of stack ``i`` may be removed."""
        s = self.stacks[i]
        return bool(s) and s[-1][0] < self.high[s[-1][1]]

    def won(self) -> bool:
        return all(len(s) <= 1 for s in self.stacks)

    def useful_moves(self) -> Iterator[Remove | Move]:
        """Every removal, and every move of a top card off a stack of two or more onto the
        first empty stack (other empty stacks, or a lone card, only permute the stacks)."""
        for i, s in enumerate(self.stacks):
            if self.beaten(i):
                yield Remove(i, s[-1])
        empty = next((i for i, s in enumerate(self.stacks) if not s), None)
        if empty is not None:
            for i, s in enumerate(self.stacks):
                if len(s) >= 2:
                    yield Move(i, empty, s[-1])

    def why_illegal(self, move: Remove | Move) -> str | None:
        """Why ``move`` is illegal here, or None if it is legal."""
        n = len(self.stacks)
        source = move.stack if isinstance(move, Remove) else move.source
        if not 0 <= source < n:
            return f"there is no stack {source + 1} (the case has {n})"
        if not self.stacks[source]:
            return f"stack {source + 1} is empty"
        top = self.stacks[source][-1]
        if top != move.card:
            return f"the top of stack {source + 1} is {format_card(top)}"
        if isinstance(move, Remove):
            if not self.beaten(source):
                return f"no higher card of suit {top[1]} is on top of another stack"
            return None
        if not 0 <= move.target < n:
            return f"there is no stack {move.target + 1} (the case has {n})"
        if self.stacks[move.target]:
            return f"stack {move.target + 1} is not empty"
        return None

    def play(self, move: Remove | Move) -> list[int]:
        """Make a legal move; return the stacks whose top it may have made removable."""
        source = move.stack if isinstance(move, Remove) else move.source
        card = self.stacks[source].pop()
        if isinstance(move, Move):
            self.stacks[move.target].append(card)
            if self.holder.get(card[1]) == source:
                self.holder[card[1]] = move.target
        beaten = self._expose(source)
        return [] if beaten is None else [beaten]

    def copy(self) -> "Board":
        other = Board.__new__(Board)
        other.stacks = [list(s) for s in self.stacks]
        other.high, other.holder = dict(self.high), dict(self.holder)
        return other


def replay(stacks: Iterable[Sequence[Card]], moves: Iterable[Remove | Move]) -> Board:
    """Play ``moves`` from ``stacks``; :class:`BadInput` names the first illegal move and why."""
    board = Board(stacks)
    for k, move in enumerate(moves, 1):
        why = board.why_illegal(move)
        if why is not None:
            raise BadInput(f"move {k} ({move}) is illegal: {why}")
        board.play(move)
    return board
