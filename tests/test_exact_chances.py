"""Exact grades of StacksSquared: the players' chances folded over the winnable positions
(``solvers.stacksquared.chances``) against an independent brute-force recursion, certified bounds
at every limit, grades that no repeat can change, how sure a level is, and the grade in words."""
from __future__ import annotations

import json
import math
from functools import lru_cache

import pytest
from click.testing import CliRunner

from puzzlegen.cli import cli
from puzzlegen.grading import LEVELS, Grade, level_probabilities
from solvers import game as games
from solvers.stacksquared import Deal, Position, difficulty
from solvers.stacksquared.difficulty import PLAYERS, Decider, figures, tops
from solvers.stacksquared.symmetry import canonical_deal
from test_grading import Tree, grade


@lru_cache(maxsize=None)
def brute(deal: Deal) -> tuple[Tree, list[float], float] | None:
    """The exact chance of each player (by look-ahead) and the halfway ratio, by plain
    recursion; None when the deal has no single stack."""
    tree = Tree(deal)
    if not tree.win(tree.root):
        return None
    return tree, [tree.player_win(tree.root, look) for look in range(4)], tree.half(tree.root)


DEALS = [(seed, 3, 3) for seed in (2, 4, 6, 7, 8, 10, 21)] + [(1, 2, 6)]


@pytest.mark.parametrize("seed, rows, cols", DEALS)
def test_every_players_exact_chance_is_the_brute_force_value(seed, rows, cols):
    deal = canonical_deal(Deal.from_seed(seed, rows, cols))
    found = brute(deal)
    if found is None:
        pytest.fail("the deal of this test needs a single stack")
    _, players, half = found
    start = tops(Position.start(deal))
    decider = Decider(deal)
    lo, hi, exact = decider.chances(start, 1, 10**6)
    assert exact and list(lo) == list(hi)
    assert list(lo) == pytest.approx(players, rel=1e-12, abs=0)
    lo, hi, exact = decider.chances(start, deal.size - deal.size // 2, 10**6)
    assert exact and lo[0] == pytest.approx(half, rel=1e-12, abs=0)


@pytest.mark.parametrize("seed, rows, cols", [(7, 3, 3), (8, 3, 3), (1, 2, 6)])
@pytest.mark.parametrize("positions", [0, 1, 3, 10, 40])
def test_a_stopped_search_gives_bounds_that_hold_the_exact_chance(seed, rows, cols, positions):
    deal = canonical_deal(Deal.from_seed(seed, rows, cols))
    found = brute(deal)
    if found is None:
        pytest.fail("the deal of this test needs a single stack")
    _, players, _ = found
    lo, hi, exact = Decider(deal).chances(tops(Position.start(deal)), 1, positions)
    full = Decider(deal).chances(tops(Position.start(deal)), 1, 10**6)
    for look, value in enumerate(players):
        assert lo[look] - 1e-12 <= value <= hi[look] + 1e-12
    assert exact == (list(lo) == list(full[0]) and list(hi) == list(full[1]) and full[2])


def test_the_decision_limit_leaves_bounds_never_a_guess():
    deal = canonical_deal(Deal.from_seed(1, 2, 6))
    _, players, _ = brute(deal)
    decider = Decider(deal, max_states=40)
    lo, hi, exact = decider.chances(tops(Position.start(deal)), 1, 10**6)
    assert not exact
    for look, value in enumerate(players):
        assert lo[look] - 1e-12 <= value <= hi[look] + 1e-12 and lo[look] < hi[look]


def test_small_grids_grade_exactly_and_say_so():
    for seed in (2, 7, 13):
        deal = Deal.from_seed(seed, 3, 3)
        metrics, _ = figures(deal)
        if not metrics["single_stack"]:
            continue
        assert all(figure["exact"] for figure in metrics["players"].values())
        assert metrics["halfway"]["exact"]
        low, high = metrics["hardness_interval"]
        assert low == high == metrics["hardness"]
        graded = grade(deal)
        assert graded.level_probabilities == {graded.level: 1.0}
        assert graded.sureness() == "exact"


def test_a_hard_4x4_grade_is_exact_and_no_repeat_changes_it():
    """Seed 104: every chance exact (the random player's 1.9436e-8, as an independent
    computation found), and every repeat of the level figure the same value."""
    deal = Deal.from_seed(104)
    metrics, _ = figures(deal)
    assert all(figure["exact"] for figure in metrics["players"].values())
    assert metrics["players"]["random"]["win"] == pytest.approx(1.9436e-8, rel=1e-4)
    assert metrics["players"]["look3"]["win"] == pytest.approx(6.773e-5, rel=1e-3)
    budget = difficulty.DEFAULT_BUDGET
    repeats = {difficulty.estimated_hardness(deal, budget, r) for r in range(4)}
    assert repeats == {metrics["hardness"]}
    looks = [metrics["players"][name]["win"] for name in PLAYERS]
    assert looks == sorted(looks)   # on this deal, each look ahead wins more often
    assert metrics["skill"] == pytest.approx(math.log10(looks[-1] / looks[0]), abs=1e-3)


def test_an_estimated_4x4_grade_keeps_the_bounds_of_its_stopped_search():
    """A deal whose exact search is tried but stops at its limit keeps its estimate, within the
    certified bounds, and is marked as estimated."""
    budget = difficulty.Budget(exact_positions=50, exact_below=1.0)
    canon = canonical_deal(Deal.from_seed(3))
    metrics, _ = difficulty.canonical_figures(canon, budget)
    for figure in metrics["players"].values():
        assert figure["exact"] is False
        lo, hi = figure["bounds"]
        assert lo <= figure["interval"][0] <= figure["win"] <= figure["interval"][1] <= hi


TABLE = {"cuts": {"easy": 0.0, "medium": 1.0, "hard": 2.0, "expert": 3.0, "master": 4.0},
         "winnable": 10_000}


@pytest.mark.parametrize("centre, interval, level", [
    (2.5, [2.5, 2.5], "hard"), (2.0, [1.5, 2.5], None), (1.1, [0.5, 1.7], None),
    (4.9, [4.7, 5.1], "master"), (0.2, [0.1, 0.3], "easy")])
def test_level_probabilities_add_up_and_read_plainly(centre, interval, level):
    chances = level_probabilities(TABLE, {"hardness": centre, "hardness_interval": interval})
    assert sum(chances.values()) == pytest.approx(1.0, abs=1e-3)
    assert set(chances) <= set(LEVELS)
    if level:
        assert chances == {level: 1.0}
    else:
        assert len(chances) >= 2 and all(0 < p < 1 for p in chances.values())
    at = max(chances, key=chances.get)
    graded = Grade(at, 50.0, {"hardness": centre, "hardness_interval": interval}, [], "",
                   chances)
    words = graded.sureness()
    assert words == "exact" if interval[0] == interval[1] else words.startswith(
        f"{math.floor(100 * chances[at])}% sure")


def test_a_grade_in_words_shows_no_program_values():
    runner = CliRunner()
    for args in (["--seed", "104"], ["--seed", "2", "--rules", "3x3"],
                 ["--seed", "3"]):
        result = runner.invoke(cli, ["stacksquared", "grade", *args])
        assert result.exit_code == 0, result.output
        text = result.output
        for word in ("True", "False", "None", "single_stack", "compat_edges", "effort", "score",
                     "look3", "halfway.ratio"):
            assert word not in text, (word, text)
        rows = 3 if "3x3" in args else 4
        assert text.splitlines()[rows].startswith("code: 1s.") and \
            text.splitlines()[rows + 1].startswith("Level: ")
        data = json.loads(runner.invoke(cli, ["stacksquared", "grade", *args, "--json"]).output)
        assert "level_probabilities" in data and data["percentile"] == data["score"]
        if data["metrics"]["players"]["look3"]["exact"]:
            assert "(exact)" in text
        else:
            assert "sure" in text.splitlines()[next(i for i, line in enumerate(
                text.splitlines()) if line.startswith("Level: "))]


@pytest.mark.parametrize("game, args", [("montana", ["--seed", "5"]),
                                        ("stackmgmt", ["--seed", "3"]),
                                        ("agnes", ["--seed", "3"])])
def test_every_games_grade_text_names_its_figures_in_words(game, args):
    result = CliRunner().invoke(cli, [game, "grade", *args])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    level = next(line for line in lines if line.startswith("Level: "))
    assert "score" not in level
    figures = [line for line in lines if line.startswith("  ")]
    assert figures
    for line in figures:
        assert "_" not in line and not any(word in line.split() for word in
                                           ("True", "False", "None")), line
    # The solution is written as solve writes a line, and reads back as one (Agnes: "; ").
    the_game = games.get(game)
    rules = the_game.parse_rules(the_game.default_rules)
    deal = the_game.deal_from_seed(int(args[1]), rules)
    for solution in (line[10:] for line in lines if line.startswith("solution: ")):
        assert the_game.line_problem(deal, rules, the_game.parse_line(solution), True) is None
