"""The hot search of one Montana round: depth-first with undo on one board (numba).

The parts it is built from: the layout and its card codes (``solvers.montana.layout``), moves
and column classes (``solvers.montana.moves``), the transposition table and forgetting
(``solvers.montana.table``) and the bounds (``solvers.montana.bounds``).  The helpers share one
scratch array, ``tmp``, each its own slice of it.

The search visits every layout reachable in the round once and keeps the first one with the
most locked cards (a win stops it).  With ``prune`` a layout is not expanded when an upper bound
on the locked cards of everything reachable from it is no better than the best seen; the bound
comes from cards that can never move again.  ``bound_two`` does the same at phase-two layouts
only (below: the four Twos fill the first column), where the Twos are fixed and the bound can
bite; elsewhere a Two that can hop lets every card of its suit move.  With movable Twos the
reach bound (``use_reach``) applies at every layout instead.

A *hop* is a Two moving from the first column to another first-column gap (movable Twos only).
``hop_budget`` >= 0 searches the layouts reachable with at most that many hops: a restriction
of the game, so a win it finds is a win, and the caller learns from ``budget_hit`` whether a hop
was ever refused (if not, the pass was the whole round).  The table keeps the fewest hops each
layout was reached with; reached again with fewer, it is searched again (with more hops left,
it reaches at least as much).  ``columns`` (movable Twos, no hop budget) searches column
classes, ``safe`` plays safe moves alone, ``forget`` lets a full table forget layouts that
cannot recur (each argued in its module).

Sleep sets (with the table, without ``prune``): a move that commutes with the move just made and
was already tried from the parent (or was asleep there) leads to a layout the table already
holds, so it is skipped without being made.  This needs that layout to be fully searched, not
an ancestor on the current line: true when layouts never recur.  Without movable Twos no layout
recurs in a round (a Two moves only into the first column and stays; the lowest other card
moving in a cycle could only ever move into the cell right of its unmoving predecessor).  With
movable Twos layouts recur only while a Two is outside the first column or a first-column cell
is a gap: once the four Twos fill the first column no Two can move again, and the rest is the
fixed-Twos game (*phase two*), so sleep sets are used between phase-two layouts (for moves that
need no new order of a class).  The search finds the same layouts in the same order either way,
with fewer probes of the table (``nodes`` counts the moves made).  With ``bound_two`` a skipped
layout may be one that the bound cut rather than searched: the bound covers what it reaches,
so the best found and its line are the same, but the layouts counted may be fewer.  With
``safe`` a skipped layout may have been searched through its safe move alone, which reaches at
least as much as any other line from it, so skipping it still loses nothing.
"""
import numpy as np
from numba import njit

from solvers.jit import leaf
from solvers.montana.bounds import cut
from solvers.montana.layout import hop_possible, open_column, pack_column, phase_two, z_mask
from solvers.montana.moves import (arrange, class_key, class_locked, free_after, gen_class_moves,
                                   gen_moves, move, only_safe, undo)
from solvers.montana.table import FIRST_SIZE, HOP_BITS, forget_one, grow, insert, layout_bits
from solvers.timing import now

EXHAUSTED, WON, LIMIT = 0, 1, 2


@leaf
def _commute(s1, t1, s2, t2):
    """Whether two legal moves stay legal after each other and reach the same layout."""
    return s1 != s2 and t1 != t2 and s1 != t2 - 1 and s2 != t1 - 1


@njit(cache=True, nogil=True)  # a Dask worker stays heard while it runs
def search(board0, n, movable_twos, hop_budget, columns, use_tt, prune, bound_two, use_reach,
           safe, forget, known, node_cap, second_cap, max_states, keys, word, mul, shift, gen,
           best_src, best_dst, best_arr, src, dst, arr, asleep, count, nxt, path_src, path_dst,
           path_arr, saved):
    """Search one round from ``board0``.

    Returns ``(status, best, moves, final_arr, nodes, states, budget_hit, forgotten)``: status
    EXHAUSTED (``best`` is the exact maximum), WON, or LIMIT (nodes, seconds, ``max_states``
    table entries, unless ``forget`` makes room, or the depth of ``best_src``); the line of
    play to the best layout is ``best_src/best_dst[:moves]``, each move made after setting the
    first column to ``best_arr`` (-1: as it is), then the first column set to ``final_arr``
    (-1: as it is).  ``hop_budget`` < 0: no budget; ``columns``: column classes (movable
    Twos, no budget); ``prune``: the stuck-card bound at every layout; ``bound_two``: at
    phase-two layouts of the movable-Twos rule (where the Twos are fixed and the bound can
    bite).  ``known``: locked cards some other line reaches (the bound prunes against it from
    the start); ``moves`` is -1 if this search found no layout with more.  The other arrays
    are per-depth scratch with as many rows as ``best_src`` (only the rows of the current line
    are used, so untouched memory costs nothing; ``saved`` keeps the first column and the free
    rows before each move).  Caps below zero mean unlimited.
    """
    cells = 4 * n
    budget = movable_twos and hop_budget >= 0
    classes = columns and movable_twos and not budget
    board = board0.copy()
    pos = np.full(cells, -1, np.int64)
    gaps = np.empty(4, np.int64)
    ng = 0
    key = np.zeros(keys.shape[1], np.uint64)
    key[-1] = gen << (shift + np.uint64(HOP_BITS))
    size = min(FIRST_SIZE, keys.shape[0])  # the table slots this search uses so far
    for i in range(cells):
        v = board[i]
        if v == 0:
            gaps[ng] = i
            ng += 1
        else:
            pos[v] = i
            key[word[i]] += np.uint64(v - v // n) * mul[i]
    free = z_mask(board, n) if classes and open_column(board, n) else 0
    probe = key.copy()
    max_depth = best_src.shape[0]
    asleep[0, :] = False
    sleep_fixed = use_tt and not prune and not movable_twos
    sleep_two = use_tt and not prune and movable_twos
    bound_two = bound_two and movable_twos and not prune
    safe = safe and movable_twos
    nxt[0] = 0
    mobile = np.zeros(cells, np.bool_)
    reach = np.zeros(cells, np.int64)
    tmp = np.zeros(64 + cells, np.int64)  # scratch of the helpers, allocated once
    gain = np.zeros((4, 4), np.int64)
    no_values = np.zeros((0, 0), np.float64)  # the table holds keys only
    target = 4 * (n - 1)
    start = now()
    nodes = 0
    states = 0
    forgotten = 0
    recurring = 0  # layouts stored that may recur (never forgotten)
    hops = 0
    budget_hit = False
    final_arr = np.int64(-1)
    if use_tt:
        if classes:
            class_key(board, key, word, mul, n, free, shift, probe, tmp)
        insert(keys, size, probe if classes else key, shift, gen, 0, max_states, 0, budget)
        states = 1
        recurring = 1 if movable_twos and open_column(board, n) else 0
    best, final_arr = class_locked(board, n, free, tmp, gain)
    moves = 0
    if best < known:  # a line found elsewhere reaches more: ours counts only if it beats it
        best = known
        moves = -1
    if best == target:
        return WON, best, moves, final_arr, nodes, states, budget_hit, forgotten
    if cut(board, pos, n, movable_twos, prune, bound_two, use_reach, mobile, reach, free, tmp,
            gain, best):
        return EXHAUSTED, best, moves, final_arr, nodes, states, budget_hit, forgotten
    if classes and (free != 0 or open_column(board, n)):
        count[0] = gen_class_moves(board, pos, gaps, n, free, src[0], dst[0], arr[0], tmp)
    else:
        hops_ok = movable_twos and (not budget or hop_budget > 0)
        count[0] = gen_moves(board, pos, gaps, n, hops_ok, src[0], dst[0], arr[0])
        budget_hit = budget and not hops_ok and hop_possible(board, n)
    if safe:
        count[0] = only_safe(board, n, free, src[0], dst[0], arr[0], count[0])
    d = 0
    while True:
        if nxt[d] == count[d]:
            if d == 0:
                return EXHAUSTED, best, moves, final_arr, nodes, states, budget_hit, forgotten
            d -= 1
            s = path_src[d]
            t = path_dst[d]
            free = undo(board, pos, gaps, key, word, mul, n, s, t, path_arr[d] >= 0, saved[d],
                         tmp)
            if budget and s % n == 0 and t % n == 0:
                hops -= 1
            continue
        i = nxt[d]
        nxt[d] += 1
        if asleep[d, i]:
            continue
        s = src[d, i]
        t = dst[d, i]
        a = arr[d, i]
        hop = budget and s % n == 0 and t % n == 0
        saved[d] = pack_column(board, n) | (free << 24)
        was_open = classes and open_column(board, n)
        if a >= 0:
            arrange(board, pos, gaps, key, word, mul, n, a, tmp)
        move(board, pos, gaps, key, word, mul, n, s, t)
        if classes:
            free = free_after(board, n, free, was_open, t)
        if hop:
            hops += 1
        nodes += 1
        if (node_cap >= 0 and nodes >= node_cap) or (
                second_cap >= 0 and nodes % 4096 == 0 and now() - start > second_cap):
            return LIMIT, best, moves, final_arr, nodes, states, budget_hit, forgotten
        fresh = 1  # new (always, without a table)
        if use_tt:
            if classes:
                class_key(board, key, word, mul, n, free, shift, probe, tmp)
            fresh = insert(keys, size, probe if classes else key, shift, gen,
                            states - forgotten, max_states, hops, budget)
            if fresh == 2 and forget and 2 * recurring < max_states and forget_one(
                    keys, size, probe if classes else key, shift + np.uint64(HOP_BITS), gen,
                    word, mul, n, shift, movable_twos):
                forgotten += 1  # one slot free now: the key goes in
                fresh = insert(keys, size, probe if classes else key, shift, gen,
                                states - forgotten, max_states, hops, budget)
            if fresh == 2:
                return LIMIT, best, moves, final_arr, nodes, states, budget_hit, forgotten
            if fresh == 1:
                states += 1
                if movable_twos and open_column(board, n):
                    recurring += 1
                if 2 * (states - forgotten) > size and size < keys.shape[0]:
                    size = grow(keys, size, shift + np.uint64(HOP_BITS), gen,
                                 layout_bits(shift, budget), no_values)
        if fresh != 0:
            path_src[d] = s
            path_dst[d] = t
            path_arr[d] = a
            score, best_col = class_locked(board, n, free, tmp, gain)
            if score > best:
                best = score
                moves = d + 1
                final_arr = best_col
                best_src[:moves] = path_src[:moves]
                best_dst[:moves] = path_dst[:moves]
                best_arr[:moves] = path_arr[:moves]
                if best == target:
                    return WON, best, moves, final_arr, nodes, states, budget_hit, forgotten
        if fresh == 0 or cut(board, pos, n, movable_twos, prune, bound_two, use_reach, mobile,
                              reach, free, tmp, gain, best):
            free = undo(board, pos, gaps, key, word, mul, n, s, t, a >= 0, saved[d], tmp)
            if hop:
                hops -= 1
            continue
        if d + 1 == max_depth:
            return LIMIT, best, moves, final_arr, nodes, states, budget_hit, forgotten
        if classes and (free != 0 or open_column(board, n)):
            m = gen_class_moves(board, pos, gaps, n, free, src[d + 1], dst[d + 1], arr[d + 1],
                                 tmp)
        else:
            hops_ok = movable_twos and (not budget or hops < hop_budget)
            m = gen_moves(board, pos, gaps, n, hops_ok, src[d + 1], dst[d + 1], arr[d + 1])
            if budget and not hops_ok and hop_possible(board, n):
                budget_hit = True
        if safe:
            m = only_safe(board, n, free, src[d + 1], dst[d + 1], arr[d + 1], m)
        count[d + 1] = m
        nxt[d + 1] = 0
        sleepy = sleep_fixed or (sleep_two and a < 0 and phase_two(board, n)
                                 and not (t % n == 0 and s % n != 0))
        for k in range(m):
            asleep[d + 1, k] = False
            if sleepy:
                for j in range(count[d]):
                    if ((j < i or asleep[d, j]) and arr[d, j] < 0 and src[d, j] == src[d + 1, k]
                            and dst[d, j] == dst[d + 1, k]
                            and _commute(s, t, src[d, j], dst[d, j])):
                        asleep[d + 1, k] = True
                        break
        d += 1
