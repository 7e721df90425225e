"""Exact game-tree kernels over tops-only states, in numba, for grading
(``solvers.stacksquared.difficulty``).

Whether one stack can still be formed depends only on which card tops which cell (sizes do not
matter), so a state is the tops alone.  Every move removes one stack, so the states form a DAG
layered by the number of moves played.  Both kernels memoise states in a hash table and never
expand a *dead* state (its tops fall into classes of the compatibility or shared-line graph that
can never merge): such a state cannot win, so this changes the speed, never a value.  ``explore``
and the reference search of ``decide`` take moves in a fixed reference order
(``kernel.generate_moves`` unordered: mover cell, then destination cell, row-major) so that the
first solution is reproducible.

``explore`` walks the whole winnable part of the DAG depth first and folds each state's values
into its parent once its moves are done (a state met again is always finished: no state is its
own descendant).  Per state:

* ``win``: a single stack is reachable;
* ``sols``: the number of distinct winning move sequences (float64, exact below 2**53);
* ``crit``: the fewest critical states (more than half of the legal moves lose) on a winning line.

A whole 4x4 tree has millions of states, so ``explore`` takes a state limit and then reports
``STATE_LIMIT`` (no figure is guessed).  ``decide`` answers one position at a time (stopping at
the first single stack) with a table shared across calls.
"""
import numpy as np
from numba import njit

from solvers.jit import leaf
from solvers.timing import now
from solvers.hashtable import FREE, SPLITMIX, find_id, reindexed
from solvers.stacksquared.codes import DONE, LOSES, OPEN, STATE_LIMIT, WINS  # noqa: F401
from solvers.stacksquared.kernel import (KEY_BITS, STATUS_SHIFT, cannot_merge, generate_moves,
                                         memo_find, memo_grow, pack_state, popcount, set_byte)

ONE = np.uint64(1)
ZERO = np.uint64(0)
MISSING = np.int8(-1)
NO_CRIT = 1 << 30   # the crit value of a state without a winning line


@njit(cache=True)
def move_slabs(levels, per_level):
    """Move buffers for ``generate_moves``: one slab of ``per_level`` moves per depth (not
    cleared: ``generate_moves`` writes every entry it reads)."""
    size = levels * per_level
    return (np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64),
            np.empty(size, dtype=np.int64))


@njit(cache=True, inline="always")
def key_cells(key, card, a, b):
    """Bring bytes ``a`` and ``b`` of a key packed by ``pack_state`` up to date with ``card``
    (after a move from a to b, or its take-back)."""
    set_byte(key, a, card[a] + 1)
    set_byte(key, b, card[b] + 1)


@njit(cache=True)
def most_moves(line):
    """An upper bound on the legal moves of any position: each cell's stack onto each cell in
    its lines."""
    widest = 0
    for mask in line:
        widest = max(widest, popcount(mask))
    return line.shape[0] * widest


@njit(cache=True)
def occupancy(card):
    """The occupied cells of ``card`` as a bitmask, and how many there are."""
    occupied = ZERO
    stacks = 0
    for i in range(card.shape[0]):
        if card[i] >= 0:
            occupied |= ONE << np.uint64(i)
            stacks += 1
    return occupied, stacks


@njit(cache=True, inline="always")
def play_tops(card, occupied, a, b):
    """Move the stack at cell ``a`` onto cell ``b`` (tops only); returns (undo, occupied)."""
    undo = card[b]
    card[b] = card[a]
    card[a] = MISSING
    return undo, occupied & ~(ONE << np.uint64(a))


@njit(cache=True, inline="always")
def take_back_tops(card, occupied, a, b, undo):
    """Undo ``play_tops(card, occupied, a, b)`` that returned ``undo``; returns occupied."""
    card[a] = card[b]
    card[b] = undo
    return occupied | (ONE << np.uint64(a))


@leaf
def lookup(slots, keys, key):
    """The slot where ``key`` is (``slots[slot]`` its row of ``keys``) or would go
    (``slots[slot] == hashtable.FREE``): an id table (``solvers.hashtable``)."""
    return find_id(slots, keys, key, slots.shape[0] - 1, SPLITMIX)


@njit(cache=True)
def grow(array, length):
    """``array`` copied into one of ``length`` rows (first axis)."""
    out = np.zeros((length,) + array.shape[1:], dtype=array.dtype)
    out[:array.shape[0]] = array
    return out


@njit(cache=True)
def explore(card0, line, compat, max_states):
    """Walk the states reachable from the deal ``card0`` (card index per cell) as described above.

    Returns ``(outcome, keys, win, sols, crit)``, per state by id (the root is 0);
    ``outcome`` is ``STATE_LIMIT`` when more than ``max_states`` states (>= 0) would be stored.
    """
    n = card0.shape[0]
    card = card0.copy()
    size = np.zeros(n, dtype=np.int64)
    occupied, stacks0 = occupancy(card)
    width = (n + 7) >> 3
    key = np.zeros(width, dtype=np.uint64)

    room = 1024
    keys = np.zeros((room, width), dtype=np.uint64)
    win = np.zeros(room, dtype=np.bool_)
    sols = np.zeros(room, dtype=np.float64)
    crit = np.zeros(room, dtype=np.int64)
    capacity = 2048
    slots = np.full(capacity, FREE, dtype=np.int64)

    # Per depth: the state, its move slab, and the accumulators of its finished children.
    per_level = n * n
    move_from, move_to, move_rank = move_slabs(n + 1, per_level)
    cursor = np.zeros(n + 1, dtype=np.int64)
    first = np.zeros(n + 1, dtype=np.int64)
    end = np.zeros(n + 1, dtype=np.int64)
    sid_at = np.zeros(n + 1, dtype=np.int64)
    undo_card = np.zeros(n + 1, dtype=np.int8)
    acc_win = np.zeros(n + 1, dtype=np.int64)
    acc_sols = np.zeros(n + 1, dtype=np.float64)
    acc_crit = np.zeros(n + 1, dtype=np.int64)

    pack_state(card, size, False, key)
    keys[0] = key
    slots[lookup(slots, keys, key)] = 0
    count = 1
    outcome = DONE

    depth = 0
    expand = stacks0 == 1 or not cannot_merge(card, occupied, line, compat)
    if not expand:
        crit[0] = NO_CRIT
        return outcome, keys[:1], win[:1], sols[:1], crit[:1]
    while True:
        if expand:
            # Open the state at ``depth``: its moves and empty accumulators.
            base = depth * per_level
            first[depth] = base
            cursor[depth] = base
            end[depth] = base + generate_moves(card, occupied, line, compat, False, move_from,
                                               move_to, move_rank, base)
            acc_win[depth] = 0
            acc_sols[depth] = 0.0
            acc_crit[depth] = NO_CRIT
            expand = False
        if cursor[depth] < end[depth]:
            i = cursor[depth]
            cursor[depth] = i + 1
            a, b = move_from[i], move_to[i]
            undo_card[depth], occupied = play_tops(card, occupied, a, b)
            pack_state(card, size, False, key)
            slot = lookup(slots, keys, key)
            child = slots[slot]
            if child < 0:
                if max_states >= 0 and count >= max_states:
                    outcome = STATE_LIMIT
                    break
                if count == room:
                    room *= 2
                    keys = grow(keys, room)
                    win = grow(win, room)
                    sols = grow(sols, room)
                    crit = grow(crit, room)
                child = count
                count += 1
                keys[child] = key
                slots[slot] = child
                if count * 10 >= capacity * 7:
                    capacity *= 2
                    slots = reindexed(keys, count, capacity, SPLITMIX)
                if stacks0 - depth - 1 == 1 or not cannot_merge(card, occupied, line, compat):
                    depth += 1
                    sid_at[depth] = child
                    expand = True
                    continue
                # Dead: its values stay zero; it is folded in below.
                crit[child] = NO_CRIT
        else:
            # Every move of this state is done: its values follow from its children's.
            sid = sid_at[depth]
            moves = end[depth] - first[depth]
            if stacks0 - depth == 1:
                win[sid], sols[sid], crit[sid] = True, 1.0, 0
            elif acc_win[depth] == 0:
                crit[sid] = NO_CRIT
            else:
                win[sid] = True
                sols[sid] = acc_sols[depth]
                critical = 2 * (moves - acc_win[depth]) > moves
                crit[sid] = acc_crit[depth] + (1 if critical else 0)
            if depth == 0:
                break
            depth -= 1
            child = sid
            i = cursor[depth] - 1
            a, b = move_from[i], move_to[i]
        # Undo the move played at ``depth`` and fold its finished ``child`` into that state.
        occupied = take_back_tops(card, occupied, a, b, undo_card[depth])
        if win[child]:
            acc_win[depth] += 1
            acc_crit[depth] = min(acc_crit[depth], crit[child])
        acc_sols[depth] += sols[child]
    return outcome, keys[:count], win[:count], sols[:count], crit[:count]


@njit(cache=True, inline="always")
def status_of(first):
    """The status of a stored row from its first word (OPEN for an empty row)."""
    return np.int64(first >> STATUS_SHIFT) - 1 if first != ZERO else OPEN


@njit(cache=True, inline="always")
def set_status(table, slot, status):
    """Give the row ``slot`` (its key stored) the status ``status``."""
    table[slot, 0] = (table[slot, 0] & KEY_BITS) | (np.uint64(status + 1) << STATUS_SHIFT)


@njit(cache=True, inline="always")
def store(table, slot, key):
    """Store ``key`` in the empty row ``slot``, OPEN."""
    for w in range(1, key.shape[0]):
        table[slot, w] = key[w]
    table[slot, 0] = key[0]
    set_status(table, slot, OPEN)


@njit(cache=True)
def decide(card, occupied, stacks, line, compat, order_moves, table, count, max_states, path,
           deadline=-1.0):
    """Whether one stack is reachable from ``card``: a memoised depth-first search that stops at
    the first single stack, sharing the decision table (``table``, ``count`` positions stored,
    open addressing on the packed tops as the solver's memo, ``kernel.memo_find``) with earlier
    calls.  Moves come in reference order, or with ``order_moves`` in the solver's
    most-promising-first order (same answer, found sooner).  Returns ``(result, table, count,
    length)``: result WINS, LOSES or OPEN when the state limit or the ``deadline`` (``now()``
    seconds; below 0: none) stopped it; on WINS
    ``path[:length]`` holds the moves played (mover cell * 64 + destination cell),
    reconstructed from the search stack.
    """
    n = card.shape[0]
    width = table.shape[1]
    card = card.copy()
    size = np.zeros(n, dtype=np.int64)
    key = np.zeros(width, dtype=np.uint64)
    pack_state(card, size, False, key)
    slot = memo_find(table, key)
    known = status_of(table[slot, 0])
    if known != OPEN:
        return known, table, count, 0
    if stacks == 1:
        return WINS, table, count, 0
    if cannot_merge(card, occupied, line, compat):
        return LOSES, table, count, 0
    per_level = most_moves(line)
    move_from, move_to, move_rank = move_slabs(stacks + 1, per_level)
    cursor = np.zeros(stacks + 1, dtype=np.int64)
    end = np.zeros(stacks + 1, dtype=np.int64)
    slot_at = np.zeros(stacks + 1, dtype=np.int64)
    key_at = np.zeros((stacks + 1, width), dtype=np.uint64)   # to find the rows after a regrowth
    undo_card = np.zeros(stacks + 1, dtype=np.int8)
    if table[slot, 0] == ZERO:
        store(table, slot, key)
        count += 1
    slot_at[0] = slot
    key_at[0] = key
    depth = 0
    end[0] = generate_moves(card, occupied, line, compat, order_moves, move_from, move_to,
                            move_rank, 0)
    result = LOSES
    steps = 0
    while True:
        steps += 1
        if deadline >= 0 and (steps & 4095) == 0 and now() >= deadline:
            result = OPEN
            break
        if cursor[depth] >= end[depth]:
            set_status(table, slot_at[depth], LOSES)
            if depth == 0:
                break
            depth -= 1
            i = cursor[depth] - 1
            a, b = move_from[i], move_to[i]
            occupied = take_back_tops(card, occupied, a, b, undo_card[depth])
            key_cells(key, card, a, b)
            continue
        i = cursor[depth]
        cursor[depth] = i + 1
        a, b = move_from[i], move_to[i]
        undo_card[depth], occupied = play_tops(card, occupied, a, b)
        key_cells(key, card, a, b)
        if stacks - depth - 1 == 1:
            result = WINS
            depth += 1
            break
        known = LOSES
        # A dead position is recognised from its tops alone: it is never stored.
        if not cannot_merge(card, occupied, line, compat):
            slot = memo_find(table, key)
            known = status_of(table[slot, 0])
            if table[slot, 0] == ZERO:
                if max_states >= 0 and count >= max_states:
                    result = OPEN
                    break
                store(table, slot, key)
                count += 1
                if count * 10 >= table.shape[0] * 7:
                    table = memo_grow(table)
                    for d in range(depth + 1):
                        slot_at[d] = memo_find(table, key_at[d])
                    slot = memo_find(table, key)
        if known == WINS:
            result = WINS
            depth += 1
            break
        if known == OPEN:
            depth += 1
            slot_at[depth] = slot
            key_at[depth] = key
            cursor[depth] = depth * per_level
            end[depth] = cursor[depth] + generate_moves(card, occupied, line, compat, order_moves,
                                                        move_from, move_to, move_rank,
                                                        cursor[depth])
            continue
        occupied = take_back_tops(card, occupied, a, b, undo_card[depth])
        key_cells(key, card, a, b)
    length = 0
    if result == WINS:
        length = depth
        for d in range(depth):
            set_status(table, slot_at[d], WINS)
            i = cursor[d] - 1
            path[d] = move_from[i] * 64 + move_to[i]
    elif result == OPEN:
        for d in range(depth + 1):
            set_status(table, slot_at[d], OPEN)
    return result, table, count, length
