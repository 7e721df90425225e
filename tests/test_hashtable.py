"""The shared hash tables (``solvers.hashtable``) against Python sets: direct tables with a
status or a generation stamp in their tag, their doubling, and id tables."""
import numpy as np
from hypothesis import given, settings, strategies as st

from solvers.hashtable import (FREE, PI, SPLITMIX, WHOLE, doubled, find, find_id, hash_words,
                               reindexed, used)

SHIFT = np.uint64(62)  # a two-bit status at the top of word 0, as the StacksSquared memo keeps
SAME = np.uint64((1 << 62) - 1)
keys_st = st.lists(st.tuples(st.integers(0, 2**62 - 1), st.integers(0, 7)), max_size=60)


def test_the_hash_reads_only_the_bits_it_is_told_of_the_tag():
    key = np.array([5, 7, 9], np.uint64)
    tagged = key.copy()
    tagged[2] |= np.uint64(3) << SHIFT
    for mixer in (PI, SPLITMIX):
        assert (hash_words(tagged, 2, SAME, mixer) == hash_words(key, 2, SAME, mixer)
                == hash_words(key, 2, WHOLE, mixer))
        assert hash_words(tagged, 2, WHOLE, mixer) != hash_words(key, 2, WHOLE, mixer)
    assert hash_words(key, 2, WHOLE, PI) != hash_words(key, 2, WHOLE, SPLITMIX)


@settings(max_examples=30)
@given(keys_st, keys_st)
def test_a_direct_table_holds_each_key_once_and_doubles_keeping_them(stored, probes):
    table = np.zeros((128, 2), np.uint64)
    seen = set()
    for first, second in stored:
        key = np.array([first, second], np.uint64)
        slot = find(table, key, table.shape[0] - 1, 0, SHIFT, 1, SAME, SPLITMIX)
        assert used(table, slot, 0, SHIFT, 1) == ((first, second) in seen)
        if not used(table, slot, 0, SHIFT, 1):
            table[slot] = key
            table[slot, 0] |= np.uint64(1 + len(seen) % 3) << SHIFT  # a status, never 0
            seen.add((first, second))
    grown = doubled(table, 0, SHIFT, 1, SAME, SPLITMIX)
    assert grown.shape == (256, 2)
    for t in (table, grown):
        assert sum(used(t, s, 0, SHIFT, 1) for s in range(t.shape[0])) == len(seen)
        for first, second in stored + probes:
            key = np.array([first, second], np.uint64)
            slot = find(t, key, t.shape[0] - 1, 0, SHIFT, 1, SAME, SPLITMIX)
            assert used(t, slot, 0, SHIFT, 1) == ((first, second) in seen)


def test_rows_of_an_earlier_stamp_are_free():
    table = np.zeros((16, 2), np.uint64)
    key = np.array([42, 1 << 8], np.uint64)  # stamp 1 in the tag's bits from 8
    table[find(table, key, 15, 1, 8, 1, WHOLE, PI)] = key
    assert used(table, find(table, key, 15, 1, 8, 1, WHOLE, PI), 1, 8, 1)
    key[1] = 2 << 8  # the next search's stamp: the old row is free
    slot = find(table, key, 15, 1, 8, 2, WHOLE, PI)
    assert not used(table, slot, 1, 8, 2)


@settings(max_examples=30)
@given(st.lists(st.tuples(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1)), unique=True,
                max_size=40))
def test_an_id_table_finds_each_row_by_its_key(rows):
    keys = np.array(rows or [(0, 0)], np.uint64).reshape(-1, 2)
    count = len(rows)
    ids = reindexed(keys, count, 128, SPLITMIX)
    assert sorted(i for i in ids if i != FREE) == list(range(count))
    for row in range(count):
        assert ids[find_id(ids, keys, keys[row], 127, SPLITMIX)] == row
    missing = np.array([1, 2], np.uint64)
    if (1, 2) not in rows:
        assert ids[find_id(ids, keys, missing, 127, SPLITMIX)] == FREE
