"""StacksSquared (Birds of a Feather) rules, in readable pure Python.

An r x c grid holds one card a cell, dealt row-major.  A stack moves onto another non-empty stack
in the same row or column (cells between them do not block) when their top cards share a suit or
have the same or adjacent ranks (Ace low, King high, no wrap).  The mover's top card becomes the
top, the merged stack stays at the destination and the emptied cell is never refilled.  The score
is the sum of the squared stack sizes; a single-stack solution gathers every card in one stack.

A move is written ``9H-TS``: the mover's top card, a hyphen, the destination's top card.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

from solvers.cards import Card, format_cards, freecell_deal, parse_cards
from solvers.errors import BadInput


def compatible(a: Card, b: Card) -> bool:
    """Two top cards may merge: same suit, or ranks equal or adjacent (A-K not adjacent)."""
    return a.suit == b.suit or abs(a.rank - b.rank) <= 1


def same_line(a: int, b: int, cols: int) -> bool:
    """Cells a and b (row-major, ``cols`` columns) share a row or a column."""
    return a // cols == b // cols or a % cols == b % cols


def check_grid(rows: int, cols: int) -> None:
    """Raise :class:`BadInput` unless an r x c grid can be dealt from one deck."""
    if rows < 1 or cols < 1:
        raise BadInput(f"impossible grid {rows}x{cols}: rows and columns must be positive")
    if rows * cols > 52:
        raise BadInput(f"impossible grid {rows}x{cols}: {rows * cols} cells, "
                       "but a deck has 52 cards")


@dataclass(frozen=True)
class Deal:
    """A dealt grid: ``cards`` row-major, ``rows`` x ``cols``."""

    rows: int
    cols: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        check_grid(self.rows, self.cols)
        if len(self.cards) != self.rows * self.cols:
            raise BadInput(f"a {self.rows}x{self.cols} grid needs {self.rows * self.cols} cards, "
                           f"got {len(self.cards)}")
        if len(set(self.cards)) != len(self.cards):
            dup = next(c for c in self.cards if self.cards.count(c) > 1)
            raise BadInput(f"duplicate card {dup} in the deal")

    @classmethod
    def parse(cls, text: str, rows: int = 4, cols: int = 4) -> "Deal":
        """Cards row-major, e.g. ``"5S JC QH 8H ..."``; clear errors for bad cards or counts."""
        check_grid(rows, cols)
        return cls(rows, cols, tuple(parse_cards(text, count=rows * cols,
                                                 what=f"{rows}x{cols} deal")))

    @classmethod
    def from_seed(cls, seed: int, rows: int = 4, cols: int = 4) -> "Deal":
        """The first r*c cards of Microsoft FreeCell deal ``seed``, dealt row by row."""
        check_grid(rows, cols)
        if seed < 0:
            raise BadInput(f"seed {seed} is negative")
        return cls(rows, cols, tuple(freecell_deal(seed)[:rows * cols]))

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def __str__(self) -> str:
        return format_cards(self.cards)

    def grid_text(self) -> str:
        """The deal as r lines of c cards, for people."""
        c = self.cols
        return "\n".join(format_cards(self.cards[i:i + c]) for i in range(0, self.size, c))


@dataclass(frozen=True)
class Move:
    """Move the stack topped by ``mover`` onto the stack topped by ``dest``."""

    mover: Card
    dest: Card

    @classmethod
    def parse(cls, text: str) -> "Move":
        parts = text.strip().split("-")
        if len(parts) != 2:
            raise BadInput(f"malformed move {text.strip()!r}: expected MOVER-DEST, e.g. '9H-TS'")
        return cls(Card.parse(parts[0]), Card.parse(parts[1]))

    def __str__(self) -> str:
        return f"{self.mover}-{self.dest}"

    def to_json(self) -> str:
        return str(self)


@dataclass(frozen=True)
class Position:
    """Stacks on the grid: ``tops[i]`` and ``sizes[i]`` for cell i (``None`` and 0 when empty)."""

    rows: int
    cols: int
    tops: tuple[Card | None, ...]
    sizes: tuple[int, ...]

    @classmethod
    def start(cls, deal: Deal) -> "Position":
        return cls(deal.rows, deal.cols, deal.cards, (1,) * deal.size)

    def same_line(self, a: int, b: int) -> bool:
        """Cells a and b share a row or a column."""
        return same_line(a, b, self.cols)

    def stacks(self) -> int:
        return sum(1 for t in self.tops if t is not None)

    def score(self) -> int:
        """Sum of the squared stack sizes."""
        return sum(s * s for s in self.sizes)

    def cell_of(self, card: Card) -> int | None:
        """The cell whose stack has ``card`` on top, or None."""
        try:
            return self.tops.index(card)
        except ValueError:
            return None

    def why_illegal(self, move: Move) -> str | None:
        """None when ``move`` is legal here, otherwise the reason in a few words."""
        return self._checked(move)[2]

    def _checked(self, move: Move) -> tuple[int | None, int | None, str | None]:
        """The cells of ``move``'s mover and destination, and why it is illegal (None: legal)."""
        a, b = self.cell_of(move.mover), self.cell_of(move.dest)
        if a is None:
            return a, b, f"{move.mover} is not the top of a stack"
        if b is None:
            return a, b, f"{move.dest} is not the top of a stack"
        if a == b:
            return a, b, "a stack cannot move onto itself"
        if not self.same_line(a, b):
            return a, b, f"{move.mover} and {move.dest} share no row or column"
        if not compatible(move.mover, move.dest):
            return a, b, (f"{move.mover} and {move.dest} differ in suit and are not adjacent in "
                          f"rank")
        return a, b, None

    def legal_moves(self) -> Iterator[Move]:
        """Every legal move, mover cells in row-major order, then destination cells."""
        for a, top_a in enumerate(self.tops):
            if top_a is None:
                continue
            for b, top_b in enumerate(self.tops):
                if (b != a and top_b is not None and self.same_line(a, b)
                        and compatible(top_a, top_b)):
                    yield Move(top_a, top_b)

    def play(self, move: Move) -> "Position":
        """The position after ``move``; :class:`BadInput` if it is illegal."""
        a, b, reason = self._checked(move)
        if reason:
            raise BadInput(f"illegal move {move}: {reason}")
        return self._merged(a, b)

    def _merged(self, a: int, b: int) -> "Position":
        """The position after the stack of cell ``a`` moves onto the stack of cell ``b``."""
        tops, sizes = list(self.tops), list(self.sizes)
        tops[b], sizes[b] = tops[a], sizes[a] + sizes[b]
        tops[a], sizes[a] = None, 0
        return Position(self.rows, self.cols, tuple(tops), tuple(sizes))


def replay(deal: Deal, moves: Iterable[Move | str]) -> Position:
    """Play ``moves`` from the deal; :class:`BadInput` names the first illegal move and why."""
    position = Position.start(deal)
    for number, move in enumerate(moves, 1):
        move = Move.parse(move) if isinstance(move, str) else move
        a, b, reason = position._checked(move)
        if reason:
            raise BadInput(f"move {number} ({move}) is illegal: {reason}")
        position = position._merged(a, b)
    return position
