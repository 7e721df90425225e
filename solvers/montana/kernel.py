"""The hot search of one Montana round: depth-first with undo on one board (numba).

Encoding: a layout of ``4 * n`` cells holds card codes ``suit * n + rank - 1`` (ranks 2..n, so
codes are never a multiple of ``n``) and 0 for a gap.  The transposition table stores the exact
layout (six bits a cell, ten cells a 64-bit word) in open addressing with a generation stamp, so
it needs no clearing between searches and never confuses two layouts.

The search visits every layout reachable in the round once and keeps the first one with the
most locked cards (a win stops it).  With ``prune`` a layout is not expanded when an upper bound
on the locked cards of everything reachable from it is no better than the best seen; the bound
comes from cards that can never move again (see ``_upper_bound``).
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
def _move(board, pos, gaps, key, src, dst):
    """Move the card at ``src`` into the gap at ``dst`` (its own undo with the cells swapped)."""
    card = board[src]
    board[dst] = card
    board[src] = 0
    pos[card] = dst
    for j in range(4):
        if gaps[j] == dst:
            gaps[j] = src
    c = np.uint64(card)
    key[src // 10] ^= c << np.uint64(6 * (src % 10))
    key[dst // 10] ^= c << np.uint64(6 * (dst % 10))


@njit(cache=True)
def _insert(keys, stamps, gen, key, states, max_states):
    """Add ``key`` to the table: 1 if new, 0 if already there, 2 if the table is full."""
    h = np.uint64(0x243F6A8885A308D3)
    for w in range(key.shape[0]):
        h = (h ^ key[w]) * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(29)
    mask = keys.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    while stamps[slot] == gen:
        same = True
        for w in range(key.shape[0]):
            if keys[slot, w] != key[w]:
                same = False
                break
        if same:
            return 0
        slot = (slot + 1) & mask
    if states >= max_states:
        return 2
    stamps[slot] = gen
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
           keys, stamps, gen, best_src, best_dst):
    """Search one round from ``board0``.

    Returns ``(status, best, moves, nodes, states)``: status EXHAUSTED (``best`` is the exact
    maximum), WON, or LIMIT (nodes, seconds, ``max_states`` table entries or the depth of
    ``best_src``); the line of play to the best layout is ``best_src/best_dst[:moves]``.
    Caps below zero mean unlimited.
    """
    cells = 4 * n
    board = board0.copy()
    pos = np.full(cells, -1, np.int64)
    gaps = np.empty(4, np.int64)
    ng = 0
    key = np.zeros(keys.shape[1], np.uint64)
    for i in range(cells):
        v = board[i]
        if v == 0:
            gaps[ng] = i
            ng += 1
        else:
            pos[v] = i
            key[i // 10] ^= np.uint64(v) << np.uint64(6 * (i % 10))
    max_depth = best_src.shape[0]
    src = np.empty((max_depth, MAX_MOVES), np.int64)
    dst = np.empty((max_depth, MAX_MOVES), np.int64)
    count = np.zeros(max_depth, np.int64)
    nxt = np.zeros(max_depth, np.int64)
    path_src = np.empty(max_depth, np.int64)
    path_dst = np.empty(max_depth, np.int64)
    mobile = np.zeros(cells, np.bool_)
    target = 4 * (n - 1)
    start = now()
    nodes = 0
    states = 0
    if use_tt:
        _insert(keys, stamps, gen, key, 0, max_states)
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
            _move(board, pos, gaps, key, path_dst[d], path_src[d])
            continue
        s = src[d, nxt[d]]
        t = dst[d, nxt[d]]
        nxt[d] += 1
        _move(board, pos, gaps, key, s, t)
        nodes += 1
        if (node_cap >= 0 and nodes >= node_cap) or (
                second_cap >= 0 and nodes % 4096 == 0 and now() - start > second_cap):
            return LIMIT, best, moves, nodes, states
        if use_tt:
            fresh = _insert(keys, stamps, gen, key, states, max_states)
            if fresh == 2:
                return LIMIT, best, moves, nodes, states
            if fresh == 0:
                _move(board, pos, gaps, key, t, s)
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
            _move(board, pos, gaps, key, t, s)
            continue
        if d + 1 == max_depth:
            return LIMIT, best, moves, nodes, states
        count[d + 1] = _gen_moves(board, pos, gaps, n, movable_twos, src[d + 1], dst[d + 1])
        nxt[d + 1] = 0
        d += 1
