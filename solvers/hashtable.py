"""The open-addressing hash tables of the game kernels (numba): one hash, one probe.

A key is a row of 64-bit words.  One word of a table's rows, its *tag*, may hold more than the
key (a status, a generation stamp): only its bits ``same`` are hashed and compared.  A table is

* *direct*: its rows (``rows[slot]``) are the keys.  A row is in use when the bits of its tag
  from ``shift`` up are at least ``gen``: a generation stamp (rows of earlier searches hold
  lower stamps, so the table needs no clearing between searches) or a status that is never
  zero in use (``gen`` 1, every word zero when free);
* or an *id table*: ``ids[slot]`` is the row of ``rows`` holding the key stored there (``FREE``:
  none), so that the keys and their figures are stored once, in the order they came.

A key's probe starts at its ``home`` and goes up a slot at a time (``mask``: the slots less
one, a power of two less one).  StacksSquared's memo and decision table are direct tables
with a status, its tree walks id tables; Montana's round table and its players' table are
direct tables with a stamp (the round's grows in place and forgets, ``montana.table``); Agnes's
losing-state table hashes its states here into buckets of its own (``agnes.kernel``).
"""
import numpy as np
from numba import njit

from solvers.jit import leaf

WHOLE = np.uint64(0xFFFFFFFFFFFFFFFF)  # every bit of a word
FREE = -1  # a free slot of an id table

# The constants of ``hash_words`` (start, multiplier, shift).  Where forgetting or replacement
# depends on where keys sit (Montana's table, Agnes's), they are part of the results;
# StacksSquared's searches (keys of a byte a cell) ran about 5% slower with PI than SPLITMIX.
PI = (np.uint64(0x243F6A8885A308D3), np.uint64(0x9E3779B97F4A7C15), np.uint64(29))
SPLITMIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9), np.uint64(31))


@njit(cache=True, inline="always")
def hash_words(key, tag, same, mixer):
    """A 64-bit hash of the words of ``key``, word ``tag`` only on the bits ``same``, with the
    constants ``mixer`` (``PI`` or ``SPLITMIX``): each word is XORed in, multiplied and
    folded."""
    start, multiplier, fold = mixer
    h = start
    for w in range(key.shape[0]):
        h = (h ^ (key[w] & same if w == tag else key[w])) * multiplier
        h ^= h >> fold
    return h


@njit(cache=True, inline="always")
def home(key, mask, tag, same, mixer):
    """The slot where the probe for ``key`` starts."""
    return np.int64(hash_words(key, tag, same, mixer) & np.uint64(mask))


@njit(cache=True, inline="always")
def used(rows, slot, tag, shift, gen):
    """Whether the row ``slot`` of a direct table is in use."""
    return rows[slot, tag] >> np.uint64(shift) >= np.uint64(gen)


@njit(cache=True, inline="always")
def holds(rows, row, key, tag, same):
    """Whether the row ``row`` of ``rows`` holds ``key``."""
    if (rows[row, tag] ^ key[tag]) & same != np.uint64(0):
        return False
    for w in range(tag):
        if rows[row, w] != key[w]:
            return False
    for w in range(tag + 1, key.shape[0]):
        if rows[row, w] != key[w]:
            return False
    return True


@njit(cache=True, inline="always")
def find(rows, key, mask, tag, shift, gen, same, mixer):
    """The slot of a direct table holding ``key``, or else the free slot where it goes."""
    slot = home(key, mask, tag, same, mixer)
    while used(rows, slot, tag, shift, gen) and not holds(rows, slot, key, tag, same):
        slot = (slot + 1) & mask
    return slot


@njit(cache=True, inline="always")
def find_id(ids, rows, key, mask, mixer):
    """The slot of an id table (``ids``, over ``rows`` with no tag bits) holding ``key``, or
    else the free slot where it goes."""
    slot = home(key, mask, 0, WHOLE, mixer)
    while ids[slot] != FREE and not holds(rows, ids[slot], key, 0, WHOLE):
        slot = (slot + 1) & mask
    return slot


@njit(cache=True)
def doubled(rows, tag, shift, gen, same, mixer):
    """A direct table of twice the slots holding the rows of ``rows`` in use."""
    grown = np.zeros((2 * rows.shape[0], rows.shape[1]), dtype=rows.dtype)
    _store_all(grown, rows, tag, shift, gen, same, mixer)
    return grown


@leaf
def _store_all(grown, rows, tag, shift, gen, same, mixer):
    """Store the rows of ``rows`` in use in the empty direct table ``grown``."""
    mask = grown.shape[0] - 1
    for slot in range(rows.shape[0]):
        if used(rows, slot, tag, shift, gen):
            to = find(grown, rows[slot], mask, tag, shift, gen, same, mixer)
            for w in range(rows.shape[1]):
                grown[to, w] = rows[slot, w]


@njit(cache=True)
def reindexed(rows, count, capacity, mixer):
    """The slots of an id table of ``capacity`` (a power of two) for the first ``count`` rows
    of ``rows`` (whole words: no tag bits)."""
    ids = np.full(capacity, FREE, dtype=np.int64)
    _index_all(ids, rows, count, mixer)
    return ids


@leaf
def _index_all(ids, rows, count, mixer):
    """Enter the first ``count`` rows of ``rows`` in the empty id table ``ids``."""
    for row in range(count):
        ids[find_id(ids, rows, rows[row], ids.shape[0] - 1, mixer)] = row
