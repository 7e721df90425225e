"""The moves of a Montana layout or column class, made and taken back (numba, for
``solvers.montana.kernel``).

A move is its own undo with the cells swapped; ``move`` keeps each card's cell (``pos``), the
gaps and the layout's table key (``solvers.montana.table``) up to date.

Column classes (movable Twos, no hop budget).  A class is a layout together with a set of
*free* rows: the layouts obtained by putting the first cells of the free rows (Twos, or gaps)
in any order, all of them reachable, and searched as one.  The table key has the free rows'
first cells sorted and the free rows in the last word's bits from ``shift`` (``class_key``);
a class scores the best order's locked cards (``class_locked``).  The moves of a class are the
moves of its layouts, each with the order it needs (``arr``: the four first-column cells
packed 6 bits each, -1 for none): only a Three moved into the second cell of a free row
depends on the order (one move per free Two, that Two set in front of it); every other move is
the same in every order.

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

Safe moves (phase two): a card whose predecessor ends a locked run, playable onto it, is
played alone when nothing is lost by playing it first (``safe_move``).
"""
import numpy as np

from solvers.jit import leaf
from solvers.montana.layout import (best_assignment, locked, open_column, pack_column, phase_two,
                                    run, z_mask)

# Moves of a layout: four gaps, a first-column gap taking one of four Twos; with column classes
# a second cell of a free row takes the Three of any free Two (at most four gaps of four Twos;
# with a first-column gap, at most three such gaps of three Twos plus four Twos entering).
MAX_MOVES = 16


@leaf
def gen_moves(board, pos, gaps, n, hops_ok, src, dst, arr):
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
def safe_move(board, n, free, src, dst, arr, m):
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
        if run(board, n, row, board[row * n]) != col:  # the gap is not right of the locked run
            continue
        card = board[s]
        if card % n == n - 1 or s % n == n - 1 or board[s + 1] == card + 1:
            return i
    return -1


@leaf
def only_safe(board, n, free, src, dst, arr, m):
    """Keep only a safe move of a phase-two layout, if it has one (moved to the front); return
    the number of moves kept."""
    if not phase_two(board, n):
        return m
    k = safe_move(board, n, free, src, dst, arr, m)
    if k < 0:
        return m
    src[0] = src[k]
    dst[0] = dst[k]
    arr[0] = -1
    return 1


@leaf
def gen_class_moves(board, pos, gaps, n, free, src, dst, arr, tmp):
    """The arranged moves of a class whose ``free`` rows may hold their Twos and gaps in any
    order (see the module docstring); no hops.  ``tmp``: scratch (see ``search``)."""
    column = pack_column(board, n)
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
def class_locked(board, n, free, tmp, gain):
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
            fixed += run(board, n, row, v)
    most = 0
    for i in range(k):
        for j in range(k):
            gain[i, j] = 0 if vals[j] == 0 else run(board, n, rows[i], vals[j])
            most = max(most, gain[i, j])
    if most <= 1:  # no free row has its Three behind it in any order: all orders tie
        return own, np.int64(-1)
    best = best_assignment(gain, k, tmp)
    order = tmp[12:16]
    if fixed + best <= own:
        return own, np.int64(-1)
    packed = pack_column(board, n)
    for i in range(k):
        row = rows[i]
        packed &= ~(np.int64(63) << (6 * row))
        packed |= np.int64(vals[order[i]]) << (6 * row)
    return fixed + best, packed


@leaf
def free_after(board, n, free, was_open, t):
    """The free rows after a move into cell ``t``: an open column's rows with a Two or a gap;
    the same when a column just closed (every order of its Twos was reachable); else the rows
    free before, less the row whose Two a Three was just set behind."""
    if was_open or open_column(board, n):
        return z_mask(board, n)
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
def arrange(board, pos, gaps, key, word, mul, n, packed, tmp):
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
def move(board, pos, gaps, key, word, mul, n, src, dst):
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
def undo(board, pos, gaps, key, word, mul, n, src, dst, arranged, saved, tmp):
    """Take back the move ``src`` -> ``dst`` and, if ``arranged``, the first column's
    rearrangement before it (``saved``: the column and free rows before both); returns the free
    rows."""
    move(board, pos, gaps, key, word, mul, n, dst, src)
    if arranged:
        arrange(board, pos, gaps, key, word, mul, n, saved, tmp)
    return saved >> 24


@leaf
def class_key(board, key, word, mul, n, free, shift, out, tmp):
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
