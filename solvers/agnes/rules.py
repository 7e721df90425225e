"""Agnes Sorel rules, readable: rule variants, deals, the board, legal moves and replay.

The rules are those of quagnes 1.1.0.  The first card of the deck is the base card and goes to
its foundation; ranks are counted from the base rank (``rel = (rank - base) % 13``), so every
foundation builds up by suit from relative rank 0 to 12, wrapping King to Ace.  Seven piles get
1..7 cards (pile j gets a card in each round i <= j; the last card of a pile is face up, the others
face up only in ``Up`` variants).  The 23-card stock is dealt 7, 7, 7 and then 2 cards (to piles 1
and 2), face up, whenever the player chooses.  A card goes onto the bottom card of a pile one rank
higher of the same colour.  A run is a sequence at the bottom of a pile, each card one rank lower
than the one it lies on, all of one suit (``Suit``) or colour (``Color``); with ``-NoSplit`` only a
whole run (the longest one at the bottom of a pile) moves.  An empty pile takes nothing (``None``),
any single card (``Any1``), any run (``AnyRun``), a single card of the highest rank (``High1``)
or a run headed by the highest rank (``HighRun``); the highest rank is the one below the base rank.
A hidden card turns face up when it becomes the bottom card of its pile.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from solvers.cards import Card, format_cards, parse_cards
from solvers.errors import BadInput

EMPTY_RULES = ("None", "Any1", "AnyRun", "High1", "HighRun")
#: What an empty pile takes under each rule, in words (the printed page and the puzzle page).
EMPTY_TAKES = {"None": "nothing", "Any1": "any single card", "AnyRun": "any run",
               "High1": "a single card of the highest rank",
               "HighRun": "a run headed by a card of the highest rank"}
PILES = 7
HIGHEST = 12
# quagnes numbers suits clubs, diamonds, spades, hearts (same colour = equal mod 2).
QUAGNES_SUIT_TO_OURS = (0, 1, 3, 2)
OURS_TO_QUAGNES_SUIT = (0, 1, 3, 2)


@dataclass(frozen=True)
class Rules:
    """A rule variant: face-up deal, runs by suit, what fills an empty pile, split runs."""

    face_up: bool = True
    same_suit: bool = True
    empty: str = "None"
    split: bool = True

    @property
    def name(self) -> str:
        return "-".join(["Up" if self.face_up else "Down", "Suit" if self.same_suit else "Color",
                         self.empty] + ([] if self.split else ["NoSplit"]))

    def __str__(self) -> str:
        return self.name


_RULE_RE = re.compile(r"^(up|down)-(suit|color)-(none|any1|anyrun|high1|highrun)(-nosplit)?$")


def parse_rules(name: str) -> Rules:
    """``Up-Suit-None``, ``down-color-anyrun-nosplit`` ... (case-insensitive)."""
    m = _RULE_RE.match(name.strip().lower())
    if not m:
        raise BadInput(f"unknown rules {name!r}: expected <Up|Down>-<Suit|Color>-"
                       "<None|Any1|AnyRun|High1|HighRun>[-NoSplit], e.g. Up-Suit-None")
    empty = {e.lower(): e for e in EMPTY_RULES}[m.group(3)]
    return Rules(m.group(1) == "up", m.group(2) == "suit", empty, m.group(4) is None)


@dataclass(frozen=True)
class Deal:
    """The 52 cards in dealing order; the first is the base card."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        if len(self.cards) != 52 or len(set(self.cards)) != 52:
            raise BadInput("an Agnes deal needs all 52 cards exactly once")

    @property
    def base(self) -> Card:
        return self.cards[0]

    def rel(self, card: Card) -> int:
        """The rank of ``card`` counted from the base rank: 0 (base rank) .. 12 (highest)."""
        return (card.rank - self.base.rank) % 13


def deal_from_seed(seed: int, index: int = 0) -> Deal:
    """Deal ``index`` of ``seed``: the deck quagnes builds for its (index+1)-th ``Agnes()``."""
    if index < 0:
        raise BadInput(f"deal index must be 0 or more, not {index}")
    return next(deals_from_seed(seed, index, 1))


def deals_from_seed(seed: int, start: int, count: int):
    """Deals ``start .. start+count-1`` of ``seed`` (one shuffle per deal, as quagnes does)."""
    rng = random.Random(seed)
    for k in range(start + count):
        deck = [(rank, suit) for rank in range(13) for suit in range(4)]
        rng.shuffle(deck)
        deck.reverse()
        if k >= start:
            yield Deal(tuple(Card(r + 1, QUAGNES_SUIT_TO_OURS[s]) for r, s in deck))


_QLINE = re.compile(r"^\(\s*([0-9]+)\s*,\s*([0-9]+)\s*\)$")


def parse_deck(text: str) -> Deal:
    """A deck in card notation (``"7S KD ..."``) or quagnes's format (52 lines ``(rank, suit)``)."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if lines and lines[0].startswith("("):
        cards = []
        for number, line in enumerate(lines, 1):
            m = _QLINE.match(line)
            if not m or int(m.group(1)) > 12 or int(m.group(2)) > 3:
                raise BadInput(f"malformed deck line {number} {line!r}: expected '(rank, suit)' "
                               "with rank 0..12 and suit 0..3 (quagnes format)")
            cards.append(Card(int(m.group(1)) + 1, QUAGNES_SUIT_TO_OURS[int(m.group(2))]))
        tokens = [str(c) for c in cards]
    else:
        tokens = text.replace(",", " ").split()
    return Deal(tuple(parse_cards(tokens, count=52, what="deck")))


def format_deck(deal: Deal, quagnes: bool = False) -> str:
    """The deck in card notation, or in quagnes's file format."""
    if quagnes:
        return "".join(f"({c.rank - 1:2d}, {OURS_TO_QUAGNES_SUIT[c.suit]:d})\n" for c in deal.cards)
    return format_cards(deal.cards)


@dataclass(frozen=True)
class Move:
    """``deal``; ``found`` (bottom card of pile ``src`` to its foundation); ``tableau`` (the
    bottom ``count`` cards of pile ``src`` onto pile ``dst``).  Piles are numbered 1..7."""

    kind: str
    src: int = 0
    dst: int = 0
    count: int = 0
    card: Card | None = None

    def __str__(self) -> str:
        if self.kind == "deal":
            return "deal"
        if self.kind == "found":
            return f"{self.card} from pile {self.src} to foundation"
        what = f"{self.card}" if self.count == 1 else f"{self.count} cards from {self.card}"
        return f"{what} from pile {self.src} to pile {self.dst}"

    def to_json(self) -> dict:
        if self.kind == "deal":
            return {"type": "deal"}
        if self.kind == "found":
            return {"type": "foundation", "from": self.src, "card": str(self.card)}
        return {"type": "tableau", "from": self.src, "to": self.dst, "count": self.count,
                "card": str(self.card)}


_MOVE = re.compile(r"^(?:(deal)|(\S+) from pile ([0-9]) to foundation|"
                   r"(?:([0-9]+) cards from )?(\S+) from pile ([0-9]) to pile ([0-9]))$")


def parse_move(text: str) -> Move:
    """A move as ``str(Move)`` prints it; :class:`BadInput` naming the text otherwise."""
    m = _MOVE.match(text.strip())
    if not m:
        raise BadInput(f"malformed move {text!r}: expected 'deal', 'QC from pile 1 to "
                       "foundation', '4C from pile 4 to pile 3' or '3 cards from 9H from "
                       "pile 6 to pile 2'")
    if m.group(1):
        return Move("deal")
    if m.group(2):
        return Move("found", _pile(m.group(3)), card=Card.parse(m.group(2)))
    count = int(m.group(4)) if m.group(4) else 1
    if count < 2 and m.group(4):
        raise BadInput(f"malformed move {text!r}: a run of {count} card is written as the "
                       "card alone")
    return Move("tableau", _pile(m.group(6)), _pile(m.group(7)), count, Card.parse(m.group(5)))


def _pile(text: str) -> int:
    pile = int(text)
    if not 1 <= pile <= PILES:
        raise BadInput(f"no pile {pile}: piles are numbered 1..{PILES}")
    return pile


@dataclass
class Board:
    """A position: piles (top to bottom, last = playable), hidden counts, foundations, stock."""

    deal: Deal
    rules: Rules
    piles: list[list[Card]] = field(default_factory=lambda: [[] for _ in range(PILES)])
    hidden: list[int] = field(default_factory=lambda: [0] * PILES)
    foundation: list[int] = field(default_factory=lambda: [-1] * 4)  # relative rank on top
    dealt: int = 1

    @classmethod
    def start(cls, deal: Deal, rules: Rules) -> "Board":
        board = cls(deal, rules)
        board.foundation[deal.base.suit] = 0
        for row in range(PILES):
            for j in range(row, PILES):
                board.piles[j].append(deal.cards[board.dealt])
                board.dealt += 1
                if not rules.face_up and j != row:
                    board.hidden[j] += 1
        return board

    def copy(self) -> "Board":
        return Board(self.deal, self.rules, [list(pile) for pile in self.piles], list(self.hidden),
                     list(self.foundation), self.dealt)

    @property
    def stock(self) -> int:
        return 52 - self.dealt

    @property
    def score(self) -> int:
        """Cards on the foundations."""
        return sum(self.foundation) + 4

    def rel(self, card: Card) -> int:
        return self.deal.rel(card)

    def run_lengths(self, p: int) -> list[int]:
        """How many bottom cards of pile ``p`` may move together (before choosing a target)."""
        pile, hidden = self.piles[p], self.hidden[p]
        out = []
        k = 1
        while k <= len(pile) - hidden:
            head = pile[-k]
            above = pile[-k - 1] if len(pile) - k - 1 >= hidden else None
            goes_on = above is not None and self._joins(head, above)
            if self.rules.split or not goes_on:
                out.append(k)
            if not goes_on:
                break
            k += 1
        return out

    def _joins(self, card: Card, onto: Card) -> bool:
        """Whether ``card`` continues a movable run under ``onto``."""
        same = card.suit == onto.suit if self.rules.same_suit else card.is_red == onto.is_red
        return same and self.rel(onto) == self.rel(card) + 1

    def fits_empty(self, head: Card, count: int) -> bool:
        """Whether a run of ``count`` cards headed by ``head`` may go to an empty pile."""
        empty, high = self.rules.empty, self.rel(head) == HIGHEST
        return {"None": False, "Any1": count == 1, "AnyRun": True,
                "High1": count == 1 and high, "HighRun": high}[empty]

    def legal_moves(self) -> list[Move]:
        """Every legal move (no pruning): foundation moves, tableau moves, then the deal."""
        moves = []
        for p, pile in enumerate(self.piles):
            if pile and self.rel(pile[-1]) == self.foundation[pile[-1].suit] + 1:
                moves.append(Move("found", p + 1, card=pile[-1]))
        for p, pile in enumerate(self.piles):
            for k in self.run_lengths(p) if pile else ():
                head = pile[-k]
                for t, target in enumerate(self.piles):
                    if t == p:
                        continue
                    if target:
                        ok = (self.rel(target[-1]) == self.rel(head) + 1
                              and target[-1].is_red == head.is_red)
                    else:
                        ok = self.fits_empty(head, k)
                    if ok:
                        moves.append(Move("tableau", p + 1, t + 1, k, head))
        if self.stock:
            moves.append(Move("deal"))
        return moves

    def apply(self, move: Move, check: bool = True) -> None:
        """Play ``move``; raise :class:`BadInput` if ``check`` and it is not legal here."""
        if check and move not in self.legal_moves():
            raise BadInput(f"illegal move: {move}")
        if move.kind == "deal":
            for p in range(PILES if self.stock > 2 else 2):
                self.piles[p].append(self.deal.cards[self.dealt])
                self.dealt += 1
            return
        src = self.piles[move.src - 1]
        if move.kind == "found":
            card = src.pop()
            self.foundation[card.suit] += 1
        else:
            run = src[-move.count:]
            del src[-move.count:]
            self.piles[move.dst - 1].extend(run)
        if src and self.hidden[move.src - 1] == len(src):
            self.hidden[move.src - 1] -= 1

    def __str__(self) -> str:
        found = " ".join(
            "--" if self.foundation[s] < 0 else
            str(Card((self.deal.base.rank - 1 + self.foundation[s]) % 13 + 1, s))
            for s in range(4))
        rows = [f"foundations {found}   stock {self.stock}"]
        for p, pile in enumerate(self.piles):
            shown = ["##" if i < self.hidden[p] else str(c) for i, c in enumerate(pile)]
            rows.append(f"pile {p + 1}: " + " ".join(shown))
        return "\n".join(rows)


def replay(deal: Deal, rules: Rules, moves: list[Move]) -> Board:
    """Play ``moves`` from the start; raise :class:`BadInput` naming the first illegal one."""
    board = Board.start(deal, rules)
    for number, move in enumerate(moves, 1):
        if move not in board.legal_moves():
            raise BadInput(f"move {number} ({move}) is illegal")
        board.apply(move, check=False)
    return board
