"""Montana (Gaps) rules in readable Python: deals, legal moves, locked cards, redeals, replay.

A deal is four rows of ``ranks`` columns holding the cards 2..ranks of the four suits and four
gaps (``None``; the aces of a dealt deck).  A card moves into a gap immediately right of its
same-suit predecessor; a gap in the first column takes any Two not already in the first column
(with ``movable_twos``, also a Two already there).  Nothing goes right of a King or of a gap.
Locked cards: a Two in the first column and its consecutive same-suit successors.  The round
is won when all ``4 * (ranks - 1)`` cards are locked.

This module is the independent checker of every line of play the kernel prints.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Optional, Sequence

from solvers.cards import RANK_CHARS, SUIT_CHARS, Card, format_cards, full_deck, parse_cards
from solvers.errors import BadInput

ROWS = 4
MIN_RANKS, MAX_RANKS = 3, 13
Cell = Optional[Card]


@dataclass(frozen=True)
class Rules:
    """The variant played: deck size, Twos leaving the first column, where redeal gaps fall."""

    ranks: int = 13
    movable_twos: bool = False
    random_gaps: bool = False

    def __post_init__(self) -> None:
        if not MIN_RANKS <= self.ranks <= MAX_RANKS:
            raise BadInput(f"ranks must be between {MIN_RANKS} and {MAX_RANKS}, got {self.ranks}")

    @property
    def target(self) -> int:
        """Locked cards in a won layout."""
        return ROWS * (self.ranks - 1)


@dataclass(frozen=True)
class Move:
    """Put ``card`` into the gap at 0-based ``(row, col)``; for people ``4H->r2c4``, rows and
    columns counted from 1."""

    card: Card
    to: tuple[int, int]

    def __str__(self) -> str:
        return f"{self.card}->r{self.to[0] + 1}c{self.to[1] + 1}"

    def to_json(self) -> str:
        return str(self)


@dataclass(frozen=True)
class Redeal:
    """The move that ends a round: the player asks for a reshuffle (see :func:`redeal`), drawn
    from the reshuffles of game ``seed`` (:func:`redeal_rng`): ``redeal`` (seed 0) or
    ``redeal/S``, so that a line says which reshuffles it met."""

    seed: int = 0

    def __str__(self) -> str:
        return "redeal" + (f"/{self.seed}" if self.seed else "")

    def to_json(self) -> str:
        return str(self)


REDEAL = Redeal()
_MOVE = re.compile(r"^\s*(\w+)\s*->\s*r([0-9]{1,3})c([0-9]{1,3})\s*$", re.IGNORECASE)
#: The notation packs were first written in: ``4H->1,3``, row and column counted from 0.
_MOVE_FROM_0 = re.compile(r"^\s*(\w+)\s*->\s*([0-9]{1,3})\s*,\s*([0-9]{1,3})\s*$")
_REDEAL = re.compile(r"^\s*redeal(?:/([0-9]{1,19}))?\s*$", re.IGNORECASE)


def parse_move(text: str) -> Move | Redeal:
    """The move ``str(move)`` prints: ``4H->r2c4`` (row and column counted from 1), ``redeal``
    or ``redeal/S``; also ``4H->1,3`` (counted from 0), the notation of earlier packs."""
    redeal_move = _REDEAL.match(text)
    if redeal_move is not None:
        return Redeal(int(redeal_move[1] or 0))
    match = _MOVE.match(text)
    if match is not None and int(match[2]) >= 1 and int(match[3]) >= 1:
        return Move(Card.parse(match[1]), (int(match[2]) - 1, int(match[3]) - 1))
    match = _MOVE_FROM_0.match(text)
    if match is None:
        raise BadInput(f"malformed move {text.strip()[:40]!r}: expected CARD->rROWcCOL such as "
                       f"'4H->r2c4' (rows and columns from 1), or 'redeal'")
    return Move(Card.parse(match[1]), (int(match[2]), int(match[3])))


def parse_deal(text: str, ranks: int = 13) -> tuple[Cell, ...]:
    """The ``4 * ranks`` cards row-major, aces included (they become the gaps)."""
    Rules(ranks)
    cards = parse_cards(text, count=ROWS * ranks, what="deal")
    for card in cards:
        if card.rank > ranks:
            raise BadInput(f"card {card} is not in a deck of ranks A..{RANK_CHARS[ranks - 1]}")
    return tuple(None if c.rank == 1 else c for c in cards)


def format_deal(cells: Sequence[Cell]) -> str:
    """Cards row-major with the gaps written as aces (in suit order), so it parses back."""
    aces = iter(Card(1, s) for s in range(len(SUIT_CHARS)))
    return format_cards(next(aces) if c is None else c for c in cells)


def format_grid(cells: Sequence[Cell], ranks: int) -> str:
    """Four lines of cards for people, ``--`` for a gap."""
    rows = (cells[r * ranks:(r + 1) * ranks] for r in range(ROWS))
    return "\n".join(" ".join("--" if c is None else str(c) for c in row) for row in rows)


def deal_from_seed(seed: int, ranks: int = 13) -> tuple[Cell, ...]:
    """Deck ``full_deck(ranks)`` shuffled by ``random.Random(seed)``, aces removed."""
    deck = full_deck(ranks)
    random.Random(seed).shuffle(deck)
    return tuple(None if c.rank == 1 else c for c in deck)


def redeal_rng(seed: int) -> random.Random:
    """The generator of the reshuffles of game ``seed`` (independent of the deal's own)."""
    return random.Random(f"montana-redeal:{seed}")


def locked_lengths(cells: Sequence[Cell], ranks: int) -> list[int]:
    """Per row, the Two in the first column and its consecutive same-suit successors."""
    out = []
    for r in range(ROWS):
        row = cells[r * ranks:(r + 1) * ranks]
        n = 0
        while n < ranks - 1 and row[n] is not None and row[n].rank == n + 2 \
                and row[n].suit == row[0].suit:
            n += 1
        out.append(n)
    return out


def locked_count(cells: Sequence[Cell], ranks: int) -> int:
    return sum(locked_lengths(cells, ranks))


def legal_moves(cells: Sequence[Cell], rules: Rules) -> list[Move]:
    """Every legal move, gaps in row-major order."""
    n = rules.ranks
    where = {c: i for i, c in enumerate(cells) if c is not None}
    moves = []
    for gap, cell in enumerate(cells):
        if cell is not None:
            continue
        row, col = divmod(gap, n)
        if col == 0:
            for suit in range(ROWS):
                src = where[Card(2, suit)]
                if src % n != 0 or rules.movable_twos:
                    moves.append(Move(Card(2, suit), (row, col)))
        else:
            left = cells[gap - 1]
            if left is not None and left.rank < n:
                moves.append(Move(Card(left.rank + 1, left.suit), (row, col)))
    return moves


def apply_move(cells: Sequence[Cell], move: Move, rules: Rules) -> tuple[Cell, ...]:
    """The layout after ``move``; :class:`BadInput` naming the move and why if it is illegal."""
    n = rules.ranks
    row, col = move.to
    if not (0 <= row < ROWS and 0 <= col < n):
        raise BadInput(f"move {move}: no such cell in a {ROWS}x{n} layout")
    dest = row * n + col
    if move.card not in cells:
        raise BadInput(f"move {move}: {move.card} is not in the layout")
    src = cells.index(move.card)
    if cells[dest] is not None:
        raise BadInput(f"move {move}: the cell holds {cells[dest]}, not a gap")
    if col == 0:
        if move.card.rank != 2:
            raise BadInput(f"move {move}: only a Two goes into the first column")
        if src % n == 0 and not rules.movable_twos:
            raise BadInput(f"move {move}: that Two is already in the first column")
    else:
        left = cells[dest - 1]
        if left is None or left.suit != move.card.suit or left.rank + 1 != move.card.rank:
            raise BadInput(f"move {move}: the card left of the gap is {left or 'a gap'}, "
                           f"not the predecessor of {move.card}")
    out = list(cells)
    out[dest], out[src] = move.card, None
    return tuple(out)


def replay(cells: Sequence[Cell], moves: Sequence[Move], rules: Rules) -> tuple[Cell, ...]:
    """Play ``moves`` from ``cells``: the last layout, or :class:`BadInput` at the first bad one."""
    check_layout(cells, rules)
    layout = tuple(cells)
    for move in moves:
        layout = apply_move(layout, move, rules)
    return layout


def check_layout(cells: Sequence[Cell], rules: Rules) -> None:
    """:class:`BadInput` unless ``cells`` holds each card 2..ranks once and four gaps."""
    n = rules.ranks
    expected = sorted(c for c in full_deck(n) if c.rank > 1)
    if len(cells) != ROWS * n or sorted(c for c in cells if c is not None) != expected:
        raise BadInput(f"not a Montana layout of {ROWS} rows of {n} columns with four gaps")


def redeal(cells: Sequence[Cell], rules: Rules, rng: random.Random) -> tuple[Cell, ...]:
    """Keep the locked cards; shuffle the rest and deal them row by row.

    Each row's gap goes right after its locked cards, or with ``random_gaps`` the four gaps are
    shuffled in with the cards (the aces dealt and removed again).
    """
    n = rules.ranks
    lengths = locked_lengths(cells, n)
    locked = {r * n + c for r in range(ROWS) for c in range(lengths[r])}
    pool: list[Cell] = [c for i, c in enumerate(cells) if c is not None and i not in locked]
    pool += [None] * ROWS if rules.random_gaps else []
    rng.shuffle(pool)
    out: list[Cell] = list(cells)
    if rules.random_gaps:
        free = [i for i in range(ROWS * n) if i not in locked]
    else:
        free = []
        for r in range(ROWS):
            out[r * n + lengths[r]] = None
            free += range(r * n + lengths[r] + 1, (r + 1) * n)
    for i, card in zip(free, pool, strict=True):
        out[i] = card
    return tuple(out)
