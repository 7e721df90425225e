"""Stack Management properties: the checker agrees with the exhaustive oracle, every explained
line replays to a win, the contest format round-trips, the generator keeps its promises."""
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from solvers.errors import BadInput
from solvers.stackmgmt import Case, format_contest, parse_contest, solve, solve_brute
from solvers.stackmgmt.generate import generate
from solvers.stackmgmt.rules import Move, Remove, parse_move, replay
from solvers.result import Status


@st.composite
def cases(draw, max_stacks=4, max_cards=4, max_value=6):
    """Small cases: 2..4 stacks, suits 1..N+1 (so S < N, S = N and S > N all occur)."""
    n = draw(st.integers(2, max_stacks))
    c = draw(st.integers(1, max_cards))
    card = st.tuples(st.integers(1, max_value), st.integers(1, n + 1))
    cards = draw(st.lists(card, min_size=n * c, max_size=n * c, unique=True))
    return Case.from_stacks([cards[i * c:(i + 1) * c] for i in range(n)])


def check_against_oracle(case: Case) -> None:
    fast, slow = solve(case, explain=True), solve_brute(case)
    assert slow.status is not Status.LIMIT
    assert fast.status is slow.status, case.stacks()
    for result in (fast, slow):
        if result.solved:
            assert replay(case.stacks(), result.moves).won()
        else:
            assert result.moves == []


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_checker_agrees_with_brute_force_and_lines_win(case):
    check_against_oracle(case)


@settings(max_examples=150, deadline=None)
@given(cases(max_stacks=4, max_cards=3, max_value=3))
def test_agreement_when_suits_are_crowded(case):
    # Few values per suit: many cases with S = N and the analysis' corner cases.
    check_against_oracle(case)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["path", "blocked"]), st.integers(3, 4), st.integers(2, 4),
       st.integers(0, 10**6))
def test_generated_cases_keep_their_promise(kind, n, c, seed):
    case = generate(kind, n, c, None, seed)
    check_against_oracle(case)
    assert len(set(case.suits.ravel().tolist())) == n
    if kind == "blocked":
        assert all(stack[0][0] == max(v for v, s in sum(case.stacks(), []) if s == stack[0][1])
                   for stack in case.stacks())
        assert not solve(case).solved
    else:
        assert len(solve(case).details["path"]) == n - 2


def test_generated_long_path_and_cycle():
    long = generate("path", 40, 10, 30, seed=7)
    result = solve(long, explain=True)
    assert len(result.details["path"]) == 30
    assert replay(long.stacks(), result.moves).won()
    assert not solve(generate("blocked", 40, 10, 25, seed=7)).solved


@settings(max_examples=50, deadline=None)
@given(st.lists(cases(), min_size=1, max_size=3))
def test_contest_format_round_trips(many):
    again = parse_contest(format_contest(many))
    assert [c.stacks() for c in again] == [c.stacks() for c in many]


@given(cases())
def test_moves_print_and_parse_back(case):
    for move in solve(case, explain=True).moves:
        assert parse_move(str(move)) == move


# Stack 1 shows (1,1) over (5,1), stack 2 shows (3,1) over (2,2), stack 3 is empty.
POSITION = [[(5, 1), (1, 1)], [(2, 2), (3, 1)], []]


@pytest.mark.parametrize("moves,message", [
    ([Remove(1, (3, 1))], r"move 1 \(remove \(3,1\) from 2\) is illegal: no higher card of "
                          r"suit 1 is on top of another stack"),
    ([Remove(1, (9, 9))], r"the top of stack 2 is \(3,1\)"),
    ([Move(0, 1, (1, 1))], "stack 2 is not empty"),
    ([Remove(0, (1, 1)), Remove(0, (1, 1))], r"move 2 .* the top of stack 1 is \(5,1\)"),
    ([Remove(2, (1, 1))], "stack 3 is empty"),
    ([Remove(5, (3, 1))], "there is no stack 6"),
    ([Move(0, 3, (1, 1))], "there is no stack 4"),
])
def test_replay_names_the_first_illegal_move(moves, message):
    with pytest.raises(BadInput, match=message):
        replay(POSITION, moves)


def test_replay_plays_a_legal_line():
    board = replay(POSITION, [Move(0, 2, (1, 1)), Remove(2, (1, 1)), Move(1, 2, (3, 1))])
    assert board.stacks == [[(5, 1)], [(2, 2)], [(3, 1)]] and board.won()


@pytest.mark.parametrize("text", ["remove (1,2) from 0", "move (1,2) from 1", "drop 1",
                                  "remove (1,2) from 1 to 2"])
def test_malformed_moves(text):
    with pytest.raises(BadInput, match="malformed move"):
        parse_move(text)


SAMPLE = "5\n2 7 2 7 1\n2 6 4 7 4\n2 3 2 6 2\n2 4 2 10 2\n2 5 4 7 3\n2\n2 2\n0 2\n3 2\n4 1 3\n"


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_parser_accepts_or_names_a_line(data):
    # Damage the sample: every outcome is cases or one BadInput naming a line, never a crash.
    text = SAMPLE
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 3)))
        text = text[:i] + data.draw(st.text("0123456789 \n\tx-é\x00", max_size=3)) + text[j:]
    try:
        parse_contest(text)
    except BadInput as exc:
        assert str(exc).startswith("line ") and "\n" not in str(exc)
