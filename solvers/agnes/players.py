"""Simulated Agnes players, for grading: the chance that a simple player wins a deal.

Every player puts a card on a foundation whenever it can (the first pile's first; the bold one,
when it tries anything, only a safe one), loses when no move is left or after ``MAX_PLAY``
moves, and otherwise:

- the **careful** player picks uniformly among the tableau moves except the one taking its
  previous move straight back and those returning to a position met since its last deal or
  foundation move; it deals only when no such move is left, and gives up after ``AIMLESS``
  such moves in a row;
- the **hasty** player picks uniformly among every legal move (the deal included) except the
  one taking its previous move straight back;
- the **bold** player plays as the careful one, except that at each move, with chance
  ``BOLD_SHARE``, it tries anything: it plays a foundation move at once only when it is safe
  (the solver's ``SAFE`` rule: no card could ever need to go onto it), otherwise any legal move,
  the deal and other foundation moves included, but the one taking its previous move straight
  back and those returning to a position met since its last deal or foundation move.  So no
  winning line is out of its reach (within ``MAX_PLAY`` moves, and ``AIMLESS`` a stretch),
  where a player who must play to the foundations at once and deal only when stuck cannot win
  some deals at all.

A win can be rare (one game in a million), so the chance is estimated by multilevel splitting,
a sequential Monte Carlo over the game's progress (16 per card on the foundations, plus how
nearly a card that could go up next is uncovered): ``particles`` games are played until each
reaches the next level of progress or loses; the share that did estimates the chance of that
step; the games that did are cloned (in turn) back to ``particles`` and the next step follows,
up to a won game.  The chance is the product of the steps' shares (an unbiased estimate); if
no game makes a step, that step's share counts as ``0.5 / particles`` and the estimate stops
there (the caller is told how far the games got).

Where every game dies on some step of progress (a deal whose winning lines need a run of rare
choices between two levels), ``filtered_chance`` splits move by move instead, with the exact
solver as the filter: after each move a game is checked by a search of at most ``check_nodes``
positions (``kernel.search`` from its position), and it makes the step if the search does not
prove it lost (or it has won).  The chance is the product of the steps' shares, unbiased as
before: a game dropped by the filter could never have won, and a search that stops at its cap
keeps its game.  The games cloned are the ones that can still win, so a deal whose progress
levels stall every game is still measured; each move costs a search, so this estimate is the
slower one.

All play on the kernel's board (``kernel._gen`` without prunings, ``kernel._apply``) with
numba's generator seeded by the caller, so an estimate depends on the deal, the rules, the
number of particles and the seed only.
"""
import numpy as np
from numba import njit

from solvers.agnes.codes import ALL, FRAMES, LOST, MAX_DEPTH, WORDS
from solvers.agnes.kernel import _apply, _encode, _gen, _safe_home, _undo, search
from solvers.jit import leaf

MAX_PLAY = 1000   # moves in one game; a longer game counts as lost
CAREFUL, HASTY, BOLD = 0, 1, 2
BOLD_SHARE = 0.2  # the bold player's moves that may be anything
AIMLESS = 200    # tableau moves without a deal or a foundation move after which a careful
                  # player gives up
CAP = 64          # cards a pile can hold in the kernel's board
DIG = 15          # the most covering cards progress tells apart
PARTICLE_BYTES = 8 * (7 * CAP + 7 + 7 + 4 + 5 + AIMLESS)   # one simulated game's arrays
WON = 52 * (DIG + 1)   # the progress of a won game (51 cards home make at most WON - 1)
CHECK_BITS = 16   # the filter's losing-state table: 2**16 entries (4 MiB with their encodings)


@leaf
def _progress(piles, ln, found):
    """How far the game is: 16 per card on the foundations, plus 15 less the fewest cards
    covering a card that could go on a foundation next (none in the tableau: 0)."""
    score = 4 + found[0] + found[1] + found[2] + found[3]
    cover = DIG
    for p in range(7):
        for i in range(ln[p]):
            c = piles[p, i]
            if (c >> 2) == found[c & 3] + 1:
                cover = min(cover, ln[p] - 1 - i)
    return score * (DIG + 1) + DIG - cover


@leaf
def _fresh(piles, ln, hid, found, state, hist, deck, k, buf, scratch, enc):
    """Play a random move among ``buf[:k]`` that does not return to a position met since the
    last deal or foundation move (a deal or foundation move always qualifies); False if none
    does."""
    if state[4] == 0:   # the position the stretch starts from
        hist[0] = np.int64(_encode(piles, ln, hid, state[0], 0, scratch, enc))
        state[4] = 1
    while k > 0:
        i = np.random.randint(k)
        m = buf[i]
        stock, info = _apply(piles, ln, hid, found, state[0], deck, m)
        if (m & 3) != 2:   # a new stretch starts
            state[0] = stock
            state[1] = -1
            state[4] = 0
            return True
        h = np.int64(_encode(piles, ln, hid, stock, 0, scratch, enc))
        seen = False
        for j in range(state[4]):
            seen = seen or hist[j] == h
        if not seen:
            state[1] = 2 | (((m >> 5) & 7) << 2) | (((m >> 2) & 7) << 5) | ((m >> 8) << 8)
            hist[state[4]] = h
            state[4] += 1
            return True
        _undo(piles, ln, hid, found, stock, m, info)
        k -= 1
        buf[i] = buf[k]
    return False


@leaf
def _careful(piles, ln, hid, found, state, hist, deck, n, buf, scratch, enc):
    """The careful player's tableau move among ``buf[:n]`` (no foundation move among them),
    or the deal when it has none; False if neither is left."""
    k = 0
    for i in range(n):
        if (buf[i] & 3) == 2 and buf[i] != state[1]:
            buf[k] = buf[i]
            k += 1
    if _fresh(piles, ln, hid, found, state, hist, deck, k, buf, scratch, enc):
        return True
    if state[0] == 0:
        return False
    state[0], _ = _apply(piles, ln, hid, found, state[0], deck, 0)
    state[1] = -1
    state[4] = 0
    return True


@leaf
def _bold(piles, ln, hid, found, state, hist, deck, n, buf, scratch, enc):
    """The bold player's try: any move among ``buf[:n]`` but the one taking its previous move
    back; False if none is left."""
    k = 0
    for i in range(n):
        if buf[i] != state[1]:
            buf[k] = buf[i]
            k += 1
    return _fresh(piles, ln, hid, found, state, hist, deck, k, buf, scratch, enc)


@leaf
def _move(piles, ln, hid, found, state, hist, deck, same_suit, empty_rule, split, player, buf,
          scratch, enc):
    """Play ``player``'s next move; False if the game is lost (no move left, ``MAX_PLAY`` moves,
    or ``AIMLESS`` in a row).  ``state`` holds stock, the move that would undo the last one (-1:
    none), moves played, progress and the careful player's positions in ``hist`` since its last
    deal or foundation move."""
    if state[2] == MAX_PLAY or state[4] == AIMLESS:
        return False
    n = _gen(piles, ln, hid, found, state[0], same_suit, empty_rule, split, 0, buf, 0)
    tries = player == BOLD and np.random.random() < BOLD_SHARE
    m = -1
    for i in range(n):
        if (buf[i] & 3) == 1 and not (
                tries and not _safe_home(found, piles[buf[i] >> 2, ln[buf[i] >> 2] - 1])):
            m = buf[i]
            break
    if m >= 0:
        state[0], _ = _apply(piles, ln, hid, found, state[0], deck, m)
        state[1] = -1
        state[4] = 0
    elif tries:
        if not _bold(piles, ln, hid, found, state, hist, deck, n, buf, scratch, enc):
            return False
    elif player != HASTY:
        if not _careful(piles, ln, hid, found, state, hist, deck, n, buf, scratch, enc):
            return False
    else:
        k = 0
        for i in range(n):
            if buf[i] != state[1]:
                buf[k] = buf[i]
                k += 1
        if k == 0:
            return False
        m = buf[np.random.randint(k)]
        state[0], _ = _apply(piles, ln, hid, found, state[0], deck, m)
        state[1] = -1
        if (m & 3) == 2:
            state[1] = 2 | (((m >> 5) & 7) << 2) | (((m >> 2) & 7) << 5) | ((m >> 8) << 8)
    state[2] += 1
    state[3] = _progress(piles, ln, found)
    return True


@njit(cache=True)
def _deal_out(deck, face_up, particles, seed):
    """``particles`` games at the deal, their random stream seeded with ``seed``: piles, their
    lengths, hidden counts, foundations, states and histories (see ``_move``), then the work
    arrays of ``_move`` (buf, scratch, enc) and of ``_clone`` (ok)."""
    np.random.seed(seed)
    piles = np.zeros((particles, 7, CAP), np.int64)
    ln = np.zeros((particles, 7), np.int64)
    hid = np.zeros((particles, 7), np.int64)
    found = np.full((particles, 4), -1, np.int64)
    state = np.zeros((particles, 5), np.int64)
    hist = np.zeros((particles, AIMLESS), np.int64)
    found[0, deck[0] & 3] = 0
    pos = 1
    for row in range(7):
        for j in range(row, 7):
            piles[0, j, ln[0, j]] = deck[pos]
            ln[0, j] += 1
            pos += 1
            if not face_up and j != row:
                hid[0, j] += 1
    state[0, 0] = 52 - pos
    state[0, 1] = -1
    state[0, 3] = _progress(piles[0], ln[0], found[0])
    for i in range(1, particles):
        piles[i] = piles[0]
        ln[i] = ln[0]
        hid[i] = hid[0]
        found[i] = found[0]
        state[i] = state[0]
    return (piles, ln, hid, found, state, hist, np.empty(512, np.int64), np.empty(14, np.int64),
            np.empty(7, np.uint64), np.empty(particles, np.int64))


@njit(cache=True)
def _clone(ok, s, piles, ln, hid, found, state, hist):
    """Clone the games ``ok[:s]`` (ascending), in turn, over the others."""
    src = 0
    j = 0
    for i in range(piles.shape[0]):
        if j < s and ok[j] == i:
            j += 1
            continue
        a = ok[src % s]
        src += 1
        piles[i] = piles[a]
        ln[i] = ln[a]
        hid[i] = hid[a]
        found[i] = found[a]
        state[i] = state[a]
        hist[i] = hist[a]


@njit(cache=True)
def win_chance(deck, face_up, same_suit, empty_rule, split, player, particles, seed):
    """Estimate ``player``'s chance to win the deal ``deck`` by multilevel splitting over its
    progress with ``particles`` games; returns (log10 of the estimate, the cards on the
    foundations when every game lost, or 52 when some won)."""
    piles, ln, hid, found, state, hist, buf, scratch, enc, ok = _deal_out(deck, face_up,
                                                                         particles, seed)
    log_p = 0.0
    for target in range(state[0, 3] + 1, WON + 1):
        s = 0
        for i in range(particles):
            while state[i, 3] < target and _move(piles[i], ln[i], hid[i], found[i], state[i],
                                                  hist[i], deck, same_suit, empty_rule, split,
                                                  player, buf, scratch, enc):
                pass
            if state[i, 3] >= target:
                ok[s] = i
                s += 1
        if s == 0:
            return log_p + np.log10(0.5 / particles), (target - 1) // (DIG + 1)
        log_p += np.log10(s / particles)
        _clone(ok, s, piles, ln, hid, found, state, hist)
    return log_p, 52


@njit(cache=True)
def filtered_chance(deck, face_up, same_suit, empty_rule, split, player, particles, seed,
                    check_nodes):
    """Estimate ``player``'s chance to win the deal ``deck`` by splitting move by move with
    ``particles`` games, each checked after each move by an exact search of at most
    ``check_nodes`` positions; returns as :func:`win_chance` (the cards home are the most any
    game had when every game was lost)."""
    piles, ln, hid, found, state, hist, buf, scratch, enc, ok = _deal_out(deck, face_up,
                                                                         particles, seed)
    keys = np.zeros(1 << CHECK_BITS, np.uint64)
    encs = np.zeros((keys.shape[0], WORDS), np.uint64)
    frames = np.empty((FRAMES, MAX_DEPTH + 1), np.int64)
    hashes = np.empty(MAX_DEPTH, np.uint64)
    path_enc = np.empty((MAX_DEPTH, WORDS), np.uint64)
    line = np.empty(MAX_DEPTH, np.int64)
    log_p = 0.0
    best = 0
    epoch = 0
    while True:
        s = 0
        won = 0
        for i in range(particles):
            if state[i, 3] < WON:
                if not _move(piles[i], ln[i], hid[i], found[i], state[i], hist[i], deck,
                             same_suit, empty_rule, split, player, buf, scratch, enc):
                    continue
                best = max(best, state[i, 3] // (DIG + 1))
                if epoch == 2**31 - 1:   # as api._Workspace: the epochs' cycle starts again
                    keys[:] = 0
                    epoch = 0
                epoch += 1
                if state[i, 3] < WON and search(
                        deck, piles[i], ln[i], hid[i], found[i], state[i, 0], same_suit,
                        empty_rule, split, ALL, False, check_nodes, -1.0, keys, encs, epoch,
                        frames, hashes, path_enc, line)[0] == LOST:
                    continue
            won += state[i, 3] == WON
            ok[s] = i
            s += 1
        if s == 0:
            return log_p + np.log10(0.5 / particles), best
        log_p += np.log10(s / particles)
        if won == particles:
            return log_p, 52
        _clone(ok, s, piles, ln, hid, found, state, hist)
