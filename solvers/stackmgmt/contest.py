"""The Code Jam 2017 input format: premade stacks, then cases that pick N of them.

Line 1 holds P; each of the next P lines is ``C_i`` and ``C_i`` value-suit pairs, top card first;
then a line with T and, for each case, a line ``N C`` and a line with N distinct indices
(from 0) of premade stacks of exactly C cards.  No card may occur twice within a case.
Values and suits are integers from 1 to 50000, as in the contest.

Parsing is vectorised over the bytes of the file (the large practice file has 2 MB), and a
case refers to the shared premade stacks rather than copying its up to 100,000 cards.
"""
from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from solvers.errors import BadInput

MAX_CARD = 50000
#: Numbers of this many digits or more are checked to fit a 64-bit integer.
MAX_DIGITS = 19


@dataclass(frozen=True, eq=False)
class Premade:
    """All premade stacks: ``keys[j]`` is card j as ``suit << 16 | value``, each stack top
    first from ``first[k]`` with ``sizes[k]`` cards."""

    keys: np.ndarray
    first: np.ndarray
    sizes: np.ndarray

    @cached_property
    def key_list(self) -> list[int]:
        return self.keys.tolist()

    @cached_property
    def shared(self) -> tuple[np.ndarray, np.ndarray]:
        """The cards whose key occurs more than once, and the premade stack of each."""
        order = np.argsort(self.keys, kind="stable")
        k = self.keys[order]
        twice = np.zeros(k.size, dtype=bool)
        twice[1:] = k[1:] == k[:-1]
        twice[:-1] |= twice[1:]
        cards = np.sort(order[twice])
        return cards, np.searchsorted(self.first, cards, side="right") - 1


@dataclass(frozen=True, eq=False)
class Case:
    """One case: the premade stacks ``picks`` (each of ``c`` cards), stack i being picks[i]."""

    premade: Premade
    picks: np.ndarray
    c: int

    @property
    def n(self) -> int:
        return len(self.picks)

    @property
    def cards(self) -> int:
        return self.n * self.c

    def index(self) -> np.ndarray:
        """(N, C) indices into ``premade.keys``, column 0 the bottom card."""
        return self.premade.first[self.picks][:, None] + np.arange(self.c - 1, -1, -1)

    @property
    def values(self) -> np.ndarray:
        return self.premade.keys[self.index()] & 0xFFFF

    @property
    def suits(self) -> np.ndarray:
        return self.premade.keys[self.index()] >> 16

    def stacks(self) -> list[list[tuple[int, int]]]:
        """The stacks as lists of ``(value, suit)`` cards, bottom to top."""
        return [list(zip(v, s)) for v, s in zip(self.values.tolist(), self.suits.tolist())]

    @classmethod
    def from_stacks(cls, stacks: list[list[tuple[int, int]]]) -> "Case":
        """A case from equal-height stacks of ``(value, suit)`` cards, bottom to top; its
        own premade stacks.  :class:`BadInput` if heights differ or a card repeats."""
        c = len(stacks[0]) if stacks else 0
        if not stacks or c == 0 or any(len(s) != c for s in stacks):
            raise BadInput("a case needs one or more stacks, all of the same height >= 1")
        cards = [card for s in stacks for card in reversed(s)]
        if len(set(cards)) != len(cards):
            raise BadInput("a card occurs twice in the case")
        if not all(1 <= v <= MAX_CARD and 1 <= s <= MAX_CARD for v, s in cards):
            raise BadInput(f"values and suits must lie in 1..{MAX_CARD}")
        keys = np.array([s << 16 | v for v, s in cards], dtype=np.int64)
        n = len(stacks)
        premade = Premade(keys, np.arange(n, dtype=np.int64) * c, np.full(n, c))
        return cls(premade, np.arange(n), c)


def _tokens(text: str) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The numbers of ``text``, the line (from 0) of each, and each line's count of them."""
    raw = np.frombuffer(text.encode("utf-8", "replace"), dtype=np.uint8)
    space = np.isin(raw, np.frombuffer(b" \t\n\r\v\f", dtype=np.uint8))
    bad = np.flatnonzero(~space & ((raw < 48) | (raw > 57)))
    newline = np.cumsum(raw == 10)
    if bad.size:
        line = int(newline[bad[0]])
        tokens = [t for t in re.split(r"[ \t\r\v\f]+", text.split("\n")[line])
                  if t and not (t.isascii() and t.isdigit())]
        what = f"{tokens[0]!r} is not a whole number" if tokens else \
            f"unexpected character {chr(raw[bad[0]])!r}"
        raise BadInput(f"line {line + 1}: {what}")
    start = np.flatnonzero(~space & np.concatenate(([True], space[:-1])))
    token_line = newline[start] if start.size else np.zeros(0, dtype=np.int64)
    end = np.flatnonzero(~space & np.concatenate((space[1:], [True])))
    for k in np.flatnonzero(end - start + 1 >= MAX_DIGITS).tolist():  # rare: checked one by one
        token = raw[start[k]:end[k] + 1].tobytes().decode()
        if int(token) > np.iinfo(np.int64).max:
            shown = token if len(token) <= 30 else token[:27] + "..."
            raise BadInput(f"line {int(token_line[k]) + 1}: {shown} is too large a number")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nums = np.fromstring(text, dtype=np.int64, sep=" ") if start.size else \
            np.zeros(0, dtype=np.int64)
    counts = np.bincount(token_line).tolist()  # trailing blank lines are not counted
    return nums, token_line, counts


class _Reader:
    """Walks the lines of a contest input by their token counts."""

    def __init__(self, text: str) -> None:
        self.nums, self.token_line, self.counts = _tokens(text)
        self.line = 0
        self.tok = 0

    def numbers(self, what: str, count: int) -> tuple[np.ndarray, int]:
        """The next line's numbers, which must be ``count``; and its line number (from 1)."""
        if not self.nums.size:
            raise BadInput(f"line 1: the input is empty; expected {what}")
        if self.line >= len(self.counts) or self.tok >= self.nums.size:
            raise BadInput(f"line {self.line + 1}: input ends where {what} was expected")
        found = self.counts[self.line]
        if found != count:
            raise BadInput(f"line {self.line + 1}: expected {what} ({count} numbers), "
                           f"found {found} numbers")
        self.line += 1
        self.tok += count
        return self.nums[self.tok - count:self.tok], self.line

    def premade(self, p: int) -> Premade:
        """The next ``p`` lines as premade stacks."""
        lines = self.counts[self.line:self.line + p]
        if len(lines) < p:
            raise BadInput(f"line {self.line + len(lines) + 1}: input ends where premade "
                           f"stack {len(lines)} of {p} was expected")
        counts = np.array(lines)
        heads = self.tok + np.concatenate(([0], np.cumsum(counts)[:-1]))
        sizes = self.nums[np.minimum(heads, self.nums.size - 1)]
        wrong = np.flatnonzero((counts != 2 * sizes + 1) | (sizes < 1))
        if wrong.size:
            k = int(wrong[0])
            raise BadInput(f"line {self.line + k + 1}: premade stack {k} must be a card "
                           f"count C >= 1 followed by C value-suit pairs, found "
                           f"{counts[k]} numbers")
        end = self.tok + int(counts.sum())
        pairs = np.ones(end - self.tok, dtype=bool)
        pairs[heads - self.tok] = False
        cards = self.nums[self.tok:end][pairs].reshape(-1, 2)
        out = np.flatnonzero((cards < 1).any(axis=1) | (cards > MAX_CARD).any(axis=1))
        if out.size:
            j = int(out[0])
            k = int(np.searchsorted(np.cumsum(sizes), j, side="right"))
            v, s = cards[j].tolist()
            raise BadInput(f"line {self.line + k + 1}: card ({v},{s}) has a value or suit "
                           f"outside 1..{MAX_CARD}")
        first = np.concatenate(([0], np.cumsum(sizes)[:-1]))
        self.line += p
        self.tok = end
        return Premade(cards[:, 1] << 16 | cards[:, 0], first, sizes)

    def check_end(self) -> None:
        if self.tok < self.nums.size:
            raise BadInput(f"line {int(self.token_line[self.tok]) + 1}: unexpected numbers "
                           f"after the last case")


def _check_picks(premade: Premade, picks: np.ndarray, c: int, x: int, lineno: int) -> None:
    p = premade.sizes.size
    out = picks[(picks < 0) | (picks >= p)]
    if out.size:
        raise BadInput(f"line {lineno}: premade stack {out[0]} does not exist (indices run "
                       f"from 0 to {p - 1})")
    uniq, counts = np.unique(picks, return_counts=True)
    if (counts > 1).any():
        raise BadInput(f"line {lineno}: premade stack {uniq[counts > 1][0]} is used twice "
                       f"in case #{x}")
    wrong = picks[premade.sizes[picks] != c]
    if wrong.size:
        raise BadInput(f"line {lineno}: premade stack {wrong[0]} has "
                       f"{premade.sizes[wrong[0]]} cards but case #{x} needs C = {c}")
    cards, stacks = premade.shared
    mine = cards[np.isin(stacks, picks)]
    keys, counts = np.unique(premade.keys[mine], return_counts=True)
    if (counts > 1).any():
        key = int(keys[counts > 1][0])
        raise BadInput(f"line {lineno}: card ({key & 0xFFFF},{key >> 16}) occurs twice "
                       f"in case #{x}")


def parse_contest(text: str) -> list[Case]:
    """All cases of a contest input; :class:`BadInput` names the line and what is wrong."""
    reader = _Reader(text)
    (p,), _ = reader.numbers("the number of premade stacks P", 1)
    if p < 1:
        raise BadInput("line 1: the number of premade stacks must be at least 1, found 0")
    premade = reader.premade(int(p))
    (t,), lineno = reader.numbers("the number of cases T", 1)
    if t < 1:
        raise BadInput(f"line {lineno}: the number of cases must be at least 1, found 0")
    cases = []
    for x in range(1, int(t) + 1):
        (n, c), lineno = reader.numbers(f"'N C' of case #{x}", 2)
        if n < 1 or c < 1:
            raise BadInput(f"line {lineno}: case #{x} needs N >= 1 stacks of C >= 1 cards, "
                           f"found N = {n}, C = {c}")
        picks, lineno = reader.numbers(f"the {n} premade stack indices of case #{x}", int(n))
        _check_picks(premade, picks, int(c), x, lineno)
        cases.append(Case(premade, picks, int(c)))
    reader.check_end()
    return cases


def format_contest(cases: list[Case]) -> str:
    """Contest input for ``cases``, each stack its own premade stack."""
    out = [str(sum(case.n for case in cases))]
    for case in cases:
        for v, s in zip(case.values[:, ::-1].tolist(), case.suits[:, ::-1].tolist()):
            out.append(" ".join([str(len(v))] + [f"{a} {b}" for a, b in zip(v, s)]))
    out.append(str(len(cases)))
    first = 0
    for case in cases:
        out.append(f"{case.n} {case.c}")
        out.append(" ".join(str(first + i) for i in range(case.n)))
        first += case.n
    return "\n".join(out) + "\n"
