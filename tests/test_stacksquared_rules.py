"""StacksSquared rules: deals, moves, replay, the seed's example and its published solution."""
import pytest
from hypothesis import given, strategies as st

from solvers.cards import Card
from solvers.errors import BadInput
from solvers.stacksquared import Deal, Move, Position, compatible, replay

EXAMPLE = "5S JC QH 8H KC 6H 3H 9H 3S JS TH TS KS 7D AH 5C"
PUBLISHED = ("9H-TS 8H-9H TH-AH 3H-TH QH-3H 6H-7D JC-JS 3S-KS 5S-3S 5C-5S KC-5C QH-KC QH-6H "
             "QH-JC QH-8H").split()


def test_seed_gives_the_example_deal():
    assert str(Deal.from_seed(367297990)) == EXAMPLE
    assert Deal.parse(EXAMPLE) == Deal.from_seed(367297990)


def test_published_solution_is_a_single_stack():
    final = replay(Deal.parse(EXAMPLE), PUBLISHED)
    assert final.stacks() == 1 and final.score() == 256
    assert final.tops[11] == Card.parse("QH")  # 8H had moved onto 9H, which sat on TS


def test_the_rules_examples_step_by_step():
    pos = Position.start(Deal.parse(EXAMPLE))
    pos = pos.play(Move.parse("9H-TS"))
    assert pos.tops[11] == Card.parse("9H") and pos.sizes[11] == 2 and pos.tops[7] is None
    pos = pos.play(Move.parse("8H-9H"))
    assert pos.sizes[11] == 3 and pos.score() == 9 + 13


@pytest.mark.parametrize("move,reason", [
    ("5S-QH", r"move 1 \(5S-QH\) is illegal: 5S and QH differ in suit"),
    ("5S-TS", "share no row or column"),
    ("2C-3C", "2C is not the top of a stack"),
    ("9H-9H", "cannot move onto itself"),
    ("9H", "malformed move"),
])
def test_replay_names_the_first_illegal_move(move, reason):
    with pytest.raises(BadInput, match=reason):
        replay(Deal.parse(EXAMPLE), [move])


def test_replay_names_a_later_move_by_number():
    with pytest.raises(BadInput, match=r"move 2 \(9H-TS\) is illegal: 9H is not the top"):
        replay(Deal.parse(EXAMPLE), ["8H-9H", "9H-TS"])


@pytest.mark.parametrize("text,rows,cols,message", [
    (EXAMPLE, 4, 3, "has 16 cards, expected 12"),
    (EXAMPLE.replace("5C", "5S"), 4, 4, "duplicate card 5S"),
    (EXAMPLE.replace("5C", "5X"), 4, 4, "malformed card '5X'"),
    ("AS", 8, 7, "impossible grid 8x7"),
    ("AS", 0, 3, "impossible grid 0x3"),
])
def test_bad_deals(text, rows, cols, message):
    with pytest.raises(BadInput, match=message):
        Deal.parse(text, rows, cols)


ranks, suits = st.integers(1, 13), st.integers(0, 3)


@given(ranks, suits, ranks, suits)
def test_compatibility_is_symmetric_and_matches_the_rule(r1, s1, r2, s2):
    a, b = Card(r1, s1), Card(r2, s2)
    assert compatible(a, b) == compatible(b, a)
    assert compatible(a, b) == (s1 == s2 or abs(r1 - r2) <= 1)
    if {r1, r2} == {1, 13} and s1 != s2:
        assert not compatible(a, b)  # Ace and King are not adjacent


@given(st.integers(0, 2**31 - 1), st.integers(1, 6), st.integers(1, 8))
def test_seeded_deals_are_distinct_cards(seed, rows, cols):
    deal = Deal.from_seed(seed, rows, cols)
    assert len(set(deal.cards)) == rows * cols == deal.size
    assert Deal.parse(str(deal), rows, cols) == deal


@given(st.integers(0, 10**6), st.data())
def test_playing_legal_moves_keeps_cards_and_grows_score(seed, data):
    deal = Deal.from_seed(seed, 3, 4)
    pos = Position.start(deal)
    played = []
    while True:
        moves = list(pos.legal_moves())
        if not moves:
            break
        move = data.draw(st.sampled_from(moves))
        before = pos.score()
        pos = pos.play(move)
        played.append(move)
        assert pos.score() > before
        assert sum(pos.sizes) == 12
    assert replay(deal, played) == pos
