"""The players' exact chances to win, or certified bounds on them, in numba.

A player of look-ahead k (``players``) picks uniformly among its candidate moves C_k(P): the
legal moves that do not lead, within k moves, only to dead positions (all legal moves when every
one does).  Its chance V_k(P) to reach a *goal* from a position P is therefore

    V_k(P) = 1 at a goal (one stack, or, for the halfway ratio, ``goal_stacks`` stacks left),
    V_k(P) = 0 when no goal can be reached from P (the exact decision search, ``tree.decide``),
    V_k(P) = (1 / |C_k(P)|) * sum over m in C_k(P) of V_k(P after m) otherwise,

and only winnable positions need expanding: each child is first decided by the exact search,
sharing its table with every other question about the deal, and a losing child adds nothing.
A winnable child is never dead within any number of moves, so it is a candidate of every
player: all players reach the same winnable positions and differ only in |C_k(P)|.  One walk
over the DAG of winnable positions (keyed on their tops, memoised) therefore folds every
player's chance bottom-up at once.

Where that DAG is too large, ``chances`` still answers with **certified bounds**: once
``max_positions`` positions are valued, or a child's decision search hits its state limit,
every position not yet valued counts as [0, 1], and the root's [lo, hi] holds each chance for
sure (every folded value is a mean of its children's intervals).  The limits are counts, never
time, so the answer depends on the deal, the goal and the limits alone.
"""
import numpy as np
from numba import njit

from solvers.jit import leaf
from solvers.stacksquared.kernel import cannot_merge, generate_moves, pack_state
from solvers.stacksquared.players import alive
from solvers.hashtable import FREE, SPLITMIX, reindexed
from solvers.stacksquared.tree import (OPEN, WINS, decide, grow, lookup, move_slabs,
                                       occupancy, play_tops, take_back_tops)


@leaf
def deepest_alive(card, occupied, stacks, looks, line, compat, move_from, move_to, move_rank):
    """The largest k < ``looks`` such that the player of look-ahead k may choose the move that
    led to this position, not known to be winnable (``stacks`` left): 0 when it is dead, else
    1 + the most moves within which it is not provably lost (``players.alive``, tested from the
    deepest down)."""
    if stacks > 1 and cannot_merge(card, occupied, line, compat):
        return 0
    for d in range(looks - 2, 0, -1):
        if alive(card, occupied, stacks, d, line, compat, move_from, move_to, move_rank):
            return d + 1
    return 1


@njit(cache=True)
def chances(card0, looks, goal_stacks, max_positions, line, compat, table, count, max_states,
            path):
    """Bounds on the chance of each player of look-ahead 0 .. ``looks`` - 1 to reach a goal
    (``goal_stacks`` stacks left; 1 to win) from the winnable position ``card0`` (module
    docstring), valuing at most ``max_positions`` positions; ``table``, ``count``,
    ``max_states`` and ``path`` are the decision search's (``tree.decide``).  Returns ``(lo,
    hi, exact, positions, table, count)``: per player, ``exact`` when no position was cut,
    ``positions`` the positions valued."""
    n = card0.shape[0]
    width = table.shape[1]
    slots = np.full(2048, FREE, dtype=np.int64)
    keys = np.zeros((1024, width), dtype=np.uint64)
    lo_of = np.zeros((1024, looks))
    hi_of = np.zeros((1024, looks))
    exact_of = np.zeros(1024, dtype=np.bool_)
    stored = 0
    card = card0.copy()
    size = np.zeros(n, dtype=np.int64)
    key = np.zeros(width, dtype=np.uint64)
    occupied, stacks0 = occupancy(card)
    lo = np.ones(looks)
    hi = np.ones(looks)
    if stacks0 <= goal_stacks:
        return lo, hi, True, 0, table, count
    per_level = n * n
    levels = stacks0 - goal_stacks + 1
    scratch = (looks - 1) * per_level   # ``alive``'s slabs, then one level per depth
    move_from, move_to, move_rank = move_slabs(looks - 1 + levels, per_level)
    outcome = np.zeros(levels * per_level, dtype=np.int64)   # each move's decision
    counts = np.zeros((levels, looks), dtype=np.int64)
    cursor = np.zeros(levels, dtype=np.int64)
    end = np.zeros(levels, dtype=np.int64)
    undo_card = np.zeros(levels, dtype=np.int8)
    acc_lo = np.zeros((levels, looks))
    acc_hi = np.zeros((levels, looks))
    acc_exact = np.zeros(levels, dtype=np.bool_)
    key_at = np.zeros((levels, width), dtype=np.uint64)
    full = False

    depth = 0
    pack_state(card, size, False, key_at[0])
    expand = True
    exact = True
    while True:
        if expand:
            # Decide every legal move; count each player's choices (a winning move is every
            # player's, any other only up to the look-ahead that sees no dead end in it).
            base = scratch + depth * per_level
            cursor[depth] = base
            end[depth] = base + generate_moves(card, occupied, line, compat, False, move_from,
                                               move_to, move_rank, base)
            stacks = stacks0 - depth - 1
            counts[depth] = 0
            for i in range(base, end[depth]):
                a, b = move_from[i], move_to[i]
                undo, after = play_tops(card, occupied, a, b)
                result, table, count, _ = decide(card, after, stacks, line, compat, True, table,
                                                 count, max_states, path)
                outcome[i - scratch] = result
                deep = looks - 1 if result == WINS else deepest_alive(
                    card, after, stacks, looks, line, compat, move_from, move_to, move_rank)
                take_back_tops(card, after, a, b, undo)
                for k in range(1, deep + 1):
                    counts[depth, k] += 1
            for k in range(looks):
                if counts[depth, k] == 0 or k == 0:
                    counts[depth, k] = end[depth] - base
            acc_lo[depth] = 0.0
            acc_hi[depth] = 0.0
            acc_exact[depth] = True
            expand = False
        if cursor[depth] < end[depth]:
            i = cursor[depth]
            cursor[depth] = i + 1
            a, b = move_from[i], move_to[i]
            undo_card[depth], occupied = play_tops(card, occupied, a, b)
            stacks = stacks0 - depth - 1
            result = outcome[i - scratch]
            if result == OPEN:            # the decision search's limit: unknown, in [0, 1]
                acc_hi[depth] += 1.0
                acc_exact[depth] = False
            elif result == WINS:
                if stacks <= goal_stacks:
                    acc_lo[depth] += 1.0
                    acc_hi[depth] += 1.0
                else:
                    pack_state(card, size, False, key)
                    sid = slots[lookup(slots, keys, key)]
                    if sid >= 0:
                        acc_lo[depth] += lo_of[sid]
                        acc_hi[depth] += hi_of[sid]
                        acc_exact[depth] &= exact_of[sid]
                    elif full or stored >= max_positions:
                        full = True
                        acc_hi[depth] += 1.0
                        acc_exact[depth] = False
                    else:
                        depth += 1
                        key_at[depth] = key
                        expand = True
                        continue
            occupied = take_back_tops(card, occupied, a, b, undo_card[depth])
            continue
        # Every move of this position is done: fold its values.
        lo = acc_lo[depth] / counts[depth]
        hi = acc_hi[depth] / counts[depth]
        exact = acc_exact[depth]
        if depth == 0:
            break
        slot = lookup(slots, keys, key_at[depth])
        if stored == keys.shape[0]:
            room = 2 * stored
            keys = grow(keys, room)
            lo_of = grow(lo_of, room)
            hi_of = grow(hi_of, room)
            exact_of = grow(exact_of, room)
        sid = stored
        stored += 1
        keys[sid] = key_at[depth]
        lo_of[sid] = lo
        hi_of[sid] = hi
        exact_of[sid] = exact
        slots[slot] = sid
        if stored * 10 >= slots.shape[0] * 7:
            slots = reindexed(keys, stored, 2 * slots.shape[0], SPLITMIX)
        depth -= 1
        acc_lo[depth] += lo
        acc_hi[depth] += hi
        acc_exact[depth] &= exact
        i = cursor[depth] - 1
        occupied = take_back_tops(card, occupied, move_from[i], move_to[i], undo_card[depth])
    return lo, hi, exact, stored, table, count
