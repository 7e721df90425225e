"""The transposition table of a Montana round (numba, for ``solvers.montana.kernel``).

The table stores the exact layout as digits ``code - code // n`` (0 for a gap, so base
``4 * (n - 1) + 1``; card codes as in ``solvers.montana.layout``) packed into 64-bit words, cell
``i`` being worth ``mul[i]`` in word ``word[i]`` (five words for 52 cards), kept up to date move
by move.  The last word's 4 bits from ``shift`` (``HOP_BITS``) hold the fewest hops a layout was
reached with in a hop-budget pass (outside the comparison) or a column class's free rows, and
above them a generation stamp: a slot with an earlier search's stamp (a lower one) is empty, so
the table needs no clearing between searches, and it never confuses two layouts (a direct table
of ``solvers.hashtable``, its tag the last word).  A search starts on the
table's first 2**12 slots and doubles the part it uses whenever half of it is full (``grow``),
so a small search touches little memory.  Neither a slot's hash nor that growth reads the
stamp, so where a layout sits, and with it which one forgetting (below) empties, is the same in
every search: a result and its counts depend on the layout, the rules and the limits only,
never on what the process searched before.

Forgetting (the whole round): when the table is full, a slot holding a layout that cannot
recur is emptied to make room (``forget_one``): every layout with fixed Twos, and with movable
Twos every layout with no gap in its first column.  Along a line from such a layout back to
itself no card could leave the first column (a non-Two never returns there; a Two moves only
into a first-column gap, and none appears), so every Two would stay put, and the lowest card
moving would only ever move into the one cell right of its unmoving predecessor.  (With column
classes the free rows of a closed column only get pinned, so a class cannot recur either.)
Such a layout is never an ancestor on the current line when met again, so searching it again
reaches what it reached before and finds nothing better than the best seen; sleep sets need
only that a skipped layout was fully searched once.  The answer and line are those of an
unbounded table; only the work grows.  When layouts that may recur hold half of the table, it
is full (the search's ``LIMIT``): forgetting would then cost a long scan a layout.
"""
import numpy as np

from solvers.hashtable import PI, find, home, used
from solvers.jit import leaf
from solvers.montana.search import HOP_BITS

FIRST_SIZE = 1 << 12  # table slots a search starts with; it doubles when half of them are used


@leaf
def _recurs(stored, word, mul, n, shift):
    """Whether the layout of a table slot may be met again on a line through it: with movable
    Twos, when a first-column cell is a gap (see "Forgetting" above)."""
    base = np.uint64(4 * (n - 1) + 1)
    last = stored.shape[0] - 1
    for row in range(4):
        w = word[row * n]
        value = stored[w] & ((np.uint64(1) << shift) - np.uint64(1)) if w == last else stored[w]
        if (value // mul[row * n]) % base == 0:
            return True
    return False


@leaf
def layout_bits(shift, dominance):
    """The bits of a key's last word that name its layout (hashed and compared): those below
    the stamp, less the hops a hop-budget pass (``dominance``) keeps there."""
    bits = (np.uint64(1) << (shift + np.uint64(HOP_BITS))) - np.uint64(1)
    return bits & ~(np.uint64((1 << HOP_BITS) - 1) << shift) if dominance else bits


@leaf
def grow(keys, size, stamp_shift, gen, keep, vals):
    """Double the slots this search uses (the first ``size``) and return the new size; a row
    of ``vals`` (the players' chances; no columns for the search) moves with its key.

    One pass in slot order moves each layout back to the first free slot from its new home
    (its old home, or ``size`` above it) when one lies before it.  A slot of the lower half is
    emptied only when the pass reaches it, one of the upper half only once the pass is there,
    and a probe from the lower half never wraps round the end (the upper half would have to be
    full), so every slot a probe passed when its layout was settled stays full."""
    last = keys.shape[1] - 1
    mask = 2 * size - 1
    for j in range(2 * size):
        if used(keys, j, last, stamp_shift, gen):
            i = find(keys, keys[j], mask, last, stamp_shift, gen, keep, PI)
            if i != j:
                for w in range(last + 1):
                    keys[i, w] = keys[j, w]
                for w in range(vals.shape[1]):
                    vals[i, w] = vals[j, w]
                keys[j, last] = np.uint64(0)
    return 2 * size


@leaf
def forget_one(keys, size, key, stamp_shift, gen, word, mul, n, shift, movable_twos):
    """Empty the first slot from ``key``'s home on whose layout cannot recur, keeping every
    other key findable (backward-shift deletion); False if no slot can go.  Only the whole
    round forgets, so no key holds hops and the whole last word below the stamp is hashed, as
    ``insert`` hashes it there.  Forgetting where the new key goes keeps the table evenly
    filled (a cursor going round it would leave a run of full slots ahead of it)."""
    mask = size - 1
    last = keys.shape[1] - 1
    keep = layout_bits(shift, False)
    start = home(key, mask, last, keep, PI)
    for step in range(mask + 1):
        i = (start + step) & mask
        if used(keys, i, last, stamp_shift, gen) and not (
                movable_twos and _recurs(keys[i], word, mul, n, shift)):
            break
    else:
        return False
    j = i
    while True:
        j = (j + 1) & mask
        if not used(keys, j, last, stamp_shift, gen):
            break
        k = home(keys[j], mask, last, keep, PI)
        if (i < k <= j) if i <= j else (i < k or k <= j):
            continue  # its probe path does not cross the emptied slot
        for w in range(last + 1):
            keys[i, w] = keys[j, w]
        i = j
    keys[i, last] = np.uint64(0)
    return True


@leaf
def insert(keys, size, key, shift, gen, states, max_states, hops, dominance):
    """Add ``key`` to the table's first ``size`` slots: 1 if new, 0 if already there, 2 if the
    table is full.  With ``dominance`` (a hop-budget pass) the last word's bits from ``shift``
    hold the fewest hops the layout was reached with, outside the comparison: 0 if it is there
    with as few hops or fewer, 3 if with more (now lowered: search it again)."""
    last = key.shape[0] - 1
    stamp_shift = shift + np.uint64(HOP_BITS)
    slot = find(keys, key, size - 1, last, stamp_shift, gen, layout_bits(shift, dominance),
                PI)
    if used(keys, slot, last, stamp_shift, gen):
        if not dominance:
            return 0
        if (keys[slot, last] >> shift) & np.uint64((1 << HOP_BITS) - 1) <= hops:
            return 0
        keys[slot, last] = key[last] | (np.uint64(hops) << shift)
        return 3
    if states >= max_states:
        return 2
    for w in range(last + 1):
        keys[slot, w] = key[w]
    if dominance:
        keys[slot, last] |= np.uint64(hops) << shift
    return 1
