"""The Agnes kernel: exact against a brute-force oracle and a plain search, lines replay."""
import itertools

import numpy as np
import pytest

import forked
from solvers.agnes import Board, deals_from_seed, parse_rules, replay, solve
from solvers.agnes import codes, kernel
from solvers.agnes.api import _EMPTY
from solvers.result import Limits, Status

# One variant for each empty-pile rule, both deals, both run rules, split or not.
VARIANTS = ["Up-Suit-None", "Down-Color-None", "Up-Suit-None-NoSplit", "Up-Color-Any1",
            "Down-Suit-AnyRun", "Up-Suit-AnyRun-NoSplit", "Down-Color-High1", "Up-Suit-HighRun",
            "Up-Color-HighRun-NoSplit"]
CAP = 15_000
PLAIN = kernel.TABLE


def _oracle(deal, rules, cap):
    """Brute force on the readable rules: depth-first over every legal move, each state once.
    True/False, or None past ``cap`` states."""
    seen = set()
    stack = [Board.start(deal, rules)]
    while stack:
        board = stack.pop()
        key = (tuple(map(tuple, board.piles)), tuple(board.hidden), board.dealt)
        if key in seen:
            continue
        seen.add(key)
        if board.score == 52:
            return True
        if len(seen) > cap:
            return None
        for move in reversed(board.legal_moves()):   # foundation moves first, the deal last
            child = Board(deal, rules, [list(p) for p in board.piles], list(board.hidden),
                          list(board.foundation), board.dealt)
            child.apply(move)
            stack.append(child)
    return False


def _verdict(result):
    return None if result.status is Status.LIMIT else result.status is Status.SOLVED


@pytest.mark.parametrize("name", VARIANTS)
def test_prunings_agree_with_plain_search(name):
    """Wherever the plain search (losing-state table only) finishes, the full one agrees; every
    winning line replays."""
    rules = parse_rules(name)
    compared = 0
    for deal in deals_from_seed(11, 0, 24):
        plain = solve(deal, rules, Limits(nodes=CAP), prune=PLAIN)
        if plain.status is Status.LIMIT:
            continue
        compared += 1
        full = solve(deal, rules)
        assert full.status == plain.status
        if full.solved:
            assert replay(deal, rules, full.moves).score == 52
    assert compared >= 3


def test_both_outcomes_are_compared():
    """The deals above include wins and losses under plain search (so agreement means something)."""
    outcomes = set()
    for name, deal in itertools.product(["Up-Suit-AnyRun-NoSplit", "Up-Suit-HighRun"],
                                        deals_from_seed(11, 0, 8)):
        outcomes.add(_verdict(solve(deal, parse_rules(name), Limits(nodes=CAP), prune=PLAIN)))
    assert {True, False} <= outcomes


@pytest.mark.parametrize("bits", [10, 4])
def test_a_tiny_evicting_table_changes_nothing(bits):
    """2**10 slots evict lost states; 2**4 also fill whole buckets with states of the line, which
    the search then checks for repetition by scanning the line."""
    rules = parse_rules("Up-Suit-AnyRun-NoSplit")
    compared = 0
    for deal in deals_from_seed(11, 0, 12):
        tiny = solve(deal, rules, Limits(nodes=CAP), table_bits=bits)
        if tiny.status is not Status.LIMIT:
            compared += 1
            assert tiny.status == solve(deal, rules).status
    assert compared >= 5


def test_a_result_does_not_depend_on_what_was_solved_before():
    """With a table small enough to evict, the same deal solved again after other deals (each
    solve a new epoch of the reused table) takes the same states and gives the same line."""
    rules = parse_rules("Up-Suit-AnyRun")
    deals = list(deals_from_seed(2024, 5, 4))
    first = [solve(deal, rules, Limits(nodes=200_000), table_bits=12) for deal in deals]
    again = [solve(deal, rules, Limits(nodes=200_000), table_bits=12) for deal in deals[::-1]]
    assert max(r.nodes for r in first) > 4096           # more states than the table holds
    for a, b in zip(first, again[::-1]):
        assert (a.status, a.nodes, a.value, [str(m) for m in a.moves]) == \
               (b.status, b.nodes, b.value, [str(m) for m in b.moves])


# (rules, deal index of seed 5): small enough for the brute-force oracle, won and lost.
ORACLE_CASES = [("Up-Suit-None-NoSplit", 61), ("Up-Suit-None-NoSplit", 224),
                ("Down-Color-None", 205), ("Down-Color-None", 246),
                ("Up-Suit-AnyRun-NoSplit", 5), ("Up-Suit-AnyRun-NoSplit", 87),
                ("Up-Suit-AnyRun-NoSplit", 61), ("Up-Color-High1", 83), ("Up-Color-High1", 224),
                ("Down-Suit-HighRun", 246)]


@pytest.mark.parametrize("name,index", ORACLE_CASES)
def test_kernel_agrees_with_brute_force_oracle(name, index):
    rules = parse_rules(name)
    deal = next(deals_from_seed(5, index, 1))
    truth = _oracle(deal, rules, 3000)
    assert truth is not None
    assert _verdict(solve(deal, rules, prune=0)) is truth
    assert _verdict(solve(deal, rules)) is truth


@pytest.mark.parametrize("name", ["Up-Suit-None", "Up-Color-Any1", "Up-Suit-HighRun-NoSplit"])
def test_max_score_agrees_with_plain_search(name):
    rules = parse_rules(name)
    for deal in deals_from_seed(3, 0, 6):
        full = solve(deal, rules, Limits(nodes=CAP), maximize=True)
        plain = solve(deal, rules, Limits(nodes=CAP), maximize=True, prune=PLAIN)
        if Status.LIMIT not in (full.status, plain.status):
            assert full.value == plain.value
            assert full.details["max_score_exact"]
            assert replay(deal, rules, full.moves).score == full.value


def test_limit_is_never_reported_as_lost():
    rules = parse_rules("Up-Suit-HighRun")
    deal = next(deals_from_seed(1, 9, 1))
    assert solve(deal, rules).status is Status.UNSOLVABLE
    for nodes in (1, 10, 1000):
        result = solve(deal, rules, Limits(nodes=nodes))
        assert result.status is Status.LIMIT and result.nodes <= nodes


def test_compiled_search_matches_the_jit_kernel():
    """The search compiled at install gives the JIT kernel's results, state counts and lines."""
    module = codes.SEARCH.built()
    if module is None:
        pytest.skip("the search was not compiled ahead of time (pip install compiles it)")
    keys = np.zeros(1 << 12, np.uint64)
    encs = np.zeros((1 << 12, codes.WORDS), np.uint64)
    epoch = 0
    for name in VARIANTS:
        rules = parse_rules(name)
        for deal in deals_from_seed(11, 0, 6):
            deck = np.array([deal.rel(c) * 4 + c.suit for c in deal.cards], np.int64)
            outcomes = []
            for search in (module.search, kernel.search):
                epoch += 1
                line = np.zeros(codes.MAX_DEPTH, np.int64)
                out = search(deck, rules.face_up, rules.same_suit, _EMPTY[rules.empty],
                             rules.split, codes.ALL, False, CAP, -1.0, keys, encs, epoch,
                             np.empty((codes.FRAMES, codes.MAX_DEPTH + 1), np.int64),
                             np.empty(codes.MAX_DEPTH, np.uint64),
                             np.empty((codes.MAX_DEPTH, codes.WORDS), np.uint64), line)
                outcomes.append((out, list(line[:out[3]])))
            assert outcomes[0] == outcomes[1], (name, deal)


def test_a_winrate_run_starts_without_numba(tmp_path):
    """Away from the checkout (so that the installed package runs), a win-rate run imports no
    numba when the search was compiled ahead of time."""
    out = forked.without_numba(tmp_path, "solvers.agnes.codes:SEARCH", [
        "agnes", "winrate", "--rules", "Up-Suit-HighRun", "--deals", "3", "--json"])
    assert out["deals"] == 3 and not out["numba"]
