"""The Agnes kernel: exact against a brute-force oracle and a plain search, lines replay."""
import itertools
import random

import numpy as np
import pytest

import forked
from solvers.agnes import Board, deals_from_seed, parse_rules, replay, solve
from solvers.agnes import codes, kernel
from solvers.agnes.api import _EMPTY, _kernel_position
from solvers.result import Limits, Status

# One variant for each empty-pile rule, both deals, both run rules, split or not.
VARIANTS = ["Up-Suit-None", "Down-Color-None", "Up-Suit-None-NoSplit", "Up-Color-Any1",
            "Down-Suit-AnyRun", "Up-Suit-AnyRun-NoSplit", "Down-Color-High1", "Up-Suit-HighRun",
            "Up-Color-HighRun-NoSplit"]
CAP = 15_000
PLAIN = kernel.TABLE


def _oracle(deal, rules, cap, start=None):
    """Brute force on the readable rules: depth-first over every legal move, each state once,
    from the deal's start or the position ``start``.  True/False, or None past ``cap`` states."""
    seen = set()
    stack = [start or Board.start(deal, rules)]
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
            child = board.copy()
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


def _positions(rules, count, rng):
    """Positions of play on won deals: random play from the start (mostly lost), and a prefix of a
    winning line (its second half: the oracle decides those) then up to four random moves."""
    out = []
    for deal in deals_from_seed(19, 0, 400):
        line = solve(deal, rules, Limits(nodes=CAP))
        if not line.solved:
            continue
        n = len(line.moves)
        for board, steps in ((Board.start(deal, rules), rng.randrange(10, 60)),
                             (replay(deal, rules, line.moves[:rng.randrange(n // 2, n)]),
                              rng.randrange(5))):
            for _ in range(steps):
                legal = board.legal_moves()
                if legal:
                    board.apply(rng.choice(legal), check=False)
            out.append((deal, board))
        if len(out) >= count:
            return out
    return out


@pytest.mark.parametrize("name", VARIANTS)
def test_a_search_from_a_position_agrees_with_the_oracle(name):
    """From positions of play (hidden cards, stock and foundations as play left them) the
    kernel's verdict is the brute-force oracle's, and a winning line replays from there."""
    rules = parse_rules(name)
    verdicts = []
    for deal, board in _positions(rules, 6, random.Random(name)):
        truth = _oracle(deal, rules, 1500, board)
        if truth is None:
            continue
        result = solve(deal, rules, start=board)
        assert _verdict(result) is truth, (name, str(board))
        assert _verdict(solve(deal, rules, Limits(nodes=CAP), start=board, prune=PLAIN)) in (
            truth, None)
        if truth:
            end = board.copy()
            for move in result.moves:
                end.apply(move)
            assert end.score == 52
        verdicts.append(truth)
    assert {True, False} <= set(verdicts)


def test_a_search_from_the_start_is_the_search_of_the_deal():
    rules = parse_rules("Up-Suit-AnyRun")
    for deal in deals_from_seed(7, 0, 5):
        a, b = solve(deal, rules), solve(deal, rules, start=Board.start(deal, rules))
        assert (a.status, a.nodes, a.moves) == (b.status, b.nodes, b.moves)


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
    """The search compiled at install gives the JIT kernel's results, state counts and lines,
    from positions of play."""
    module = codes.SEARCH.built()
    if module is None:
        pytest.skip("the search was not compiled ahead of time (pip install compiles it)")
    keys = np.zeros(1 << 12, np.uint64)
    encs = np.zeros((1 << 12, codes.WORDS), np.uint64)
    epoch = 0
    for name in VARIANTS:
        rules = parse_rules(name)
        for deal, board in _positions(rules, 6, random.Random(name)):
            position = _kernel_position(board)
            outcomes = []
            for search in (module.search, kernel.search):
                epoch += 1
                line = np.zeros(codes.MAX_DEPTH, np.int64)
                out = search(*position, rules.same_suit, _EMPTY[rules.empty], rules.split,
                             codes.ALL, False, CAP, -1.0, keys, encs, epoch,
                             np.empty((codes.FRAMES, codes.MAX_DEPTH + 1), np.int64),
                             np.empty(codes.MAX_DEPTH, np.uint64),
                             np.empty((codes.MAX_DEPTH, codes.WORDS), np.uint64), line)
                outcomes.append((out, list(line[:out[3]])))
            assert outcomes[0] == outcomes[1], (name, str(board))


def test_a_winrate_run_starts_without_numba(tmp_path):
    """Away from the checkout (so that the installed package runs), a win-rate run imports no
    numba when the search was compiled ahead of time."""
    out = forked.without_numba(tmp_path, "solvers.agnes.codes:SEARCH", [
        "agnes", "winrate", "--rules", "Up-Suit-HighRun", "--deals", "3", "--json"])
    assert out["deals"] == 3 and not out["numba"]
