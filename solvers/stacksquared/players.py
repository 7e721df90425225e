"""Simulated players of StacksSquared and the estimate of how often each one wins, in numba.

A player of *look-ahead* k picks uniformly among the legal moves that do not lead, within k moves,
only to provably dead positions (the tops fall into classes that can never merge:
``kernel.cannot_merge``); when every move does, it picks among all of them.  k = 0 is the
uniformly random player, k = 1 the careful one (never walks into a dead position), k = 2 and 3
look two and three moves ahead.  A move that keeps one stack reachable never leads only to dead
positions, so every player keeps the winning moves among its candidates.

``win_chance`` estimates a player's chance of ending in one stack by sequential Monte Carlo with
the exact decision search (``tree.decide``) as the filter: particles play one move at a time;
after move t the share of particles still in a winnable position estimates the chance p_t of
staying winnable given that the player was winnable before; the survivors are resampled
(systematic) back to the full count (before the first exact check, only the dead particles'
places are refilled).  The product of the p_t is an unbiased estimate of the
chance to win (each p_t is unbiased given the particles, see ``win_chance``), and the product
of the first h of them, for the random player with h = n // 2, of the halfway solvability ratio
(Neller and Ziegler: play randomly until half of the stacks are gone, then ask whether one
stack is still reachable).  Rare wins (1e-8) are estimated with a few dozen particles because
every p_t is a common event.  On large grids the exact filter starts
once few enough stacks are left (``exact_stacks``), and before that only dead positions are
removed; the product of shares up to a step estimates the chance to be winnable after it only if
that step is checked exactly (``also_exact``: the halfway step).

Resampling makes particles share ancestors, so the steps' shares are correlated and the binomial
variance of each share understates the estimate's variance.  ``win_chance`` therefore also
follows each particle's *Eve*, the first-move survivor it descends from, and treats the Eves as
the independent clusters of a cluster sample: the variance of the log of the estimate is the
sum over Eves of the squared influence of each (its share of a step's survivors minus its share
of the step's tries, summed over the steps), times K / (K - 1) for K first-move tries.
"""
import numpy as np
from numba import njit

from solvers.jit import leaf
from solvers.stacksquared.codes import MAX_TRIES
from solvers.stacksquared.kernel import cannot_merge, generate_moves
from solvers.stacksquared.tree import (OPEN, WINS, decide, move_slabs, occupancy, play_tops,
                                       take_back_tops)


@leaf
def alive(card, occupied, stacks, depth, line, compat, move_from, move_to, move_rank):
    """One stack, or not dead and (``depth`` 0 or some move leads to a position alive at
    ``depth - 1``): the position is not provably lost within ``depth`` moves."""
    if stacks == 1:
        return True
    if cannot_merge(card, occupied, line, compat):
        return False
    if depth == 0:
        return True
    n = card.shape[0]
    base = depth * n * n
    end = base + generate_moves(card, occupied, line, compat, False, move_from, move_to,
                                move_rank, base)
    for i in range(base, end):
        a, b = move_from[i], move_to[i]
        undo, occupied = play_tops(card, occupied, a, b)
        ok = alive(card, occupied, stacks - 1, depth - 1, line, compat, move_from,
                   move_to, move_rank)
        occupied = take_back_tops(card, occupied, a, b, undo)
        if ok:
            return True
    return False


@leaf
def choose(card, occupied, stacks, look, line, compat, move_from, move_to, move_rank,
           kept):
    """The move (mover cell, destination cell) a player of look-ahead ``look`` picks; (-1, -1)
    when there is no legal move."""
    base = look * card.shape[0] ** 2   # below it, ``alive`` keeps its moves
    end = base + generate_moves(card, occupied, line, compat, False, move_from, move_to,
                                move_rank, base)
    if end == base:
        return -1, -1
    count = 0
    if look > 0:
        for i in range(base, end):
            a, b = move_from[i], move_to[i]
            undo, occupied = play_tops(card, occupied, a, b)
            if alive(card, occupied, stacks - 1, look - 1, line, compat, move_from,
                     move_to, move_rank):
                kept[count] = i
                count += 1
            occupied = take_back_tops(card, occupied, a, b, undo)
    if count == 0:
        for i in range(base, end):
            kept[count] = i
            count += 1
    i = kept[np.random.randint(count)]
    return move_from[i], move_to[i]


@njit(cache=True)
def win_chance(card0, look, particles, seed, exact_stacks, also_exact, line, compat, table,
               count, max_states, path):
    """Sequential Monte Carlo (module docstring) from the winnable deal ``card0``; a position
    of more than ``exact_stacks`` stacks, unless it has exactly ``also_exact`` (-1: none), is
    only checked for being dead (a lost but undead particle lives on until a later check
    removes it).

    A checked step tries one move from a particle drawn at random, again and again, until
    ``particles // 2`` tries have survived or ``MAX_TRIES * particles`` tries were made; its
    survival share is then (hits - 1) / (tries - 1), or hits / tries at the cap: the unbiased
    estimate for that sampling plan (Girshick, Mosteller and Savage 1946), so a step that few
    moves survive (a forced move in a crowd) is still measured; the survivors are resampled to
    the full count.  An unchecked step, where nearly every particle survives, moves every
    particle once (share hits / particles) and keeps every survivor in place, refilling only
    the dead particles' places: resampling the whole population there at every move would
    make the particles descend from a few first moves by the first check (drift), a noise
    the Eve variance under-reports.  Returns ``(steps, hits, table,
    count, lineage)``: ``steps[t]`` the share and ``hits[t]`` the surviving tries
    of move t, for t = 0 .. stacks - 2 (0 after a step no try survived), ``lineage[t]`` the
    between-Eve variance of the log of the product of the shares up to move t (module
    docstring), or ``steps[0] = -1`` when the decision search reached ``max_states`` (no
    estimate).  The decision table (``tree.decide``) is shared.
    """
    np.random.seed(seed)
    n = card0.shape[0]
    occupied0, stacks0 = occupancy(card0)
    steps = np.zeros(max(stacks0 - 1, 1), dtype=np.float64)
    hits = np.zeros(max(stacks0 - 1, 1), dtype=np.int64)
    lineage = np.zeros(max(stacks0 - 1, 1), dtype=np.float64)
    cards = np.empty((particles, n), dtype=np.int8)
    occupied = np.empty(particles, dtype=np.uint64)
    eve = np.zeros(particles, dtype=np.int64)
    for j in range(particles):
        cards[j] = card0
        occupied[j] = occupied0
    wanted = max(2, particles // 2)
    pool = max(wanted, particles)
    pool_cards = np.empty((pool, n), dtype=np.int8)
    pool_occupied = np.empty(pool, dtype=np.uint64)
    pool_eve = np.empty(pool, dtype=np.int64)
    eve_tries = np.zeros(pool, dtype=np.int64)
    eve_hits = np.zeros(pool, dtype=np.int64)
    influence = np.zeros(pool, dtype=np.float64)
    first_tries = first_fails = 0
    card = np.empty(n, dtype=np.int8)
    move_from, move_to, move_rank = move_slabs(look + 1, n * n)
    kept = np.zeros(n * n, dtype=np.int64)
    for t in range(stacks0 - 1):
        stacks = stacks0 - t
        checked = stacks - 1 <= exact_stacks or stacks - 1 == also_exact
        alive_count = 0
        tries = 0
        while (alive_count < wanted and tries < MAX_TRIES * particles if checked
               else tries < particles):
            tries += 1
            j = np.random.randint(particles) if checked else tries - 1
            if t > 0:
                eve_tries[eve[j]] += 1
            card[:] = cards[j]
            a, b = choose(card, occupied[j], stacks, look, line, compat, move_from,
                          move_to, move_rank, kept)
            if a < 0:
                continue
            _, after = play_tops(card, occupied[j], a, b)
            if not checked:
                survives = not cannot_merge(card, after, line, compat)
            else:
                result, table, count, _ = decide(card, after, stacks - 1, line, compat, True,
                                                 table, count, max_states, path)
                if result == OPEN:
                    steps[0] = -1.0
                    return steps, hits, table, count, lineage
                survives = result == WINS
            if survives:
                pool_cards[alive_count] = card
                pool_occupied[alive_count] = after
                # Every first-move survivor is an independent draw: an Eve of its own.
                pool_eve[alive_count] = alive_count if t == 0 else eve[j]
                if t > 0:
                    eve_hits[eve[j]] += 1
                alive_count += 1
        hits[t] = alive_count
        if checked and alive_count == wanted:
            steps[t] = (alive_count - 1) / (tries - 1)
        else:
            steps[t] = alive_count / tries
        if alive_count == 0:
            break
        if t == 0:   # each try its own cluster; a failed one keeps influence -1 / tries
            first_tries, first_fails = tries, tries - alive_count
            influence[:alive_count] = 1.0 / alive_count - 1.0 / tries
        else:
            influence += eve_hits / alive_count - eve_tries / tries
            eve_hits[:] = 0
            eve_tries[:] = 0
        if first_tries > 1:
            lineage[t] = (first_tries / (first_tries - 1)) * (
                np.sum(influence ** 2) + first_fails / first_tries ** 2)
        u = np.random.random()
        keep = 0 if checked else alive_count   # survivors that stay in place
        for j in range(particles):
            src = j if j < keep else int((j - keep + u) * alive_count / (particles - keep))
            cards[j] = pool_cards[src]
            occupied[j] = pool_occupied[src]
            eve[j] = pool_eve[src]
    return steps, hits, table, count, lineage
