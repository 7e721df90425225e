"""Hard cases for puzzle designers, built backwards from the position the removals end in.

``path``: S = N, POSSIBLE only through one source-to-target path of ``length`` suits.  Once
every removable card is gone, stack A1 holds the source's lone ace under the king of suit 2,
A2 the ace of suit 2 under the king of suit 3, ..., and A_L the ace of suit L under the ace of
suit L+1 (the target); one stack is empty and each other suit's ace stands alone.
``blocked``: S = N, IMPOSSIBLE although every stack's bottom card is its suit's highest: the
removals end with ``length`` stacks each showing the king of the next one's suit (a cycle) and
every other stack down to its ace, so no stack ever empties.

Cards are then added on top, each beaten by a card showing on another stack at that moment, so
played forwards they all fall in one long cascade of removals back to that position.
"""
from __future__ import annotations

import random

from solvers.errors import BadInput
from solvers.stackmgmt.checker import decide
from solvers.stackmgmt.contest import MAX_CARD, Case


class _Builder:
    """Stacks of card ids; a card's value is fixed at the end, lower the later it was made,
    so every card is lower than the aces, kings and beaters made before it."""

    def __init__(self, n: int, c: int, rng: random.Random) -> None:
        self.n, self.c, self.rng = n, c, rng
        self.stacks: list[list[int]] = [[] for _ in range(n)]
        self.suit: list[int] = []
        self.per_suit = [0] * (n + 1)
        self.ace = {s: self.new(s) for s in range(1, n + 1)}
        self.king = {s: self.new(s) for s in range(1, n + 1)}

    def new(self, suit: int) -> int:
        self.per_suit[suit] += 1
        if self.per_suit[suit] > MAX_CARD:
            raise BadInput(f"a suit would need more than {MAX_CARD} cards, but values stop at "
                           f"{MAX_CARD}: use more stacks or fewer cards per stack")
        self.suit.append(suit)
        return len(self.suit) - 1

    def bury(self, stack: int, count: int, suits: list[int]) -> None:
        """``count`` cards that stay hidden until the end (lower than every king)."""
        for _ in range(count):
            self.stacks[stack].append(self.new(self.rng.choice(suits)))

    def cascade(self) -> None:
        """Fill every stack to ``c`` cards, each new card beaten by a card showing on another
        stack, so a cascade of removals takes them all away again."""
        short = [i for i, s in enumerate(self.stacks) if len(s) < self.c]
        filled = [i for i, s in enumerate(self.stacks) if s]  # two or more from the start
        while short:
            k = self.rng.randrange(len(short))
            i = j = short[k]
            while j == i:
                j = self.rng.choice(filled)
            self.stacks[i].append(self.new(self.suit[self.stacks[j][-1]]))
            if len(self.stacks[i]) == 1:
                filled.append(i)
            if len(self.stacks[i]) == self.c:
                short[k] = short[-1]
                short.pop()

    def case(self) -> Case:
        """The case with values assigned, stacks shuffled and suits relabelled."""
        placed = sorted(card for stack in self.stacks for card in stack)
        by_suit: dict[int, list[int]] = {}
        for card in placed:
            by_suit.setdefault(self.suit[card], []).append(card)
        value = {}
        for cards in by_suit.values():
            for card, v in zip(cards, sorted(self.rng.sample(range(1, MAX_CARD + 1),
                                                             len(cards)), reverse=True)):
                value[card] = v
        label = list(range(1, self.n + 1))
        self.rng.shuffle(label)
        self.rng.shuffle(self.stacks)
        return Case.from_stacks([[(value[k], label[self.suit[k] - 1]) for k in stack]
                                 for stack in self.stacks])


def _path(b: _Builder, length: int) -> None:
    n, c, rng = b.n, b.c, b.rng
    free = list(range(length + 2, n + 1))
    hidden = list(range(2, n + 1))  # never suit 1: the source's ace is its only card
    for i in range(1, length + 1):
        b.stacks[i - 1].append(b.ace[i])
        b.bury(i - 1, rng.randint(0, c - 2), hidden)
        b.stacks[i - 1].append(b.ace[i + 1] if i == length else b.king[i + 1])
    for j, suit in enumerate(free):
        b.stacks[length + 1 + j].append(b.ace[suit])


def _blocked(b: _Builder, length: int) -> None:
    n, c, rng = b.n, b.c, b.rng
    suits = list(range(1, n + 1))
    for i in suits:
        b.stacks[i - 1].append(b.ace[i])
        if i <= length:
            b.bury(i - 1, rng.randint(0, c - 2), suits)
            b.stacks[i - 1].append(b.king[i % length + 1])


#: Cards generated in one run at most (about 40 seconds and 1 GB), and the memory a card takes
#: while its case is built (``BYTES_BUILDING``) and once it is kept for the output.
MAX_CARDS, BYTES_BUILDING, BYTES_KEPT = 10_000_000, 120, 60


def check_size(kind: str, n: int, c: int, length: int | None, count: int = 1) -> int:
    """The path or cycle length of ``count`` cases of ``n`` stacks of ``c`` cards (the longest
    that fits when ``length`` is None); :class:`BadInput` for a size the format or the run
    cannot hold."""
    longest = n - 2 if kind == "path" else n
    length = longest if length is None else length
    if c < 2 or not 1 <= length <= longest:
        raise BadInput(f"a {kind} case of {n} stacks of {c} cards needs 2 or more cards a "
                       f"stack and a length from 1 to {longest}, got {length}")
    if n > MAX_CARD or c > MAX_CARD:
        raise BadInput(f"{n} stacks of {c} cards: a case has at most {MAX_CARD} suits (one a "
                       f"stack) of at most {MAX_CARD} cards")
    if count * n * c > MAX_CARDS:
        raise BadInput(f"{count} case(s) of {n} stacks of {c} cards make {count * n * c:,} "
                       f"cards; one run generates at most {MAX_CARDS:,}")
    return length


def bytes_needed(n: int, c: int, count: int = 1) -> int:
    """Memory to generate ``count`` cases of ``n`` stacks of ``c`` cards and keep them."""
    return n * c * (BYTES_BUILDING + count * BYTES_KEPT)


def generate(kind: str, n: int, c: int, length: int | None, seed: int) -> Case:
    """One hard case (see the module docstring), checked by the solver before it is returned."""
    length = check_size(kind, n, c, length)
    b = _Builder(n, c, random.Random(seed))
    (_path if kind == "path" else _blocked)(b, length)
    b.cascade()
    case = b.case()
    verdict = decide(case)
    expect = (True, length) if kind == "path" else (False, 0)
    if (verdict.possible, len(verdict.path)) != expect or verdict.suits != n:
        raise AssertionError(f"generated {kind} case came out {verdict}")
    return case
