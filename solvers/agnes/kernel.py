"""The Agnes search kernel: iterative depth-first search over one board updated in place.

Cards are ``rel_rank * 4 + suit`` (suit 0..3 = C D H S, so the same-colour suit of ``s`` is
``3 - s``).  Moves are ints: kind (bits 0-1: 0 deal, 1 foundation, 2 tableau), source pile (2-4),
target pile (5-7), card count (8-12).

Losing states go into a bounded transposition table: a bucketed open-addressing table keyed by a
64-bit hash of an exact 7-word encoding of the state (stock size, hidden counts, every tableau card
in canonical pile order); a hash match counts only if the stored encoding is equal too, so a
collision can never make a state look lost. A state enters the table when the search enters it,
pinned: no other state may replace it while it is on the current line, so looking a state up also
cuts every repetition along the line (when all the slots of its bucket hold line states, a state is
not entered and the search scans the line back to the last deal or foundation move for it instead).
When the line leaves a state, the state has lost and its pin is taken off (a win ends the search).
Without the table, repetitions are found by that scan alone. Each entry's key word holds 32 bits of
the hash, the pin and the solve's epoch, so one table serves many solves without clearing (entries
of older epochs count as free) and a lookup reads one cache line of keys, and a stored encoding
only when its key matches. A solve starts on the first 2**12 slots and doubles the part it uses
whenever half of it is full, up to the whole table, so a small search touches little memory.
Neither the hash nor that growth depends on the epoch, so a state's slot, and with it every
replacement, is the same in every solve: a result and its state count depend on the deal, the rules
and the limits only, never on what the process solved before. When a bucket is full an unpinned
entry is replaced: the table is a cache, and forgetting a lost state costs time, never correctness.
"""
import numpy as np
from numba import njit

from solvers.agnes.codes import (ALL, ANY1, ANYRUN, DEAD, DEPTH_LIMIT, EMPTY, HIGH1,  # noqa: F401
                                 HIGHRUN, LOST, MAX_DEPTH, NODE_LIMIT, NONE, SAFE, SYMMETRY,
                                 TABLE, TIME_LIMIT, WON, WORDS)
from solvers.hashtable import PI, WHOLE, hash_words
from solvers.jit import leaf
from solvers.timing import now

MAX_MOVES = 400
BUCKET = 4
PIN = np.uint64(1)   # in an entry's key word: a state of the current line
FIRST_SIZE = 1 << 12   # table slots a solve starts with; it doubles when half of them are used
FOUND, ENTERED_FREE, ENTERED_OVER, FULL = 0, 1, 2, 3


@leaf
def _same_colour(a, b):
    sa = a & 3
    sb = b & 3
    return (sa == sb) or (sa == 3 - sb)


@leaf
def _encode(piles, ln, hid, stock, prune, scratch, out):
    """Exact canonical encoding of the state into ``out[0:7]``; returns its 64-bit hash.
    ``scratch`` (14 ints) receives the piles' sort keys and their canonical order: piles a deal
    still reaches keep their place; the others (interchangeable) go after them, empty first,
    then by their first card."""
    keys = scratch[:7]
    order = scratch[7:]
    for p in range(7):
        if (prune & SYMMETRY) == 0 or p < stock:
            keys[p] = p
        elif ln[p] == 0:
            keys[p] = 7
        else:
            keys[p] = 8 + piles[p, 0]
        order[p] = p
    for i in range(1, 7):
        j = i
        while j > 0 and keys[order[j - 1]] > keys[order[j]]:
            t = order[j - 1]
            order[j - 1] = order[j]
            order[j] = t
            j -= 1
    w0 = np.uint64(stock)
    for i in range(7):
        w0 |= np.uint64(hid[order[i]]) << np.uint64(5 + 3 * i)
    out[0] = w0
    acc = np.uint64(0)   # ten 6-bit symbols a word: card + 1, 0 ending a pile (59 at most)
    shift = 0
    w = 1
    for i in range(7):
        p = order[i]
        for k in range(ln[p] + 1):
            v = np.uint64(piles[p, k] + 1) if k < ln[p] else np.uint64(0)
            acc |= v << np.uint64(shift)
            shift += 6
            if shift == 60:
                out[w] = acc
                w += 1
                acc = np.uint64(0)
                shift = 0
    while w < WORDS:
        out[w] = acc
        acc = np.uint64(0)
        w += 1
    h = hash_words(out, 0, WHOLE, PI)
    if h == np.uint64(0):
        h = np.uint64(1)
    return h


@leaf
def _equal(a, b):
    for w in range(WORDS):
        if a[w] != b[w]:
            return False
    return True


@njit(cache=True, inline="always")
def _key(h, epoch):
    """A table entry's key word: the hash's low 32 bits (which hold its slot), the solve's
    epoch, and bit 0 set while the state is on the current line (pinned)."""
    return ((h & np.uint64(0xFFFFFFFF)) << np.uint64(32)) | (np.uint64(epoch) << np.uint64(1))


@njit(cache=True, inline="always")
def _stale(key, epoch):
    """The entry belongs to an earlier solve (or is empty): its slot is free."""
    return ((key >> np.uint64(1)) & np.uint64(0x7FFFFFFF)) != np.uint64(epoch)


@leaf
def _tt_enter(keys, encs, size, h, epoch, enc, pin):
    """Look the state up among the first ``size`` slots; if it is absent, enter it (pinned if
    ``pin``: a state of the current line, which no other state may replace).  Returns FOUND,
    ENTERED_FREE, ENTERED_OVER (an unpinned entry forgotten) or FULL (every slot of the bucket
    holds a line state: not entered).  Only the bucket's key words are read, and the stored
    encoding of a key that matches."""
    base = np.int64(h & np.uint64(size - 1)) & ~(BUCKET - 1)
    key = _key(h, epoch)
    free = -1
    victim = -1
    for i in range(base, base + BUCKET):
        if (keys[i] | PIN) == (key | PIN) and _equal(encs[i], enc):
            return FOUND
        if free < 0:
            if _stale(keys[i], epoch):
                free = i
            elif (keys[i] & PIN) == 0 and (victim < 0 or i == base + np.int64(
                    (h >> np.uint64(40)) & np.uint64(BUCKET - 1))):
                victim = i
    slot = free if free >= 0 else victim
    if slot < 0:
        return FULL
    keys[slot] = key | PIN if pin else key
    for w in range(WORDS):
        encs[slot, w] = enc[w]
    return ENTERED_FREE if free >= 0 else ENTERED_OVER


@leaf
def _tt_leave(keys, encs, size, h, epoch, enc):
    """The line leaves this state, which has lost: unpin its entry (enter it if it had no
    room when it was reached)."""
    base = np.int64(h & np.uint64(size - 1)) & ~(BUCKET - 1)
    key = _key(h, epoch) | PIN
    for i in range(base, base + BUCKET):
        if keys[i] == key and _equal(encs[i], enc):
            keys[i] = key ^ PIN
            return FOUND
    return _tt_enter(keys, encs, size, h, epoch, enc, False)


@leaf
def _tt_grow(keys, encs, size, epoch):
    """Double the part of the table this solve uses: the solve's entries whose hash has the
    new address bit move to the same place in the new upper half (free: no entry of this
    solve is there).  Returns the new size."""
    bit = np.uint64(size) << np.uint64(32)
    for i in range(size):
        if keys[i] & bit and not _stale(keys[i], epoch):
            keys[i + size] = keys[i]
            for w in range(encs.shape[1]):
                encs[i + size, w] = encs[i, w]
            keys[i] = np.uint64(0)
    return 2 * size


@njit(cache=True)
def _dead(piles, ln):
    """Highest-rank cards block their own suit or each other in a cycle (valid for 'None')."""
    g = np.zeros(4, np.int64)
    for p in range(7):
        kings = 0
        for i in range(ln[p] - 1, -1, -1):
            c = piles[p, i]
            if (c >> 2) == 12:
                kings |= 1 << (c & 3)
            for k in range(4):
                if (kings >> k) & 1 and ((c >> 2) < 12 or (c & 3) != k):
                    g[k] |= 1 << (c & 3)
    reach = g.copy()
    for _ in range(4):
        for i in range(4):
            for j in range(4):
                if (reach[i] >> j) & 1:
                    reach[i] |= g[j]
    for i in range(4):
        if (reach[i] >> i) & 1:
            return True
    return False


@leaf
def _safe_home(found, c):
    """Whether card ``c``, playable to its foundation, can go there for good: the other suit
    of its colour is home to two ranks below it, so no card could ever need to go onto it."""
    return found[3 - (c & 3)] >= (c >> 2) - 2


@leaf
def _gen(piles, ln, hid, found, stock, same_suit, empty_rule, split, prune, buf, at):
    """Write the moves of this state into ``buf[at:]``; return how many.  The search tries them
    last to first, as quagnes does: pile 7's foundation move, its runs longest first, ..., the
    deal last."""
    n = 0
    if prune & SAFE:
        for p in range(7):
            if ln[p] > 0:
                c = piles[p, ln[p] - 1]
                if (c >> 2) == found[c & 3] + 1 and _safe_home(found, c):
                    buf[at] = 1 | (p << 2)
                    return 1
    if stock > 0:
        buf[at] = 0
        n = 1
    for p in range(7):
        L = ln[p]
        k = 1
        while k <= L - hid[p]:
            head = piles[p, L - k]
            hr = head >> 2
            goes_on = False
            if L - k - 1 >= hid[p]:
                a = piles[p, L - k - 1]
                if (a >> 2) == hr + 1:
                    if same_suit:
                        goes_on = (a & 3) == (head & 3)
                    else:
                        goes_on = _same_colour(a, head)
            if split or not goes_on:
                whole = k == L
                empty_seen = False
                for t in range(7):
                    if t == p:
                        continue
                    if ln[t] > 0:
                        tc = piles[t, ln[t] - 1]
                        if (tc >> 2) != hr + 1 or not _same_colour(tc, head):
                            continue
                    else:
                        if empty_rule == NONE:
                            continue
                        if (empty_rule == ANY1 and k != 1) or (
                                empty_rule == HIGH1 and (k != 1 or hr != 12)) or (
                                empty_rule == HIGHRUN and hr != 12):
                            continue
                        if (prune & EMPTY) and t >= stock:
                            if empty_seen:
                                continue
                            empty_seen = True
                            if whole and p >= stock:
                                continue
                    buf[at + n] = 2 | (p << 2) | (t << 5) | (k << 8)
                    n += 1
            if not goes_on:
                break
            k += 1
        if L > 0 and (piles[p, L - 1] >> 2) == found[piles[p, L - 1] & 3] + 1:
            buf[at + n] = 1 | (p << 2)
            n += 1
    return n


@njit(cache=True, inline="always")
def _shift_run(piles, ln, src, dst, k):
    """Move the top ``k`` cards of pile ``src`` onto pile ``dst``, keeping their order."""
    for i in range(k):
        piles[dst, ln[dst] + i] = piles[src, ln[src] - k + i]
    ln[dst] += k
    ln[src] -= k


@leaf
def _apply(piles, ln, hid, found, stock, deck, m):
    """Play move ``m``; return (new stock, undo info: the card moved or -1, +64 if it flipped)."""
    kind = m & 3
    p = (m >> 2) & 7
    if kind == 0:
        cnt = 7 if stock > 2 else 2
        for q in range(cnt):
            piles[q, ln[q]] = deck[52 - stock]
            ln[q] += 1
            stock -= 1
        return stock, -1
    info = 0
    if kind == 1:
        c = piles[p, ln[p] - 1]
        ln[p] -= 1
        found[c & 3] += 1
        info = c
    else:
        _shift_run(piles, ln, p, (m >> 5) & 7, m >> 8)
    if ln[p] > 0 and hid[p] == ln[p]:
        hid[p] -= 1
        info += 64
    return stock, info


@leaf
def _undo(piles, ln, hid, found, stock, m, info):
    """Take back move ``m`` played with undo ``info``; return the stock size."""
    kind = m & 3
    p = (m >> 2) & 7
    if kind == 0:
        cnt = 2 if stock == 0 else 7
        for q in range(cnt - 1, -1, -1):
            ln[q] -= 1
            stock += 1
        return stock
    if info >= 64:
        hid[p] += 1
        info -= 64
    if kind == 1:
        piles[p, ln[p]] = info
        ln[p] += 1
        found[info & 3] -= 1
    else:
        _shift_run(piles, ln, (m >> 5) & 7, p, m >> 8)
    return stock


@njit(cache=True)
def search(deck, start_piles, start_ln, start_hid, start_found, stock, same_suit, empty_rule,
           split, prune, maximize, max_nodes, max_seconds, keys, encs, epoch, frames, hashes,
           path_enc, line):
    """Depth-first search from a position of the deal ``deck`` (52 card codes, base card first):
    its piles (7 x 64 card codes, ``start_ln`` of them each, the first ``start_hid`` hidden), the
    relative rank on each foundation (-1: none yet) and the cards left in the ``stock``; the
    start arrays are not changed.

    ``keys``/``encs`` are the losing-state table (a power of two of entries, reused across solves
    with a fresh ``epoch`` each, 1..2**31).  ``frames`` (FRAMES x MAX_DEPTH + 1), ``hashes`` and
    ``path_enc`` (MAX_DEPTH x WORDS) hold the line being searched: scratch space, reused by
    every solve so that a small one pays for no large allocation.
    ``max_nodes`` caps the positions examined (the start and each move played; -1: no cap) and
    ``max_seconds`` the time (-1.0: none); the table's size is its only memory.
    Returns (status, nodes, max_score, line length): status WON, LOST or the limit that stopped
    the search (NODE_LIMIT, DEPTH_LIMIT, TIME_LIMIT); ``line`` receives the
    winning moves, or (if not won) a line of play reaching ``max_score``.
    """
    piles = start_piles.copy()
    ln = start_ln.copy()
    hid = start_hid.copy()
    found = start_found.copy()
    start = frames[0]       # per depth: where its moves start in buf
    count = frames[1]       # how many
    nexti = frames[2]       # how many were tried
    played = frames[3]      # the move played from it, and its undo information
    undo = frames[4]
    seg = frames[5]         # the depth of the last deal or foundation move
    unentered = frames[6]   # 1 if its state has no room in the table
    enc = np.zeros(WORDS, np.uint64)
    scratch = np.empty(14, np.int64)
    buf = np.empty(1 << 16, np.int64)
    use_dead = (prune & DEAD) != 0 and empty_rule == NONE and not maximize
    t0 = now()

    best = found[0] + found[1] + found[2] + found[3] + 4
    best_len = 0
    nodes = 1
    d = 0
    size = min(FIRST_SIZE, keys.shape[0])   # the slots this solve uses so far
    used = 0       # entries this solve made in free slots
    loose = 0      # states of the line the table had no room for
    if best == 52:
        return WON, nodes, best, 0
    hashes[0] = _encode(piles, ln, hid, stock, prune, scratch, path_enc[0])
    if use_dead and _dead(piles, ln):
        return LOST, nodes, best, 0
    unentered[0] = 0
    if prune & TABLE:
        used += _tt_enter(keys, encs, size, hashes[0], epoch, path_enc[0], True) == ENTERED_FREE
    start[0] = 0
    nexti[0] = 0
    seg[0] = 0
    count[0] = _gen(piles, ln, hid, found, stock, same_suit, empty_rule, split, prune, buf, 0)
    start[1] = count[0]
    while True:
        if nexti[d] == count[d]:
            if prune & TABLE:
                used += _tt_leave(keys, encs, size, hashes[d], epoch, path_enc[d]) == ENTERED_FREE
                loose -= unentered[d]
            if d == 0:
                return LOST, nodes, best, best_len
            d -= 1
            stock = _undo(piles, ln, hid, found, stock, played[d], undo[d])
            continue
        if max_nodes >= 0 and nodes >= max_nodes:
            return NODE_LIMIT, nodes, best, best_len
        if d + 2 >= MAX_DEPTH:
            return DEPTH_LIMIT, nodes, best, best_len
        m = buf[start[d] + count[d] - 1 - nexti[d]]
        nexti[d] += 1
        stock, info = _apply(piles, ln, hid, found, stock, deck, m)
        played[d] = m
        undo[d] = info
        nodes += 1
        score = found[0] + found[1] + found[2] + found[3] + 4
        if score > best:
            best = score
            best_len = d + 1
            line[:d + 1] = played[:d + 1]
            if score == 52:
                return WON, nodes, best, best_len
        if max_seconds >= 0 and (nodes & 4095) == 0 and now() - t0 > max_seconds:
            return TIME_LIMIT, nodes, best, best_len
        h = _encode(piles, ln, hid, stock, prune, scratch, enc)
        skip = use_dead and (m & 3) == 0 and _dead(piles, ln)
        if not skip and (m & 3) == 2 and (loose > 0 or (prune & TABLE) == 0):
            # A repetition since the last deal or foundation move, of a line state the table
            # does not hold (the table holds the others: looking the state up cuts those).
            for j in range(seg[d], d + 1):
                if hashes[j] == h and _equal(path_enc[j], enc) and (
                        unentered[j] or (prune & TABLE) == 0):
                    skip = True
                    break
        entered = FULL
        if not skip and prune & TABLE:
            entered = _tt_enter(keys, encs, size, h, epoch, enc, True)
            skip = entered == FOUND
        if skip:
            stock = _undo(piles, ln, hid, found, stock, m, info)
            continue
        d += 1
        hashes[d] = h
        path_enc[d, :] = enc
        unentered[d] = entered == FULL and (prune & TABLE) != 0
        loose += unentered[d]
        if entered == ENTERED_FREE:
            used += 1
            if 2 * used > size and size < keys.shape[0]:
                size = _tt_grow(keys, encs, size, epoch)
        seg[d] = seg[d - 1] if (m & 3) == 2 else d
        nexti[d] = 0
        count[d] = _gen(piles, ln, hid, found, stock, same_suit, empty_rule, split, prune,
                        buf, start[d])
        start[d + 1] = start[d] + count[d]
        if start[d + 1] + MAX_MOVES > buf.shape[0]:
            grown = np.empty(2 * buf.shape[0], np.int64)
            grown[:start[d + 1]] = buf[:start[d + 1]]
            buf = grown
