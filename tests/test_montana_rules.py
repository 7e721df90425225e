"""Montana rules: deals, parsing, legal moves against a second reading of the rules, redeals."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from solvers.cards import Card, full_deck
from solvers.errors import BadInput
from solvers.montana.rules import (Move, Rules, apply_move, deal_from_seed, format_deal,
                                   legal_moves, locked_count, locked_lengths, parse_deal, redeal,
                                   replay)


@st.composite
def deals(draw, ranks=st.integers(3, 8)):
    """(rules ranks, layout) of a shuffled deck, aces as gaps."""
    n = draw(ranks)
    deck = draw(st.permutations(full_deck(n)))
    return n, tuple(None if c.rank == 1 else c for c in deck)


def successors(cells, n, movable_twos):
    """A second, independent reading of the move rule: the layouts one move away."""
    out = set()
    for gap in (i for i, c in enumerate(cells) if c is None):
        if gap % n == 0:
            wanted = [Card(2, s) for s in range(4)
                      if movable_twos or cells.index(Card(2, s)) % n != 0]
        else:
            left = cells[gap - 1]
            wanted = [] if left is None or left.rank == n else [Card(left.rank + 1, left.suit)]
        for card in wanted:
            after = list(cells)
            after[cells.index(card)], after[gap] = None, card
            out.add(tuple(after))
    return out


@settings(max_examples=80, deadline=None)
@given(deals(), st.booleans())
def test_legal_moves_match_a_second_reading(deal, movable_twos):
    n, cells = deal
    rules = Rules(n, movable_twos=movable_twos)
    after = [apply_move(cells, m, rules) for m in legal_moves(cells, rules)]
    assert len(after) == len(set(after))
    assert set(after) == successors(cells, n, movable_twos)


@settings(max_examples=60, deadline=None)
@given(deals(), st.randoms(use_true_random=False))
def test_locked_cards_never_decrease_without_movable_twos(deal, rnd):
    n, cells = deal
    rules = Rules(n)
    for _ in range(30):
        moves = legal_moves(cells, rules)
        if not moves:
            break
        after = apply_move(cells, rnd.choice(moves), rules)
        assert locked_count(after, n) >= locked_count(cells, n)
        cells = after


@settings(max_examples=60, deadline=None)
@given(deals(), st.integers(0, 2 ** 32), st.booleans())
def test_redeal_keeps_locked_cards_and_places_gaps(deal, seed, random_gaps):
    n, cells = deal
    rules = Rules(n, random_gaps=random_gaps)
    lengths = locked_lengths(cells, n)
    out = redeal(cells, rules, random.Random(seed))
    assert out == redeal(cells, rules, random.Random(seed))
    assert sorted(c for c in out if c is not None) == sorted(c for c in cells if c is not None)
    assert out.count(None) == 4
    for r in range(4):
        assert out[r * n:r * n + lengths[r]] == cells[r * n:r * n + lengths[r]]
        if not random_gaps:
            assert out[r * n + lengths[r]] is None
    assert locked_count(out, n) >= locked_count(cells, n)


@given(deals())
def test_format_parses_back(deal):
    n, cells = deal
    assert parse_deal(format_deal(cells), n) == cells


def test_seeded_deals_are_reproducible():
    assert deal_from_seed(7) == deal_from_seed(7) != deal_from_seed(8)
    assert len(deal_from_seed(7, 5)) == 20 and deal_from_seed(7, 5).count(None) == 4


@pytest.mark.parametrize("text,ranks,message", [
    ("AC 2C", 3, "has 2 cards, expected 12"),
    ("AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 3H", 3, "duplicate card 3H"),
    ("AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 4S", 3, "card 4S is not in a deck of ranks A..3"),
    ("AC AD AH AS 2C 2D 2H 2S 3C 3D 3H XS", 3, "malformed card 'XS'"),
    ("AC", 14, "ranks must be between 3 and 13"),
])
def test_bad_deals_are_one_clear_error(text, ranks, message):
    with pytest.raises(BadInput, match=message):
        parse_deal(text, ranks)


def test_replay_names_the_first_illegal_move():
    rules = Rules(3)
    cells = parse_deal("3C AD 2C AC 3D 2D AH 3H 2H AS 3S 2S", 3)
    assert locked_count(replay(cells, [Move(Card(2, 0), (1, 0))], rules), 3) == 1
    with pytest.raises(BadInput, match=r"move 3D->r1c2: the card left of the gap is 3C"):
        replay(cells, [Move(Card(3, 1), (0, 1))], rules)
    with pytest.raises(BadInput, match="already in the first column"):
        replay(parse_deal("2C 3C AC AD 2D 3D 2H AH 3H AS 2S 3S", 3), [Move(Card(2, 0), (1, 0))],
               rules)
    with pytest.raises(BadInput, match="not a gap"):
        replay(cells, [Move(Card(2, 1), (0, 0))], rules)
