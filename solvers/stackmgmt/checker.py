"""The graph-path criterion of the Code Jam 2017 analysis, linear in the cards.

With S suits and N stacks: S < N always wins, S > N never does.  For S = N, first remove every
card that can be removed.  If that wins, or leaves no empty stack, the case is decided.  Otherwise
build a graph on the suits whose highest card (its *ace*) lies at the bottom of a stack: a suit is
a *source* if its ace is its only card left, a *target* if another ace lies in the ace's stack,
and there is an edge s1 -> s2 when the second-highest card left of s2 (its *king*) lies in the
stack of s1's ace.  The case is winnable if and only if some path leads from a source to a target.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.stackmgmt.contest import MAX_CARD, Case


@dataclass(frozen=True)
class Verdict:
    """The checker's decision.

    ``heights`` are the stack heights once every removable card is gone.  ``path`` lists the
    stacks of the aces along a source-to-target path with no other target on it; ``frozen`` is
    the number of cards at the bottom of its last stack up to and including the lowest ace
    above the bottom one.
    """

    possible: bool
    suits: int
    reason: str
    heights: list[int]
    path: list[int]
    frozen: int = 0


def remove_beaten(keys: list[int], firsts: list[int], c: int) -> list[int]:
    """Stack heights once no card can be removed.

    Stack i holds ``keys[firsts[i]:firsts[i] + c]``, top first, each card ``suit << 16 | value``
    (so comparing keys of one suit compares values).  A top card is removable exactly when its
    suit's highest card ever on top is higher; that highest card only changes by growing, so a
    work list of stacks whose top may have become removable reaches the end in linear time.
    """
    high = [0] * (MAX_CARD + 1)
    holder = [0] * (MAX_CARD + 1)
    tops = list(firsts)
    work = []
    for i, t in enumerate(tops):
        k = keys[t]
        s = k >> 16
        if k < high[s]:
            work.append(i)
        else:
            if high[s]:
                work.append(holder[s])
            high[s], holder[s] = k, i
    push, pop = work.append, work.pop
    while work:
        i = pop()
        t, end = tops[i], firsts[i] + c
        if t == end or keys[t] >= high[keys[t] >> 16]:
            continue  # emptied, or no longer beaten: listed twice
        while True:  # remove the top, then look at the card it uncovers
            t += 1
            if t == end:
                break
            k = keys[t]
            s = k >> 16
            if k < high[s]:
                continue
            if high[s]:
                push(holder[s])
            high[s], holder[s] = k, i
            break
        tops[i] = t
    return [f + c - t for f, t in zip(firsts, tops)]


def decide(case: Case) -> Verdict:
    """Whether ``case`` can be won, with the path that wins it (see the module docstring)."""
    n, c = case.n, case.c
    keys = case.premade.keys
    firsts = case.premade.first[case.picks]
    suits = keys[(firsts[:, None] + np.arange(c)).ravel()] >> 16
    suit_count = int(np.count_nonzero(np.bincount(suits)))
    if suit_count != n:
        less = suit_count < n
        return Verdict(less, suit_count, f"{suit_count} suits {'<' if less else '>'} "
                       f"{n} stacks", [], [])
    heights = remove_beaten(case.premade.key_list, firsts.tolist(), c)
    if max(heights) <= 1:
        return Verdict(True, n, "won by removals alone", heights, [])
    if min(heights) > 0:
        return Verdict(False, n, "no empty stack once every removable card is gone",
                       heights, [])
    return _path_verdict(keys, firsts, c, heights)


def _path_verdict(keys: np.ndarray, firsts: np.ndarray, c: int, heights: list[int]) -> Verdict:
    n = len(heights)
    h = np.array(heights)
    tops = firsts + c - h
    # The cards left, as indices into keys, with their stacks.
    stack = np.repeat(np.arange(n), h)
    card = np.repeat(tops - (np.cumsum(h) - h), h) + np.arange(stack.size)
    key = keys[card]
    suit = key >> 16
    ace = np.zeros(MAX_CARD + 1, dtype=np.int64)
    np.maximum.at(ace, suit, key)
    is_ace = key == ace[suit]
    king = np.zeros(MAX_CARD + 1, dtype=np.int64)
    np.maximum.at(king, suit[~is_ace], key[~is_ace])
    is_king = ~is_ace & (key == king[suit])
    king_stack = np.full(MAX_CARD + 1, -1)
    king_stack[suit[is_king]] = stack[is_king]

    bottom = keys[firsts + c - 1]
    vertex = (h > 0) & (bottom == ace[bottom >> 16])
    target = vertex & (np.bincount(stack[is_ace], minlength=n) >= 2)
    k = king_stack[bottom >> 16]
    source = vertex & (k < 0)
    # In-degree is at most one (a suit's king lies in one stack): walk back from each target.
    pred = np.where(vertex & (k >= 0) & (k != np.arange(n)) & vertex[k], k, -1).tolist()
    targets = np.flatnonzero(target).tolist()
    source, target = source.tolist(), target.tolist()
    seen = [False] * n
    for t in targets:
        chain = [t]
        while not source[chain[-1]]:
            a = chain[-1]
            if seen[a] or pred[a] < 0:
                break
            seen[a] = True
            chain.append(pred[a])
        else:
            path = chain[::-1]
            path = path[:next(i for i, a in enumerate(path) if target[a]) + 1]
            end = path[-1]
            column = keys[firsts[end] + c - 1 - np.arange(heights[end])]
            frozen = 2 + int(np.flatnonzero(column[1:] == ace[column[1:] >> 16])[0])
            return Verdict(True, n, f"a source-to-target path through {len(path)} ace "
                           f"stack{'s' * (len(path) > 1)}", heights, path, frozen)
    return Verdict(False, n, "no path from a source to a target", heights, [])
