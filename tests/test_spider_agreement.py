"""Property tests: the calculator against the oracle, the oracle against a brute force written
here, reversibility, and the seed algorithms' soundness, on hypothesis-generated small boards."""
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from solvers.result import Limits, Status
from solvers.spider import ask, calc, format_board, oracle, parse_board
from solvers.spider import seed_algorithms
from solvers.spider.question import goal_fn
from solvers.spider.rules import apply, is_reversible, legal_moves, replay, unit_starts

LIMIT = Limits(nodes=20_000)
RANKS = "A23456789TJQK"
SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@st.composite
def stacks(draw, low):
    if draw(st.integers(0, 3)) == 0:
        return ""
    cards = ["##"] if draw(st.booleans()) else []
    if draw(st.booleans()):
        cards.append(RANKS[draw(st.integers(low, low + 5)) - 1] + draw(st.sampled_from("HS")))
    top = draw(st.integers(low, low + 5))
    for r in range(top, max(low, top - draw(st.integers(0, 3))) - 1, -1):
        cards.append(RANKS[r - 1] + draw(st.sampled_from("HS")))
    return " ".join(cards)


@st.composite
def boards(draw):
    low = draw(st.integers(1, 8))
    return parse_board(" | ".join(draw(st.lists(stacks(low), min_size=2, max_size=4))))


@st.composite
def questions(draw):
    board = draw(boards())
    sources = [i for i, s in enumerate(board) if unit_starts(s)]
    assume(sources)
    src = draw(st.sampled_from(sources))
    units = draw(st.integers(1, len(unit_starts(board[src]))))
    dst = draw(st.one_of(st.none(), st.integers(0, len(board) - 1)))
    swap = None
    if dst is not None and unit_starts(board[dst]) and draw(st.booleans()):
        swap = draw(st.integers(1, len(unit_starts(board[dst]))))
    try:
        return board, ask(board, src, units, dst, swap)
    except Exception:  # noqa: BLE001 - not every draw is a valid question
        assume(False)


def brute_max_empty(board):
    """Depth-first over reversible moves with a move generator of its own."""
    def moves(b):
        for s, stack in enumerate(b):
            for cut in range(len(stack) - 1, -1, -1):
                part = stack[cut:]
                if part[0] < 0 or any(x < 0 or x % 4 != part[0] % 4
                                      or x // 4 != part[0] // 4 - i for i, x in enumerate(part)):
                    break
                below = stack[cut - 1] if cut else None
                if below is not None and (below < 0 or below // 4 != part[0] // 4 + 1):
                    continue
                for d, dest in enumerate(b):
                    if d != s and (not dest or (dest[-1] >= 0
                                                and dest[-1] // 4 == part[0] // 4 + 1)):
                        out = list(b)
                        out[s], out[d] = stack[:cut], dest + part
                        yield tuple(out)
    seen, todo = {board}, [board]
    while todo:
        for nxt in moves(todo.pop()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return max(sum(1 for s in b if not s) for b in seen)


@SETTINGS
@given(boards())
def test_max_empty_calculator_oracle_brute_force_agree(board):
    exact = oracle.max_empty_stacks(board, LIMIT)
    assume(exact.status is not Status.LIMIT)
    assert calc.max_empty_stacks(board).value == exact.value == brute_max_empty(board)
    assert sum(1 for s in replay(board, exact.moves, reversible=True) if not s) == exact.value


@SETTINGS
@given(questions())
def test_move_questions_calculator_matches_oracle(case):
    board, q = case
    exact = oracle.answer(board, q, LIMIT)
    need = oracle.needed_empty_stacks(board, q, LIMIT)
    assume(Status.LIMIT not in (exact.status, need.status))
    fast = calc.answer(board, q, plan=True)
    assert fast.status is exact.status, format_board(board)
    assert calc.needed_empty_stacks(board, q).value == need.value, format_board(board)
    for result in (exact, fast):
        if result.solved:
            assert goal_fn(board, q)(replay(board, result.moves))


@SETTINGS
@given(boards())
def test_reversible_moves_undo(board):
    for move in legal_moves(board):
        if is_reversible(board, move):
            after = apply(board, move)
            back = [m for m in legal_moves(after)
                    if m.src == move.dst and m.dst == move.src and m.cards == move.cards]
            assert back and apply(after, back[0]) == board


@SETTINGS
@given(questions())
def test_seed_algorithms_are_sound(case):
    board, q = case
    assume(q.kind == "off")
    exact = oracle.answer(board, q, LIMIT)
    assume(exact.status is not Status.LIMIT)
    for rule in seed_algorithms.RULES:
        if seed_algorithms.decide(board, q, rule):
            assert exact.solved, (rule, format_board(board))
