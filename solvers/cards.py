"""The one card model shared by every game.

A card is a rank 1..13 (Ace low) and a suit 0..3 in the order ``C D H S``.  Notation is a rank
character from ``A23456789TJQK`` (``10`` is accepted for the Ten) followed by a suit character
from ``CDHS``; parsing is case-insensitive, printing is upper case (``TS``).

``Card.index`` numbers the deck rank-major, ``AC AD AH AS 2C ... KS`` = 0..51, which is the deck
order of the Microsoft FreeCell deal-number shuffle.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from solvers.errors import BadInput

RANK_CHARS = "A23456789TJQK"
#: The Microsoft FreeCell deal numbers: the shuffle reads 31 bits of the seed, so these are the
#: seeds it tells apart (a larger seed would deal the same cards as ``seed & 0x7FFFFFFF``).
FREECELL_SEEDS = range(2 ** 31)
SUIT_CHARS = "CDHS"
RED_SUITS = frozenset({1, 2})


@dataclass(frozen=True, order=True)
class Card:
    """A playing card: ``rank`` 1..13 (Ace = 1, King = 13), ``suit`` 0..3 (C, D, H, S)."""

    rank: int
    suit: int

    def __post_init__(self) -> None:
        if not (1 <= self.rank <= 13 and 0 <= self.suit <= 3):
            raise BadInput(f"no such card: rank {self.rank}, suit {self.suit}")

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Parse ``TS``, ``10S`` or ``ts``; raise :class:`BadInput` naming the text otherwise."""
        token = text.strip().upper()
        rank_part, suit_part = token[:-1], token[-1:]
        rank = 10 if rank_part == "10" else RANK_CHARS.find(rank_part) + 1 if len(rank_part) == 1 else 0
        suit = SUIT_CHARS.find(suit_part) if suit_part else -1
        if rank == 0 or suit < 0:
            raise BadInput(f"malformed card {text.strip()!r}: expected a rank from "
                           f"{RANK_CHARS} (or 10) and a suit from {SUIT_CHARS}, e.g. 'TS'")
        return cls(rank, suit)

    @classmethod
    def from_index(cls, index: int) -> "Card":
        """The card with rank-major deck index ``index`` (0 = AC, 51 = KS)."""
        return cls(index // 4 + 1, index % 4)

    @property
    def index(self) -> int:
        """Rank-major deck index: AC=0, AD=1, AH=2, AS=3, 2C=4, ..., KS=51."""
        return (self.rank - 1) * 4 + self.suit

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    def __str__(self) -> str:
        return RANK_CHARS[self.rank - 1] + SUIT_CHARS[self.suit]

    def __repr__(self) -> str:
        return f"Card({self})"


def parse_cards(text: str | Iterable[str], *, count: int | None = None,
                unique: bool = True, what: str = "deal") -> list[Card]:
    """Parse whitespace- or comma-separated cards.

    ``count`` demands exactly that many cards; ``unique`` rejects a card given twice.  Every
    failure is one :class:`BadInput` sentence naming the offending card.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = [Card.parse(t) for t in tokens]
    if count is not None and len(cards) != count:
        raise BadInput(f"the {what} has {len(cards)} card{'s' * (len(cards) != 1)}, "
                       f"expected {count}")
    if unique:
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise BadInput(f"duplicate card {card} in the {what}")
            seen.add(card)
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in notation, separated by single spaces."""
    return " ".join(str(c) for c in cards)


def full_deck(ranks: int = 13) -> list[Card]:
    """The rank-major deck of ranks ``1..ranks`` in all four suits: AC AD AH AS 2C ..."""
    return [Card(r, s) for r in range(1, ranks + 1) for s in range(4)]


_DECK = tuple(full_deck())  # cards are immutable: one deck to shuffle copies of


def freecell_deal(seed: int) -> list[Card]:
    """The 52 cards in dealing order for Microsoft FreeCell deal number ``seed``.

    Deck ``AC AD AH AS 2C ... KS``; ``state = seed & 0x7FFFFFFF``; for i = 51 down to 1 the
    linear congruential generator picks ``j = (state >> 16) % (i + 1)`` and swaps deck[i] and
    deck[j]; the cards are then dealt from deck[51] down to deck[0].  Seeds outside
    :data:`FREECELL_SEEDS` raise :class:`BadInput` rather than repeat another seed's deal.
    """
    if seed not in FREECELL_SEEDS:
        raise BadInput(f"no FreeCell deal number {seed}: deal numbers run from 0 to "
                       f"{FREECELL_SEEDS[-1]} (the shuffle reads 31 bits of the seed)")
    deck = list(_DECK)
    state = seed
    for i in range(51, 0, -1):
        state = (214013 * state + 2531011) & 0x7FFFFFFF
        j = (state >> 16) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck[::-1]
