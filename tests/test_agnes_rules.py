"""Agnes rules: rule names, deals and deck files (as quagnes builds them), board and moves."""
import random

import pytest
import quagnes
from hypothesis import given, settings, strategies as st

from solvers.agnes import Board, Move, deal_from_seed, parse_deal, parse_rules, replay
from solvers.agnes.rules import EMPTY_RULES, QUAGNES_SUIT_TO_OURS, Rules, deals_from_seed, format_deck
from solvers.cards import Card, full_deck
from solvers.errors import BadInput

rules_st = st.builds(Rules, st.booleans(), st.booleans(), st.sampled_from(EMPTY_RULES), st.booleans())


@given(rules_st, st.randoms())
def test_rule_names_round_trip_any_case(rules, rnd):
    name = "".join(ch.upper() if rnd.random() < 0.5 else ch.lower() for ch in rules.name)
    assert parse_rules(name) == rules


@pytest.mark.parametrize("bad", ["", "Up-Suit", "Up-Suit-Any", "Sideways-Suit-None",
                                 "Up-Suit-None-Split", "Up-Colour-None"])
def test_bad_rule_names(bad):
    with pytest.raises(BadInput, match="unknown rules"):
        parse_rules(bad)


@pytest.mark.parametrize("seed,index", [(0, 0), (12345, 3), (7, 10)])
def test_seeded_deals_are_quagnes_decks(seed, index):
    random.seed(seed)
    for _ in range(index + 1):
        game = quagnes.Agnes()
    ours = [Card(c.rank + 1, QUAGNES_SUIT_TO_OURS[c.suit]) for c in game._initial_deck]
    assert list(deal_from_seed(seed, index).cards) == ours
    assert list(deals_from_seed(seed, index, 2))[0] == deal_from_seed(seed, index)


@pytest.mark.parametrize("face_up", [True, False])
def test_layout_matches_quagnes(face_up):
    random.seed(99)
    game = quagnes.Agnes(face_up=face_up, max_states=1)
    game.play()   # stops at once: the state is the initial layout
    deal = deal_from_seed(99, 0)
    board = Board.start(deal, Rules(face_up=face_up))
    state = game._curr_state
    for pile, theirs in zip(board.piles, state.piles):
        cards = [(deal.rel(c), c.suit) for c in pile]
        assert cards == [(c.rank, QUAGNES_SUIT_TO_OURS[c.suit]) for c in theirs.hidden + theirs.exposed]
    assert board.hidden == [len(p.hidden) for p in state.piles]
    assert board.foundation == [state.foundation[QUAGNES_SUIT_TO_OURS.index(s)] for s in range(4)]
    assert board.stock == state.n_stock_left == 23


@given(st.integers(0, 2**32), st.integers(0, 20))
@settings(max_examples=30, deadline=None)
def test_deck_formats_round_trip(seed, index):
    deal = deal_from_seed(seed, index)
    assert parse_deal(format_deck(deal)) == deal
    assert parse_deal(format_deck(deal, quagnes=True)) == deal


def test_quagnes_reads_our_deck_file(tmp_path):
    deal = deal_from_seed(3, 2)
    path = tmp_path / "deck.txt"
    path.write_text(format_deck(deal, quagnes=True))
    random.seed(3)
    for _ in range(3):
        game = quagnes.Agnes()
    assert quagnes.Agnes(deck_filename=str(path))._initial_deck == game._initial_deck


@pytest.mark.parametrize("text,message", [
    ("AC " * 52, "duplicate card"),
    (" ".join(str(c) for c in full_deck()[:51]), "51 cards, expected 52"),
    (" ".join(str(c) for c in full_deck()[:51]) + " XX", "malformed card"),
    ("(0, 0)\n(1, 9)\n", "malformed deck line 2"),
    ("(0, 0)\n0, 1\n", "malformed deck line 2"),
    ("".join(f"({r}, {s})\n" for r in range(13) for s in range(4) if (r, s) != (5, 2)),
     "51 cards"),
    ("(0, 0)\n" * 52, "duplicate card"),
])
def test_bad_decks(text, message):
    with pytest.raises(BadInput, match=message):
        parse_deal(text)


def _random_playout(deal, rules, rnd, steps):
    board = Board.start(deal, rules)
    moves = []
    for _ in range(steps):
        legal = board.legal_moves()
        if not legal:
            break
        move = rnd.choice(legal)
        board.apply(move)
        moves.append(move)
    return board, moves


@given(rules_st, st.integers(0, 1000), st.randoms(use_true_random=False))
@settings(max_examples=25, deadline=None)
def test_random_play_keeps_every_card_once(rules, index, rnd):
    deal = deal_from_seed(1, index)
    board, moves = _random_playout(deal, rules, rnd, 60)
    on_foundations = sum(f + 1 for f in board.foundation)
    in_tableau = [c for pile in board.piles for c in pile]
    assert on_foundations + len(in_tableau) + board.stock == 52
    assert len(set(in_tableau)) == len(in_tableau)
    for pile, hidden in zip(board.piles, board.hidden):
        assert hidden < len(pile) or (hidden == 0 and not pile)
    assert replay(deal, rules, moves).piles == board.piles


@given(rules_st, st.integers(0, 1000), st.randoms(use_true_random=False))
@settings(max_examples=20, deadline=None)
def test_moves_obey_the_rules(rules, index, rnd):
    board, _ = _random_playout(deal_from_seed(2, index), rules, rnd, 40)
    for move in board.legal_moves():
        if move.kind != "tableau":
            continue
        src, dst = board.piles[move.src - 1], board.piles[move.dst - 1]
        run = src[-move.count:]
        assert len(src) - move.count >= board.hidden[move.src - 1]
        for upper, lower in zip(run, run[1:]):
            assert board.rel(upper) == board.rel(lower) + 1
            assert upper.suit == lower.suit if rules.same_suit else upper.is_red == lower.is_red
        if dst:
            assert board.rel(dst[-1]) == board.rel(run[0]) + 1 and dst[-1].is_red == run[0].is_red
        else:
            assert rules.empty != "None"
            assert rules.empty in ("Any1", "AnyRun") or board.rel(run[0]) == 12
            assert rules.empty not in ("Any1", "High1") or move.count == 1


def test_replay_names_the_first_illegal_move():
    deal = deal_from_seed(0, 0)
    with pytest.raises(BadInput, match="move 2 .* is illegal"):
        replay(deal, Rules(), [Move("deal"), Move("tableau", 1, 2, 5, deal.cards[1])])
