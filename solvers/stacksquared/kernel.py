"""The StacksSquared search kernel: depth-first branch and bound over bitmasks, in numba.

A position is two arrays over cells, ``card`` (0..51 rank-major, -1 empty) and ``size``.  Cell and
card sets are uint64 bitmasks (at most 52 of each).  One search serves both questions:

* single stack: find a state of score ``n*n``; states are keyed on the top cards only;
* maximum score: find the best leaf; states are keyed on top cards and sizes.

Pruning rests on the partition bound.  Stacks only ever merge with compatible stacks in their row
or column, top cards only disappear and emptied cells never refill, so every final stack lies
inside one class of the partition obtained by repeatedly splitting the stacks into connected
components of the compatibility graph and of the shared-line graph, each induced on the class.
The sum over classes of (cards in the class)^2 therefore bounds every reachable score; a
subtree whose bound cannot beat the best score found so far is cut.  A state seen before is never
searched again: its leaves do not depend on the path, and the best score only grows.
"""
import numpy as np
from numba import njit

from solvers.timing import now

MISSING = np.int8(-1)
ONE = np.uint64(1)
ZERO = np.uint64(0)

# Search outcome codes.
DONE = 0       # the search space was exhausted or the target reached: the result is exact
NODE_LIMIT = 1
STATE_LIMIT = 2
TIME_LIMIT = 3

_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _DEBRUIJN_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 & 0xFFFFFFFFFFFFFFFF) >> 58] = _i


@njit(cache=True, inline="always")
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero uint64."""
    low = x & (~x + ONE)
    return _DEBRUIJN_INDEX[(low * _DEBRUIJN) >> np.uint64(58)]


@njit(cache=True)
def component(start, within, adjacent):
    """The connected component of cell ``start`` inside the cell mask ``within``."""
    reached = ONE << np.uint64(start)
    frontier = reached
    while frontier:
        cell = lowest_bit(frontier)
        frontier &= frontier - ONE
        new = adjacent[cell] & within & ~reached
        reached |= new
        frontier |= new
    return reached


@njit(cache=True)
def compat_adjacency(card, occupied, compat, work_adj):
    """Fill ``work_adj[a]`` with the occupied cells whose top may merge with cell a's top."""
    rest = occupied
    while rest:
        a = lowest_bit(rest)
        rest &= rest - ONE
        mask = ZERO
        others = occupied & ~(ONE << np.uint64(a))
        while others:
            b = lowest_bit(others)
            others &= others - ONE
            if (compat[card[a]] >> np.uint64(card[b])) & ONE:
                mask |= ONE << np.uint64(b)
        work_adj[a] = mask


@njit(cache=True)
def split_off(cls, work_adj, line):
    """The component of the class's first cell in the compatibility graph induced on the
    class, or, when that is the whole class, in the shared-line graph induced on it."""
    first = lowest_bit(cls)
    part = component(first, cls, work_adj)
    if part == cls:
        part = component(first, cls, line)
    return part


@njit(cache=True)
def cannot_merge(card, occupied, line, compat, work_adj):
    """True when the stacks can never become one (see the module docstring)."""
    compat_adjacency(card, occupied, compat, work_adj)
    return split_off(occupied, work_adj, line) != occupied


@njit(cache=True)
def partition_bound(card, size, occupied, line, compat, single, work_adj, work_stack):
    """Upper bound on the score reachable from this position (see module docstring).

    With ``single`` set, return as soon as the stacks fall into two classes (-1): no single stack.
    """
    compat_adjacency(card, occupied, compat, work_adj)
    bound = 0
    work_stack[0] = occupied
    top = 1
    while top > 0:
        top -= 1
        cls = work_stack[top]
        part = split_off(cls, work_adj, line)
        if part != cls:
            if single:
                return -1
            work_stack[top] = part
            work_stack[top + 1] = cls & ~part
            top += 2
            continue
        total = 0
        rest = cls
        while rest:
            c = lowest_bit(rest)
            rest &= rest - ONE
            total += size[c]
        bound += total * total
    return bound


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of a uint64."""
    count = 0
    while x:
        x &= x - ONE
        count += 1
    return count


@njit(cache=True, inline="always")
def state_hash(key):
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in key:
        h ^= w
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    return h


@njit(cache=True)
def pack_state(card, size, with_sizes, key):
    """Pack the tops (and sizes) into ``key``: one byte a cell for the card, one for the size."""
    key[:] = 0
    n = card.shape[0]
    for i in range(n):
        key[i >> 3] |= np.uint64(card[i] + 1) << np.uint64((i & 7) * 8)
    if with_sizes:
        base = (n + 7) >> 3
        for i in range(n):
            key[base + (i >> 3)] |= np.uint64(size[i]) << np.uint64((i & 7) * 8)


@njit(cache=True)
def table_insert(keys, used, key, mask):
    """Insert ``key``; return 1 if it was new, 0 if present.  ``used`` marks filled slots."""
    slot = state_hash(key) & mask
    width = key.shape[0]
    while used[slot]:
        same = True
        for w in range(width):
            if keys[slot, w] != key[w]:
                same = False
                break
        if same:
            return 0
        slot = (slot + ONE) & mask
    used[slot] = True
    for w in range(width):
        keys[slot, w] = key[w]
    return 1


@njit(cache=True)
def table_grow(keys, used):
    """A table of twice the capacity holding the same keys."""
    capacity = keys.shape[0] * 2
    new_keys = np.zeros((capacity, keys.shape[1]), dtype=np.uint64)
    new_used = np.zeros(capacity, dtype=np.bool_)
    mask = np.uint64(capacity - 1)
    for slot in range(keys.shape[0]):
        if used[slot]:
            table_insert(new_keys, new_used, keys[slot], mask)
    return new_keys, new_used


@njit(cache=True, inline="always")
def take_back(card, size, a, b, dest_card, mover_size, score, occupied):
    """Undo the move of cell ``a`` onto cell ``b``; return the new score and occupied mask."""
    card[a] = card[b]
    size[a] = mover_size
    card[b] = dest_card
    size[b] -= mover_size
    occupied |= ONE << np.uint64(a)
    return score - 2 * mover_size * size[b], occupied


@njit(cache=True)
def search(card0, size0, line, compat, with_sizes, floor, max_nodes, max_states, max_seconds,
           order_moves=True):
    """Depth-first branch and bound from the position ``card0``/``size0``.

    Looks for a line of play reaching a score above ``floor`` (the single-stack question is
    ``floor = n*n - 1`` without sizes in the key; the maximum score is ``floor = start score``
    with sizes).  ``order_moves`` picks the move ordering (see ``generate_moves``).  Returns
    ``(outcome, best, path_from, path_to, nodes, states)``: ``best`` is the best score reached
    (``floor`` if nothing beat it) and the path's cells reach it.
    """
    n = card0.shape[0]
    card = card0.copy()
    size = size0.copy()
    occupied = ZERO
    score = 0
    for i in range(n):
        if card[i] >= 0:
            occupied |= ONE << np.uint64(i)
            score += size[i] * size[i]
    single = not with_sizes
    work_adj = np.zeros(n, dtype=np.uint64)
    work_stack = np.zeros(2 * n + 2, dtype=np.uint64)

    best = floor
    best_len = 0
    best_from = np.zeros(n, dtype=np.int64)
    best_to = np.zeros(n, dtype=np.int64)
    path_from = np.zeros(n, dtype=np.int64)
    path_to = np.zeros(n, dtype=np.int64)
    if score > best:
        best = score
    ceiling = partition_bound(card, size, occupied, line, compat, False, work_adj, work_stack)
    if best >= ceiling or (single and ceiling < n * n):
        return DONE, best, best_from[:0], best_to[:0], 0, 0

    width = ((n + 7) >> 3) * (2 if with_sizes else 1)
    key = np.zeros(width, dtype=np.uint64)
    capacity = 1024
    keys = np.zeros((capacity, width), dtype=np.uint64)
    used = np.zeros(capacity, dtype=np.bool_)
    states = 0

    # Moves of each depth live in a slab of the move buffer.
    per_level = 0
    for i in range(n):
        per_level += popcount(line[i])
    move_from = np.empty(n * per_level, dtype=np.int64)
    move_to = np.empty(n * per_level, dtype=np.int64)
    move_rank = np.empty(n * per_level, dtype=np.int64)
    cursor = np.zeros(n + 1, dtype=np.int64)
    end = np.zeros(n + 1, dtype=np.int64)
    undo_card = np.zeros(n + 1, dtype=np.int8)
    undo_size = np.zeros(n + 1, dtype=np.int64)

    nodes = 0
    start = now()
    outcome = DONE
    depth = 0
    count = generate_moves(card, occupied, line, compat, order_moves, move_from, move_to,
                           move_rank, 0)
    cursor[0] = 0
    end[0] = count
    while depth >= 0:
        if cursor[depth] == end[depth]:
            if depth == 0:
                break
            depth -= 1
            score, occupied = take_back(card, size, path_from[depth], path_to[depth],
                                        undo_card[depth], undo_size[depth], score, occupied)
            continue
        i = cursor[depth]
        cursor[depth] = i + 1
        a, b = move_from[i], move_to[i]
        # Play a onto b.
        undo_card[depth] = card[b]
        undo_size[depth] = size[a]
        score += 2 * size[a] * size[b]
        card[b] = card[a]
        size[b] += size[a]
        card[a] = MISSING
        size[a] = 0
        occupied &= ~(ONE << np.uint64(a))
        path_from[depth] = a
        path_to[depth] = b
        nodes += 1

        stop = False
        if max_nodes >= 0 and nodes > max_nodes:
            outcome = NODE_LIMIT
            nodes = max_nodes  # the node over the limit is not examined
            stop = True
        elif max_seconds >= 0 and (nodes & 4095) == 0 and now() - start > max_seconds:
            outcome = TIME_LIMIT
            stop = True
        prune = False
        if not stop:
            pack_state(card, size, with_sizes, key)
            if max_states >= 0 and states >= max_states:
                outcome = STATE_LIMIT
                stop = True
            else:
                if states * 10 >= capacity * 7:
                    keys, used = table_grow(keys, used)
                    capacity = keys.shape[0]
                if table_insert(keys, used, key, np.uint64(capacity - 1)) == 0:
                    prune = True
                else:
                    states += 1
        if stop:
            break
        if not prune:
            if score > best:
                best = score
                best_len = depth + 1
                best_from[:best_len] = path_from[:best_len]
                best_to[:best_len] = path_to[:best_len]
                if best >= ceiling:
                    break
            bound = partition_bound(card, size, occupied, line, compat, single, work_adj,
                                    work_stack)
            prune = bound <= best
        if prune:
            score, occupied = take_back(card, size, a, b, undo_card[depth], undo_size[depth],
                                        score, occupied)
            continue
        base = (depth + 1) * per_level
        count = generate_moves(card, occupied, line, compat, order_moves, move_from, move_to,
                               move_rank, base)
        depth += 1
        cursor[depth] = base
        end[depth] = base + count
    return outcome, best, best_from[:best_len], best_to[:best_len], nodes, states


@njit(cache=True)
def generate_moves(card, occupied, line, compat, order_moves, move_from, move_to, move_rank, base):
    """Write the legal moves (mover cell, destination cell) at ``base``; return how many.

    Moves are ordered most promising first: a destination whose top card has the fewest
    compatible tops left (it leaves play, and it was the likeliest to be stranded) plus a mover
    whose cell has the fewest occupied cells in line (it empties, and it was the likeliest to be
    cut off); ties go to the mover with the most compatible tops.  On 4x4 deals this ordering
    cuts the mean search from about 11,000 nodes to about 900 (benchmarks/stacksquared.md).
    ``order_moves=False`` keeps the plain row-major order, for measuring that.
    """
    alive = ZERO
    rest = occupied
    while rest:
        a = lowest_bit(rest)
        rest &= rest - ONE
        alive |= ONE << np.uint64(card[a])
    count = 0
    rest = occupied
    while rest:
        a = lowest_bit(rest)
        rest &= rest - ONE
        partners = line[a] & occupied
        ca = card[a]
        mover_rank = popcount(partners) * 64 - popcount(compat[ca] & alive)
        while partners:
            b = lowest_bit(partners)
            partners &= partners - ONE
            if (compat[ca] >> np.uint64(card[b])) & ONE:
                rank = mover_rank + popcount(compat[card[b]] & alive) * 64 if order_moves else 0
                # Insertion into the sorted run of moves written so far.
                j = base + count - 1
                while j >= base and move_rank[j] > rank:
                    move_from[j + 1] = move_from[j]
                    move_to[j + 1] = move_to[j]
                    move_rank[j + 1] = move_rank[j]
                    j -= 1
                move_from[j + 1] = a
                move_to[j + 1] = b
                move_rank[j + 1] = rank
                count += 1
    return count
