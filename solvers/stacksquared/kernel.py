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

The single-stack search also cuts positions by the pendant rule.  Take a top v and a cluster C of
other tops such that (a) every top compatible with a card of C is in C or is v, and (b) exactly
one top z outside C is compatible with v (v and z make a bridge of the compatibility graph of the
tops); let A be v and C, the stacks of A those topped by its cards, and W the occupied cells but
those of A and z.  A single stack then needs one of:

(i)  z's stack gathers the stacks of W on a cell p: z's cell if W is empty, and otherwise a cell
     of W that z reaches from its cell in at most k line steps through cells of W, k the number
     of tops in W compatible with z; v's stack moves onto it from a cell in line with p; then the
     stacks of A, v's on p, become one;
(ii) the stacks of A become one by moves among themselves, none onto v's stack.

``landings`` plays the game of A's stacks: for (i) with one more stack, on p, that only v moves
onto and that never moves, which gives the cells p that work; for (ii) as it is.  When no cell
that z may reach works and (ii) fails, the position is dead (``cluster_dead``).  The search takes
clusters of at most four tops: ``pendant_dead`` finds those of one or two from a top with one or
two compatible tops, at little cost a node; ``bridge_dead`` finds them all, at the root and past
``WIDEN`` nodes, where a search is a long proof that no single stack exists.

Proof: the tops of a later position are some of this one's; a move joins two compatible tops in
line, the mover's top stays on top at the destination, the other is covered for good.  By (a) and
(b) the only compatible tops of which one is in A and the other not are v and z: until a move
between v's stack and z's, the stacks of A and the others play apart, each keeping its top in its
own set, and there is such a move, or the two never join.  Until then v and z stay on top
(covered, neither could make that move).  (i) If v's stack moves onto z's, on a cell p, the stack
it makes is topped by v and then by cards of A, compatible with no top of W: a stack of W left
over could never join it, so z's stack held every stack of W already.  z gathered them by moving
onto them (a stack moving onto z's would cover z): each time onto a top compatible with z,
covered for good, so at most k times; on a cell in line with its own, and of W (z's own stays
empty once left); at least once if W is not empty.  Meanwhile v's stack moved only onto stacks of
A, so it comes from a cell of A in line with p, and the stacks left after the move are A's, v's
on p.  (ii) If z's stack moves onto v's, the stack it makes is topped by z and then by cards
outside A, compatible with no card of C: a stack of C left over could never join it, so v's
stack held A already, gathered by moves among A's stacks none of which covered v.

When no two cells of A share a line, (ii) fails and v's stack first moves onto z's from v's own
cell; with two cards in C no cell p works then (it would be in line with three cells in distinct
rows and columns), and (a) and (b) alone cut.

The first part holds the pieces other kernels share (``tree``, grading); the second the solver's
own search, ``solve_search`` (ahead-of-time compiled at install: ``codes.SEARCH``).
"""
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from solvers.hashtable import SPLITMIX, doubled, find
from solvers.jit import leaf
from solvers.stacksquared.codes import (DONE, FEWEST_PARTNERS, NODE_LIMIT,  # noqa: F401
                                        PARTITION_CUT, PENDANT_CUT, PERTURBED, PORTFOLIO,
                                        ROW_MAJOR, STATE_LIMIT, TIME_LIMIT)
from solvers.timing import now

MISSING = np.int8(-1)
ONE = np.uint64(1)
ZERO = np.uint64(0)


@intrinsic
def _count_ones(typingctx, x):
    """The population count of a 64-bit integer (one machine instruction where the CPU has it)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(context.cast(builder, args[0], x, types.uint64))
    return types.int64(x), codegen


@intrinsic
def _trailing_zeros(typingctx, x):
    """The number of trailing zero bits of a 64-bit integer (64 for zero)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], x, types.uint64)
        return builder.cttz(value, ir.Constant(ir.IntType(1), 0))
    return types.int64(x), codegen


@njit(cache=True, inline="always")
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero uint64."""
    return _trailing_zeros(x)


@leaf
def component(start, within, adjacent):
    """The connected component of cell ``start`` inside the cell mask ``within``."""
    reached = ONE << np.uint64(start)
    frontier = reached
    while frontier and reached != within:
        cell = lowest_bit(frontier)
        frontier &= frontier - ONE
        new = adjacent[cell] & within & ~reached
        reached |= new
        frontier |= new
    return reached


@leaf
def split_off(cls, work_adj, line):
    """The component of the class's first cell in the compatibility graph induced on the
    class, or, when that is the whole class, in the shared-line graph induced on it."""
    first = lowest_bit(cls)
    part = component(first, cls, work_adj)
    if part == cls:
        part = component(first, cls, line)
    return part


@njit(cache=True, inline="always")
def top_cards(card, occupied):
    """The mask of the cards on top of the occupied cells."""
    tops = ZERO
    rest = occupied
    while rest:
        a = lowest_bit(rest)
        rest &= rest - ONE
        tops |= ONE << np.uint64(card[a])
    return tops


@leaf
def cannot_merge(card, occupied, line, compat):
    """True when the stacks can never become one (see the module docstring): the compatibility
    graph of the top cards, or the shared-line graph of the occupied cells, is not connected.
    Each card tops one cell, so the first graph is searched over cards, ``compat`` its
    adjacency masks."""
    tops = top_cards(card, occupied)
    if component(lowest_bit(tops), tops, compat) != tops:
        return True
    return component(lowest_bit(occupied), occupied, line) != occupied


@leaf
def class_bound(size, occupied, line, work_adj, work_stack):
    """The partition bound on the score reachable from this position (see the module
    docstring), ``work_adj`` holding the compatibility adjacency of the tops."""
    bound = 0
    work_stack[0] = occupied
    top = 1
    while top > 0:
        top -= 1
        cls = work_stack[top]
        part = split_off(cls, work_adj, line)
        if part != cls:
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
    return _count_ones(x)


@leaf
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


@njit(cache=True, inline="always")
def rank_of_move(mover_line, mover_partners, dest_partners):
    """Where a move comes in the most-promising-first order (smaller first), from the occupied
    cells in line with the mover, the mover's compatible tops and the destination's."""
    return (mover_line + dest_partners) * 64 - mover_partners


@leaf
def generate_moves(card, occupied, line, compat, order_moves, move_from, move_to, move_rank, base):
    """Write the legal moves (mover cell, destination cell) at ``base``; return how many.

    Moves are ordered most promising first (``rank_of_move``): a destination whose top card has the
    fewest compatible tops left (it leaves play, and it was the likeliest to be stranded) plus a
    mover whose cell has the fewest occupied cells in line (it empties, and it was the likeliest
    to be cut off); ties go to the mover with the most compatible tops, then to the row-major
    order.  On 4x4 deals this ordering cuts the mean search from about 11,000 nodes to about 900
    (benchmarks/stacksquared.md).  ``order_moves=False`` keeps the plain row-major order: mover
    cell ascending, then destination cell ascending.
    """
    alive = top_cards(card, occupied)
    count = 0
    rest = occupied
    while rest:
        a = lowest_bit(rest)
        rest &= rest - ONE
        partners = line[a] & occupied
        ca = card[a]
        mover_line = popcount(partners)
        mover_partners = popcount(compat[ca] & alive)
        while partners:
            b = lowest_bit(partners)
            partners &= partners - ONE
            if (compat[ca] >> np.uint64(card[b])) & ONE:
                rank = 0
                if order_moves:
                    rank = rank_of_move(mover_line, mover_partners,
                                        popcount(compat[card[b]] & alive))
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


# ---------------------------------------------------------------------------------------------
# The solver's search: moves from bitboards, a memo kept across restarts, a portfolio of orders.
#
# Besides ``card`` and ``size`` the search keeps, incrementally, the occupied cells by the suit
# and by the rank of their top card (``suit_cells[s]``, ``rank_cells[r + 1]`` for rank r = 0..12,
# with empty guards at 0 and 14).  The cells whose top may merge with card x are then four
# masks ORed (``partner_cells``), and a mover's destinations are that AND its lines.

# The status of a memo entry, kept in the two top bits of its first word (a key byte holds a
# card index + 1 or a size, at most 53, so those bits are free); an empty slot is all zero.
STATUS_SHIFT = np.uint64(62)
KEY_BITS = ~(np.uint64(3) << STATUS_SHIFT)
EXPLORED = np.uint64(1)   # searched, or being searched by the current run
REOPENED = np.uint64(2)   # entered by a run that a restart stopped: not known to be searched


@leaf
def group_cells(card, occupied, suit_cells, rank_cells):
    """Fill the masks of the occupied cells by the suit and by the rank of their top card."""
    suit_cells[:] = 0
    rank_cells[:] = 0
    rest = occupied
    while rest:
        c = lowest_bit(rest)
        rest &= rest - ONE
        suit_cells[card[c] & 3] |= ONE << np.uint64(c)
        rank_cells[(card[c] >> 2) + 1] |= ONE << np.uint64(c)


@njit(cache=True, inline="always")
def partner_cells(x, suit_cells, rank_cells):
    """The occupied cells whose top may merge with card ``x`` (same suit, or ranks at most one
    apart), ``x``'s own cell included."""
    x = np.uint64(x)  # unsigned indices need no check for negative ones
    r = x >> np.uint64(2)
    return (suit_cells[x & np.uint64(3)] | rank_cells[r] | rank_cells[r + ONE]
            | rank_cells[r + np.uint64(2)])


@leaf
def partner_component(start, within, card, suit_cells, rank_cells):
    """``component`` in the compatibility graph of the tops, its adjacency read off the masks."""
    reached = ONE << np.uint64(start)
    frontier = reached
    while frontier and reached != within:
        c = lowest_bit(frontier)
        frontier &= frontier - ONE
        new = partner_cells(card[c], suit_cells, rank_cells) & within & ~reached
        reached |= new
        frontier |= new
    return reached


@leaf
def score_bound(card, size, occupied, line, suit_cells, rank_cells, work_adj, work_stack):
    """``class_bound`` for the maximum score, its adjacency read off the masks."""
    rest = occupied
    while rest:
        c = lowest_bit(rest)
        rest &= rest - ONE
        work_adj[c] = partner_cells(card[c], suit_cells, rank_cells) & ~(ONE << np.uint64(c))
    return class_bound(size, occupied, line, work_adj, work_stack)


#: The most tops of A (v and C) in the pendant rule.
CLUSTER = 5
#: ``landings``' words: two for each position still to look at, of which a position of k tokens
#: adds at most k(k - 1) (the tokens of A and the stack on p).
PLAYS = 2 * sum(k * (k - 1) for k in range(2, CLUSTER + 2))
#: In ``onto`` (token t's moves are its byte), the moves onto token 0.
ONTO_V = np.uint64(0x0101010101010101)
FIELD = np.uint64(63)  # a cell or a token mask of ``landings``
#: The nodes after which a single-stack search looks for every cluster (``bridge_dead``) and
#: keeps the games of ``WIDE_GAMES`` clusters instead of ``GAMES`` (slots of ``cluster_dead``'s
#: memo, a power of two).
WIDEN = 50_000
GAMES = 64
WIDE_GAMES = 4096


@leaf
def landings(cells, alive, onto, line, f, wanted, plays):
    """The cells p of ``wanted`` such that, with the stack of token ``f`` on p, the stacks of the
    tokens ``alive`` (a mask of at most six) can become one.  Token t is a stack on cell
    ``cells >> 6t & 63`` (f's is ignored) that may move onto the stacks of the tokens
    ``onto >> 8t & 255`` in line with it, keeping its token.  A depth-first search; ``plays``
    (``PLAYS`` words) holds the positions still to look at, two words each: the cells, the
    tokens (from bit 36) and the token on p (from bit 42; 7 once p's stack has moved away); the
    cells p may still be."""
    plays[0] = cells | (alive << np.uint64(36)) | (np.uint64(f) << np.uint64(42))
    plays[1] = wanted
    found = ZERO
    top = 2
    while top > 0:
        top -= 2
        at_cells = plays[top] & np.uint64(0xFFFFFFFFF)
        live = (plays[top] >> np.uint64(36)) & FIELD
        on_p = plays[top] >> np.uint64(42)
        room = plays[top + 1]
        if live & (live - ONE) == ZERO:
            found |= room
            continue
        rest = live
        while rest:
            t = np.uint64(lowest_bit(rest))
            rest &= rest - ONE
            shift = np.uint64(6) * t
            at = (at_cells >> shift) & FIELD
            targets = (onto >> (np.uint64(8) * t)) & live
            while targets:
                u = np.uint64(lowest_bit(targets))
                targets &= targets - ONE
                to = (at_cells >> (np.uint64(6) * u)) & FIELD
                after = at_cells ^ ((at ^ to) << shift)
                after_on_p = on_p
                after_room = room & ~found
                if t == on_p:  # p's stack moves onto u's cell
                    after_on_p = np.uint64(7)
                    after_room &= line[to]
                elif u == on_p:  # onto p's stack
                    after = at_cells
                    after_on_p = t
                    after_room &= line[at]
                elif (line[at] >> to) & ONE == ZERO:
                    after_room = ZERO
                if after_room != ZERO:
                    plays[top] = (after | ((live & ~(ONE << u)) << np.uint64(36))
                                  | (after_on_p << np.uint64(42)))
                    plays[top + 1] = after_room
                    top += 2
    return found


@leaf
def cluster_dead(v, cluster, occupied, line, card, suit_cells, rank_cells, plays, games):
    """True when the pendant rule (see the module docstring) shows that the stacks can never
    become one, for the top on cell ``v`` and the cells ``cluster`` of the tops of C meeting
    (a); False when it does not, (b) failing or C empty or larger than ``CLUSTER`` - 1 tops
    included.  The games of A are played by ``landings`` (v is token 0, the cards of C the next
    ones in cell order, the stack on p the last) and kept in ``games``, a memo of three words a
    slot: A's cells and cards, the key; the cells p that work in case (i); whether (ii) holds."""
    group = cluster | (ONE << np.uint64(v))
    to_z = partner_cells(card[v], suit_cells, rank_cells) & ~group
    if cluster == ZERO or popcount(cluster) >= CLUSTER or popcount(to_z) != 1:
        return False
    cells = np.uint64(v)
    game = np.uint64(v) | (np.uint64(card[v]) << np.uint64(6))
    tokens = 1
    rest = cluster
    while rest:
        c = lowest_bit(rest)
        rest &= rest - ONE
        cells |= np.uint64(c) << np.uint64(6 * tokens)
        game |= (np.uint64(c) | (np.uint64(card[c]) << np.uint64(6))) << np.uint64(12 * tokens)
        tokens += 1
    slot = 3 * np.int64(mix(game) & np.uint64(games.shape[0] // 3 - 1))
    if games[slot] != game:
        onto = ZERO
        for t in range(tokens):
            partners = partner_cells(card[(cells >> np.uint64(6 * t)) & FIELD], suit_cells,
                                     rank_cells)
            for u in range(tokens):
                if u != t and (partners >> ((cells >> np.uint64(6 * u)) & FIELD)) & ONE:
                    onto |= ONE << np.uint64(8 * t + u)
        alive = (ONE << np.uint64(tokens)) - ONE
        games[slot] = game
        games[slot + 1] = landings(cells, alive | (ONE << np.uint64(tokens)),
                                   onto | (ONE << np.uint64(tokens)), line, tokens, ~ZERO, plays)
        games[slot + 2] = landings(cells, alive, onto & ~ONTO_V, line, 0, ONE << np.uint64(v),
                                   plays)
    if games[slot + 2] != ZERO:
        return False
    wanted = games[slot + 1]  # the cells p that work in case (i)
    others = occupied & ~(group | to_z)  # W
    if others == ZERO:
        return wanted & to_z == ZERO
    # The cells of W that z reaches in at most k steps.
    steps = popcount(partner_cells(card[lowest_bit(to_z)], suit_cells, rank_cells) & others)
    reached = ZERO
    frontier = to_z
    while steps > 0 and frontier != ZERO and reached & wanted == ZERO:
        steps -= 1
        grown = ZERO
        while frontier:
            c = lowest_bit(frontier)
            frontier &= frontier - ONE
            grown |= line[c]
        frontier = grown & others & ~reached
        reached |= frontier
    return reached & wanted == ZERO


@leaf
def pendant_dead(card, occupied, line, suit_cells, rank_cells, plays, games):
    """True when the pendant rule (see the module docstring) shows that the stacks can never
    become one, for the clusters found from a top x with one or two compatible tops: with one,
    y, the cluster {x} and v = y; with two, p and q, the cluster {x, q} and v = p when q's
    compatible tops are x and p only, and the same with p and q swapped.  Only a card whose suit
    tops at most three cells (its own included) can have two compatible tops or fewer."""
    rest = ZERO
    for s in range(4):
        if popcount(suit_cells[s]) <= 3:
            rest |= suit_cells[s]
    while rest:
        x = lowest_bit(rest)
        rest &= rest - ONE
        bit_x = ONE << np.uint64(x)
        to_x = partner_cells(card[x], suit_cells, rank_cells) & ~bit_x
        count = popcount(to_x)
        if count == 1:
            if cluster_dead(lowest_bit(to_x), bit_x, occupied, line, card, suit_cells,
                            rank_cells, plays, games):
                return True
        elif count == 2:
            p = lowest_bit(to_x)
            q = lowest_bit(to_x & (to_x - ONE))
            bit_p = ONE << np.uint64(p)
            bit_q = ONE << np.uint64(q)
            # v = p and the cluster {x, q}, then v = q and the cluster {x, p}; each pair is
            # tried from both of its cards, which costs a test but no bookkeeping.
            if (partner_cells(card[q], suit_cells, rank_cells) & ~(bit_x | bit_p | bit_q) == ZERO
                    and cluster_dead(p, bit_x | bit_q, occupied, line, card, suit_cells,
                                     rank_cells, plays, games)):
                return True
            if (partner_cells(card[p], suit_cells, rank_cells) & ~(bit_x | bit_p | bit_q) == ZERO
                    and cluster_dead(q, bit_x | bit_p, occupied, line, card, suit_cells,
                                     rank_cells, plays, games)):
                return True
    return False


@leaf
def side_of(y, v, card, suit_cells, rank_cells):
    """The tops joined to the top on cell ``y`` by compatible tops other than the one on cell
    ``v``, when there are fewer than ``CLUSTER`` of them; else zero."""
    bit_v = ONE << np.uint64(v)
    group = ONE << np.uint64(y)
    frontier = group
    while frontier and popcount(group) < CLUSTER:
        grown = ZERO
        while frontier:
            c = lowest_bit(frontier)
            frontier &= frontier - ONE
            grown |= partner_cells(card[c], suit_cells, rank_cells)
        frontier = grown & ~(group | bit_v)
        group |= frontier
    return group if popcount(group) < CLUSTER else ZERO


@leaf
def bridge_dead(card, occupied, line, suit_cells, rank_cells, plays, games):
    """``pendant_dead`` for every cluster of at most ``CLUSTER`` tops, v included.  Without v,
    each compatible top of v is on a side of the other tops (``side_of``); C is made of the
    sides of all but one, z, whose side holds no other.  z is the one whose side is too large
    for C, if there is one; if there is none, each in turn.  Only a card whose suit tops at most
    ``CLUSTER`` + 1 cells (its own included) has ``CLUSTER`` compatible tops or fewer."""
    rest = ZERO
    for s in range(4):
        if popcount(suit_cells[s]) <= CLUSTER + 1:
            rest |= suit_cells[s]
    while rest:
        v = lowest_bit(rest)
        rest &= rest - ONE
        to_v = partner_cells(card[v], suit_cells, rank_cells) & ~(ONE << np.uint64(v))
        if popcount(to_v) > CLUSTER:
            continue
        sides = ZERO  # the sides of fewer than CLUSTER tops
        large = 0
        todo = to_v
        while todo and large < 2:
            y = lowest_bit(todo)
            todo &= todo - ONE
            if (sides >> np.uint64(y)) & ONE == ZERO:
                side = side_of(y, v, card, suit_cells, rank_cells)
                sides |= side
                large += side == ZERO
        if large == 1:
            if cluster_dead(v, sides, occupied, line, card, suit_cells, rank_cells, plays,
                            games):
                return True
        elif large == 0:
            while to_v:
                z = lowest_bit(to_v)
                to_v &= to_v - ONE
                if cluster_dead(v, sides & ~side_of(z, v, card, suit_cells, rank_cells),
                                occupied, line, card, suit_cells, rank_cells, plays, games):
                    return True
    return False


@njit(cache=True, inline="always")
def set_byte(key, i, value):
    """Byte ``i`` of a key packed as by ``pack_state`` becomes ``value``."""
    shift = np.uint64((i & 7) * 8)
    key[i >> 3] = (key[i >> 3] & ~(np.uint64(255) << shift)) | (np.uint64(value) << shift)


@leaf
def memo_find(table, key):
    """The slot of ``key`` in the memo, or the free slot where it goes: a direct table
    (``solvers.hashtable``) whose rows are keys, the entry's status in the top bits of the
    first word (all zero when free)."""
    return find(table, key, table.shape[0] - 1, 0, STATUS_SHIFT, 1, KEY_BITS, SPLITMIX)


@njit(cache=True)
def memo_grow(table):
    """The memo rehashed into twice the slots."""
    return doubled(table, 0, STATUS_SHIFT, 1, KEY_BITS, SPLITMIX)


@leaf
def ranked_moves(card, occupied, line, suit_cells, rank_cells, degree, slab, base, shuffle):
    """Write the legal moves at ``slab[base:]`` as ``key << 12 | mover << 6 | destination``;
    return how many.  The key is 64 times ``rank_of_move`` (shifted to be positive), so that
    sorting the words gives ``generate_moves``' order; with ``shuffle`` > 0 each key gets a
    pseudo-random addition below two of the rank's units (one in-line cell or one compatible
    top), a fixed function of ``shuffle`` and the move's cells.  The moves are left unsorted:
    ``next_ranked`` sorts only what the search asks for."""
    rest = occupied
    while rest:
        c = lowest_bit(rest)
        rest &= rest - ONE
        degree[c] = popcount(partner_cells(card[c], suit_cells, rank_cells)) - 1
    count = 0
    rest = occupied
    while rest:
        a = lowest_bit(rest)
        rest &= rest - ONE
        targets = line[a] & partner_cells(card[a], suit_cells, rank_cells)
        mover_line = popcount(line[a] & occupied)
        while targets:
            b = lowest_bit(targets)
            targets &= targets - ONE
            key = (rank_of_move(mover_line, degree[a], degree[b]) + 64) * 64
            if shuffle > 0:
                key += np.int64(mix(np.uint64(shuffle * 4096 + a * 64 + b)) % np.uint64(8192))
            slab[base + count] = (key << 12) | (a << 6) | b
            count += 1
    return count


@njit(cache=True, inline="always")
def mix(x):
    """A 64-bit integer hash (splitmix64's finaliser)."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def luby(i):
    """The i-th term (i >= 1) of Luby's sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


@njit(cache=True, inline="always")
def next_ranked(slab, first, i, end):
    """The ``i``-th move (``first`` <= i < ``end``) of a level written by ``ranked_moves``, in
    order: the first costs one pass for the minimum, the second sorts the rest (most levels of
    a search that goes well use one move)."""
    if i == first:
        best = i
        for j in range(i + 1, end):
            if slab[j] < slab[best]:
                best = j
        slab[i], slab[best] = slab[best], slab[i]
    elif i == first + 1:
        if end - i > 32:
            slab[i:end].sort()
        else:
            for j in range(i + 1, end):
                item = slab[j]
                k = j - 1
                while k >= i and slab[k] > item:
                    slab[k + 1] = slab[k]
                    k -= 1
                slab[k + 1] = item
    return slab[i] & 4095


@njit(cache=True)
def solve_search(card0, size0, line, with_sizes, floor, ceiling, max_nodes, max_states,
                 max_seconds, plan, cuts):
    """Depth-first branch and bound from the position ``card0``/``size0`` (see the module
    docstring), over bitboards.

    Looks for a line of play reaching a score above ``floor``, stopping at the first that reaches
    ``ceiling`` (a score known to be the most there can be): the single-stack question is
    ``floor = n*n - 1``, ``ceiling = n*n`` without sizes in the key; the maximum score is
    ``floor = start score`` with sizes.  Moves are searched as ``plan`` says (``codes``):

    * ``ROW_MAJOR``, ``FEWEST_PARTNERS``: one search in that order;
    * ``PERTURBED``: runs from the root, run i stopped after ``n * luby(i)`` nodes, each in the
      ``FEWEST_PARTNERS`` order perturbed anew (``ranked_moves``): the restarts that tame the
      heavy tail of a randomised search (Luby, Sinclair and Zuckerman 1993);
    * ``PORTFOLIO``: the three by turns, always the one that has spent the fewest nodes next; the
      two fixed orders run with budgets ``n``, ``2n``, ``4n``, ...

    ``cuts`` (``codes``: ``PARTITION_CUT | PENDANT_CUT``, the solver's) says which of the module
    docstring's cuts apply; without the partition cut the bound is the trivial ``n*n``.  Fewer
    cuts search more nodes for the same answers (``examples/stacksquared_search.py``).

    The memo survives restarts.  An entry stays *explored* (its subtree holds nothing above the
    best score, which only grows) unless a stopped run was still inside it, so a fixed order's
    run resumes its last run almost where it stopped, and every run skips what the others
    settled.  Whichever of the three needs the fewest nodes alone, N say, the portfolio is done
    before the other two have spent much more than 2N each (the budgets at most double), plus
    the paths replayed at restarts.  Everything depends on the position and the limits only.

    Returns ``(outcome, best, path_from, path_to, nodes, states)``: ``best`` is the best score
    reached (``floor`` if nothing beat it) and the path's cells reach it.
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
    suit_cells = np.zeros(4, dtype=np.uint64)
    rank_cells = np.zeros(15, dtype=np.uint64)
    group_cells(card, occupied, suit_cells, rank_cells)
    work_adj = np.empty(n, dtype=np.uint64)
    work_stack = np.empty(2 * n + 2, dtype=np.uint64)
    plays = np.empty(PLAYS, dtype=np.uint64)
    games = np.zeros(3 * GAMES, dtype=np.uint64)

    best = max(floor, score)
    best_len = 0
    best_from = np.empty(n, dtype=np.int64)
    best_to = np.empty(n, dtype=np.int64)
    partition = cuts & PARTITION_CUT != 0
    pendant = cuts & PENDANT_CUT != 0
    if partition:
        ceiling = min(ceiling, score_bound(card, size, occupied, line, suit_cells, rank_cells,
                                           work_adj, work_stack))
    if best >= ceiling or (single and (ceiling < n * n or pendant and bridge_dead(
            card, occupied, line, suit_cells, rank_cells, plays, games))):
        return DONE, best, best_from[:0], best_to[:0], 0, 0

    words = (n + 7) >> 3
    key = np.zeros(words * (2 if with_sizes else 1), dtype=np.uint64)
    pack_state(card, size, with_sizes, key)
    table = np.zeros((1024, key.shape[0]), dtype=np.uint64)
    states = 0

    # Per depth: the move played there and what it covered; the level's moves still to try
    # (row-major: the movers left and the current mover's destinations left; ranked: a slab of
    # ``slab``, each level's after its parent's, so that a search touches little of it).
    path_from = np.empty(n, dtype=np.int64)
    path_to = np.empty(n, dtype=np.int64)
    undo_card = np.empty(n, dtype=np.int8)
    undo_size = np.empty(n, dtype=np.int64)
    movers = np.empty(n, dtype=np.uint64)
    mover = np.empty(n, dtype=np.int64)
    targets = np.empty(n, dtype=np.uint64)
    per_level = 0
    for i in range(n):
        per_level += popcount(line[i])
    slab = np.empty(n * per_level, dtype=np.int64)
    cursor = np.empty(n, dtype=np.int64)
    end = np.empty(n, dtype=np.int64)
    degree = np.empty(n, dtype=np.int64)

    nodes = 0
    start = now()
    outcome = DONE
    finished = False
    # The portfolio's three ways of running, by the nodes they spent and the runs they made.
    spent = np.zeros(3, dtype=np.int64)
    runs = np.zeros(3, dtype=np.int64)
    while not finished:
        way = plan
        if plan == PORTFOLIO:
            way = FEWEST_PARTNERS
            if spent[PERTURBED] < spent[way]:
                way = PERTURBED
            if spent[ROW_MAJOR] < spent[way]:
                way = ROW_MAJOR
        runs[way] += 1
        order = ROW_MAJOR if way == ROW_MAJOR else FEWEST_PARTNERS
        shuffle = runs[way] if way == PERTURBED else 0
        budget = -1
        if way == PERTURBED:
            budget = n * luby(runs[way])
        elif plan == PORTFOLIO:
            budget = n << min(runs[way] - 1, 40)
        began = nodes
        if budget >= 0:
            budget += nodes
        depth = 0
        expand = True
        unwinding = False
        while True:
            if expand:
                movers[depth] = occupied
                targets[depth] = ZERO
                cursor[depth] = end[depth - 1] if depth > 0 else 0  # the slab follows its parent's
                end[depth] = cursor[depth]
                if order != ROW_MAJOR:
                    end[depth] += ranked_moves(card, occupied, line, suit_cells, rank_cells,
                                               degree, slab, cursor[depth], shuffle)
                expand = False
            # The level's next move as mover * 64 + destination, or -1 when none is left.
            move = -1
            if unwinding:
                pass
            elif order == ROW_MAJOR:
                t = targets[depth]
                while t == ZERO and movers[depth] != ZERO:
                    a = lowest_bit(movers[depth])
                    movers[depth] &= movers[depth] - ONE
                    mover[depth] = a
                    t = line[a] & partner_cells(card[a], suit_cells, rank_cells)
                if t != ZERO:
                    move = mover[depth] * 64 + lowest_bit(t)
                    targets[depth] = t & (t - ONE)
            elif cursor[depth] < end[depth]:
                move = next_ranked(slab, end[depth - 1] if depth > 0 else 0, cursor[depth],
                                   end[depth])
                cursor[depth] += 1
            if move < 0:
                if depth == 0:
                    finished = not unwinding
                    break
                if unwinding:
                    # A restart: the states of the path are no longer known to be searched.
                    slot = memo_find(table, key)
                    table[slot, 0] = key[0] | (REOPENED << STATUS_SHIFT)
                depth -= 1
                # Take back the move of cell a onto cell b, which covered card y.
                a = path_from[depth]
                b = path_to[depth]
                x = card[b]
                y = undo_card[depth]
                moved = undo_size[depth]
                bit_a = ONE << np.uint64(a)
                bit_b = ONE << np.uint64(b)
                suit_cells[x & 3] ^= bit_a | bit_b
                rank_cells[(x >> 2) + 1] ^= bit_a | bit_b
                suit_cells[y & 3] |= bit_b
                rank_cells[(y >> 2) + 1] |= bit_b
                card[a] = x
                card[b] = y
                size[a] = moved
                size[b] -= moved
                score -= 2 * moved * size[b]
                occupied |= bit_a
                set_byte(key, a, x + 1)
                set_byte(key, b, y + 1)
                if with_sizes:
                    set_byte(key, words * 8 + a, moved)
                    set_byte(key, words * 8 + b, size[b])
                continue
            if max_nodes >= 0 and nodes >= max_nodes:
                outcome = NODE_LIMIT
                finished = True
                break
            if max_seconds >= 0 and (nodes & 4095) == 0 and now() - start >= max_seconds:
                outcome = TIME_LIMIT
                finished = True
                break
            if budget >= 0 and nodes >= budget:
                unwinding = True
                continue
            # Play the stack of cell a onto cell b, covering card y with card x.
            a = move >> 6
            b = move & 63
            x = card[a]
            y = card[b]
            bit_a = ONE << np.uint64(a)
            bit_b = ONE << np.uint64(b)
            suit_cells[y & 3] &= ~bit_b
            rank_cells[(y >> 2) + 1] &= ~bit_b
            suit_cells[x & 3] ^= bit_a | bit_b
            rank_cells[(x >> 2) + 1] ^= bit_a | bit_b
            path_from[depth] = a
            path_to[depth] = b
            undo_card[depth] = y
            undo_size[depth] = size[a]
            score += 2 * size[a] * size[b]
            card[b] = x
            card[a] = MISSING
            size[b] += size[a]
            size[a] = 0
            occupied &= ~bit_a
            set_byte(key, a, 0)
            set_byte(key, b, x + 1)
            if with_sizes:
                set_byte(key, words * 8 + a, 0)
                set_byte(key, words * 8 + b, size[b])
            nodes += 1
            depth += 1

            # A dead end (no single stack, or no score above the best) is not stored: it would be
            # cut again on every visit, so storing it buys nothing.  The bounds come before the
            # memo; the pendant rule, dearer, after it, where a state known to be searched skips
            # it.  Past WIDEN nodes (a long proof) it looks for every cluster.
            if not partition:
                bound = n * n
            elif single:
                # cannot_merge, from the masks: is the compatibility graph of the tops, then the
                # shared-line graph of the cells, connected?
                first = lowest_bit(occupied)
                reached = partner_component(first, occupied, card, suit_cells, rank_cells)
                if reached == occupied:
                    reached = component(first, occupied, line)
                bound = n * n if reached == occupied else 0
            else:
                bound = score_bound(card, size, occupied, line, suit_cells, rank_cells, work_adj,
                                    work_stack)
            if single and nodes == WIDEN:
                games = np.zeros(3 * WIDE_GAMES, dtype=np.uint64)
            seen = bound <= best
            if not seen:
                slot = memo_find(table, key)
                first = table[slot, 0]
                seen = first >> STATUS_SHIFT == EXPLORED or (single and pendant and (
                    pendant_dead(card, occupied, line, suit_cells, rank_cells, plays, games)
                    if nodes < WIDEN else
                    bridge_dead(card, occupied, line, suit_cells, rank_cells, plays, games)))
                if not seen:
                    if first == ZERO:
                        if max_states >= 0 and states >= max_states:
                            outcome = STATE_LIMIT
                            finished = True
                            break
                        states += 1
                    for w in range(1, key.shape[0]):
                        table[slot, w] = key[w]
                    table[slot, 0] = key[0] | (EXPLORED << STATUS_SHIFT)
                    if states * 10 >= table.shape[0] * 7:
                        table = memo_grow(table)
                    if score > best:
                        best = score
                        best_len = depth
                        best_from[:best_len] = path_from[:best_len]
                        best_to[:best_len] = path_to[:best_len]
                        if best >= ceiling:
                            finished = True
                            break
                    seen = bound <= best
            if seen:
                # Nothing to search below: an empty level, taken back next.
                movers[depth] = ZERO
                targets[depth] = ZERO
                cursor[depth] = end[depth - 1]
                end[depth] = cursor[depth]
            else:
                expand = True
        spent[way] += nodes - began
    return outcome, best, best_from[:best_len], best_to[:best_len], nodes, states
