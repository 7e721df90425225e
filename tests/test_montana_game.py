"""Montana through the game contract: names, round trips, replay, solve, limits and figures."""
import math
import random
from functools import lru_cache

import numpy as np
import pytest

from solvers.cards import Card
from solvers.errors import BadInput, LimitReached
from solvers.game import get
from solvers.montana import api, game
from solvers.montana.game import Variant
from solvers.montana.rules import (REDEAL, Move, Rules, check_layout, legal_moves, locked_count,
                                   locked_lengths, parse_move)
from solvers.result import Limits, Status
from solvers.stats import wilson_interval

GAME = get("montana")
EIGHT = GAME.parse_rules("8")
SIX = GAME.parse_rules("6")


def test_rule_names_round_trip_and_bad_names_are_refused():
    for name in GAME.variants():
        assert GAME.format_rules(GAME.parse_rules(name)) == name
    assert GAME.parse_rules("13-movable-twos-redeals2") == Variant(Rules(13, movable_twos=True), 2)
    assert GAME.parse_rules("8-redeals1-random-gaps") == Variant(Rules(8, random_gaps=True), 1)
    for bad in ("", "8-random-gaps", "8-redeals0", "8-redeals02", "2", "14", "8-twos", "eight"):
        with pytest.raises(BadInput):
            GAME.parse_rules(bad)


def test_deals_and_moves_round_trip():
    for seed in range(5):
        deal = GAME.deal_from_seed(seed, EIGHT)
        assert GAME.parse_deal(GAME.format_deal(deal), EIGHT) == deal
        for move in legal_moves(deal, EIGHT.rules):
            assert GAME.parse_move(GAME.format_move(move)) == move
    assert GAME.format_move(Move(Card(10, 2), (3, 7))) == "TH->r4c8"   # counted from 1
    assert GAME.parse_move("10h -> R4C8") == GAME.parse_move("10h -> 3,7") == \
        Move(Card(10, 2), (3, 7))                                       # earlier packs: from 0
    assert GAME.parse_move(GAME.format_move(REDEAL)) == REDEAL
    for bad in ("4H", "4H->1", "4X->1,2", "redeal now", "->1,2", "4H->r0c1", "4H->r1c0",
                "4H->r1", "4H->1,2,3", "4H->r9999c1"):
        with pytest.raises(BadInput):
            parse_move(bad)


@lru_cache(maxsize=None)
def won_seeds(rules_name, count):
    rules = GAME.parse_rules(rules_name)
    seeds = []
    seed = 0
    while len(seeds) < count:
        seed += 1
        if GAME.figures(GAME.deal_from_seed(seed, rules), rules).won:
            seeds.append(seed)
    return tuple(seeds)


def test_replay_wins_with_the_solution_and_names_the_first_illegal_move():
    seed = won_seeds("8", 1)[0]
    deal = GAME.deal_from_seed(seed, EIGHT)
    line = GAME.figures(deal, EIGHT).solution
    assert GAME.replay(deal, EIGHT, line).won
    assert GAME.replay_text(deal, EIGHT, [GAME.format_move(m) for m in line]).value == 28
    stuck = GAME.replay(deal, EIGHT, line[:3])
    assert not stuck.won and stuck.value == locked_count(
        api.replay(deal, line[:3], EIGHT.rules), 8)
    bad = line[:5] + [line[4]] + line[5:]
    with pytest.raises(BadInput, match="move 6 of the line"):
        GAME.replay(deal, EIGHT, bad)
    with pytest.raises(BadInput, match=r"move 1 \(redeal\)"):
        GAME.replay(deal, EIGHT, [REDEAL])


def test_solve_agrees_with_the_round_solver_and_the_figures():
    for seed in range(1, 9):
        deal = GAME.deal_from_seed(seed, EIGHT)
        result = GAME.solve(deal, EIGHT, Limits())
        assert result.status is api.solve_round(deal, rules=EIGHT.rules).status
        assert (result.status is Status.SOLVED) == GAME.figures(deal, EIGHT).won
        assert GAME.replay(deal, EIGHT, result.moves).won == result.solved


def test_solve_with_reshuffles_crosses_rounds_and_replays():
    rules = GAME.parse_rules("6-redeals2")
    rounds = set()
    for seed in range(1, 13):
        deal = GAME.deal_from_seed(seed, rules)
        result = GAME.solve(deal, rules, Limits())
        assert result.status is not Status.LIMIT
        assert result.moves.count(REDEAL) == result.details["rounds"] - 1
        assert GAME.replay(deal, rules, result.moves).won == result.solved
        rounds.add(result.details["rounds"])
    assert rounds - {1}, "some deal needed a reshuffle"


def test_limits_give_limit():
    deal = GAME.deal_from_seed(won_seeds("8", 1)[0], EIGHT)
    for limits in (Limits(nodes=3), Limits(seconds=0.0)):
        assert GAME.solve(deal, EIGHT, limits).status is Status.LIMIT
    movable = GAME.parse_rules("8-movable-twos")
    for rules in (EIGHT, movable):
        assert GAME.solve(deal, rules, Limits(states=3), forget=False).status is Status.LIMIT


def test_a_full_table_forgets_and_still_answers_exactly():
    deal = GAME.deal_from_seed(won_seeds("8", 1)[0], EIGHT)
    whole = GAME.solve(deal, EIGHT, Limits())
    small = GAME.solve(deal, EIGHT, Limits(states=3))
    assert small.status is whole.status is Status.SOLVED
    assert small.value == whole.value and GAME.replay(deal, EIGHT, small.moves).won


def test_a_numbered_deal_reshuffles_with_its_number_and_its_line_says_so():
    rules = GAME.parse_rules("6-redeals2")
    for seed in range(40):
        deal = GAME.deal_from_seed(seed, rules)
        result = GAME.solve_numbered(seed, deal, rules, Limits())
        redeals = [m for m in result.moves if str(m).startswith("redeal")]
        assert all(str(m) == ("redeal" if seed == 0 else f"redeal/{seed}") for m in redeals)
        assert GAME.replay(deal, rules, result.moves).won == result.solved
        text = [GAME.format_move(m) for m in result.moves]
        assert GAME.replay_text(deal, rules, text).value == result.value
    with pytest.raises(BadInput, match="one game"):
        GAME.replay_text(deal, rules, ["redeal/1", "redeal/2"])


def test_figures_are_symmetric_deterministic_and_match_hardness():
    rng = random.Random(5)
    for seed in (4, 7, 8, 1):  # won with 28,000 layouts or fewer, and a lost deal
        deal = GAME.deal_from_seed(seed, EIGHT)
        fig = GAME.figures(deal, EIGHT)
        assert GAME.figures(deal, EIGHT).metrics == fig.metrics
        assert GAME.hardness(deal, EIGHT) == fig.metrics["hardness"]
        assert GAME.hardness(deal, EIGHT, quick=True) == fig.metrics["hardness"]
        for _ in range(3):
            copy = GAME.symmetric_copy(deal, EIGHT, rng)
            assert GAME.canonical(copy, EIGHT) == GAME.canonical(deal, EIGHT)
            other = GAME.figures(copy, EIGHT)
            assert other.metrics == fig.metrics
            assert GAME.replay(copy, EIGHT, other.solution).won == fig.won
        if fig.won:
            assert 0 < fig.metrics["random_win"] <= 1 and fig.metrics["hardness"] >= 0
            assert 1 <= fig.metrics["winning_first_moves"] <= fig.metrics["first_moves"]
        else:
            assert fig.metrics["hardness"] is None and fig.metrics["careful_win"] == 0


def test_with_reshuffles_only_suits_are_symmetries():
    rules = GAME.parse_rules("8-redeals2")
    deal = GAME.deal_from_seed(3, rules)
    rng = random.Random(1)
    for _ in range(10):
        copy = GAME.symmetric_copy(deal, rules, rng)
        assert [c is None for c in copy] == [c is None for c in deal]
        assert GAME.canonical(copy, rules) == GAME.canonical(deal, rules)
    with pytest.raises(BadInput, match="one round"):
        GAME.figures(deal, rules)


def test_neighbour_swaps_two_cells_of_a_valid_layout():
    rng = random.Random(2)
    deal = GAME.deal_from_seed(1, EIGHT)
    for _ in range(50):
        near = GAME.neighbour(deal, EIGHT, rng)
        check_layout(near, EIGHT.rules)
        changed = [i for i in range(32) if near[i] != deal[i]]
        assert len(changed) == 2 and near[changed[0]] == deal[changed[1]]


def chances(cells, n, weights):
    """A second reading: the player's exact chance by plain recursion over layouts."""
    memo = {}
    rules = Rules(n)

    def cls(layout, move):
        """0 if the move leaves a gap right of a King that is not home, else 1."""
        src = layout.index(move.card)
        left = layout[src - 1] if src % n else None
        home = src % n == n - 1 and locked_lengths(layout, n)[src // n] == n - 1
        return 0 if left is not None and left.rank == n and not home else 1

    def value(layout):
        if layout not in memo:
            if locked_count(layout, n) == 4 * (n - 1):
                memo[layout] = 1.0
            else:
                moves = legal_moves(layout, rules)
                w = [weights[cls(layout, m)] for m in moves]
                memo[layout] = sum(wi * value(api.replay(layout, [m], rules))
                                   for wi, m in zip(w, moves)) / sum(w) if moves else 0.0
        return memo[layout]

    return value(tuple(cells))


def test_player_chances_match_a_plain_recursion():
    rules = GAME.parse_rules("4")
    seen = 0
    for seed in range(1, 60):
        deal = GAME.deal_from_seed(seed, rules)
        fig = GAME.figures(deal, rules)
        if fig.metrics["layouts"] > 700:  # the plain recursion is slow
            continue
        canon = GAME.canonical(deal, rules)
        careful = chances(canon, 4, (0.1, 1.0))
        assert fig.metrics["careful_win"] == pytest.approx(careful, rel=1e-12, abs=1e-300)
        assert fig.metrics["random_win"] == pytest.approx(chances(canon, 4, (1, 1)), rel=1e-12)
        assert fig.won == (careful > 0)
        seen += fig.won and 0 < careful < 1 and careful != fig.metrics["random_win"]
    assert seen >= 10


def test_the_bound_cuts_layouts_and_not_a_bit_of_the_chances():
    """The analysis with the reach bound stores fewer layouts and gives the same chances, to
    the last bit, as the one that expands every layout."""
    from solvers.montana import players
    n = 8
    word, mul, words, shift = api._packing(n)
    cap = 2_000_000  # the largest 8-rank deal stores 1.5M layouts
    fewer = 0
    for seed in range(1, 41):
        board = api._encode(GAME.deal_from_seed(seed, EIGHT), n)
        seen = []
        for prune in (False, True):
            out = np.zeros(2)
            status, first, winning, states, _ = players.evaluate(
                board, n, word, mul, *players._table(cap, words, shift, 2), cap, prune,
                game._WEIGHTS, *players._scratch(2), out)
            assert status == players.DONE
            seen.append((list(out), first, winning, states))
        (full, *counts, states), (cut, *cut_counts, cut_states) = seen
        assert full == cut and counts == cut_counts and cut_states <= states
        fewer += cut_states < states
    assert fewer >= 30


def test_explain_names_both_players():
    seed = won_seeds("8", 1)[0]
    metrics = GAME.figures(GAME.deal_from_seed(seed, EIGHT), EIGHT).metrics
    text = GAME.explain("hard", 93.4, metrics, EIGHT)
    assert text.startswith("hard: a careful player") and "93%" in text and "at random" in text
    assert "1 game in" in text or "% of games" in text or "every game" in text


def test_a_deal_beyond_the_analysis_is_played_and_its_estimate_holds_the_exact_chance(
        monkeypatch):
    """Past ``ANALYSIS_STATES`` layouts the figures are estimated from games played from the
    deal: the exact chances lie in their intervals (within 4 standard errors for the random
    player's), the hardness interval holds the exact hardness, the line is a game won, the
    words say they were measured, a symmetric copy gets the same figures and a repeat other
    games."""
    exact = {seed: GAME.figures(GAME.deal_from_seed(seed, EIGHT), EIGHT) for seed in (4, 9)}
    monkeypatch.setattr(game, "ANALYSIS_STATES", 1000)
    for seed, figures in exact.items():
        deal = GAME.deal_from_seed(seed, EIGHT)
        played = GAME.figures(deal, EIGHT)
        m, e = played.metrics, figures.metrics
        assert played.won and m["games"] == game.PLAYOUTS and "layouts" not in m
        low, high = m["hardness_interval"]
        assert low < e["hardness"] < high and low < m["hardness"] < high
        spread = (e["random_win"] * (1 - e["random_win"]) / game.PLAYOUTS) ** 0.5
        assert abs(m["random_win"] - e["random_win"]) < 4 * spread
        assert GAME.replay(deal, EIGHT, played.solution).won
        assert "measured over 100,000 games" in GAME.explain("easy", 10.0, m, EIGHT)
    copy = GAME.symmetric_copy(deal, EIGHT, random.Random(seed))
    assert GAME.figures(copy, EIGHT).metrics == m
    again = GAME.hardness(deal, EIGHT, repeat=1)
    assert again != m["hardness"] and low - 0.1 < again < high + 0.1  # other games


def test_an_analysis_at_its_limit_raises_when_the_games_never_win(monkeypatch):
    monkeypatch.setattr(game, "ANALYSIS_STATES", 10)
    with pytest.raises(LimitReached, match="10 layouts, and the careful player won none"):
        GAME.figures(GAME.deal_from_seed(7, EIGHT), EIGHT)  # careful chance 2e-7


def test_rules_that_cannot_be_graded_are_refused_before_any_work():
    from click.testing import CliRunner

    from puzzlegen.cli import cli
    for rules, reason in (("13-redeals2", "a reshuffle is chance, not a puzzle"),
                          ("8-movable-twos", "grading serves one round with fixed Twos")):
        result = CliRunner().invoke(cli, ["montana", "grade", "--rules", rules, "--seed", "1"])
        assert result.exit_code == 2 and reason in result.output
        assert len(result.output.splitlines()) == 1


def test_the_explanation_names_the_highest_card_of_the_rules():
    """An 8-rank deal has no King: the careful player shuns gaps behind an Eight."""
    rules = GAME.parse_rules("8")
    text = GAME.explain("easy", 40.0, {"careful_win": 0.1, "random_win": 0.05}, rules)
    assert "behind an Eight (the highest card)" in text and "King" not in text
    big = GAME.explain("easy", 40.0, {"careful_win": 0.1, "random_win": 0.05},
                       GAME.parse_rules("13"))
    assert "behind a King (the highest card)" in big


def test_the_quick_look_caps_the_analysis_and_an_exact_one_is_not_computed_again(monkeypatch):
    """``hardness(quick=True)`` analyses at most ``QUICK_STATES`` layouts: within them it is the
    exact figure, and the full look that follows takes it without a second analysis (unless
    its own cap is below the layouts analysed); past them the careful player alone plays
    ``QUICK_PLAYOUTS`` games (the same games as beside the random player), and a deal never won
    in them gets the least hardness their interval allows."""
    deal, hopeless = GAME.deal_from_seed(9, EIGHT), GAME.deal_from_seed(7, EIGHT)
    exact = GAME.figures(deal, EIGHT).metrics
    hard = GAME.figures(hopeless, EIGHT).metrics["hardness"]  # careful chance 2e-7
    analyses = []
    figures = type(GAME)._figures

    def counted(self, *args):
        analyses.append(args[4:])
        return figures(self, *args)

    monkeypatch.setattr(type(GAME), "_figures", counted)
    monkeypatch.setattr(game, "QUICK_STATES", exact["layouts"])   # just enough
    game._last_exact.clear()
    assert GAME.hardness(deal, EIGHT, quick=True) == exact["hardness"]
    assert GAME.hardness(deal, EIGHT) == exact["hardness"] and len(analyses) == 1
    monkeypatch.setattr(game, "ANALYSIS_STATES", exact["layouts"] - 1)
    played = GAME.hardness(deal, EIGHT)
    assert len(analyses) == 2 and played != exact["hardness"]   # played: another figure
    monkeypatch.setattr(game, "QUICK_STATES", 1000)
    game._last_exact.clear()
    quick = GAME.hardness(deal, EIGHT, quick=True)
    assert analyses[-1][:2] == (1000, game.QUICK_PLAYOUTS) and len(analyses[-1][2]) == 1
    both = GAME._figures(deal, EIGHT, False, 0, 1000, game.QUICK_PLAYOUTS, game._WEIGHTS).metrics
    low, high = both["hardness_interval"]
    assert quick == both["hardness"] != exact["hardness"] and "random_win" in both
    assert low < exact["hardness"] < high
    monkeypatch.setattr(game, "QUICK_STATES", 10)
    least = -math.log10(wilson_interval(0, game.QUICK_PLAYOUTS)[1])
    assert GAME.hardness(hopeless, EIGHT, quick=True) == least < hard


def test_a_deal_that_outgrew_the_analysis_is_played_without_analysing_it_again(monkeypatch):
    """Once a deal's analysis stops at its cap, a look with that cap or a lower one (the
    grade's confirming repeats) plays the deal at once: one analysis, the same figures as a
    fresh process's; a higher cap analyses again."""
    from solvers.montana import players
    deal = GAME.deal_from_seed(9, EIGHT)
    evaluate, analyses = players.evaluate, []
    monkeypatch.setattr(players, "evaluate", lambda *args: analyses.append(1) or evaluate(*args))
    monkeypatch.setattr(game, "ANALYSIS_STATES", 2000)
    monkeypatch.setattr(game, "QUICK_STATES", 1000)
    game._outgrown.clear()
    game._last_exact.clear()
    first = GAME.figures(deal, EIGHT)
    assert "games" in first.metrics and len(analyses) == 1
    again, quick = GAME.figures(deal, EIGHT), GAME.hardness(deal, EIGHT, quick=True)
    repeat = GAME.hardness(deal, EIGHT, repeat=1)
    assert again == first and len(analyses) == 1 and repeat != first.metrics["hardness"]
    game._outgrown.clear()
    assert GAME.hardness(deal, EIGHT, quick=True) == quick and len(analyses) == 2
    assert GAME.hardness(deal, EIGHT, repeat=1) == repeat and len(analyses) == 3
    monkeypatch.setattr(game, "ANALYSIS_STATES", 4000)
    GAME.figures(deal, EIGHT)
    assert len(analyses) == 4
