"""Exact win chances of simple players in one Montana round (fixed Twos), by dynamic programming.

Without movable Twos no layout recurs in a round (see ``kernel``), so the layouts reachable from
a deal form a directed acyclic graph and a player who picks among legal moves with fixed
probabilities wins with the exact chance ``P(layout) = sum over moves of p(move) P(child)``,
1 for a won layout and 0 for a lost one (no move left).  One depth-first pass over the graph,
memoised in an exact transposition table (the layout packed as in ``kernel``), gives it for
several players at once, and whether the layout can be won at all (some line wins).

A player weighs each legal move by its class: ``DEAD`` if it leaves a gap right of a King that
is not home (a dead gap: nothing can fill it until that King moves), else ``SAFE``; it plays a
move with probability its weight over the sum of the weights of the legal moves.  The random
player weighs both classes 1.

Every weight is positive, so a player's chance is positive exactly when some line wins.  With
``prune`` a layout whose reach bound (``solvers.montana.bounds``, each Two in the first column
held there) falls short of a win is a lost leaf, chance 0 for every player, neither expanded nor
stored: the chances are the same to the last bit (a lost layout's value is an exact 0 either
way), and on 52-card deals 2 to 4 times fewer layouts are stored.  The table starts on its
first 2**12 slots and doubles the part it uses as it fills (``solvers.montana.table.grow``), so
a small deal touches little memory.

The round's figures are read off the deal's entry; a line of play is read off the table by
following, from the deal, a winning move whose child a chosen player wins most often.  A deal
whose graph outgrows the table is played instead (``playouts``): each player's games from the
deal, its moves drawn by their weights, counted won or lost.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from solvers.hashtable import PI, find, used
from solvers.jit import leaf
from solvers.montana.api import _table_shape, stamps
from solvers.montana.bounds import reach_completes
from solvers.montana.layout import locked, run
from solvers.montana.moves import MAX_MOVES, gen_moves
from solvers.montana.table import FIRST_SIZE, HOP_BITS, grow, layout_bits

DONE, LIMIT = 0, 1
DEAD, SAFE = 0, 1  # the classes of a move


@leaf
def _slot(keys, size, stamp_shift, gen, key):
    """The slot of the table's first ``size`` holding ``key``, or the free slot where it goes:
    a direct table (``solvers.hashtable``) laid out as the round's (``solvers.montana.table``):
    the last word's bits from ``stamp_shift`` hold the stamp of the call that stored it."""
    last = key.shape[0] - 1
    return find(keys, key, size - 1, last, stamp_shift, gen, _below_stamp(stamp_shift), PI)


@leaf
def _below_stamp(stamp_shift):
    """The bits of a key's last word that name its layout (no hops are kept here)."""
    return layout_bits(stamp_shift - np.uint64(HOP_BITS), False)


@leaf
def _known(keys, slot, stamp_shift, gen):
    """Whether the slot of ``_slot`` holds the layout."""
    return used(keys, slot, keys.shape[1] - 1, stamp_shift, gen)


@leaf
def _row_home(board, n, row):
    """The row is locked to its King: a Two first and its suit in order after it."""
    first = board[row * n]
    return first != 0 and first % n == 1 and run(board, n, row, first) == n - 1


@leaf
def _moves(board, pos, n, gaps, arr, src, dst, cls):
    """The legal moves (the kernel's, card cell -> gap cell) and the class of each; their
    count.  ``gaps`` and ``arr`` are scratch."""
    k = 0
    for c in range(4 * n):
        if board[c] == 0:
            gaps[k] = c
            k += 1
    m = gen_moves(board, pos, gaps, n, False, src, dst, arr)
    for i in range(m):
        s = src[i]
        dead = s % n != 0 and board[s - 1] % n == n - 1 and not _row_home(board, n, s // n)
        cls[i] = DEAD if dead else SAFE
    return m


@leaf
def _move(board, pos, key, word, mul, n, s, t):
    """Move the card at ``s`` into the gap at ``t`` (its own undo with the cells swapped)."""
    card = board[s]
    board[t] = card
    board[s] = 0
    pos[card] = t
    digit = np.uint64(card - card // n)
    key[word[s]] -= digit * mul[s]
    key[word[t]] += digit * mul[t]


@njit(cache=True)
def _setup(board0, n, word, mul, words, stamp_shift, gen):
    """The board, each card's cell and the table key (stamped ``gen``)."""
    board = board0.copy()
    pos = np.full(4 * n, -1, np.int64)
    key = np.zeros(words, np.uint64)
    key[-1] = np.uint64(gen) << stamp_shift
    for i in range(4 * n):
        v = board[i]
        if v != 0:
            pos[v] = i
            key[word[i]] += np.uint64(v - v // n) * mul[i]
    return board, pos, key


@leaf
def _lost(board, pos, n, reach, tmp):
    """Whether the reach bound with fixed Twos shows that no line from the layout wins."""
    return not reach_completes(board, pos, n, False, reach, tmp)


@leaf
def _value(cls, m, kid, weights, j):
    """Player ``j``'s chance from a layout whose moves have classes ``cls[:m]`` and whose
    children player ``j`` wins with chances ``kid[:m, j]``."""
    total = 0.0
    value = 0.0
    for i in range(m):
        total += weights[j, cls[i]]
        value += weights[j, cls[i]] * kid[i, j]
    return value / total


@njit(cache=True)
def evaluate(board0, n, word, mul, keys, vals, stamp_shift, gen, max_states, prune, weights,
             src, dst, cls, count, nxt, kid, out):
    """Win chances from the deal ``board0`` of the players whose weights of the move classes
    are the rows of ``weights`` (all positive): ``out[j]`` player ``j``'s chance, positive
    exactly when some line wins.  Returns ``(status, first_moves, winning_first_moves, states,
    size)``: ``status`` LIMIT when ``max_states`` layouts stored or a line as long as the
    per-depth scratch arrays (``src`` .. ``kid``) stopped it.  Every layout with moves (with
    ``prune``: every one the reach bound does not show lost) is stored in the table (``keys``,
    stamped ``gen``, ``vals`` laid out as ``out``) within its first ``size`` slots."""
    target = 4 * (n - 1)
    depth = src.shape[0] - 1
    players = weights.shape[0]
    board, pos, key = _setup(board0, n, word, mul, keys.shape[1], stamp_shift, gen)
    gaps = np.empty(4, np.int64)
    arr = np.empty(MAX_MOVES, np.int64)
    reach = np.zeros(4 * n, np.int64)
    tmp = np.zeros(64 + 4 * n, np.int64)  # scratch of the bound
    size = min(FIRST_SIZE, keys.shape[0])  # the table slots this call uses so far
    states = 0
    out[:] = 0.0
    if locked(board, n) == target:
        out[:] = 1.0
        return DONE, 0, 0, 0, size
    count[0] = _moves(board, pos, n, gaps, arr, src[0], dst[0], cls[0])
    nxt[0] = 0
    d = 0
    while count[0] > 0:
        if nxt[d] == count[d]:  # every child known: this layout's values
            if states >= max_states:
                return LIMIT, count[0], 0, states, size
            if 3 * (states + 1) > 2 * size and size < keys.shape[0]:
                size = grow(keys, size, stamp_shift, gen, _below_stamp(stamp_shift), vals)
            slot = _slot(keys, size, stamp_shift, gen, key)
            keys[slot, :] = key
            for j in range(players):
                vals[slot, j] = _value(cls[d], count[d], kid[d], weights, j)
            states += 1
            if d == 0:
                out[:] = vals[slot]
                wins = 0
                for i in range(count[0]):
                    wins += kid[0, i, 0] > 0
                return DONE, count[0], wins, states, size
            d -= 1
            i = nxt[d] - 1
            _move(board, pos, key, word, mul, n, dst[d, i], src[d, i])
            kid[d, i, :] = vals[slot]
            continue
        i = nxt[d]
        nxt[d] += 1
        _move(board, pos, key, word, mul, n, src[d, i], dst[d, i])
        slot = _slot(keys, size, stamp_shift, gen, key)
        if _known(keys, slot, stamp_shift, gen):
            kid[d, i, :] = vals[slot]
        else:
            won = locked(board, n) == target
            m = 0 if won or (prune and _lost(board, pos, n, reach, tmp)) else _moves(
                board, pos, n, gaps, arr, src[d + 1], dst[d + 1], cls[d + 1])
            if m > 0:  # a new layout with moves: search below it
                if d + 1 == depth:
                    return LIMIT, count[0], 0, states, size
                d += 1
                count[d] = m
                nxt[d] = 0
                continue
            kid[d, i, :] = 1.0 if won else 0.0
        _move(board, pos, key, word, mul, n, dst[d, i], src[d, i])
    return DONE, 0, 0, states, size


@njit(cache=True)
def best_line(board0, n, word, mul, keys, vals, stamp_shift, gen, size, guide, out_src,
              out_dst):
    """A winning line read off the first ``size`` slots of the table of ``evaluate`` (the deal
    must be winnable): at each
    layout the winning move whose child player ``guide`` wins most often (the first such move
    on a tie; a layout not in the table is lost).  Its length; the moves in
    ``out_src``/``out_dst``."""
    target = 4 * (n - 1)
    board, pos, key = _setup(board0, n, word, mul, keys.shape[1], stamp_shift, gen)
    src = np.empty(MAX_MOVES, np.int64)
    dst = np.empty(MAX_MOVES, np.int64)
    cls = np.empty(MAX_MOVES, np.int64)
    gaps = np.empty(4, np.int64)
    arr = np.empty(MAX_MOVES, np.int64)
    length = 0
    while locked(board, n) < target:
        m = _moves(board, pos, n, gaps, arr, src, dst, cls)
        best = -1
        best_value = -1.0
        for i in range(m):
            _move(board, pos, key, word, mul, n, src[i], dst[i])
            if locked(board, n) == target:
                value = 2.0  # a win now beats everything
            else:
                slot = _slot(keys, size, stamp_shift, gen, key)
                known = _known(keys, slot, stamp_shift, gen) and vals[slot, guide] > 0
                value = vals[slot, guide] if known else -1.0
            _move(board, pos, key, word, mul, n, dst[i], src[i])
            if value > best_value:
                best, best_value = i, value
        out_src[length] = src[best]
        out_dst[length] = dst[best]
        length += 1
        _move(board, pos, key, word, mul, n, src[best], dst[best])
    return length


@njit(cache=True)
def playouts(board0, n, weights, games, seed, wins, line_src, line_dst):
    """``wins[j]``: of ``games`` games player ``j`` plays from the deal ``board0`` (each move
    drawn with the probability its class weight gives it, numba's generator seeded ``seed``),
    those won.  The first game won (any player) is kept in ``line_src``/``line_dst``; its length
    is returned (0 if none was won)."""
    np.random.seed(seed)
    target = 4 * (n - 1)
    gaps = np.empty(4, np.int64)
    arr = np.empty(MAX_MOVES, np.int64)
    src = np.empty(MAX_MOVES, np.int64)
    dst = np.empty(MAX_MOVES, np.int64)
    cls = np.empty(MAX_MOVES, np.int64)
    path_src = np.empty_like(line_src)
    path_dst = np.empty_like(line_dst)
    kept = 0
    board = board0.copy()
    for j in range(weights.shape[0]):
        wins[j] = 0
        for _ in range(games):
            board[:] = board0
            pos = np.full(4 * n, -1, np.int64)
            for c in range(4 * n):
                if board[c] != 0:
                    pos[board[c]] = c
            length = 0
            while locked(board, n) < target:
                m = _moves(board, pos, n, gaps, arr, src, dst, cls)
                if m == 0 or length == path_src.shape[0]:
                    break
                total = 0.0
                for i in range(m):
                    total += weights[j, cls[i]]
                u = np.random.random() * total
                i = 0
                while i < m - 1 and u >= weights[j, cls[i]]:
                    u -= weights[j, cls[i]]
                    i += 1
                path_src[length], path_dst[length] = src[i], dst[i]
                length += 1
                card = board[src[i]]
                board[dst[i]], board[src[i]] = card, 0
                pos[card] = dst[i]
            else:
                wins[j] += 1
                if kept == 0:
                    kept = length
                    line_src[:length] = path_src[:length]
                    line_dst[:length] = path_dst[:length]
    return kept


MAX_DEPTH = 1 << 14  # a longer line stops the evaluation with LIMIT
_work: dict = {}


def _scratch(columns: int) -> tuple:
    """The per-depth arrays of ``evaluate`` for ``columns`` values a layout, allocated once."""
    if _work.get("columns") != columns:
        rows = MAX_DEPTH + 1
        _work["columns"] = columns
        _work["arrays"] = (*(np.empty((rows, MAX_MOVES), np.int64) for _ in range(3)),
                           *(np.zeros(rows, np.int64) for _ in range(2)),
                           np.zeros((rows, MAX_MOVES, columns), np.float64))
    return _work["arrays"]


def _table(max_states: int, words: int, shift: int, columns: int) -> tuple:
    """The process's table for ``max_states`` layouts packed as ``api._packing`` says
    (``words``, ``shift``), reused: each call stamps its layouts (``api.stamps``).  A fresh
    one (untouched pages cost nothing) when the shape or packing changes or the stamps run
    out, so that no row holds a stamp from later."""
    shape = _table_shape(max_states, words)
    entry = _work.get("table")
    if entry is None or entry[0].shape != shape or entry[1].shape[1] != columns or \
            entry[3] != shift or entry[2] + 1 == stamps(shift):
        entry = [np.zeros(shape, np.uint64), np.zeros((shape[0], columns), np.float64), 0,
                 shift]
        _work["table"] = entry
    entry[2] += 1
    return entry[0], entry[1], np.uint64(shift + HOP_BITS), entry[2]
