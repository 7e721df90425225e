"""The Agnes game object against the contract: text round trips, replay, solve and limits,
symmetries, figures and hardness."""
import json
import random
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from puzzlegen.cli import cli
from solvers.agnes import api
from solvers.agnes import rules as R
from solvers.errors import BadInput
from solvers.game import Designable, Replayed, get
from solvers.result import Limits, Status

G = get("agnes")
ANYRUN = G.parse_rules(G.default_rules)
NONE = G.parse_rules("Up-Suit-None")


def test_registered_and_designable():
    assert isinstance(G, Designable) and G.name == "agnes"
    assert G.check_figure == "hasty_log10"


def test_every_variant_round_trips():
    names = G.variants()
    assert len(names) == len(set(names)) == 40
    for name in names:
        assert G.format_rules(G.parse_rules(name.lower())) == name
    with pytest.raises(BadInput, match="unknown rules"):
        G.parse_rules("Up-Suit-Some")


def test_deal_round_trips_and_seed_is_index_0():
    deal = G.deal_from_seed(3, ANYRUN)
    assert deal == R.deal_from_seed(3, 0) != G.deal_from_seed(4, ANYRUN)
    assert G.parse_deal(G.format_deal(deal), ANYRUN) == deal
    with pytest.raises(BadInput):
        G.parse_deal(G.format_deal(deal).rsplit(" ", 1)[0], ANYRUN)


def test_moves_round_trip():
    deal = G.deal_from_seed(7, ANYRUN)
    board = R.Board.start(deal, ANYRUN)
    seen = set()
    for move in G.solve(deal, ANYRUN, Limits()).moves[:200]:
        for m in board.legal_moves():
            assert G.parse_move(G.format_move(m)) == m
            seen.add(m.kind if m.kind != "tableau" else m.count > 1)
        board.apply(move)
    assert seen == {"deal", "found", False, True}
    for bad in ("deal 2", "QC from pile 8 to foundation", "1 cards from 9H from pile 6 to pile 2"):
        with pytest.raises(BadInput):
            G.parse_move(bad)


def test_replay_names_the_first_illegal_move():
    deal = G.deal_from_seed(7, ANYRUN)
    line = G.solve(deal, ANYRUN, Limits()).moves
    assert G.replay(deal, ANYRUN, line) == Replayed(True, 52)
    assert G.replay(deal, ANYRUN, line[:5]).won is False
    bad = R.Move("tableau", 1, 2, 1, deal.cards[1])
    with pytest.raises(BadInput, match="move 3 "):
        G.replay(deal, ANYRUN, line[:2] + [bad])
    with pytest.raises(BadInput, match="move 1 "):
        G.replay_text(deal, ANYRUN, [G.format_move(bad)])


@pytest.mark.parametrize("rules", [ANYRUN, NONE])
def test_solve_agrees_with_the_solver(rules):
    for seed in range(1, 6):
        deal = G.deal_from_seed(seed, rules)
        mine = G.solve(deal, rules, Limits())
        theirs = api.solve(deal, rules)
        assert (mine.status, mine.nodes) == (theirs.status, theirs.nodes)
        if mine.solved:
            assert G.replay(deal, rules, mine.moves).won


def test_limits_give_limit():
    deal = G.deal_from_seed(6, ANYRUN)   # about 460,000 nodes
    by_nodes = G.solve(deal, ANYRUN, Limits(nodes=1000))
    assert by_nodes.status is Status.LIMIT and by_nodes.nodes == 1000
    assert by_nodes.details["stopped_by"] == {"limit": "nodes", "value": 1000}
    by_states = G.solve(deal, ANYRUN, Limits(nodes=5000, states=2000))
    assert by_states.status is Status.LIMIT and by_states.nodes == 2000
    assert by_states.details["stopped_by"] == {"limit": "states", "value": 2000}
    assert G.solve(deal, ANYRUN, Limits(seconds=0.0)).status is Status.LIMIT


def test_canonical_is_shared_by_symmetric_copies():
    rng = random.Random(5)
    for seed in range(1, 30):
        deal = G.deal_from_seed(seed, NONE)
        canon = G.canonical(deal, NONE)
        assert canon.base.rank == 1
        copy = G.symmetric_copy(deal, NONE, rng)
        assert G.canonical(copy, NONE) == canon
        assert api.solve(copy, NONE).status == api.solve(deal, NONE).status


def test_neighbour_swaps_two_cards():
    rng = random.Random(1)
    deal = G.deal_from_seed(2, ANYRUN)
    for _ in range(50):
        other = G.neighbour(deal, ANYRUN, rng)
        assert sorted(other.cards) == sorted(deal.cards)
        assert sum(a != b for a, b in zip(deal.cards, other.cards)) == 2


@pytest.mark.parametrize("seed", [3, 7])
def test_figures_invariant_deterministic_and_hardness_matches(seed):
    deal = G.deal_from_seed(seed, ANYRUN)
    fig = G.figures(deal, ANYRUN)
    assert fig.won and G.replay(deal, ANYRUN, fig.solution).won
    assert fig.metrics == G.figures(deal, ANYRUN).metrics
    assert G.hardness(deal, ANYRUN) == fig.metrics["hardness"] > 0
    assert isinstance(G.hardness(deal, ANYRUN, quick=True), float)
    copy = G.symmetric_copy(deal, ANYRUN, random.Random(seed))
    assert copy != deal
    other = G.figures(copy, ANYRUN)
    assert other.metrics == fig.metrics
    assert G.replay(copy, ANYRUN, other.solution).won
    text = G.explain("hard", 93.4, fig.metrics, ANYRUN)
    assert text.startswith("hard: ") and "93% of random winnable Up-Suit-AnyRun" in text


def test_unwinnable_deal_has_no_hardness():
    deal = G.deal_from_seed(1, NONE)
    assert api.solve(deal, NONE).status is Status.UNSOLVABLE
    assert G.hardness(deal, NONE) is None
    assert G.figures(deal, NONE).won is False


def test_explain_says_when_a_player_never_won():
    metrics = {"hardness": 3.2, "careful_log10": -1.6, "careful_reached": 52,
               "hasty_log10": -30.2, "hasty_reached": 9}
    text = G.explain("easy", 12.0, metrics, ANYRUN)
    assert "tries anything, wins about 1 game in 1,600 (harder than 12%" in text
    assert "one who never tries anything wins about 1 game in 40;" in text
    assert text.endswith("never won in 2,000 simulated games (at best 9 cards home).")


#: A master puzzle of the careful player's grade (stop 26's pack): it never gets 3 cards home.
WALL = ("KD TC 5H 9S 3H QH 3C QC 8S KC 7C 3D KH 9C 9D 3S AD 2D AS 5D 4C TH JH 5S 6D TD 8H QD "
        "7H 8D AC AH 6S 7S 4D 7D 9H 6H 2H KS 5C JS 6C TS 2C 8C JC QS 4S JD 2S 4H")
NOSPLIT = G.parse_rules("Up-Suit-AnyRun-NoSplit")


def test_the_bold_player_wins_where_the_careful_one_meets_a_wall():
    """The careful player (foundation moves at once, the deal only when stuck) never gets past
    2 cards home, even with 10,000 games; the bold one, who may try any move one time in five,
    wins it with 1,000, and that is the deal's hardness.  Both estimates repeat exactly."""
    from solvers.agnes.game import chance
    from solvers.agnes.players import BOLD, CAREFUL
    deal = G.canonical(G.parse_deal(WALL, NOSPLIT), NOSPLIT)
    assert chance(deal, NOSPLIT, CAREFUL, 10_000).reached == 2
    bold = chance(deal, NOSPLIT, BOLD, 1000)
    assert bold.reached is None and -9 < bold.log10 < -3
    assert bold.interval is None and (bold.games, bold.exact) == (1000, False)
    assert chance(deal, NOSPLIT, BOLD, 1000) == bold
    assert G.hardness(deal, NOSPLIT) == round(-bold.log10, 9)


def test_the_bold_estimate_takes_more_games_only_while_every_game_dies():
    """NoSplit deal 93: every one of 1,000 bold games dies, 10,000 win it; the figure is the
    10,000-game estimate and says so, and another stream (``repeat``) is another estimate."""
    from solvers.agnes.game import bold_chance, chance
    from solvers.agnes.players import BOLD
    deal = G.canonical(G.deal_from_seed(93, NOSPLIT), NOSPLIT)
    assert chance(deal, NOSPLIT, BOLD, 1000).reached < 52
    bold, filtered = bold_chance(deal, NOSPLIT)
    assert (bold.games, bold.reached, filtered) == (10_000, None, False)
    assert bold == chance(deal, NOSPLIT, BOLD, 10_000)
    fig = G.figures(deal, NOSPLIT)
    assert fig.metrics["hardness"] == round(-bold.log10, 9) and fig.metrics["bold_games"] == 10_000
    assert fig.metrics["bold_filtered"] is False
    assert G.hardness(deal, NOSPLIT, repeat=1) != fig.metrics["hardness"]


def test_where_every_bold_game_dies_the_exact_filter_measures_the_deal():
    """NoSplit deal 7029: every one of 100,000 games split over the levels of progress dies;
    split move by move with the exact solver checking every move, 1,000 games win
    it, and that is its hardness (``bold_filtered``)."""
    deal = G.canonical(G.deal_from_seed(7029, NOSPLIT), NOSPLIT)
    fig = G.figures(deal, NOSPLIT)
    assert 5 < fig.metrics["hardness"] < 12
    assert (fig.metrics["bold_games"], fig.metrics["bold_filtered"]) == (1000, True)
    assert "beyond" not in fig.metrics


def test_the_filtered_estimate_agrees_with_the_plain_one_where_both_measure():
    """Dropping only games that can no longer win leaves the estimate of the chance unbiased:
    on a deal the bold player wins about one game in 1,700, the mean chance of four filtered
    estimates of 300 games each (every move checked) is within 0.25 in log10 of 10,000 games'
    estimate over levels of progress.  (Their logs scatter more: SD about 0.5 at 300 games.)"""
    from solvers.agnes.game import CHECK_NODES, chance
    from solvers.agnes.players import BOLD
    deal = G.canonical(G.deal_from_seed(4263, NOSPLIT), NOSPLIT)
    plain = chance(deal, NOSPLIT, BOLD, 10_000).log10
    filtered = [chance(deal, NOSPLIT, BOLD, 300, r, CHECK_NODES).win for r in range(4)]
    assert abs(np.log10(np.mean(filtered)) - plain) < 0.25, (plain, filtered)


def test_a_deal_the_bold_player_never_wins_has_no_measured_hardness():
    """NoSplit deal 16 is winnable, but no bold game gets it past 7 cards home, not even with
    the exact filter: it has no measured hardness (never an extrapolation), its figures say so,
    and its grade is ``limit`` with those figures and a winning line, in the API and on the
    command line (no pack keeps it); the quick look that steers annealing still gives a
    figure."""
    from puzzlegen.anneal import keeps
    from puzzlegen.grading import grade, load
    from solvers.errors import BeyondMeasure
    deal = G.deal_from_seed(16, NOSPLIT)
    assert G.solve(deal, NOSPLIT, Limits(nodes=5_000_000)).solved
    games = (r"1,000 simulated games whose every move the exact solver checked "
             r"\(at best 7 cards home\)")
    with pytest.raises(BeyondMeasure, match=r"never won .* in " + games):
        G.hardness(deal, NOSPLIT)
    assert G.hardness(deal, NOSPLIT, quick=True) > 20
    graded = grade(G, deal, NOSPLIT)  # the figures: a winning line, no hardness
    assert G.replay(deal, NOSPLIT, [G.parse_move(m) for m in graded.solution]).won
    metrics = graded.metrics
    assert metrics["hardness"] is None and metrics["beyond"] is True
    assert (metrics["bold_games"], metrics["bold_reached"], metrics["bold_filtered"]) == \
        (1000, 7, True)
    assert (graded.level, graded.percentile) == ("limit", None)
    assert graded.explanation.startswith("limit: a player who plays to the foundations first")
    assert re.search("never won in " + games + ", so its hardness is beyond what the grade "
                     "measures and no level is claimed;", graded.explanation)
    assert not keeps(G, NOSPLIT, deal, "hard", graded, load(G, NOSPLIT))
    result = CliRunner().invoke(cli, ["agnes", "grade", "--seed", "16", "--rules",
                                       "Up-Suit-AnyRun-NoSplit", "--json"])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    assert (shown["level"], shown["percentile"], shown["solution"]) == ("limit", None,
                                                                   graded.solution)
    assert shown["metrics"]["hardness"] is None and shown["metrics"]["beyond"] is True


def test_a_grade_whose_exact_solve_hits_its_limit_says_limit(monkeypatch):
    """With the exact solve inside the figures capped at 50 nodes, a grade is ``limit`` (no
    score, no figures, the limit named), on the command line with exit status 0 as a solve's
    ``limit`` is, and ``pack validate`` says the puzzle cannot be re-graded."""
    from puzzlegen import packs
    from solvers.agnes import game as agnes_game
    monkeypatch.setattr(agnes_game, "FIGURE_LIMITS", Limits(nodes=50))
    result = CliRunner().invoke(cli, ["agnes", "grade", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    assert (shown["level"], shown["percentile"], shown["metrics"], shown["solution"]) == \
        ("limit", None, {}, [])
    assert shown["explanation"] == ("limit: the exact solve of this Up-Suit-AnyRun deal stopped "
                                    "at its limit of 50 nodes; no grade is claimed.")
    result = CliRunner().invoke(cli, ["agnes", "grade", "--seed", "3"])
    assert result.exit_code == 0 and "Level: limit\n" in result.output
    assert "percentile" not in result.output
    assert "solution:" not in result.output
    pack = packs.load(Path(__file__).resolve().parent.parent / "puzzles"
                      / "agnes-up-suit-anyrun-nosplit.json")
    pack["puzzles"] = pack["puzzles"][:1]
    assert packs.validate(pack) == [f"puzzle {pack['puzzles'][0]['id']}: cannot be re-graded: "
                                    f"limit: the exact solve of this Up-Suit-AnyRun-NoSplit deal "
                                    f"stopped at its limit of 50 nodes; no grade is claimed."]
