"""Simulated players of Stack Management and the exact chance that each one wins.

A position is a sequence of stacks, bottom to top, of card keys ``suit << 16 | value`` (so two
keys of one suit compare as their values).  Removing a beaten card never hurts (the highest
card of a suit on top never drops), so both players first remove every card they can; what
remains is a choice of which top card to put on an empty stack.  The *careful* player picks
uniformly among the top cards of stacks of two or more cards; the *eager* player looks one move
ahead and picks uniformly among the moves that set off a removal, if there are any.

Each of these chances is exact: a recursion over the positions the player can reach, remembered
up to the order of the stacks, where :func:`winnable` (the analysis' criterion for any position,
linear in the cards) cuts off every lost position at once.  The *random* player, who may also
move before removing, reaches too many positions for that; its chance is estimated by sampling.
"""
from __future__ import annotations

from typing import Sequence

from solvers.errors import LimitReached
from solvers.result import Chance

SHIFT = 16
Stacks = Sequence[Sequence[int]]


def settle(stacks: Stacks) -> list[list[int]]:
    """The stacks once every removable card is gone (the same in whatever order)."""
    st = [list(s) for s in stacks]
    high: dict[int, int] = {}
    holder: dict[int, int] = {}
    work: list[int] = []

    def show(i: int) -> None:
        """Note the new top of stack ``i``: it is beaten, or it beats the last holder."""
        k = st[i][-1]
        suit = k >> SHIFT
        h = high.get(suit, 0)
        if k < h:
            work.append(i)
        else:
            if h:
                work.append(holder[suit])
            high[suit], holder[suit] = k, i

    for i in range(len(st)):
        if st[i]:
            show(i)
    while work:
        i = work.pop()
        s = st[i]
        if s and s[-1] < high[s[-1] >> SHIFT]:
            s.pop()
            if s:
                show(i)
    return st


def won(stacks: Stacks) -> bool:
    return all(len(s) <= 1 for s in stacks)


def ace_path(stacks: Stacks) -> list[int] | None:
    """For settled stacks with as many suits as stacks, not won and with an empty stack: the
    stacks of a source-to-target path of aces (see ``checker``), or None if there is none."""
    ace: dict[int, int] = {}
    for s in stacks:
        for k in s:
            if k > ace.get(k >> SHIFT, 0):
                ace[k >> SHIFT] = k
    king: dict[int, int] = {}
    king_stack: dict[int, int] = {}
    for i, s in enumerate(stacks):
        for k in s:
            if k != ace[k >> SHIFT] and k > king.get(k >> SHIFT, 0):
                king[k >> SHIFT], king_stack[k >> SHIFT] = k, i
    n = len(stacks)
    vertex = [bool(s) and s[0] == ace[s[0] >> SHIFT] for s in stacks]
    pred = [-1] * n
    for b, s in enumerate(stacks):
        a = king_stack.get(s[0] >> SHIFT, -1) if vertex[b] else -1
        if a != b and a >= 0 and vertex[a]:
            pred[b] = a
    for t, s in enumerate(stacks):
        if not vertex[t] or sum(k == ace[k >> SHIFT] for k in s) < 2:
            continue
        chain = [t]
        while pred[chain[-1]] >= 0 and len(chain) <= n:
            chain.append(pred[chain[-1]])
        if (stacks[chain[-1]][0] >> SHIFT) not in king:
            return chain[::-1]
    return None


def winnable(stacks: Stacks) -> bool:
    """Whether the position can still be won: the analysis' criterion, for any heights."""
    suits = len({k >> SHIFT for s in stacks for k in s})
    if suits != len(stacks):
        return suits < len(stacks)
    st = settle(stacks)
    if won(st):
        return True
    if all(st):
        return False
    return ace_path(st) is not None


def choices(stacks: Stacks) -> list[list[list[int]]]:
    """The settled positions after each move a player weighs in settled, unwon ``stacks``:
    the top card of each stack of two or more onto the first empty stack (none if no stack is
    empty; other empty stacks and lone cards only permute the stacks)."""
    empty = next((i for i, s in enumerate(stacks) if not s), None)
    if empty is None:
        return []
    out = []
    for i, s in enumerate(stacks):
        if len(s) >= 2:
            child = [list(t) for t in stacks]
            child[empty].append(child[i].pop())
            out.append(settle(child))
    return out


def _cards(stacks: Stacks) -> int:
    return sum(map(len, stacks))


class Chances:
    """The exact chance that a player wins from each position it reaches, remembered up to the
    order of the stacks; :class:`LimitReached` past ``max_positions`` stored positions."""

    def __init__(self, eager: bool, max_positions: int) -> None:
        self.eager = eager
        self.max_positions = max_positions
        self.memo: dict[tuple, float] = {}

    def __call__(self, stacks: Stacks) -> float:
        """The chance of a win from ``stacks`` (removals are made first)."""
        st = settle(stacks)
        if won(st):
            return 1.0
        key = tuple(sorted(map(tuple, st)))
        if key in self.memo:
            return self.memo[key]
        if len(self.memo) >= self.max_positions:
            kind = "eager" if self.eager else "careful"
            raise LimitReached(f"the {kind} player's chance needs more than "
                               f"{self.max_positions:,} positions")
        self.memo[key] = 0.0  # every move shrinks the position, so no line comes back here
        options = choices(st) if winnable(st) else []
        if self.eager:
            cards = _cards(st)
            options = [c for c in options if _cards(c) < cards] or options
        chance = sum(map(self, options)) / len(options) if options else 0.0
        self.memo[key] = chance
        return chance

    def chance(self, stacks: Stacks) -> Chance:
        """The player's exact chance of a win from ``stacks``."""
        return Chance.exactly(self(stacks))


def _random_options(stacks: Stacks) -> list[list[list[int]]]:
    """The positions after each move a random player may make: every removal, and the top
    card of each stack of two or more onto the first empty stack."""
    high: dict[int, int] = {}
    for s in stacks:
        if s and s[-1] > high.get(s[-1] >> SHIFT, 0):
            high[s[-1] >> SHIFT] = s[-1]
    out = []
    for i, s in enumerate(stacks):
        if s and s[-1] < high[s[-1] >> SHIFT]:
            child = [list(t) for t in stacks]
            child[i].pop()
            out.append(child)
    empty = next((i for i, s in enumerate(stacks) if not s), None)
    if empty is not None:
        for i, s in enumerate(stacks):
            if len(s) >= 2:
                child = [list(t) for t in stacks]
                child[empty].append(child[i].pop())
                out.append(child)
    return out


def random_chance(stacks: Stacks, particles: int, rng) -> Chance:
    """The chance that a player choosing uniformly among every removal and every move wins,
    estimated by ``particles`` lines drawn with ``rng``: each line keeps to winnable positions
    and weighs itself by the share of winnable options at each step (an unbiased estimate; no
    interval is measured)."""
    total = 0.0
    for _ in range(particles):
        st = [list(s) for s in stacks]
        weight = 1.0
        while weight and not won(st):
            options = _random_options(st)
            safe = [o for o in options if winnable(o)]
            weight *= len(safe) / len(options) if options else 0.0
            if safe:
                st = rng.choice(safe)
        total += weight
    return Chance(total / particles, games=particles)
