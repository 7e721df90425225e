"""The shared card model: parsing, printing, decks, the FreeCell shuffle, clear errors."""
import pytest
from hypothesis import given, strategies as st

from solvers.cards import Card, format_cards, freecell_deal, full_deck, parse_cards
from solvers.errors import BadInput

cards = st.builds(Card, st.integers(1, 13), st.integers(0, 3))


@pytest.mark.parametrize("text,expected", [("TS", Card(10, 3)), ("10S", Card(10, 3)),
                                           ("ts", Card(10, 3)), ("ac", Card(1, 0)),
                                           (" KH ", Card(13, 2)), ("9d", Card(9, 1))])
def test_parse(text, expected):
    assert Card.parse(text) == expected


@given(cards)
def test_round_trip(card):
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card
    assert Card.from_index(card.index) == card


@pytest.mark.parametrize("bad", ["", "S", "1S", "11S", "XS", "TX", "T", "10", "AAS", "0C"])
def test_malformed_card_is_one_clear_error(bad):
    with pytest.raises(BadInput, match="malformed card"):
        Card.parse(bad)


def test_parse_cards_counts_and_duplicates():
    assert format_cards(parse_cards("ah, 2c 10d")) == "AH 2C TD"
    with pytest.raises(BadInput, match="duplicate card AH"):
        parse_cards("AH 2C ah")
    with pytest.raises(BadInput, match="has 2 cards, expected 3"):
        parse_cards("AH 2C", count=3)
    with pytest.raises(BadInput, match="has 1 card, expected 3"):
        parse_cards("AH", count=3)


def test_full_deck_is_rank_major():
    deck = full_deck()
    assert len(deck) == 52 and len(set(deck)) == 52
    assert format_cards(deck[:5]) == "AC AD AH AS 2C"
    assert [c.index for c in deck] == list(range(52))
    assert len(full_deck(5)) == 20


def test_freecell_deal_is_a_permutation_and_matches_known_deal():
    # Deal #1 of Microsoft FreeCell begins JD 2D 9H JC 5D 7H 7C 5H (a widely published layout).
    deal = freecell_deal(1)
    assert sorted(deal) == sorted(full_deck())
    assert format_cards(deal[:8]) == "JD 2D 9H JC 5D 7H 7C 5H"
    # The example deal of the StacksSquared rules is seed 367297990.
    assert format_cards(freecell_deal(367297990)[:16]) == \
        "5S JC QH 8H KC 6H 3H 9H 3S JS TH TS KS 7D AH 5C"
