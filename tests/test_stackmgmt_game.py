"""Stack Management's game contract: text round trips, replay, solve against the exhaustive
oracle, limits, the players' exact chances against plain recursion, and the design figures'
invariance under the game's symmetries."""
import random

import pytest

from solvers import game as registry
from solvers.errors import BadInput
from solvers.game import Designable
from solvers.result import Limits, Status
from solvers.stackmgmt import players
from solvers.stackmgmt.brute import brute_force
from solvers.stackmgmt.game import GAME, Rules
from solvers.stackmgmt.rules import Board, Move, Remove

RULES = GAME.parse_rules(GAME.default_rules)
SMALL = GAME.parse_rules("4x3-k2")


def winnable_deals(rules, count, start=1):
    deals, seed = [], start
    while len(deals) < count:
        deal = GAME.deal_from_seed(seed, rules)
        if GAME.solve(deal, rules, Limits()).solved:
            deals.append(deal)
        seed += 1
    return deals


def test_registered_and_designable():
    assert registry.get("stackmgmt") is GAME
    assert isinstance(GAME, Designable)
    assert GAME.check_figure == "random_chance"


def test_rules_round_trip_and_bad_rules():
    for name in GAME.variants() + ["4x3-k2"]:
        assert GAME.format_rules(GAME.parse_rules(name)) == name
    assert GAME.parse_rules("8x4-k4") == Rules(8, 4, 4)
    assert Rules(8, 4, 4).suit_sizes() == [1, 1, 1, 1, 7, 7, 7, 7]
    assert Rules(6, 4, 3).suit_sizes() == [1, 1, 1, 7, 7, 7]
    assert Rules(10, 4, 5).suit_sizes() == [1] * 5 + [7] * 5
    for bad in ("8x4", "8x4-k0", "8x4-k8", "1x4-k1", "20x4-k4", "8x1-k4", "nonsense"):
        with pytest.raises(BadInput):
            GAME.parse_rules(bad)


def test_deal_from_seed_is_the_documented_shuffle():
    deal = GAME.deal_from_seed(1, RULES)
    assert GAME.format_deal(deal).startswith("2,8 7,6 1,6 7,5 | 4,8 1,2 2,5 1,5 |")
    assert sorted(c for s in deal for c in s) == sorted(
        (v, s) for s, size in enumerate(RULES.suit_sizes(), 1) for v in range(1, size + 1))


def test_deal_round_trips_and_bad_deals():
    rng = random.Random(3)
    for seed in range(1, 20):
        deal = GAME.deal_from_seed(seed, RULES)
        for d in (deal, GAME.symmetric_copy(deal, RULES, rng), GAME.canonical(deal, RULES)):
            assert GAME.parse_deal(GAME.format_deal(d), RULES) == d
    text = GAME.format_deal(GAME.deal_from_seed(1, RULES))
    stacks = text.split(" | ")
    bad = {
        "stacks": " | ".join(stacks[:-1]),
        "card": text.replace("2,8", "2;8", 1),
        "range": text.replace("2,8", "0,8", 1),
        "twice": text.replace("2,8", "7,6", 1),
        "suits": text.replace("2,8", "9,9", 1),
    }
    for what, deal_text in bad.items():
        with pytest.raises(BadInput):
            GAME.parse_deal(deal_text, RULES)
    with pytest.raises(BadInput):
        GAME.parse_deal(text, SMALL)


def test_moves_round_trip_and_solutions_replay_to_a_win():
    for deal in winnable_deals(RULES, 8):
        result = GAME.solve(deal, RULES, Limits())
        texts = [GAME.format_move(m) for m in result.moves]
        assert [GAME.parse_move(t) for t in texts] == result.moves
        replayed = GAME.replay_text(deal, RULES, texts)
        assert replayed.won and replayed.value == RULES.n * RULES.c - RULES.n
    with pytest.raises(BadInput):
        GAME.parse_move("shift (1,2) from 1")


def test_replay_names_the_first_illegal_move():
    deal = GAME.deal_from_seed(1, RULES)
    top = deal[0][-1]
    with pytest.raises(BadInput, match=r"move 2 .* illegal: the top of stack 1"):
        GAME.replay(deal, RULES, [Remove(1, deal[1][-1]), Remove(0, deal[1][-1])])
    with pytest.raises(BadInput, match=r"move 1 .* illegal: stack 2 is not empty"):
        GAME.replay(deal, RULES, [Move(0, 1, top)])
    assert not GAME.replay(deal, RULES, []).won


def test_solve_agrees_with_the_exhaustive_oracle():
    statuses = set()
    for seed in range(1, 41):
        deal = GAME.deal_from_seed(seed, SMALL)
        fast = GAME.solve(deal, SMALL, Limits())
        line, decided, _ = brute_force([list(s) for s in deal])
        assert decided
        assert fast.solved == (line is not None), GAME.format_deal(deal)
        statuses.add(fast.status)
    assert statuses == {Status.SOLVED, Status.UNSOLVABLE}


def test_a_limit_gives_limit_never_an_answer():
    deal = GAME.deal_from_seed(1, RULES)
    for limits in (Limits(nodes=5), Limits(states=0), Limits(seconds=0)):
        assert GAME.solve(deal, RULES, limits).status is Status.LIMIT
    assert GAME.solve(deal, RULES, Limits(nodes=32, states=1, seconds=5)).solved


def random_position(rng):
    """Up to 4 stacks of uneven heights over as many suits as stacks, or one more or less."""
    n = rng.randint(2, 4)
    suits = rng.randint(n - 1, n + 1)
    cards = rng.sample([(v, s) for v in range(1, 9) for s in range(1, suits + 1)],
                       rng.randint(n, 3 * n))
    cuts = sorted(rng.choices(range(len(cards) + 1), k=n - 1))
    return [cards[a:b] for a, b in zip([0] + cuts, cuts + [len(cards)])]


def test_winnable_agrees_with_the_oracle_on_uneven_positions():
    rng = random.Random(11)
    answers = set()  # for as many suits as stacks, where the ace path decides
    for _ in range(400):
        stacks = random_position(rng)
        keys = [[s << 16 | v for v, s in stack] for stack in stacks]
        line, decided, _ = brute_force(stacks)
        assert decided
        assert players.winnable(keys) == (line is not None), stacks
        if len({s for stack in stacks for _, s in stack}) == len(stacks):
            answers.add(line is not None)
    assert answers == {True, False}


def plain_chance(board: Board, eager: bool) -> float:
    """The careful (or eager) player's chance by recursion over the rules' own boards."""
    while any(board.beaten(i) for i in range(len(board.stacks))):
        i = next(i for i in range(len(board.stacks)) if board.beaten(i))
        board.play(Remove(i, board.stacks[i][-1]))
    if board.won():
        return 1.0
    moves = [m for m in board.useful_moves() if isinstance(m, Move)]
    children = []
    for m in moves:
        child = board.copy()
        child.play(m)
        children.append(child)
    if eager:
        live = [c for c in children if any(c.beaten(i) for i in range(len(c.stacks)))]
        children = live or children
    return sum(plain_chance(c, eager) for c in children) / len(children) if children else 0.0


def test_exact_chances_match_plain_recursion():
    for deal in winnable_deals(GAME.parse_rules("5x3-k2"), 12):
        keys = [[s << 16 | v for v, s in stack] for stack in deal]
        for eager in (False, True):
            exact = players.Chances(eager, 10 ** 5)(keys)
            assert exact == pytest.approx(plain_chance(Board(deal), eager), abs=1e-12)


def exact_random_chance(stacks) -> float:
    if players.won(stacks):
        return 1.0
    options = players._random_options(stacks)
    return sum(map(exact_random_chance, options)) / len(options) if options else 0.0


def test_random_chance_estimates_the_random_player():
    for deal in winnable_deals(SMALL, 4):
        keys = [[s << 16 | v for v, s in stack] for stack in deal]
        estimate = players.random_chance(keys, 400, random.Random(1)).win
        assert estimate == pytest.approx(exact_random_chance(keys), rel=0.1, abs=0.01)


def test_limit_in_the_figures_raises():
    from solvers.errors import LimitReached
    deal = winnable_deals(RULES, 1)[0]
    keys = [[s << 16 | v for v, s in stack] for stack in deal]
    with pytest.raises(LimitReached, match="positions"):
        players.Chances(False, 1)(keys)


def test_figures_invariant_deterministic_and_consistent():
    rng = random.Random(5)
    deals = winnable_deals(RULES, 6)
    for deal in deals:
        fig = GAME.figures(deal, RULES)
        assert fig.won
        assert GAME.replay(deal, RULES, fig.solution).won
        assert GAME.hardness(deal, RULES) == fig.metrics["hardness"]
        assert GAME.hardness(deal, RULES, quick=True) == fig.metrics["hardness"]
        assert GAME.figures(deal, RULES).metrics == fig.metrics
        assert 0 < fig.metrics["random_chance"] <= 1 and fig.metrics["hardness"] >= 0
        for _ in range(3):
            copy = GAME.symmetric_copy(deal, RULES, rng)
            assert copy != deal
            assert GAME.canonical(copy, RULES) == GAME.canonical(deal, RULES)
            assert GAME.figures(copy, RULES).metrics == fig.metrics
        sentence = GAME.explain("hard", 93.0, fig.metrics, RULES)
        assert sentence.startswith("hard: a careful player") and "8x4-k4" in sentence
    assert len({GAME.figures(d, RULES).metrics["hardness"] for d in deals}) > 1


def test_unwinnable_deal_has_no_hardness():
    deal = next(d for d in map(lambda s: GAME.deal_from_seed(s, RULES), range(1, 50))
                if not GAME.solve(d, RULES, Limits()).solved)
    assert GAME.hardness(deal, RULES) is None
    fig = GAME.figures(deal, RULES)
    assert not fig.won and fig.solution == []
    assert GAME.explain("unsolvable", 0, fig.metrics, RULES).startswith("unsolvable: ")


def test_neighbour_is_a_valid_different_deal():
    rng = random.Random(2)
    deal = GAME.deal_from_seed(4, RULES)
    for _ in range(50):
        other = GAME.neighbour(deal, RULES, rng)
        assert other != deal
        assert GAME.parse_deal(GAME.format_deal(other), RULES) == other
        assert sum(a != b for x, y in zip(deal, other) for a, b in zip(x, y)) == 2
        deal = other


@pytest.mark.parametrize("name", ["10x4-k5", "12x2-k6"])  # 12x2-k6: stacks that tie
def test_canonical_and_hardness_agree_on_many_symmetric_copies(name):
    rng = random.Random(8)
    rules = GAME.parse_rules(name)
    kinds = set()
    for seed in range(1, 121):
        deal = GAME.deal_from_seed(seed, rules)
        canon = GAME.canonical(deal, rules)
        assert GAME.canonical(canon, rules) == canon
        assert GAME.parse_deal(GAME.format_deal(canon), rules) == canon
        copy = GAME.symmetric_copy(deal, rules, rng)
        assert GAME.canonical(copy, rules) == canon
        h = GAME.hardness(deal, rules)
        assert GAME.hardness(copy, rules) == h
        kinds.add(h is None)
    assert kinds == {True, False}
