"""Designer constraints on StacksSquared deals: required cards, fixed cells, a theme, sparse lines.

``--require "AS KS"`` demands cards somewhere in the deal; ``--at r1c2=AS`` fixes a cell (1-based
row and column, repeatable); ``--theme suits:SH`` or ``--theme ranks:2-9`` (``ranks:A,K,Q``;
both kinds at once: ``"suits:SH ranks:2-9"``) limits the cards dealt; ``--max-line-pairs N``
allows at most N compatible pairs of cards sharing a row or column.

CP-SAT (``puzzlegen.cpsat``) builds deals meeting every constraint; annealing keeps the first
three with :func:`neighbour` and checks the line-pair bound with :meth:`Constraints.violation`.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Mapping

import click

from puzzlegen import clitools
from solvers.cards import RANK_CHARS, SUIT_CHARS, Card, full_deck, parse_cards
from solvers.errors import BadInput
from solvers.stacksquared import Deal, compatible
from solvers.stacksquared.game import shuffle_step
from solvers.stacksquared.rules import same_line

_CELL = re.compile(r"r([0-9]+)c([0-9]+)=(\S+)", re.IGNORECASE)


def cell_name(cell: int, cols: int) -> str:
    """``r1c2`` for cell 1 of a grid with at least 2 columns."""
    return f"r{cell // cols + 1}c{cell % cols + 1}"


def line_cell_pairs(rows: int, cols: int) -> list[tuple[int, int]]:
    """Every pair of cells (a < b) sharing a row or a column."""
    n = rows * cols
    return [(a, b) for a in range(n) for b in range(a + 1, n)
            if same_line(a, b, cols)]


def line_pairs(cards, rows: int, cols: int) -> int:
    """Compatible pairs of dealt cards sharing a row or column (``None`` cells skipped)."""
    return sum(1 for a, b in line_cell_pairs(rows, cols)
               if cards[a] is not None and cards[b] is not None
               and compatible(cards[a], cards[b]))


@dataclass(frozen=True)
class Constraints:
    """What a designer asks of a deal; the defaults ask nothing."""

    require: frozenset[Card] = frozenset()
    at: Mapping[int, Card] = field(default_factory=dict)
    suits: frozenset[int] | None = None
    ranks: frozenset[int] | None = None
    max_line_pairs: int | None = None

    def allows(self, card: Card) -> bool:
        """The card fits the theme."""
        return ((self.suits is None or card.suit in self.suits)
                and (self.ranks is None or card.rank in self.ranks))

    @cached_property
    def deck(self) -> tuple[Card, ...]:
        """The cards of the theme, rank-major."""
        return tuple(c for c in full_deck() if self.allows(c))

    def violation(self, deal: Deal) -> str | None:
        """The first constraint the deal breaks, as a sentence, or None."""
        for cell, card in sorted(self.at.items()):
            if deal.cards[cell] != card:
                return (f"cell {cell_name(cell, deal.cols)} holds {deal.cards[cell]}, "
                        f"not the fixed {card}")
        missing = sorted(self.require - set(deal.cards))
        if missing:
            return f"required card {missing[0]} is missing"
        outside = [c for c in deal.cards if not self.allows(c)]
        if outside:
            return f"card {outside[0]} is outside the theme"
        if self.max_line_pairs is not None:
            pairs = line_pairs(deal.cards, deal.rows, deal.cols)
            if pairs > self.max_line_pairs:
                return f"{pairs} compatible line pairs, more than {self.max_line_pairs}"
        return None

    def start(self, rules, rng: random.Random) -> Deal:
        """A random deal of the grid ``rules`` meeting the cells, cards and theme."""
        return random_deal(rules.rows, rules.cols, rng, self)

    def step(self, deal: Deal, rng: random.Random) -> Deal:
        """Annealing's move: a neighbour keeping the cells, cards and theme."""
        cards = list(deal.cards)
        neighbour(cards, rng, self)
        return Deal(deal.rows, deal.cols, tuple(cards))

    def excess(self, deal: Deal) -> int:
        """How many compatible line pairs the deal has beyond the bound (0 within it)."""
        if self.max_line_pairs is None:
            return 0
        return max(0, line_pairs(deal.cards, deal.rows, deal.cols) - self.max_line_pairs)

    def to_json(self, cols: int) -> dict:
        """The constraints, for a pack's parameters (cells named ``r1c2``)."""
        suits = ranks = None
        if self.suits is not None:
            suits = "".join(SUIT_CHARS[s] for s in sorted(self.suits))
        if self.ranks is not None:
            ranks = "".join(RANK_CHARS[r - 1] for r in sorted(self.ranks))
        return {"require": [str(c) for c in sorted(self.require)],
                "at": {cell_name(cell, cols): str(card) for cell, card in sorted(self.at.items())},
                "suits": suits, "ranks": ranks, "max_line_pairs": self.max_line_pairs}


NO_CONSTRAINTS = Constraints()


def parse_rank(text: str) -> int:
    token = text.strip().upper()
    rank = 10 if token == "10" else RANK_CHARS.find(token) + 1 if len(token) == 1 else 0
    if rank == 0:
        raise BadInput(f"malformed rank {text.strip()!r} in --theme: expected one of "
                       f"{RANK_CHARS} (or 10)")
    return rank


def parse_ranks(text: str) -> frozenset[int]:
    """``2-9``, ``A,K,Q`` or a mix such as ``A,9-K``."""
    ranks: set[int] = set()
    for item in filter(None, text.split(",")):
        low, dash, high = item.partition("-")
        first = parse_rank(low)
        last = parse_rank(high) if dash else first
        if first > last:
            raise BadInput(f"empty rank range {item!r} in --theme: write the lower rank first")
        ranks.update(range(first, last + 1))
    return frozenset(ranks)


def parse_suits(text: str) -> frozenset[int]:
    """``SH``: the suit letters, in any order."""
    bad = [ch for ch in text.upper() if ch not in SUIT_CHARS]
    if bad:
        raise BadInput(f"malformed suit {bad[0]!r} in --theme: expected letters from {SUIT_CHARS}")
    return frozenset(SUIT_CHARS.index(ch) for ch in text.upper())


def parse_theme(theme: str | None) -> tuple[frozenset[int] | None, frozenset[int] | None]:
    """(suits, ranks) from ``suits:SH``, ``ranks:2-9`` or both, space-separated."""
    parsed: dict[str, frozenset[int]] = {}
    for part in (theme or "").split():
        kind, sep, value = part.partition(":")
        kind = kind.lower()
        if not sep or kind not in ("suits", "ranks") or not value:
            raise BadInput(f"malformed --theme {part!r}: expected suits:LETTERS (e.g. suits:SH) "
                           f"or ranks:LIST (e.g. ranks:2-9 or ranks:A,K,Q)")
        if kind in parsed:
            raise BadInput(f"--theme gives {kind} twice")
        parsed[kind] = parse_suits(value) if kind == "suits" else parse_ranks(value)
        if not parsed[kind]:
            raise BadInput(f"--theme {part!r} allows no {kind}")
    return parsed.get("suits"), parsed.get("ranks")


def parse_at(items: tuple[str, ...], rows: int, cols: int) -> dict[int, Card]:
    """Fixed cells from ``r1c2=AS`` items (1-based row and column)."""
    at: dict[int, Card] = {}
    for item in items:
        match = _CELL.fullmatch(item.strip())
        if not match:
            raise BadInput(f"malformed --at {item!r}: expected rROWcCOL=CARD, e.g. r1c2=AS")
        row, col, card = int(match[1]), int(match[2]), Card.parse(match[3])
        if not (1 <= row <= rows and 1 <= col <= cols):
            raise BadInput(f"--at {item}: cell r{row}c{col} is outside the {rows}x{cols} grid")
        cell = (row - 1) * cols + col - 1
        if cell in at:
            raise BadInput(f"--at fixes cell r{row}c{col} twice ({at[cell]} and {card})")
        if card in at.values():
            raise BadInput(f"--at puts {card} in two cells")
        at[cell] = card
    return at


def parse_constraints(rows: int, cols: int, require: str | None = None, at: tuple[str, ...] = (),
                      theme: str | None = None, max_line_pairs: int | None = None) -> Constraints:
    """The constraints the :func:`constraint_options` values give, checked against each other
    and the grid; any contradiction raises :class:`BadInput`."""
    required = frozenset(parse_cards(require or "", what="--require list"))
    fixed = parse_at(tuple(at), rows, cols)
    suits, ranks = parse_theme(theme)
    found = Constraints(required, fixed, suits, ranks, max_line_pairs)
    n = rows * cols
    outside = sorted(c for c in required | set(fixed.values()) if not found.allows(c))
    if outside:
        raise BadInput(f"card {outside[0]} is required or fixed but outside --theme {theme}")
    loose = required - set(fixed.values())
    if len(loose) > n - len(fixed):
        raise BadInput(f"{len(loose)} required cards do not fit the {n - len(fixed)} cells "
                       f"left free in a {rows}x{cols} grid")
    if len(found.deck) < n:
        raise BadInput(f"--theme {theme} has {len(found.deck)} cards, fewer than the "
                       f"{n} cells of a {rows}x{cols} grid")
    if max_line_pairs is not None:
        check_line_pairs(fixed, max_line_pairs, rows, cols)
    return found


def check_line_pairs(fixed: dict[int, Card], bound: int, rows: int, cols: int) -> None:
    if bound < 0:
        raise BadInput(f"--max-line-pairs {bound} is negative")
    cards = [fixed.get(i) for i in range(rows * cols)]
    already = line_pairs(cards, rows, cols)
    if already > bound:
        raise BadInput(f"the fixed cells already make {already} compatible line pairs, "
                       f"more than --max-line-pairs {bound}")


def random_deal(rows: int, cols: int, rng: random.Random,
                constraints: Constraints = NO_CONSTRAINTS) -> Deal:
    """A uniformly random deal among those meeting the fixed cells, required cards and theme
    (not the line-pair bound: check it with :meth:`Constraints.violation`)."""
    n = rows * cols
    cards: list[Card | None] = [constraints.at.get(i) for i in range(n)]
    free = [i for i in range(n) if cards[i] is None]
    rng.shuffle(free)
    loose = sorted(constraints.require - set(constraints.at.values()))
    used = set(loose) | set(constraints.at.values())
    pool = [c for c in constraints.deck if c not in used]
    for cell, card in zip(free, loose + rng.sample(pool, len(free) - len(loose))):
        cards[cell] = card
    return Deal(rows, cols, tuple(cards))


def neighbour(cards: list[Card], rng: random.Random, constraints: Constraints) -> None:
    """An annealing move in place that keeps fixed cells, required cards and the theme."""
    shuffle_step(cards, rng, constraints.at, constraints.require, constraints.deck)


def constraint_options(fn):
    """Add ``--require``, ``--at``, ``--theme`` and ``--max-line-pairs`` to a click command; turn
    their values into :class:`Constraints` with :func:`parse_constraints`."""
    options = [
        click.option("--require", metavar="CARDS", default=None,
                     help='Cards every deal must contain somewhere, e.g. "AS KS".'),
        click.option("--at", "at", metavar="rROWcCOL=CARD", multiple=True,
                     help="Fix a card in a cell, row and column counted from 1, e.g. r1c2=AS "
                          "(repeatable)."),
        click.option("--theme", metavar="THEME", default=None,
                     help="Deal only these cards: suits:SH, ranks:2-9 or ranks:A,K,Q "
                          '(both: "suits:SH ranks:2-9").'),
        click.option("--max-line-pairs", type=clitools.INT, default=None, metavar="N",
                     help="At most N compatible pairs of cards sharing a row or column "
                          "(sparser lines: fewer moves).")]
    for option in reversed(options):
        fn = option(fn)
    return fn
