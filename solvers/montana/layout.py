"""What a Montana layout says, read by the numba kernel (``solvers.montana.kernel``).

A layout of ``4 * n`` cells (row by row) holds card codes ``suit * n + rank - 1`` (ranks
2..n, so codes are never a multiple of ``n``; a Two's code is ``1 mod n``) and 0 for a gap.
The first column is cells ``row * n``; packed, it is four 6-bit fields (``pack_column``), the
form in which the search records an order of its Twos and gaps.
"""
import numpy as np

from solvers.jit import leaf


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
def run(board, n, row, two):
    """Locked cards of ``row`` if ``two`` stood in its first cell."""
    base = row * n
    k = 1
    while k < n - 1 and board[base + k] == two + k:
        k += 1
    return k


@leaf
def open_column(board, n):
    """Whether a first-column cell is a gap."""
    for row in range(4):
        if board[row * n] == 0:
            return True
    return False


@leaf
def hop_possible(board, n):
    """Whether a Two in the first column could move to a first-column gap."""
    two = False
    for row in range(4):
        v = board[row * n]
        two = two or (v != 0 and v % n == 1)
    return two and open_column(board, n)


@leaf
def phase_two(board, n):
    """Whether the four Twos fill the first column (no Two can move again)."""
    for row in range(4):
        v = board[row * n]
        if v == 0 or v % n != 1:
            return False
    return True


@leaf
def pack_column(board, n):
    """The four first-column cells, 6 bits each."""
    out = np.int64(0)
    for row in range(4):
        out |= np.int64(board[row * n]) << (6 * row)
    return out


@leaf
def z_mask(board, n):
    """Rows whose first cell holds a Two or a gap."""
    mask = 0
    for row in range(4):
        v = board[row * n]
        if v == 0 or v % n == 1:
            mask |= 1 << row
    return mask


@leaf
def best_assignment(gain, k, tmp):
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
