"""The hot search of one Montana round: depth-first with undo on one board (numba).

Encoding: a layout of ``4 * n`` cells holds card codes ``suit * n + rank - 1`` (ranks 2..n, so
codes are never a multiple of ``n``) and 0 for a gap.  The transposition table stores the exact
layout as digits ``code - code // n`` (0 for a gap, so base ``4 * (n - 1) + 1``) packed into
64-bit words, cell ``i`` being worth ``mul[i]`` in word ``word[i]`` (five words for 52 cards),
kept up to date move by move.  The top bits of the last word, from ``shift`` up, hold a
generation stamp: a slot whose stamp is not the current one is empty, so the table needs no
clearing between searches, and it never confuses two layouts.

The search visits every layout reachable in the round once and keeps the first one with the
most locked cards (a win stops it).  With ``prune`` a layout is not expanded when an upper bound
on the locked cards of everything reachable from it is no better than the best seen; the bound
comes from cards that can never move again (see ``_upper_bound``).

Sleep sets (with the table, without ``prune`` or movable Twos): a move that commutes with the
move just made and was already tried from the parent (or was asleep there) leads to a layout
the table already holds, so it is skipped without being made.  Without movable Twos no layout
recurs in a round (a Two moves only into the first column and stays; the lowest other card
moving in a cycle could only ever move into the cell right of its unmoving predecessor), so
every layout in the table is either on the current line or fully searched, and the skipped
layout is fully searched: the search finds the same layouts in the same order, with fewer
probes of the table (``nodes`` counts the moves made).
"""
import numpy as np
from numba import njit

from solvers.timing import now

EXHAUSTED, WON, LIMIT = 0, 1, 2
MAX_MOVES = 16  # four gaps; a first-column gap takes one of four Twos


@njit(cache=True)
def locked(board, n):
    """Cards locked from the first column: a Two and its consecutive same-suit successors."""
    total = 0
    for row in range(4):
        base = row * n
        first = board[base]
        if first == 0 or first % n != 1:
            continue
        k = 1
        while k < n - 1 and board[base + k] == first + k:
            k += 1
        total += k
    return total


@njit(cache=True)
def _gen_moves(board, pos, gaps, n, movable_twos, src, dst):
    """Fill ``src``/``dst`` with the legal moves (card cell -> gap cell); return their count."""
    m = 0
    for j in range(4):
        g = gaps[j]
        if g % n == 0:
            for suit in range(4):
                p = pos[suit * n + 1]
                if p % n != 0 or (movable_twos and p != g):
                    src[m] = p
                    dst[m] = g
                    m += 1
        else:
            left = board[g - 1]
            if left != 0 and left % n != n - 1:
                src[m] = pos[left + 1]
                dst[m] = g
                m += 1
    return m


@njit(cache=True)
def _move(board, pos, gaps, key, word, mul, n, src, dst):
    """Move the card at ``src`` into the gap at ``dst`` (its own undo with the cells swapped)."""
    card = board[src]
    board[dst] = card
    board[src] = 0
    pos[card] = dst
    for j in range(4):
        if gaps[j] == dst:
            gaps[j] = src
    digit = np.uint64(card - card // n)
    key[word[src]] -= digit * mul[src]
    key[word[dst]] += digit * mul[dst]


@njit(cache=True)
def _commute(s1, t1, s2, t2):
    """Whether two legal moves stay legal after each other and reach the same layout."""
    return s1 != s2 and t1 != t2 and s1 != t2 - 1 and s2 != t1 - 1


@njit(cache=True)
def _insert(keys, key, shift, gen, states, max_states):
    """Add ``key`` to the table: 1 if new, 0 if already there, 2 if the table is full."""
    last = key.shape[0] - 1
    h = np.uint64(0x243F6A8885A308D3)
    for w in range(last + 1):
        h = (h ^ key[w]) * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(29)
    mask = keys.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    while keys[slot, last] >> shift == gen:
        same = True
        for w in range(last + 1):
            if keys[slot, w] != key[w]:
                same = False
                break
        if same:
            return 0
        slot = (slot + 1) & mask
    if states >= max_states:
        return 2
    keys[slot, :] = key
    return 1


@njit(cache=True)
def _upper_bound(board, pos, n, movable_twos, mobile):
    """An upper bound on the locked cards of every layout reachable from this one.

    ``mobile`` becomes the least fixed point of "this card may move again": a Two may if it
    may leave its cell for a first-column cell that is a gap or holds a card that may move; any
    other card may if its predecessor may, or if the cell right of its predecessor (not the
    card itself, not past the last column) is a gap or holds a card that may move.  The first
    card of the others to move would contradict this, so the rest stay put for good; a row
    then locks at most up to its first stuck cell that is wrong, or whose right card is stuck
    elsewhere.
    """
    mobile[:] = False
    changed = True
    while changed:
        changed = False
        for suit in range(4):
            for rank in range(2, n + 1):
                code = suit * n + rank - 1
                if mobile[code]:
                    continue
                p = pos[code]
                may = False
                if rank == 2:
                    if p % n != 0 or movable_twos:
                        for row in range(4):
                            q = row * n
                            if q != p and (board[q] == 0 or mobile[board[q]]):
                                may = True
                                break
                elif mobile[code - 1]:
                    may = True
                else:
                    pp = pos[code - 1]
                    if pp % n != n - 1:
                        q = pp + 1
                        may = q != p and (board[q] == 0 or mobile[board[q]])
                if may:
                    mobile[code] = True
                    changed = True
    any_two = False
    for suit in range(4):
        any_two = any_two or mobile[suit * n + 1]
    total = 0
    for row in range(4):
        base = row * n
        first = board[base]
        suit = -1
        if first != 0 and not mobile[first]:
            if first % n != 1:
                continue
            suit = first // n
        elif not (any_two or (first != 0 and first % n == 1)):
            continue
        k = 1
        while k < n - 1:
            v = board[base + k]
            if v != 0 and not mobile[v]:
                if v % n != k + 1 or (suit >= 0 and v // n != suit):
                    break
                suit = v // n
            elif suit >= 0:
                need = suit * n + k + 1
                if not mobile[need]:
                    break
            k += 1
        total += k
    return total


@njit(cache=True)
def search(board0, n, movable_twos, use_tt, prune, node_cap, second_cap, max_states,
           keys, word, mul, shift, gen, best_src, best_dst, src, dst, asleep, count, nxt,
           path_src, path_dst):
    """Search one round from ``board0``.

    Returns ``(status, best, moves, nodes, states)``: status EXHAUSTED (``best`` is the exact
    maximum), WON, or LIMIT (nodes, seconds, ``max_states`` table entries or the depth of
    ``best_src``); the line of play to the best layout is ``best_src/best_dst[:moves]``.  The
    other arrays are per-depth scratch with as many rows as ``best_src`` (only the rows of the
    current line are used, so untouched memory costs nothing).
    Caps below zero mean unlimited.
    """
    cells = 4 * n
    board = board0.copy()
    pos = np.full(cells, -1, np.int64)
    gaps = np.empty(4, np.int64)
    ng = 0
    key = np.zeros(keys.shape[1], np.uint64)
    key[-1] = gen << shift
    for i in range(cells):
        v = board[i]
        if v == 0:
            gaps[ng] = i
            ng += 1
        else:
            pos[v] = i
            key[word[i]] += np.uint64(v - v // n) * mul[i]
    max_depth = best_src.shape[0]
    asleep[0, :] = False
    sleepy = use_tt and not prune and not movable_twos
    nxt[0] = 0
    mobile = np.zeros(cells, np.bool_)
    target = 4 * (n - 1)
    start = now()
    nodes = 0
    states = 0
    if use_tt:
        _insert(keys, key, shift, gen, 0, max_states)
        states = 1
    best = locked(board, n)
    moves = 0
    if best == target:
        return WON, best, 0, nodes, states
    if prune and _upper_bound(board, pos, n, movable_twos, mobile) <= best:
        return EXHAUSTED, best, 0, nodes, states
    count[0] = _gen_moves(board, pos, gaps, n, movable_twos, src[0], dst[0])
    d = 0
    while True:
        if nxt[d] == count[d]:
            if d == 0:
                return EXHAUSTED, best, moves, nodes, states
            d -= 1
            _move(board, pos, gaps, key, word, mul, n, path_dst[d], path_src[d])
            continue
        i = nxt[d]
        nxt[d] += 1
        if asleep[d, i]:
            continue
        s = src[d, i]
        t = dst[d, i]
        _move(board, pos, gaps, key, word, mul, n, s, t)
        nodes += 1
        if (node_cap >= 0 and nodes >= node_cap) or (
                second_cap >= 0 and nodes % 4096 == 0 and now() - start > second_cap):
            return LIMIT, best, moves, nodes, states
        if use_tt:
            fresh = _insert(keys, key, shift, gen, states, max_states)
            if fresh == 2:
                return LIMIT, best, moves, nodes, states
            if fresh == 0:
                _move(board, pos, gaps, key, word, mul, n, t, s)
                continue
            states += 1
        path_src[d] = s
        path_dst[d] = t
        score = locked(board, n)
        if score > best:
            best = score
            moves = d + 1
            best_src[:moves] = path_src[:moves]
            best_dst[:moves] = path_dst[:moves]
            if best == target:
                return WON, best, moves, nodes, states
        if prune and _upper_bound(board, pos, n, movable_twos, mobile) <= best:
            _move(board, pos, gaps, key, word, mul, n, t, s)
            continue
        if d + 1 == max_depth:
            return LIMIT, best, moves, nodes, states
        m = _gen_moves(board, pos, gaps, n, movable_twos, src[d + 1], dst[d + 1])
        count[d + 1] = m
        nxt[d + 1] = 0
        for k in range(m):
            asleep[d + 1, k] = False
            if sleepy:
                for j in range(count[d]):
                    if ((j < i or asleep[d, j]) and src[d, j] == src[d + 1, k]
                            and dst[d, j] == dst[d + 1, k]
                            and _commute(s, t, src[d, j], dst[d, j])):
                        asleep[d + 1, k] = True
                        break
        d += 1
