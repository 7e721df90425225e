"""Spider DoF: board notation, rules, the capacities and the exchange rule against the oracle,
the seed algorithms, and the command line."""
import json

import pytest
from click.testing import CliRunner

from puzzlegen.cli import cli
from solvers.errors import BadInput
from solvers.result import Limits, Status
from solvers.spider import ask, calc, format_board, move_report, oracle, parse_board
from solvers.spider import seed_algorithms
from solvers.spider.question import goal_fn
from solvers.spider.rules import FACE_DOWN, replay, unit_starts

RANKS = "A23456789TJQK"


def chain(top, k, first_suit=0):
    """k single-card units from rank ``top`` down, alternating spades and hearts."""
    return " ".join(RANKS[top - 1 - i] + "SH"[(i + first_suit) % 2] for i in range(k))


def test_parse_and_format():
    board = parse_board("KS QH JH | ## 9D | | 5c")
    assert board[1][0] == FACE_DOWN and board[2] == ()
    assert format_board(board) == "KS QH JH | ## 9D | | 5C"
    assert parse_board("QS | QS")[0] == parse_board("QS | QS")[1]  # two decks: duplicates
    assert unit_starts(board[0]) == [0, 1]


@pytest.mark.parametrize("text,message", [
    ("", "board is empty"), ("KS XH", "malformed card"), ("KS ## QH", "face-down card"),
    ("QH ##", "face-down card"), ("## ##", "ends with a face-down"), ("#", "malformed card")])
def test_malformed_boards(text, message):
    with pytest.raises(BadInput, match=message):
        parse_board(text)


@pytest.mark.parametrize("args,message", [
    ((4, 1), "no stack 5"), ((2, 1), "stack 3 is empty"), ((0, 3), "2 unit"),
    ((0, 1, 0), "the same"), ((1, 1, 0), "cannot go onto stack 1")])
def test_bad_questions(args, message):
    board = parse_board("KS QH JH | ## 9D | | 5C")
    with pytest.raises(BadInput, match=message):
        ask(board, *args)


@pytest.mark.parametrize("kind,n,whole", [(k, n, False) for k in ("off", "onto") for n in range(4)]
                         + [("into", n, w) for n in range(1, 4) for w in (False, True)])
def test_capacity_is_exact(kind, n, whole):
    """With n empty stacks and no helpers the capacity is reached and cannot be beaten."""
    cap = calc.capacity(kind, n, whole)
    for k in (cap, cap + 1):
        if k == 0:
            continue
        source = ("" if whole else "## ") + chain(11 if kind == "onto" else 12, k)
        board = parse_board(source + (" | ## QD" if kind == "onto" else "") + " | " * n)
        q = ask(board, 0, k, None if kind == "off" else 1)
        result = oracle.answer(board, q)
        assert result.solved == (k <= cap)
        assert calc.answer(board, q).details["method"] == "formula"
        assert calc.answer(board, q).solved == result.solved
        if result.solved:
            assert goal_fn(board, q)(replay(board, result.moves))


def test_classic_values():
    assert [calc.dof(n) for n in range(5)] == [0, 1, 3, 7, 15]
    assert [calc.capacity("onto", n) for n in range(5)] == [1, 2, 4, 8, 16]
    assert [calc.capacity("into", n) for n in range(1, 5)] == [1, 2, 4, 8]
    assert [calc.capacity("into", n, whole=True) for n in range(1, 5)] == [1, 3, 7, 15]


def exchange_board(a, b, bases):
    x0 = 11 - b
    a0, b0 = ("## KD", f"## {RANKS[x0]}C") if bases else ("", "")
    return parse_board(f"{a0} {chain(x0, a)} | {b0} {chain(12, b, 1)}")


@pytest.mark.parametrize("a,b", [(a, b) for a in range(1, 5) for b in range(1, 5) if a + b <= 7])
@pytest.mark.parametrize("bases", [True, False])
def test_exchange_rule_matches_search(a, b, bases):
    board = exchange_board(a, b, bases)
    q = ask(board, 0, a, 1, b)
    exact = oracle.needed_empty_stacks(board, q)
    assert calc.reduce(board, q)[3]  # pure: the rule applies
    assert exact.value == calc.needed_empty_stacks(board, q).value
    assert exact.value == ((a + b - 1).bit_length() if bases else max(a, b).bit_length())
    moved = replay(parse_board(exact.details["board"]), exact.moves)
    assert goal_fn(parse_board(exact.details["board"]), q)(moved)


def test_seed_algorithms_miss_a_freed_stack():
    # 4S can join 5S, freeing a second empty stack: DoF 3 moves the two units 6H, 5S.
    board = parse_board("6S 8H | 4S | | 2S 6H 5S")
    q = ask(board, 3, 2)
    assert oracle.answer(board, q).solved and calc.answer(board, q).solved
    assert not any(seed_algorithms.decide(board, q, rule) for rule in seed_algorithms.RULES)


def test_seed_algorithms_use_helpers():
    # Three units, one empty stack (DoF 1): 7S goes onto 8D with 6H, then 8H to the empty.
    board = parse_board("## 8H 7S 6H | ## 8D | ")
    q = ask(board, 0, 3)
    assert all(seed_algorithms.decide(board, q, rule) for rule in seed_algorithms.RULES)
    assert seed_algorithms.needed(board, q, "first") == oracle.needed_empty_stacks(board, q).value


def run(*args):
    return CliRunner().invoke(cli, ["spider", *args])


def test_cli_dof_json_contract():
    result = run("dof", "KS QH JH | ## 9D | | 5C", "--json")
    assert result.exit_code == 0
    out = json.loads(result.output)
    assert {k: out[k] for k in ("empty_stacks", "dof", "max_empty_stacks", "max_dof")} == \
        {"empty_stacks": 1, "dof": 1, "max_empty_stacks": 1, "max_dof": 1}
    freed = json.loads(run("dof", "6S 8H | 4S | | 2S 6H 5S", "--json", "--exact").output)
    assert (freed["max_empty_stacks"], freed["max_dof"]) == (2, 3)


def test_cli_move():
    result = run("move", "## 9H 8S 7H 6S | | | TC", "--from", "1", "--units", "4", "--to", "4",
                 "--json")
    out = json.loads(result.output)
    assert (out["possible"], out["needed_empty_stacks"], out["capacity"]) == (True, 2, 4)
    text = run("move", "## 9H 8S 7H 6S | | | 2C", "--from", "1", "--units", "4")
    assert text.exit_code == 0 and "impossible" in text.output and "needed: 3" in text.output
    swap = json.loads(run("move", "## KD 5S | ## 6C QH", "--from", "1", "--units", "1",
                          "--to", "2", "--swap", "1", "--json").output)
    assert (swap["possible"], swap["needed_empty_stacks"]) == (False, 1)


@pytest.mark.parametrize("args", [
    ("dof", "KS ## QH"), ("dof", "KS QX"), ("move", "KS QH", "--from", "3", "--units", "1"),
    ("move", "KS QH | ", "--from", "1", "--units", "1", "--to", "2", "--swap", "1"),
    ("move", "KS QH | 9C", "--from", "1", "--units", "1", "--to", "2"),
    ("move", "KS QH | 9C", "--from", "1", "--units", "1", "--swap", "1")])
def test_cli_bad_input_exits_2(args):
    result = run(*args)
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and result.output.count("\n") == 1
    assert "Traceback" not in result.output


def test_full_size_board_is_quick():
    """Ten stacks mid-game: the ceiling and the formula answer without a big search."""
    board = parse_board("## ## ## ## KS QH JH TS | ## ## ## 9D 8C 7C | ## ## ## ## 5H 4S | | "
                        "## ## 3H 2H AS | ## ## ## ## TC 9H 8S | ## ## ## 7D 6S 5D | | "
                        "## ## 6H 5C 4D 3C | ## ## ## ## 9S 8D 7H")
    assert calc.max_empty_stacks(board).details["method"] == "formula"
    q = ask(board, 8, 4, 9)
    result = calc.answer(board, q, plan=True)
    assert result.solved and result.details["method"] == "formula"
    assert goal_fn(board, q)(replay(board, result.moves))
    assert calc.needed_empty_stacks(board, q).value == 1
    freed = parse_board("KS QH JH TS | ## 9D 8C 7C | ## 5H 4S | | 3H 2H AS | ## 9S 8D 7H")
    assert calc.max_empty_stacks(freed).value == 2


#: Sixteen stacks whose boards reachable by reversible moves run into the millions.
WIDE = ("JS 8S 7H 6H 5S | | | 6H 5H | 5S 4S | JS TH 9H 8H | ## 4S | | 7H 6S 5H 4H | JS | "
        "7S 6H 5S | ## 6H 8H 7H 6H 5H | TH 9H 8S | 9S | 7H 6S | ")


@pytest.mark.parametrize("cap", [1, 100, 2000])
def test_state_limit_counts_stored_boards(cap):
    """The limit bounds memory: the search stops having stored exactly ``cap`` boards."""
    result = calc.max_empty_stacks(parse_board(WIDE), Limits(states=cap))
    assert result.status is Status.LIMIT and result.details["states"] == cap
    assert result.nodes < cap or cap == 1  # far fewer boards expanded than stored


def test_time_limit_and_the_limit_answer():
    result = calc.max_empty_stacks(parse_board(WIDE), Limits(seconds=0.2))
    assert result.status is Status.LIMIT and result.seconds < 2
    out = json.loads(run("dof", WIDE, "--max-states", "300", "--json").output)
    assert (out["status"], out["max_empty_stacks"], out["max_dof"]) == ("limit", None, None)
    text = run("dof", WIDE, "--max-seconds", "0.2")
    assert text.exit_code == 0 and "unknown, the search stopped at its limit" in text.output


def test_questions_share_the_time_limit():
    """A move question's searches (the answer, then up to seven for the fewest empty stacks)
    share one time limit: the whole report takes about that long, not eight times it."""
    board = parse_board(WIDE)
    report = move_report(board, ask(board, 0, 3), True, Limits(seconds=0.3))
    assert report["status"] == "limit" and report["needed_empty_stacks"] is None
    assert report["seconds"] < 0.3 * 3


def test_a_search_pauses_the_cycle_collector_and_restores_it():
    """Searches run with Python's cycle collector off (its full passes over a large process
    overran the time limit) and leave it as they found it, also when it was already off."""
    import gc
    import sys
    from solvers.spider import search

    searches = {search.bfs.__wrapped__.__code__, search.most_empty.__wrapped__.__code__}
    board = parse_board(WIDE)
    inside = []

    def watch(phase, info):   # a collection started while a search is on the stack
        frame = sys._getframe(1)
        while frame is not None:
            inside.append(frame.f_code in searches)
            frame = frame.f_back

    gc.callbacks.append(watch)
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            report = move_report(board, ask(board, 0, 3), True, Limits(seconds=0.1))
            assert report["status"] == "limit" and gc.isenabled() is enabled
        assert not any(inside)  # thousands of boards stored, no collection inside a search
    finally:
        gc.enable()
        gc.callbacks.remove(watch)
