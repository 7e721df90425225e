"""Upper bounds on the locked cards reachable from a Montana layout (numba, for
``solvers.montana.kernel`` and ``solvers.montana.players``): a layout whose bound is no better
than the best seen is not expanded (``cut``), nor one whose bound is short of a win when the
players' chances are computed.

The stuck-card bound (``_upper_bound``) comes from cards that can never move again.  For a
class with free rows (``solvers.montana.moves``) it covers every order: a free Three counts as
able to move if the second cell of any free row lets it, and the free rows count their best
order.  With movable Twos the reach bound (``reach_bound``, every layout) replaces it by
default: it follows the cells each card can ever reach rather than whether it can move at all,
and bites where the other is 48.  With fixed Twos it holds each Two in the first column in its
cell; the players' analysis uses it so.
"""
import numpy as np

from solvers.jit import leaf
from solvers.montana.layout import best_assignment, open_column, phase_two


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
    if open_column(board, n):
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
        total += best_assignment(gain, k, tmp)
    return total


@leaf
def _reach(board, pos, n, movable_twos, free, reach, tmp):
    """The cells each card can ever reach from this layout, or from any order of its ``free``
    rows' first cells: the masks of the reach bound (``reach_bound``).

    ``reach[card]`` becomes a mask of cells holding every cell the card can ever stand in, and
    ``gaps`` every cell that can ever be a gap (least fixed point): a Two can reach a
    first-column cell that can be a gap (with fixed Twos only from outside the first column: a
    Two in it stays for good); another card the cell right of a cell its predecessor
    can reach (not past the row's end) if that cell can be a gap; a cell can be a gap if it is
    one now, or the card now in it can reach another cell.  By induction over any line of
    play: the card moved goes into a present gap (right of its predecessor's present cell, or
    in the first column for a Two), and the cell it leaves is its first one (a gap only if the
    card can move) or one it entered as a gap.  The free rows' Twos count as standing in any
    of their first cells, and with an open column those cells as gaps, so the bound covers
    every order.
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
            if movable_twos or pos[two] % n != 0:  # a fixed Two in the first column stays
                grown = reach[two] | (column & gaps)
                if grown != reach[two]:
                    reach[two] = grown
                    gaps |= firsts if (firsts >> pos[two]) & 1 else one << pos[two]
            for code in range(two + 1, two + n - 1):
                grown = reach[code] | (((reach[code - 1] & ~last) << 1) & gaps)
                if grown != reach[code]:
                    reach[code] = grown
                    gaps |= one << pos[code]


@leaf
def reach_bound(board, pos, n, movable_twos, free, reach, tmp, gain):
    """An upper bound on the locked cards of every layout reachable from this one, or from any
    order of its ``free`` rows' first cells (``reach[card]``: the cells the card can ever reach,
    ``_reach``): a row locks at most up to the first cell its right card cannot reach, with the
    best assignment of Twos that can reach the rows' first cells."""
    _reach(board, pos, n, movable_twos, free, reach, tmp)
    for row in range(4):
        for suit in range(4):
            two = suit * n + 1
            gain[row, suit] = _reach_run(reach, n, row, two) if (reach[two] >> (row * n)) & 1 \
                else 0
    return best_assignment(gain, 4, tmp)


@leaf
def reach_completes(board, pos, n, movable_twos, reach, tmp):
    """Whether the reach bound (``reach_bound``, no free rows) is a whole win, 4 * (n - 1):
    whether each suit's cards can reach the cells of a row of its own.  Cheaper than the
    bound: a suit that can complete no row ends it."""
    _reach(board, pos, n, movable_twos, 0, reach, tmp)
    rows = tmp[44:48]  # each suit's rows it can complete, as a mask
    for suit in range(4):
        two = suit * n + 1
        rows[suit] = 0
        for row in range(4):
            if (reach[two] >> (row * n)) & 1 and _reach_run(reach, n, row, two) == n - 1:
                rows[suit] |= 1 << row
        if rows[suit] == 0:
            return False
    for a in range(4):  # a row for each suit, no two alike
        if (rows[0] >> a) & 1:
            for b in range(4):
                if b != a and (rows[1] >> b) & 1:
                    for c in range(4):
                        if c != a and c != b and (rows[2] >> c) & 1:
                            if (rows[3] >> (6 - a - b - c)) & 1:
                                return True
    return False


@leaf
def _reach_run(reach, n, row, two):
    """Locked cards the row can reach with ``two`` in its first cell: up to the first cell
    whose right card cannot reach it."""
    k = 1
    while k < n - 1 and (reach[two + k] >> (row * n + k)) & 1:
        k += 1
    return k


@leaf
def cut(board, pos, n, movable_twos, prune, bound_two, use_reach, mobile, reach, free, tmp,
         gain, best):
    """Whether a bound shows that nothing reachable from the layout beats ``best``: the
    stuck-card bound everywhere (``prune``) or at phase-two layouts (``bound_two``), or with
    ``use_reach`` (movable Twos) the reach bound everywhere."""
    if prune:
        return _upper_bound(board, pos, n, movable_twos, mobile, free, tmp, gain) <= best
    if bound_two and use_reach:
        return reach_bound(board, pos, n, movable_twos, free, reach, tmp, gain) <= best
    if bound_two and phase_two(board, n):
        return _upper_bound(board, pos, n, movable_twos, mobile, free, tmp, gain) <= best
    return False
