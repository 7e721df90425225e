"""The hot search of one Montana round: depth-first with undo on one board (numba).

Encoding: a layout of ``4 * n`` cells holds card codes ``suit * n + rank - 1`` (ranks 2..n, so
codes are never a multiple of ``n``; a Two's code is ``1 mod n``) and 0 for a gap.  The
transposition table stores the exact layout as digits ``code - code // n`` (0 for a gap, so
base ``4 * (n - 1) + 1``) packed into 64-bit words, cell ``i`` being worth ``mul[i]`` in word
``word[i]`` (five words for 52 cards), kept up to date move by move.  The last word's 4 bits
from ``shift`` hold the fewest hops a layout was reached with in a hop-budget pass (outside the
comparison) or a class's free rows (below), and above them a generation stamp: a slot whose
stamp is not the current one is empty, so the table needs no clearing between searches, and it
never confuses two layouts.  A search starts on the table's first 2**12 slots and doubles the part
it uses whenever half of it is full, so a small search touches little memory.  Neither a slot's
hash nor that growth reads the stamp, so where a layout sits, and with it which one forgetting
(below) empties, is the same in every search: a result and its counts depend on the layout, the
rules and the limits only, never on what the process searched before.

The search visits every layout reachable in the round once and keeps the first one with the
most locked cards (a win stops it).  With ``prune`` a layout is not expanded when an upper bound
on the locked cards of everything reachable from it is no better than the best seen; the bound
comes from cards that can never move again (see ``_upper_bound``).  ``bound_two`` does the same
at phase-two layouts only (below: the four Twos fill the first column), where the Twos are fixed
and the bound can bite; elsewhere a Two that can hop lets every card of its suit move.

A *hop* is a Two moving from the first column to another first-column gap (movable Twos only).
``hop_budget`` >= 0 searches the layouts reachable with at most that many hops: a restriction
of the game, so a win it finds is a win, and the caller learns from ``budget_hit`` whether a hop
was ever refused (if not, the pass was the whole round).  The table keeps the fewest hops each
layout was reached with; reached again with fewer, it is searched again (with more hops left,
it reaches at least as much).

Column classes (``columns``, movable Twos, no hop budget).  A class is a layout together with
a set of *free* rows: the layouts obtained by putting the first cells of the free rows (Twos,
or gaps) in any order, all of them reachable, and searched as one.  The table key has the free
rows' first cells sorted and the free rows in the last word's bits from ``shift``; a class
scores the best order's locked cards.  The moves of a class are the moves of its layouts, each
with the order it needs (``arr``: the four first-column cells packed 6 bits each, -1 for none):
only a Three moved into the second cell of a free row depends on the order (one move per free
Two, that Two set in front of it); every other move is the same in every order.

- An *open column* (a first-column gap): the free rows are all rows whose first cell holds a
  Two or a gap.  Hops alone rearrange those in every possible way (a gap on a complete graph:
  any Two can move into any gap) and each arrangement can return to any other, so all reach
  the same layouts.  The search never hops; a Two from outside entering the column is one move
  (into its first gap), and so is a Three behind a free row, which stays free (its Two can
  still hop away).
- When a Two fills the column's last gap the column *closes*: every order of its Twos was
  reachable just before, so the class keeps all of them, free.  From then on no first-column
  card moves until a non-Two leaves the column (which opens it again); a Three set behind a
  free row's Two *pins* that row (its Two is now that one, in every layout of the class), and
  the other free rows stay free.  At the root a closed column has no free row.
- Every layout reachable in the round belongs to a class the search reaches, and every layout
  of a class it reaches is reachable, so the class search finds a win exactly when the plain
  one does, and the same most locked cards.  The line of play sets each closed stretch's order
  at the move that closed it (``api._line``).

The stuck-card bound (``_upper_bound``) of a class with free rows covers every order: a free
Three counts as able to move if the second cell of any free row lets it, and the free rows
count their best order.  With movable Twos the reach bound (``_reach_bound``, every layout)
replaces it by default: it follows the cells each card can ever reach rather than whether it
can move at all, and bites where the other is 48.

Forgetting (``forget``, the whole round): when the table is full, a slot holding a layout that
cannot recur is emptied to make room (``_forget_one``): every layout with fixed Twos, and with
movable Twos every layout with no gap in its first column.  Along a line from such a layout
back to itself no card could leave the first column (a non-Two never returns there; a Two
moves only into a first-column gap, and none appears), so every Two would stay put, and the
lowest card moving would only ever move into the one cell right of its unmoving predecessor.
(With column classes the free rows of a closed column only get pinned, so a class cannot
recur either.)  Such a layout is never an ancestor on the current line when met again, so
searching it again reaches what it reached before and finds nothing better than the best
seen; sleep sets need only that a skipped layout was fully searched once.  The answer and
line are those of an unbounded table; only the work grows.  When layouts that may recur hold
half of the table, it is full (``LIMIT``): forgetting would then cost a long scan a layout.

Safe moves (``safe``, phase two): a card whose predecessor ends a locked run, playable onto
it, is played alone when nothing is lost by playing it first (``_safe_move``).

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
from solvers.timing import now

EXHAUSTED, WON, LIMIT = 0, 1, 2
# Moves of a layout: four gaps, a first-column gap taking one of four Twos; with column classes
# a second cell of a free row takes the Three of any free Two (at most four gaps of four Twos;
# with a first-column gap, at most three such gaps of three Twos plus four Twos entering).
MAX_MOVES = 16
HOP_BITS = 4  # the key field of the hops (hop-budget passes) or the free rows (classes)
FIRST_SIZE = 1 << 12  # table slots a search starts with; it doubles when half of them are used


@leaf
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


@leaf
def _run(board, n, row, two):
    """Locked cards of ``row`` if ``two`` stood in its first cell."""
    base = row * n
    k = 1
    while k < n - 1 and board[base + k] == two + k:
        k += 1
    return k


@leaf
def _open_column(board, n):
    """Whether a first-column cell is a gap."""
    for row in range(4):
        if board[row * n] == 0:
            return True
    return False


@leaf
def _hop_possible(board, n):
    """Whether a Two in the first column could move to a first-column gap."""
    two = False
    for row in range(4):
        v = board[row * n]
        two = two or (v != 0 and v % n == 1)
    return two and _open_column(board, n)


@leaf
def _phase_two(board, n):
    """Whether the four Twos fill the first column (no Two can move again)."""
    for row in range(4):
        v = board[row * n]
        if v == 0 or v % n != 1:
            return False
    return True


@leaf
def _pack_column(board, n):
    """The four first-column cells, 6 bits each."""
    out = np.int64(0)
    for row in range(4):
        out |= np.int64(board[row * n]) << (6 * row)
    return out


@leaf
def _gen_moves(board, pos, gaps, n, hops_ok, src, dst, arr):
    """Fill ``src``/``dst`` with the legal moves (card cell -> gap cell); return their count.
    ``hops_ok``: a Two in the first column may move to another first-column gap."""
    m = 0
    for j in range(4):
        g = gaps[j]
        if g % n == 0:
            for suit in range(4):
                p = pos[suit * n + 1]
                if p % n != 0 or (hops_ok and p != g):
                    src[m] = p
                    dst[m] = g
                    arr[m] = -1
                    m += 1
        else:
            left = board[g - 1]
            if left != 0 and left % n != n - 1:
                src[m] = pos[left + 1]
                dst[m] = g
                arr[m] = -1
                m += 1
    return m


@leaf
def _safe_move(board, n, free, src, dst, arr, m):
    """Index of a *safe* move among the ``m`` moves of a phase-two layout, or -1.

    A card Y whose predecessor ends a row's locked run (a row not free) can only ever move into
    the gap right of it, Y's home: the predecessor never moves again in phase two and nothing
    else fits there.  Playing Y there at once loses nothing unless Y's successor could still
    move into the cell right of Y's present cell while Y sits there; so it is safe when Y is a
    King, stands in the last column, or has its successor right of it already.  Any line of play
    then does at least as well with Y's move first: every other move stays legal (only Y's cell,
    now a gap, and Y's home, which only Y could fill, differ), and the locked cards only grow.
    """
    for i in range(m):
        if arr[i] >= 0:
            continue
        s = src[i]
        t = dst[i]
        row = t // n
        col = t % n
        if col == 0 or (free >> row) & 1:
            continue
        if _run(board, n, row, board[row * n]) != col:  # the gap is not right of the locked run
            continue
        card = board[s]
        if card % n == n - 1 or s % n == n - 1 or board[s + 1] == card + 1:
            return i
    return -1


@leaf
def _only_safe(board, n, free, src, dst, arr, m):
    """Keep only a safe move of a phase-two layout, if it has one (moved to the front); return
    the number of moves kept."""
    if not _phase_two(board, n):
        return m
    k = _safe_move(board, n, free, src, dst, arr, m)
    if k < 0:
        return m
    src[0] = src[k]
    dst[0] = dst[k]
    arr[0] = -1
    return 1


@leaf
def _z_mask(board, n):
    """Rows whose first cell holds a Two or a gap."""
    mask = 0
    for row in range(4):
        v = board[row * n]
        if v == 0 or v % n == 1:
            mask |= 1 << row
    return mask


@leaf
def _gen_class_moves(board, pos, gaps, n, free, src, dst, arr, tmp):
    """The arranged moves of a class whose ``free`` rows may hold their Twos and gaps in any
    order (see the module docstring); no hops.  ``tmp``: scratch (see ``search``)."""
    column = _pack_column(board, n)
    twos = tmp[28:32]
    t = 0
    opened = -1
    for row in range(4):
        v = board[row * n]
        if (free >> row) & 1 and v != 0:
            twos[t] = v
            t += 1
        if v == 0 and opened < 0:
            opened = row * n
    m = 0
    for j in range(4):
        g = gaps[j]
        if g % n == 0:
            continue
        left = board[g - 1]
        if g % n == 1 and (free >> (g // n)) & 1:
            for i in range(t):  # a Three behind each free Two, that Two set in front of it
                two = twos[i]
                src[m] = pos[two + 1]
                dst[m] = g
                if left == two:
                    arr[m] = -1
                else:
                    here = pos[two]
                    swapped = column
                    for row in range(4):
                        c = row * n
                        if c == g - 1 or c == here:
                            other = here if c == g - 1 else g - 1
                            swapped &= ~(np.int64(63) << (6 * row))
                            swapped |= np.int64(board[other]) << (6 * row)
                    arr[m] = swapped
                m += 1
        elif left != 0 and left % n != n - 1:
            src[m] = pos[left + 1]
            dst[m] = g
            arr[m] = -1
            m += 1
    if opened >= 0:
        for suit in range(4):  # a Two from outside the column enters a gap of it
            p = pos[suit * n + 1]
            if p % n != 0:
                src[m] = p
                dst[m] = opened
                arr[m] = -1
                m += 1
    return m


@leaf
def _best_assignment(gain, k, tmp):
    """The most total ``gain[i, order[i]]`` over the orders of ``k`` items; that order is left
    in ``tmp[12:12 + k]``."""
    order = tmp[8:12]
    best_order = tmp[12:16]
    for i in range(k):
        order[i] = i
    best = -1
    while True:
        total = 0
        for i in range(k):
            total += gain[i, order[i]]
        if total > best:
            best = total
            for c in range(k):
                best_order[c] = order[c]
        i = k - 2
        while i >= 0 and order[i] > order[i + 1]:
            i -= 1
        if i < 0:
            return best
        j = k - 1
        while order[j] < order[i]:
            j -= 1
        order[i], order[j] = order[j], order[i]
        lo, hi = i + 1, k - 1
        while lo < hi:
            order[lo], order[hi] = order[hi], order[lo]
            lo += 1
            hi -= 1


@leaf
def _class_locked(board, n, free, tmp, gain):
    """The most locked cards over the orders of the ``free`` rows' first cells, and that order
    (the packed first column, -1 if the layout's own is best)."""
    own = locked(board, n)
    if free == 0:
        return own, np.int64(-1)
    rows = tmp[0:4]
    vals = tmp[4:8]
    k = 0
    fixed = 0
    for row in range(4):
        v = board[row * n]
        if (free >> row) & 1:
            rows[k] = row
            vals[k] = v
            k += 1
        elif v != 0 and v % n == 1:
            fixed += _run(board, n, row, v)
    most = 0
    for i in range(k):
        for j in range(k):
            gain[i, j] = 0 if vals[j] == 0 else _run(board, n, rows[i], vals[j])
            most = max(most, gain[i, j])
    if most <= 1:  # no free row has its Three behind it in any order: all orders tie
        return own, np.int64(-1)
    best = _best_assignment(gain, k, tmp)
    order = tmp[12:16]
    if fixed + best <= own:
        return own, np.int64(-1)
    packed = _pack_column(board, n)
    for i in range(k):
        row = rows[i]
        packed &= ~(np.int64(63) << (6 * row))
        packed |= np.int64(vals[order[i]]) << (6 * row)
    return fixed + best, packed


@leaf
def _free_after(board, n, free, was_open, t):
    """The free rows after a move into cell ``t``: an open column's rows with a Two or a gap;
    the same when a column just closed (every order of its Twos was reachable); else the rows
    free before, less the row whose Two a Three was just set behind."""
    if was_open or _open_column(board, n):
        return _z_mask(board, n)
    if t % n == 1:
        return free & ~(1 << (t // n))
    return free


@leaf
def _set_cell(board, pos, key, word, mul, n, c, v):
    """Write card ``v`` (0: a gap) into cell ``c``, keeping ``pos`` and the key up to date."""
    old = board[c]
    key[word[c]] -= np.uint64(old - old // n) * mul[c]
    key[word[c]] += np.uint64(v - v // n) * mul[c]
    board[c] = v
    if v != 0:
        pos[v] = c


@leaf
def _arrange(board, pos, gaps, key, word, mul, n, packed, tmp):
    """Set the first column to ``packed`` (a rearrangement of its Twos and gaps)."""
    filled = tmp[32:36]  # gaps of the column that get a Two
    emptied = tmp[36:40]  # cells of the column that become gaps
    a = 0
    b = 0
    for row in range(4):
        c = row * n
        v = (packed >> (6 * row)) & 63
        if board[c] == 0 and v != 0:
            filled[a] = c
            a += 1
        elif board[c] != 0 and v == 0:
            emptied[b] = c
            b += 1
    for i in range(a):
        for j in range(4):
            if gaps[j] == filled[i]:
                gaps[j] = emptied[i]
                break
    for row in range(4):
        c = row * n
        v = (packed >> (6 * row)) & 63
        if board[c] != v:
            _set_cell(board, pos, key, word, mul, n, c, v)


@leaf
def _move(board, pos, gaps, key, word, mul, n, src, dst):
    """Move the card at ``src`` into the gap at ``dst`` (its own undo with the cells swapped)."""
    card = board[src]
    board[dst] = card
    board[src] = 0
    pos[card] = dst
    for j in range(4):
        if gaps[j] == dst:
            gaps[j] = src
    digit = np.uint64(card - card // n)
    key[word[src]] -= digit * mul[src]
    key[word[dst]] += digit * mul[dst]


@leaf
def _undo(board, pos, gaps, key, word, mul, n, src, dst, arranged, saved, tmp):
    """Take back the move ``src`` -> ``dst`` and, if ``arranged``, the first column's
    rearrangement before it (``saved``: the column and free rows before both); returns the free
    rows."""
    _move(board, pos, gaps, key, word, mul, n, dst, src)
    if arranged:
        _arrange(board, pos, gaps, key, word, mul, n, saved, tmp)
    return saved >> 24


@leaf
def _class_key(board, key, word, mul, n, free, shift, out, tmp):
    """The table key of the layout's class: the free rows' first cells sorted, and the free
    rows in the last word's bits from ``shift``."""
    for w in range(key.shape[0]):
        out[w] = key[w]
    out[-1] |= np.uint64(free) << shift
    if free == 0:
        return
    vals = tmp[20:24]
    cells = tmp[24:28]
    k = 0
    for row in range(4):
        if (free >> row) & 1:
            v = board[row * n]
            j = k
            while j > 0 and vals[j - 1] > v:  # insertion sort
                vals[j] = vals[j - 1]
                j -= 1
            vals[j] = v
            cells[k] = row * n
            k += 1
    for i in range(k):
        c = cells[i]
        old = board[c]
        new = vals[i]
        out[word[c]] -= np.uint64(old - old // n) * mul[c]
        out[word[c]] += np.uint64(new - new // n) * mul[c]


@leaf
def _commute(s1, t1, s2, t2):
    """Whether two legal moves stay legal after each other and reach the same layout."""
    return s1 != s2 and t1 != t2 and s1 != t2 - 1 and s2 != t1 - 1


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
def _layout_bits(shift, dominance):
    """The bits of a key's last word that name its layout (hashed and compared): those below
    the stamp, less the hops a hop-budget pass (``dominance``) keeps there."""
    bits = (np.uint64(1) << (shift + np.uint64(HOP_BITS))) - np.uint64(1)
    return bits & ~(np.uint64((1 << HOP_BITS) - 1) << shift) if dominance else bits


@leaf
def _home(key, mask, keep):
    """The table slot where ``key``'s probe starts: a hash of its layout (``keep``: the bits of
    the last word that name it), never of its stamp."""
    last = key.shape[0] - 1
    h = np.uint64(0x243F6A8885A308D3)
    for w in range(last + 1):
        h = (h ^ (key[w] & keep if w == last else key[w])) * np.uint64(0x9E3779B97F4A7C15)
        h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(mask))


@leaf
def _grow(keys, size, stamp_shift, gen, keep):
    """Double the slots this search uses (the first ``size``) and return the new size.

    One pass in slot order moves each layout back to the first free slot from its new home
    (its old home, or ``size`` above it) when one lies before it.  A slot of the lower half is
    emptied only when the pass reaches it, one of the upper half only once the pass is there,
    and a probe from the lower half never wraps round the end (the upper half would have to be
    full), so every slot a probe passed when its layout was settled stays full."""
    last = keys.shape[1] - 1
    mask = 2 * size - 1
    for j in range(2 * size):
        if keys[j, last] >> stamp_shift != gen:
            continue
        i = _home(keys[j], mask, keep)
        while i != j and keys[i, last] >> stamp_shift == gen:
            i = (i + 1) & mask
        if i != j:
            for w in range(last + 1):
                keys[i, w] = keys[j, w]
            keys[j, last] = np.uint64(0)
    return 2 * size


@leaf
def _forget_one(keys, size, key, stamp_shift, gen, word, mul, n, shift, movable_twos):
    """Empty the first slot from ``key``'s home on whose layout cannot recur, keeping every
    other key findable (backward-shift deletion); False if no slot can go.  Only the whole
    round forgets, so no key holds hops and the whole last word below the stamp is hashed, as
    ``_insert`` hashes it there.  Forgetting where the new key goes keeps the table evenly
    filled (a cursor going round it would leave a run of full slots ahead of it)."""
    mask = size - 1
    last = keys.shape[1] - 1
    keep = _layout_bits(shift, False)
    start = _home(key, mask, keep)
    for step in range(mask + 1):
        i = (start + step) & mask
        if keys[i, last] >> stamp_shift == gen and not (
                movable_twos and _recurs(keys[i], word, mul, n, shift)):
            break
    else:
        return False
    j = i
    while True:
        j = (j + 1) & mask
        if keys[j, last] >> stamp_shift != gen:
            break
        k = _home(keys[j], mask, keep)
        if (i < k <= j) if i <= j else (i < k or k <= j):
            continue  # its probe path does not cross the emptied slot
        for w in range(last + 1):
            keys[i, w] = keys[j, w]
        i = j
    keys[i, last] = np.uint64(0)
    return True


@leaf
def _insert(keys, size, key, shift, gen, states, max_states, hops, dominance):
    """Add ``key`` to the table's first ``size`` slots: 1 if new, 0 if already there, 2 if the
    table is full.  With ``dominance`` (a hop-budget pass) the last word's bits from ``shift``
    hold the fewest hops the layout was reached with, outside the comparison: 0 if it is there
    with as few hops or fewer, 3 if with more (now lowered: search it again)."""
    last = key.shape[0] - 1
    stamp_shift = shift + np.uint64(HOP_BITS)
    field = np.uint64((1 << HOP_BITS) - 1) << shift if dominance else np.uint64(0)
    mask = size - 1
    slot = _home(key, mask, _layout_bits(shift, dominance))
    while keys[slot, last] >> stamp_shift == gen:
        same = (keys[slot, last] & ~field) == key[last]
        for w in range(last):
            if keys[slot, w] != key[w]:
                same = False
                break
        if same:
            if not dominance:
                return 0
            stored = (keys[slot, last] & field) >> shift
            if stored <= hops:
                return 0
            keys[slot, last] = key[last] | (np.uint64(hops) << shift)
            return 3
        slot = (slot + 1) & mask
    if states >= max_states:
        return 2
    for w in range(last + 1):
        keys[slot, w] = key[w]
    if dominance:
        keys[slot, last] |= np.uint64(hops) << shift
    return 1


@leaf
def _row_bound(board, n, mobile, any_two, base, first):
    """Locked cards the row at ``base`` can reach with ``first`` in its first cell (see
    ``_upper_bound``)."""
    suit = -1
    if first != 0 and not mobile[first]:
        if first % n != 1:
            return 0
        suit = first // n
    elif not (any_two or (first != 0 and first % n == 1)):
        return 0
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
    return k


@leaf
def _mobility(board, pos, n, movable_twos, mobile, free, tmp):
    """``mobile``: the least fixed point of "may move again" (see ``_upper_bound``), by
    propagation from the cards that can move now."""
    mobile[:] = False
    stack = tmp[64:]
    top = 0
    twos_may = False  # a first-column cell is a gap: every Two that may leave its cell can
    for row in range(4):
        twos_may = twos_may or board[row * n] == 0
    for suit in range(4):
        for rank in range(2, n + 1):
            code = suit * n + rank - 1
            p = pos[code]
            if rank == 2:
                may = twos_may and (p % n != 0 or movable_twos)
            elif rank == 3 and pos[code - 1] % n == 0 and (free >> (pos[code - 1] // n)) & 1:
                may = False
                for row in range(4):
                    q = row * n + 1
                    may = may or ((free >> row) & 1 and q != p and board[q] == 0)
            else:
                pp = pos[code - 1]
                may = pp % n != n - 1 and board[pp + 1] == 0
            if may:
                mobile[code] = True
                stack[top] = code
                top += 1
    while top > 0:
        top -= 1
        y = stack[top]
        c = pos[y]
        # the cards that may follow: y's successor, the card whose target is y's cell, and
        # (y leaving the first column) the Twos, or (y leaving a free row's second cell) the
        # Threes of the free Twos
        for i in range(5):
            x = -1
            if i == 0:
                if y % n != n - 1:
                    x = y + 1
            elif c % n == 0:
                two = (i - 1) * n + 1
                if two != y and (pos[two] % n != 0 or movable_twos):
                    x = two
            elif c % n == 1 and (free >> (c // n)) & 1:
                v = board[(i - 1) * n]
                if (free >> (i - 1)) & 1 and v != 0 and v + 1 != y:
                    x = v + 1
            elif i == 1:
                left = board[c - 1]
                if left != 0 and left % n != n - 1 and left + 1 != y:
                    x = left + 1
            if x >= 0 and not mobile[x]:
                mobile[x] = True
                stack[top] = x
                top += 1


@leaf
def _upper_bound(board, pos, n, movable_twos, mobile, free, tmp, gain):
    """An upper bound on the locked cards of every layout reachable from this one, or from any
    order of the ``free`` rows' Twos if the first column has no gap.

    ``mobile`` becomes the least fixed point of "this card may move again": a Two may if it
    may leave its cell for a first-column cell that is a gap or holds a card that may move; any
    other card may if its predecessor may, or if the cell right of its predecessor (not the
    card itself, not past the last column) is a gap or holds a card that may move.  The first
    card of the others to move would contradict this, so the rest stay put for good; a row
    then locks at most up to its first stuck cell that is wrong, or whose right card is stuck
    elsewhere.  For a Three whose Two is free, "the cell right of its predecessor" is the
    second cell of any free row, and the free rows count their best order of the free Twos:
    each order is covered, so the bound holds for all of them.
    """
    if _open_column(board, n):
        free = 0
    _mobility(board, pos, n, movable_twos, mobile, free, tmp)
    any_two = False
    for suit in range(4):
        any_two = any_two or mobile[suit * n + 1]
    total = 0
    rows = tmp[16:20]
    k = 0
    for row in range(4):
        if (free >> row) & 1:
            rows[k] = row
            k += 1
        else:
            total += _row_bound(board, n, mobile, any_two, row * n, board[row * n])
    if k > 0:
        for i in range(k):
            for j in range(k):
                gain[i, j] = _row_bound(board, n, mobile, any_two, rows[i] * n,
                                        board[rows[j] * n])
        total += _best_assignment(gain, k, tmp)
    return total


@leaf
def _reach_bound(board, pos, n, free, reach, tmp, gain):
    """An upper bound on the locked cards of every layout reachable from this one (movable
    Twos), or from any order of its ``free`` rows' first cells, from the cells each card can
    ever reach.

    ``reach[card]`` becomes a mask of cells holding every cell the card can ever stand in, and
    ``gaps`` every cell that can ever be a gap (least fixed point): a Two can reach a
    first-column cell that can be a gap; another card the cell right of a cell its predecessor
    can reach (not past the row's end) if that cell can be a gap; a cell can be a gap if it is
    one now, or the card now in it can reach another cell.  By induction over any line of
    play: the card moved goes into a present gap (right of its predecessor's present cell, or
    in the first column for a Two), and the cell it leaves is its first one (a gap only if the
    card can move) or one it entered as a gap.  The free rows' Twos count as standing in any
    of their first cells, and with an open column those cells as gaps, so the bound covers
    every order.  A row then locks at most up to the first cell its right card cannot reach,
    with the best assignment of Twos that can reach the rows' first cells.
    """
    one = np.int64(1)
    gaps = np.int64(0)
    for c in range(4 * n):
        if board[c] == 0:
            gaps |= one << c
    firsts = np.int64(0)  # the first cells of the free rows
    column = np.int64(0)
    last = np.int64(0)  # the last column: nothing goes right of it
    for row in range(4):
        column |= one << (row * n)
        last |= one << (row * n + n - 1)
        if (free >> row) & 1:
            firsts |= one << (row * n)
    if gaps & column:  # an open column: any free row's first cell may be its gap
        gaps |= firsts
    for suit in range(4):
        two = suit * n + 1
        reach[two] = firsts if (firsts >> pos[two]) & 1 else one << pos[two]
        for code in range(two + 1, two + n - 1):
            reach[code] = one << pos[code]
    # Grow each suit's masks in rank order; a suit is grown again only once gaps has grown
    # since it last was (``seen``), so the loop ends at the least fixed point.
    seen = tmp[40:44]
    seen[:] = -1
    grew = True
    while grew:
        grew = False
        for suit in range(4):
            if seen[suit] == gaps:
                continue
            seen[suit] = gaps
            grew = True
            two = suit * n + 1
            grown = reach[two] | (column & gaps)
            if grown != reach[two]:
                reach[two] = grown
                gaps |= firsts if (firsts >> pos[two]) & 1 else one << pos[two]
            for code in range(two + 1, two + n - 1):
                grown = reach[code] | (((reach[code - 1] & ~last) << 1) & gaps)
                if grown != reach[code]:
                    reach[code] = grown
                    gaps |= one << pos[code]
    for row in range(4):
        for suit in range(4):
            two = suit * n + 1
            gain[row, suit] = _reach_run(reach, n, row, two) if (reach[two] >> (row * n)) & 1 \
                else 0
    return _best_assignment(gain, 4, tmp)


@leaf
def _reach_run(reach, n, row, two):
    """Locked cards the row can reach with ``two`` in its first cell: up to the first cell
    whose right card cannot reach it."""
    k = 1
    while k < n - 1 and (reach[two + k] >> (row * n + k)) & 1:
        k += 1
    return k


@leaf
def _cut(board, pos, n, movable_twos, prune, bound_two, use_reach, mobile, reach, free, tmp,
         gain, best):
    """Whether a bound shows that nothing reachable from the layout beats ``best``: the
    stuck-card bound everywhere (``prune``) or at phase-two layouts (``bound_two``), or with
    ``use_reach`` (movable Twos) the reach bound everywhere."""
    if prune:
        return _upper_bound(board, pos, n, movable_twos, mobile, free, tmp, gain) <= best
    if bound_two and use_reach:
        return _reach_bound(board, pos, n, free, reach, tmp, gain) <= best
    if bound_two and _phase_two(board, n):
        return _upper_bound(board, pos, n, movable_twos, mobile, free, tmp, gain) <= best
    return False


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
    free = _z_mask(board, n) if classes and _open_column(board, n) else 0
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
            _class_key(board, key, word, mul, n, free, shift, probe, tmp)
        _insert(keys, size, probe if classes else key, shift, gen, 0, max_states, 0, budget)
        states = 1
        recurring = 1 if movable_twos and _open_column(board, n) else 0
    best, final_arr = _class_locked(board, n, free, tmp, gain)
    moves = 0
    if best < known:  # a line found elsewhere reaches more: ours counts only if it beats it
        best = known
        moves = -1
    if best == target:
        return WON, best, moves, final_arr, nodes, states, budget_hit, forgotten
    if _cut(board, pos, n, movable_twos, prune, bound_two, use_reach, mobile, reach, free, tmp,
            gain, best):
        return EXHAUSTED, best, moves, final_arr, nodes, states, budget_hit, forgotten
    if classes and (free != 0 or _open_column(board, n)):
        count[0] = _gen_class_moves(board, pos, gaps, n, free, src[0], dst[0], arr[0], tmp)
    else:
        hops_ok = movable_twos and (not budget or hop_budget > 0)
        count[0] = _gen_moves(board, pos, gaps, n, hops_ok, src[0], dst[0], arr[0])
        budget_hit = budget and not hops_ok and _hop_possible(board, n)
    if safe:
        count[0] = _only_safe(board, n, free, src[0], dst[0], arr[0], count[0])
    d = 0
    while True:
        if nxt[d] == count[d]:
            if d == 0:
                return EXHAUSTED, best, moves, final_arr, nodes, states, budget_hit, forgotten
            d -= 1
            s = path_src[d]
            t = path_dst[d]
            free = _undo(board, pos, gaps, key, word, mul, n, s, t, path_arr[d] >= 0, saved[d],
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
        saved[d] = _pack_column(board, n) | (free << 24)
        was_open = classes and _open_column(board, n)
        if a >= 0:
            _arrange(board, pos, gaps, key, word, mul, n, a, tmp)
        _move(board, pos, gaps, key, word, mul, n, s, t)
        if classes:
            free = _free_after(board, n, free, was_open, t)
        if hop:
            hops += 1
        nodes += 1
        if (node_cap >= 0 and nodes >= node_cap) or (
                second_cap >= 0 and nodes % 4096 == 0 and now() - start > second_cap):
            return LIMIT, best, moves, final_arr, nodes, states, budget_hit, forgotten
        fresh = 1  # new (always, without a table)
        if use_tt:
            if classes:
                _class_key(board, key, word, mul, n, free, shift, probe, tmp)
            fresh = _insert(keys, size, probe if classes else key, shift, gen,
                            states - forgotten, max_states, hops, budget)
            if fresh == 2 and forget and 2 * recurring < max_states and _forget_one(
                    keys, size, probe if classes else key, shift + np.uint64(HOP_BITS), gen,
                    word, mul, n, shift, movable_twos):
                forgotten += 1  # one slot free now: the key goes in
                fresh = _insert(keys, size, probe if classes else key, shift, gen,
                                states - forgotten, max_states, hops, budget)
            if fresh == 2:
                return LIMIT, best, moves, final_arr, nodes, states, budget_hit, forgotten
            if fresh == 1:
                states += 1
                if movable_twos and _open_column(board, n):
                    recurring += 1
                if 2 * (states - forgotten) > size and size < keys.shape[0]:
                    size = _grow(keys, size, shift + np.uint64(HOP_BITS), gen,
                                 _layout_bits(shift, budget))
        if fresh != 0:
            path_src[d] = s
            path_dst[d] = t
            path_arr[d] = a
            score, best_col = _class_locked(board, n, free, tmp, gain)
            if score > best:
                best = score
                moves = d + 1
                final_arr = best_col
                best_src[:moves] = path_src[:moves]
                best_dst[:moves] = path_dst[:moves]
                best_arr[:moves] = path_arr[:moves]
                if best == target:
                    return WON, best, moves, final_arr, nodes, states, budget_hit, forgotten
        if fresh == 0 or _cut(board, pos, n, movable_twos, prune, bound_two, use_reach, mobile,
                              reach, free, tmp, gain, best):
            free = _undo(board, pos, gaps, key, word, mul, n, s, t, a >= 0, saved[d], tmp)
            if hop:
                hops -= 1
            continue
        if d + 1 == max_depth:
            return LIMIT, best, moves, final_arr, nodes, states, budget_hit, forgotten
        if classes and (free != 0 or _open_column(board, n)):
            m = _gen_class_moves(board, pos, gaps, n, free, src[d + 1], dst[d + 1], arr[d + 1],
                                 tmp)
        else:
            hops_ok = movable_twos and (not budget or hops < hop_budget)
            m = _gen_moves(board, pos, gaps, n, hops_ok, src[d + 1], dst[d + 1], arr[d + 1])
            if budget and not hops_ok and _hop_possible(board, n):
                budget_hit = True
        if safe:
            m = _only_safe(board, n, free, src[d + 1], dst[d + 1], arr[d + 1], m)
        count[d + 1] = m
        nxt[d + 1] = 0
        sleepy = sleep_fixed or (sleep_two and a < 0 and _phase_two(board, n)
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
