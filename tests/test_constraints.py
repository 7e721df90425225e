"""Designer constraints: parsing, checks, annealing moves, random and CP-SAT deals."""
from __future__ import annotations

import itertools
import random

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from puzzlegen import cpsat
from puzzlegen.constraints import (Constraints, constraint_options, line_pairs, neighbour,
                                   parse_constraints, random_deal)
from solvers.cards import Card, full_deck
from solvers.errors import BadInput
from solvers.stacksquared import Deal, solve

C = Card.parse


@pytest.mark.parametrize("options, message", [
    ({"require": "AS XS"}, "malformed card 'XS'"),
    ({"require": "AS as"}, "duplicate card AS in the --require list"),
    ({"at": ("r1c2:AS",)}, "malformed --at 'r1c2:AS'"),
    ({"at": ("r5c1=AS",)}, "cell r5c1 is outside the 4x4 grid"),
    ({"at": ("r0c1=AS",)}, "cell r0c1 is outside the 4x4 grid"),
    ({"at": ("r1c1=AS", "R1C1=KS")}, "fixes cell r1c1 twice (AS and KS)"),
    ({"at": ("r1c1=AS", "r2c2=AS")}, "puts AS in two cells"),
    ({"at": ("r1c1=ZZ",)}, "malformed card 'ZZ'"),
    ({"theme": "colours:red"}, "malformed --theme 'colours:red'"),
    ({"theme": "suits:"}, "malformed --theme 'suits:'"),
    ({"theme": "suits:SX"}, "malformed suit 'X'"),
    ({"theme": "ranks:2-Z"}, "malformed rank 'Z'"),
    ({"theme": "ranks:2-"}, "malformed rank ''"),
    ({"theme": "ranks:9-2"}, "empty rank range '9-2'"),
    ({"theme": "suits:S suits:H"}, "gives suits twice"),
    ({"theme": "suits:SH", "require": "AH AC"}, "card AC is required or fixed but outside"),
    ({"theme": "ranks:2-9", "at": ("r1c1=KS",)}, "card KS is required or fixed but outside"),
    ({"theme": "suits:S"}, "has 13 cards, fewer than the 16 cells"),
    ({"theme": "suits:SH ranks:2-8"}, "has 14 cards, fewer than the 16 cells"),
    ({"require": " ".join(str(c) for c in full_deck()[:17])}, "17 required cards do not fit"),
    ({"require": "AS KS", "at": tuple(f"r{i // 4 + 1}c{i % 4 + 1}={c}"
                                      for i, c in enumerate(full_deck()[4:19]))},
     "2 required cards do not fit the 1 cells left free"),
    ({"max_line_pairs": -1}, "--max-line-pairs -1 is negative"),
    ({"at": ("r1c1=AS", "r1c2=2S", "r2c1=3S"), "max_line_pairs": 1},
     "the fixed cells already make 2 compatible line pairs"),
])
def test_every_contradiction_is_one_clear_bad_input(options, message):
    with pytest.raises(BadInput) as info:
        parse_constraints(4, 4, **options)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_parse_gives_the_constraints():
    found = parse_constraints(4, 4, require="as, kh", at=("r2c3=QS", "r4c4=10d"),
                              theme="suits:SHD ranks:A,9-K", max_line_pairs=12)
    assert found.require == {C("AS"), C("KH")}
    assert found.at == {6: C("QS"), 15: C("TD")}
    assert found.suits == {1, 2, 3} and found.ranks == {1, 9, 10, 11, 12, 13}
    assert len(found.deck) == 18 and found.max_line_pairs == 12
    assert found.to_json(4) == {"require": ["AS", "KH"], "at": {"r2c3": "QS", "r4c4": "TD"},
                                "suits": "DHS", "ranks": "A9TJQK", "max_line_pairs": 12}
    assert parse_constraints(4, 4) == Constraints()


def test_violation_names_each_broken_constraint():
    deal = Deal.parse("AS 2S 3S 4S 5H 6H 7H 8H 9D TD JD QD KC QC JC TC")
    assert Constraints().violation(deal) is None
    assert "r1c2 holds 2S, not the fixed KS" in Constraints(at={1: C("KS")}).violation(deal)
    needs_ah = Constraints(require=frozenset({C("AH")}))
    no_aces = Constraints(ranks=frozenset(range(2, 14)))
    assert "required card AH is missing" in needs_ah.violation(deal)
    assert "card AS is outside the theme" in no_aces.violation(deal)
    pairs = line_pairs(deal.cards, 4, 4)
    assert Constraints(max_line_pairs=pairs).violation(deal) is None
    assert f"{pairs} compatible line pairs" in Constraints(max_line_pairs=pairs - 1).violation(deal)


@st.composite
def constrained(draw):
    """Grid size and constraints that parse, built from option text."""
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    suits = draw(st.sets(st.sampled_from("CDHS"), min_size=1))
    low = draw(st.integers(1, 13))
    high = draw(st.integers(low, 13))
    theme = f"suits:{''.join(suits)} ranks:{'A23456789TJQK'[low - 1]}-{'A23456789TJQK'[high - 1]}"
    deck = [c for c in full_deck() if str(c)[1] in suits and low <= c.rank <= high]
    assume(len(deck) >= rows * cols)
    cards = draw(st.permutations(deck))
    fixed = draw(st.integers(0, min(3, rows * cols)))
    cells = draw(st.permutations(range(rows * cols)))[:fixed]
    at = tuple(f"r{c // cols + 1}c{c % cols + 1}={card}" for c, card in zip(cells, cards))
    require = " ".join(map(str, cards[max(fixed - 1, 0):fixed + draw(st.integers(0, 3))]))
    try:
        return rows, cols, parse_constraints(rows, cols, require, at, theme)
    except BadInput:  # more required cards than free cells
        assume(False)


def kept(constraints: Constraints, cards: list[Card], rows: int, cols: int) -> bool:
    return (constraints.violation(Deal(rows, cols, tuple(cards))) is None
            and len(set(cards)) == len(cards) == rows * cols)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(constrained(), st.integers(0, 2 ** 32))
def test_random_deal_and_neighbour_keep_fixed_required_and_theme(case, seed):
    rows, cols, constraints = case
    rng = random.Random(seed)
    cards = list(random_deal(rows, cols, rng, constraints).cards)
    assert kept(constraints, cards, rows, cols)
    changed = 0
    for _ in range(30):
        before = list(cards)
        neighbour(cards, rng, constraints)
        assert kept(constraints, cards, rows, cols)
        changed += cards != before
    assert changed > 0 or rows * cols - len(constraints.at) < 2


def test_random_deal_is_uniform_over_the_allowed_deals():
    constraints = parse_constraints(1, 2, require="AS", theme="ranks:A")
    counts = {}
    rng = random.Random(5)
    for _ in range(3000):
        deal = str(random_deal(1, 2, rng, constraints))
        counts[deal] = counts.get(deal, 0) + 1
    assert len(counts) == 6 and min(counts.values()) > 400  # AS beside AC, AD or AH, either side


CASES = [(4, 4, {"max_line_pairs": 10}),
         (4, 4, {"theme": "suits:SH", "require": "AH KH AS KS"}),
         (4, 4, {"at": ("r1c1=AS", "r1c4=KH", "r4c1=QD", "r4c4=2C"), "max_line_pairs": 12}),
         (3, 4, {"theme": "ranks:2-9", "require": "5C", "at": ("r2c2=5D",)})]


@pytest.mark.parametrize("rows, cols, options", CASES)
def test_cpsat_deals_meet_the_constraints_and_are_single_stack_solvable(rows, cols, options):
    constraints = parse_constraints(rows, cols, **options)
    for deal in itertools.islice(cpsat.start_deals(rows, cols, 11, constraints), 4):
        assert constraints.violation(deal) is None
        assert solve(deal, max_score=False).details["single_stack"] is True


def test_same_seed_same_deals():
    constraints = parse_constraints(4, 4, **CASES[2][2])
    take = lambda seed: [str(d) for d in itertools.islice(cpsat.start_deals(4, 4, seed,
                                                                            constraints), 3)]
    assert take(1) == take(1) != take(2)


def test_cpsat_gives_up_with_bad_input_when_nothing_fits():
    constraints = parse_constraints(2, 2, max_line_pairs=0)  # no first move: no single stack
    with pytest.raises(BadInput, match="CP-SAT found no deal"):
        next(cpsat.start_deals(2, 2, 0, constraints))


def test_constraint_options_feed_parse_constraints():
    @click.command()
    @constraint_options
    def show(require, at, theme, max_line_pairs):
        found = parse_constraints(4, 4, require, at, theme, max_line_pairs)
        click.echo(f"{sorted(map(str, found.require))} {found.at} {found.max_line_pairs}")

    result = CliRunner().invoke(show, ["--require", "AS KS", "--at", "r1c2=QH", "--at",
                                       "r4c4=2C", "--max-line-pairs", "9"])
    assert result.output.strip() == "['AS', 'KS'] {1: Card(QH), 15: Card(2C)} 9"
    help_text = CliRunner().invoke(show, ["--help"]).output
    assert all(name in help_text for name in ("--require", "--at", "--theme", "--max-line-pairs"))
