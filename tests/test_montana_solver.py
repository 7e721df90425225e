"""The Montana kernel against a brute-force breadth-first oracle, the plain search, and replay."""
import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from solvers.cards import full_deck
from solvers.montana import (Rules, Search, api, bounds, deal_from_seed, kernel, parse_deal,
                             solve, solve_round)
from solvers.montana.layout import open_column, phase_two, z_mask
from solvers.montana.moves import MAX_MOVES, gen_moves, safe_move
from solvers.montana.rules import (apply_move, format_deal, legal_moves, locked_count, redeal,
                                   redeal_rng, replay)
from solvers.montana.table import FIRST_SIZE, HOP_BITS, forget_one, grow, insert, layout_bits
from solvers.result import Limits, Status


def oracle(cells, n, movable_twos):
    """(won, most locked cards) over every layout reachable in one round, breadth-first.

    Written from the rules text alone, on cards coded ``16 * suit + rank`` (0 for a gap): a
    card goes right of its same-suit predecessor; a first-column gap takes a Two from another
    column (or, with movable Twos, any other Two).  Stops at the first won layout.
    """
    def locked(layout):
        total = 0
        for r in range(0, 4 * n, n):
            k = 0
            while k < n - 1 and layout[r + k] == layout[r] + k and layout[r] % 16 == 2:
                k += 1
            total += k
        return total

    start = tuple(0 if c is None else 16 * c.suit + c.rank for c in cells)
    target = 4 * (n - 1)
    seen = {start}
    frontier = [start]
    best = locked(start)
    while frontier and best < target:
        nxt = []
        for layout in frontier:
            for gap in (i for i, c in enumerate(layout) if c == 0):
                if gap % n == 0:
                    cards = [16 * s + 2 for s in range(4)
                             if movable_twos or layout.index(16 * s + 2) % n != 0]
                else:
                    left = layout[gap - 1]
                    cards = [left + 1] if left and left % 16 != n else []
                for card in cards:
                    after = list(layout)
                    after[layout.index(card)], after[gap] = 0, card
                    after = tuple(after)
                    if after not in seen:
                        seen.add(after)
                        nxt.append(after)
                        best = max(best, locked(after))
        frontier = nxt
    return best == target, best


@st.composite
def deals(draw, ranks):
    n = draw(ranks)
    deck = draw(st.permutations(full_deck(n)))
    return n, tuple(None if c.rank == 1 else c for c in deck)


def played(cells, rules, steps, rnd):
    """The layout after up to ``steps`` random legal moves."""
    for _ in range(steps):
        moves = legal_moves(cells, rules)
        if not moves:
            break
        cells = apply_move(cells, rnd.choice(moves), rules)
    return cells


def check_round(cells, rules, result):
    """The line of play replays and reaches the claimed locked cards."""
    assert locked_count(replay(cells, result.moves, rules), rules.ranks) == result.value
    assert (result.status is Status.SOLVED) == (result.value == rules.target)


# The movable-Twos searches: the plain one, and each reduction alone and together.  Small pass
# caps make the hop-budget passes end early too.
SEARCHES = {**api.SEARCHES, "short passes": Search(hop_budgets=(0, 1, 2), pass_states=50),
            "short passes skipping budgets": Search(hop_budgets=(1, 3), pass_states=50)}


@settings(max_examples=30, deadline=None)
@given(st.one_of(st.tuples(deals(st.integers(5, 6)), st.just(False)),
                 st.tuples(deals(st.just(5)), st.just(True))))
def test_kernel_agrees_with_breadth_first_oracle(case):
    (n, cells), movable_twos = case
    rules = Rules(n, movable_twos=movable_twos)
    won, best = oracle(cells, n, movable_twos)
    for prune in (False, True):  # sleep sets are on without prune
        for search in SEARCHES.values() if movable_twos else [Search()]:
            result = solve_round(cells, rules=rules, prune=prune, search=search)
            assert result.status is (Status.SOLVED if won else Status.UNSOLVABLE)
            assert result.value == best
            check_round(cells, rules, result)


@pytest.mark.parametrize("n,seeds", [(5, range(40)), (6, [2, 3, 4, 8, 11, 13, 18, 23, 30, 35, 36])])
def test_movable_twos_reductions_agree_with_oracle_on_fixed_seeds(n, seeds):
    rules = Rules(n, movable_twos=True)
    for seed in seeds:
        cells = deal_from_seed(seed, n)
        won, best = oracle(cells, n, True)
        for name, search in SEARCHES.items():
            result = solve_round(cells, rules=rules, search=search)
            assert (result.status, result.value) == \
                (Status.SOLVED if won else Status.UNSOLVABLE, best), (seed, name)
            check_round(cells, rules, result)


def test_movable_twos_reductions_agree_with_plain_search_on_7_ranks():
    """Where the plain search and a reduction both decide a round they agree, and an exhausted
    round never stores more column classes (or layouts under a bound or safe moves) than
    layouts."""
    rules = Rules(7, movable_twos=True)
    decided = 0
    for seed in range(12):
        cells = deal_from_seed(seed, 7)
        results = {name: solve_round(cells, rules=rules, max_states=400_000, search=search)
                   for name, search in SEARCHES.items()}
        plain = results["plain"]
        for name, result in results.items():
            check_round(cells, rules, result)
            if Status.LIMIT not in (result.status, plain.status):
                assert (result.status, result.value) == (plain.status, plain.value), (seed, name)
                decided += 1
        for name in ("columns", "bound", "reach", "safe"):
            if Status.UNSOLVABLE in (plain.status, results[name].status):
                assert results[name].details["states"] <= plain.details["states"]
    assert decided >= 40


@settings(max_examples=30, deadline=None)
@given(st.one_of(st.tuples(deals(st.integers(5, 8)), st.just(False)),
                 st.tuples(deals(st.integers(5, 6)), st.just(True))))
def test_pruning_and_table_agree_with_plain_search(case):
    (n, cells), movable_twos = case
    rules = Rules(n, movable_twos=movable_twos)
    search = SEARCHES["columns"]  # one search of the whole round (with the phase-two bound
    # and sleep sets, an unpruned search may count fewer layouts than a pruned one)
    full = solve_round(cells, rules=rules, prune=True, search=search)
    unpruned = solve_round(cells, rules=rules, search=search)
    assert (full.status, full.value) == (unpruned.status, unpruned.value)
    assert full.details["states"] <= unpruned.details["states"]
    check_round(cells, rules, full)
    if not movable_twos:  # the plain search has no table, so it would follow cycles
        plain = solve_round(cells, Limits(nodes=20_000), rules, table=False)
        check_round(cells, rules, plain)
        if plain.status is not Status.LIMIT:
            assert (plain.status, plain.value) == (full.status, full.value)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(5, 7), st.integers(0, 3), st.booleans(),
       st.booleans())
def test_games_replay_round_by_round(seed, n, redeals, random_gaps, movable_twos):
    rules = Rules(n, movable_twos=movable_twos, random_gaps=random_gaps)
    play = dict(rules=rules, redeals=redeals, redeal_seed=seed, max_states=100_000)
    result = solve(deal_from_seed(seed, n), **play)
    rounds = result.details["rounds"]
    rng = redeal_rng(seed)
    layout = deal_from_seed(seed, n)
    for i, rnd in enumerate(rounds):
        assert rnd.deal == layout
        check_round(layout, rules, rnd.result)
        if i + 1 < len(rounds):
            assert rnd.result.status is Status.UNSOLVABLE
            layout = redeal(replay(layout, rnd.result.moves, rules), rules, rng)
    assert result.status is rounds[-1].result.status
    assert result.details["won"] == (result.status is Status.SOLVED)
    assert result.status is not Status.UNSOLVABLE or len(rounds) == redeals + 1
    assert solve(deal_from_seed(seed, n), **play).details["rounds"][-1].deal == rounds[-1].deal


def test_table_is_cleared_when_the_generation_stamp_runs_out():
    cells, rules = deal_from_seed(1, 6), Rules(6)
    first = solve_round(cells, rules=rules, max_states=100_000)
    (entry,) = api._tables.values()
    entry[1] = api.stamps(api._packing(6)[3]) - 2  # the next round takes the last stamp
    for _ in range(3):
        again = solve_round(cells, rules=rules, max_states=100_000)
        assert (again.status, again.value, again.moves, again.details) == \
            (first.status, first.value, first.moves, first.details)
    assert entry[1] == 2


@pytest.mark.parametrize("ranks,movable_twos,search,table", [
    (6, False, Search(), 200), (6, True, api.SEARCHES["plain"], 3000),
    (6, True, Search(hop_budgets=()), 500), (7, True, Search(hop_budgets=()), 3000)])
def test_forgetting_table_gives_the_unbounded_answer(ranks, movable_twos, search, table):
    """With ``forget`` a full table overwrites layouts that cannot recur: the round ends with the
    answer and line of a table big enough for all (a forgotten layout met again is searched
    again), or at ``limit`` when the layouts that may recur fill it, never with a guess."""
    rules = Rules(ranks, movable_twos=movable_twos)
    decided = limits = 0
    for seed in range(25):
        cells = deal_from_seed(seed, ranks)
        big = solve_round(cells, rules=rules, max_states=2_000_000, search=search)
        small = solve_round(cells, Limits(nodes=20_000_000), rules, table, search=search,
                            forget=True)
        assert big.status is not Status.LIMIT
        check_round(cells, rules, small)
        assert small.details["table"] <= table
        if small.status is Status.LIMIT:  # the layouts that may recur fill the table
            assert movable_twos and small.details["table"] == table
            limits += 1
        else:
            assert (small.status, small.value, small.moves) == (big.status, big.value, big.moves)
            decided += small.details["forgotten"] > 0
    assert decided >= 2 and limits <= 12


def test_forgetting_keeps_every_other_layout_findable():
    """Emptying a slot (backward-shift deletion) keeps the rest of a crowded table findable, and
    only layouts with no first-column gap go when Twos can move."""
    n, rules = 5, Rules(5, movable_twos=True)
    word, mul, words, shift = api._packing(n)
    keys = np.zeros((64, words), np.uint64)
    gen, rnd = np.uint64(1), random.Random(5)
    layouts = []
    while len(layouts) < 40:  # layouts of random play, each with its table key
        cells = deal_from_seed(rnd.randrange(10**6), n)
        for _ in range(rnd.randrange(30)):
            if moves := legal_moves(cells, rules):
                cells = apply_move(cells, rnd.choice(moves), rules)
        key = np.zeros(words, np.uint64)
        key[-1] = gen << np.uint64(shift + HOP_BITS)
        for i, v in enumerate(api._encode(cells, n)):
            key[word[i]] += np.uint64(v - v // n) * mul[i]
        if insert(keys, 64, key, np.uint64(shift), gen, 0, 64, 0, False) == 1:
            layouts.append((key, not open_column(api._encode(cells, n), n)))
    assert sum(two for _, two in layouts) >= 3 and not all(two for _, two in layouts)
    stamp_shift = np.uint64(shift + HOP_BITS)
    start = np.zeros(words, np.uint64)  # the key whose home the search for a slot starts at
    while forget_one(keys, 64, start, stamp_shift, gen, word, mul, n, np.uint64(shift),
                             True):
        start[0] += np.uint64(1)
        present = [insert(keys, 64, key.copy(), np.uint64(shift), gen, 64, 64, 0,
                                  False) == 0 for key, _ in layouts]
        assert all(present[i] for i, (_, two) in enumerate(layouts) if not two)
        assert sum(present) == len(layouts) - 1
        layouts = [layout for layout, here in zip(layouts, present) if here]
    assert not any(two for _, two in layouts)


@pytest.mark.parametrize("dominance", [False, True])
def test_a_growing_table_keeps_every_layout_findable(dominance):
    """Doubling the slots a search uses moves each layout to where a probe from its new home
    finds it, probes that wrap round the table's end included (with ``dominance``, the hops
    stored beside a key are not part of its home), with its row of values (the players'
    table), and an older search's entries (another stamp) count as free throughout: 300 small
    tables grown from 4 slots to 256."""
    words, shift = 3, np.uint64(40)
    stamp_shift = shift + np.uint64(HOP_BITS)
    keep = np.uint64(layout_bits(shift, dominance))
    rnd = np.random.default_rng(7)

    def random_key(gen):
        key = rnd.integers(0, 2**63, words, dtype=np.uint64) * np.uint64(2)
        key[-1] = (key[-1] & ((np.uint64(1) << shift) - np.uint64(1))) | (gen << stamp_shift)
        return key
    def slot_of(key):
        return int(np.flatnonzero(keys[:, 0] == key[0])[0])
    for _ in range(300):
        keys = np.zeros((256, words), np.uint64)
        values = np.zeros((256, 2), np.float64)
        for _ in range(100):  # an older search's layouts, all over the table
            insert(keys, 256, random_key(np.uint64(1)), shift, np.uint64(1), 0, 256, 0,
                           False)
        gen, size, stored = np.uint64(2), 4, []
        while len(stored) < 128:
            key = random_key(gen)
            assert insert(keys, size, key, shift, gen, len(stored), 256,
                                  int(rnd.integers(8)), dominance) == 1
            stored.append(key)
            values[slot_of(key)] = [len(stored), -len(stored)]
            if 2 * len(stored) > size:
                size = grow(keys, size, stamp_shift, gen, keep, values)
                here = keys[:, -1] >> stamp_shift == gen
                assert here.sum() == len(stored) and not here[size:].any()
                assert all(list(values[slot_of(key)]) == [i + 1, -i - 1]
                           for i, key in enumerate(stored))
                assert all(insert(keys, size, key.copy(), shift, gen, 0, 256, 15,
                                          dominance) == 0 for key in stored)


def test_a_rounds_work_does_not_depend_on_earlier_rounds():
    """Where a layout sits in the table, and so which layouts forgetting empties and how many
    moves a round makes, is the same whatever the process searched before: the slot comes from
    the layout, never from the generation stamp."""
    rules, search = Rules(7, movable_twos=True), Search(hop_budgets=())

    def work(seed):
        result = solve_round(deal_from_seed(seed, 7), Limits(nodes=20_000_000), rules, 3000,
                             search=search, forget=True)
        return result.status, result.value, result.moves, result.nodes, result.details
    seeds = range(8)
    first = [work(seed) for seed in seeds]
    again = [work(seed) for seed in reversed(seeds)][::-1]
    assert first == again
    assert sum(details["forgotten"] > 0 for *_, details in first) >= 2


def test_a_small_search_touches_only_the_first_slots():
    """A search starts on the table's first 2**12 slots and doubles them when half are full, so
    a small one leaves the rest of a large table untouched (its pages never mapped)."""
    cells = deal_from_seed(5, 13)  # a lost round of about 3,000 layouts
    api._tables.clear()
    result = solve_round(cells, max_states=1_000_000)
    (entry,) = api._tables.values()
    used = np.flatnonzero(entry[0][:, -1])
    stored = result.details["table"]
    assert len(used) == stored and 1000 < stored < 50_000
    assert used.max() < max(FIRST_SIZE, 1 << (2 * stored - 1).bit_length())
    assert entry[0].shape[0] == 1 << 21


def test_limits_report_limit_never_unsolvable():
    cells = deal_from_seed(0, 13)
    for result in (solve_round(cells, max_states=50), solve_round(cells, Limits(nodes=50))):
        assert result.status is Status.LIMIT
        check_round(cells, Rules(), result)
    game = solve(cells, Limits(nodes=50))
    assert game.status is Status.LIMIT and not game.details["won"]
    assert len(game.details["rounds"]) == 1


@pytest.mark.parametrize("text,status,locked", [
    ("2C 3C AC 2D 3D AD 2H 3H AH 2S 3S AS", Status.SOLVED, 8),   # already won
    ("2C 3C 3D AC 2D AD 2H 3H AH 2S 3S AS", Status.SOLVED, 8),   # 3D moves next to 2D
    ("3C AC 2C 3D AD 2D 3H AH 2H 3S AS 2S", Status.UNSOLVABLE, 0),  # gaps behind Kings
])
def test_known_small_layouts(text, status, locked):
    rules = Rules(3)
    cells = parse_deal(text, 3)
    result = solve_round(cells, rules=rules)
    assert (result.status, result.value) == (status, locked)
    check_round(cells, rules, result)


@settings(max_examples=60, deadline=None)
@given(deals(st.integers(4, 5)), st.integers(0, 40), st.randoms(use_true_random=False),
       st.booleans())
def test_reach_bound_covers_everything_reachable(deal, steps, rnd, movable):
    """From layouts met in random play with movable Twos or fixed Twos, the reach bound of
    those rules is never below the most locked cards the oracle reaches."""
    n, cells = deal
    cells = played(cells, Rules(n, movable_twos=movable), steps, rnd)
    assert api.reach_bound(cells, n, movable_twos=movable)[0] >= oracle(cells, n, movable)[1]


def reach_reference(board, n, free, movable=True):
    """The reach bound read again from its definition (bounds.reach_bound's docstring), as
    sets of cells, growing every card's cells until nothing changes."""
    cells = range(4 * n)
    firsts = {r * n for r in range(4) if (free >> r) & 1}
    gaps = {c for c in cells if board[c] == 0}
    if any(c % n == 0 for c in gaps):
        gaps |= firsts
    pos = {int(board[c]): c for c in cells if board[c]}

    def now(code):
        return set(firsts) if code % n == 1 and pos[code] in firsts else {pos[code]}

    reach = {code: now(code) for code in pos}
    changed = True
    while changed:
        changed = False
        for code in sorted(pos):
            if code % n == 1:
                more = {c for c in gaps if c % n == 0} if movable or pos[code] % n else set()
            else:
                more = {c + 1 for c in reach[code - 1] if c % n != n - 1 and c + 1 in gaps}
            if not more <= reach[code]:
                reach[code] |= more
                gaps |= now(code)
                changed = True

    def run(row, two):
        k = 1
        while k < n - 1 and row * n + k in reach[two + k]:
            k += 1
        return k

    twos = [s * n + 1 for s in range(4)]
    return reach, max(sum(run(row, two) if row * n in reach[two] else 0
                          for row, two in enumerate(order))
                      for order in itertools.permutations(twos))


def test_reach_bound_is_its_definition():
    """The kernel's reach bound and its masks equal the fixed point grown naively, on layouts
    met in random play with movable Twos (with no free row and with every row whose first cell
    holds a Two or a gap free) and with fixed Twos (guards the kernel's faster fixed point);
    with no free row, ``reach_completes`` says whether it is a whole win."""
    checked = 0
    whole = {True: 0, False: 0}  # reach_completes's answers
    for seed in range(90):
        n = 5 + seed % 3
        rnd = random.Random(seed)
        movable = seed < 60
        cells = played(deal_from_seed(seed, n), Rules(n, movable_twos=movable),
                       rnd.randrange(60), rnd)
        board = api._encode(cells, n)
        for free in {0, z_mask(board, n)} if movable else {0}:
            bound, masks = api.reach_bound(cells, n, free, movable)
            reach, expected = reach_reference(board, n, free, movable)
            assert bound == expected
            assert all(masks[code] == sum(1 << c for c in reach[code]) for code in reach)
            checked += 1
            if not free:
                completes = bounds.reach_completes(board, api._positions(board), n, movable,
                                                   np.zeros(4 * n, np.int64),
                                                   np.zeros(64 + 4 * n, np.int64))
                assert completes == (expected == 4 * (n - 1))
                whole[completes] += 1
    assert checked >= 130 and min(whole.values()) >= 20


def test_safe_moves_lose_nothing():
    """At phase-two layouts met in random play with movable Twos, playing the safe move (when
    there is one) keeps the oracle's answer: won or not, and the most locked cards."""
    n = 5
    rules = Rules(n, movable_twos=True)
    src, dst, arr = (np.zeros(MAX_MOVES, np.int64) for _ in range(3))
    checked = 0
    for seed in range(200):
        rnd = random.Random(seed)
        cells = deal_from_seed(seed, n)
        while moves := legal_moves(cells, rules):
            board = api._encode(cells, n)
            if phase_two(board, n):
                pos = api._positions(board)
                gaps = np.flatnonzero(board == 0).astype(np.int64)
                m = gen_moves(board, pos, gaps, n, True, src, dst, arr)
                k = safe_move(board, n, 0, src, dst, arr, m)
                if k >= 0:
                    safe = next(mv for mv in moves if mv.to == divmod(int(dst[k]), n))
                    assert oracle(apply_move(cells, safe, rules), n, True) == \
                        oracle(cells, n, True), (seed, format_deal(cells), safe)
                    checked += 1
            cells = apply_move(cells, rnd.choice(moves), rules)
    assert checked >= 100


def test_a_hop_budget_pass_alone_wins_only_won_rounds_and_is_exact_when_no_hop_is_refused():
    """Each pass of rising hop budgets searched alone (``api.search_pass``, as ``solve_round``
    makes them), until one wins: a pass that wins is a won round, one that ended without
    refusing a hop has the round's exact most locked cards, and none finds more."""
    rules = Rules(6, movable_twos=True)
    ends = set()
    for seed in range(12):
        exact = solve_round(deal_from_seed(seed, 6), rules=rules)
        board = api._encode(deal_from_seed(seed, 6), 6)
        for budget in (0, 1, 2):
            (status, best, _, _, _, _, hop_refused, _), _ = api.search_pass(
                board, rules, budget, 100_000, 100_000)
            ends.add(int(status))
            assert best <= exact.value, (seed, budget)
            if status == kernel.WON:
                assert exact.status is Status.SOLVED, seed
                break
            if status == kernel.EXHAUSTED and not hop_refused:
                assert best == exact.value, (seed, budget)
    assert {kernel.WON, kernel.EXHAUSTED} <= ends

def test_a_game_replays_each_rounds_line(monkeypatch):
    # A round whose claimed locked cards its line does not reach never becomes a result.
    real = api.solve_round

    def overclaiming(*args, **kwargs):
        result = real(*args, **kwargs)
        result.value += 1
        return result

    cells = deal_from_seed(3, 6)
    assert solve(cells, rules=Rules(6), redeals=2).value <= 4 * 5
    monkeypatch.setattr(api, "solve_round", overclaiming)
    with pytest.raises(AssertionError, match="line of play locks"):
        solve(cells, rules=Rules(6), redeals=2)


@pytest.mark.timeout(60, method="thread")  # a kernel that never returns holds the GIL
def test_a_reused_table_serves_deals_of_other_ranks():
    """The process's tables are reused from deal to deal; a deal of other ranks packs its keys
    otherwise, so the table starts empty for it rather than reading the stamps of the last one
    at another place (which once looked like a full table: the probe never ended).  Every
    answer is what the deal gets alone, first in a fresh order."""
    rng = random.Random(7)
    cases = [(rng.choice([5, 6]), rng.random() < 0.5, rng.randrange(10 ** 6))
             for _ in range(60)]
    search = Search(hop_budgets=(0, 1, 2), pass_states=50)

    def answers(order):
        return {i: (r.status, r.value) for i in order
                for n, movable, seed in [cases[i]]
                for r in [solve_round(deal_from_seed(seed, n), rules=Rules(n, movable_twos=movable),
                                      search=search)]}
    assert answers(range(60)) == answers(reversed(range(60)))
