"""Grading: invariance under the five symmetries, the players against exact pure-Python values,
the whole-tree figures against brute force, levels and the grade command."""
from __future__ import annotations

import json
import math
import random
from functools import lru_cache
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from puzzlegen import calibration
from puzzlegen.cli import cli
from puzzlegen.grading import (LEVELS, grade as grade_deal, level_of, load, offered, read_table,
                               percentile_of)
from solvers import game as games
from solvers.cards import Card
from solvers.errors import BadInput, LimitReached
from solvers.game import harder_than
from solvers.stacksquared import Deal, Position, compatible, difficulty, replay
from solvers.stacksquared.difficulty import PLAYERS, Budget, Decider, figures, stream_seed, tops
from solvers.stacksquared.game import GAME, Grid
from solvers.stacksquared.symmetry import CARD_MAPS, canonical, canonical_deal, map_card


def grade(deal: Deal):
    """The grade of a StacksSquared deal through the game contract."""
    return grade_deal(GAME, deal, Grid(deal.rows, deal.cols))


class Tree:
    """Every exact figure of a deal by plain recursion over tops-only states."""

    def __init__(self, deal: Deal):
        self.n, self.cols = deal.size, deal.cols
        self.root = tuple(deal.cards)

    def moves(self, tops):
        n, cols = self.n, self.cols
        return [(a, b) for a in range(n) for b in range(n)
                if a != b and tops[a] is not None and tops[b] is not None
                and (a // cols == b // cols or a % cols == b % cols)
                and compatible(tops[a], tops[b])]

    @staticmethod
    def play(tops, a, b):
        t = list(tops)
        t[b], t[a] = t[a], None
        return tuple(t)

    def children(self, tops):
        return [self.play(tops, a, b) for a, b in self.moves(tops)]

    @staticmethod
    def stacks(tops):
        return sum(t is not None for t in tops)

    @lru_cache(maxsize=None)
    def win(self, tops):
        return self.stacks(tops) == 1 or any(self.win(c) for c in self.children(tops))

    def dead(self, tops):
        """The partition bound, written afresh: split the stacks into components of the
        compatibility graph, then of the shared-line graph, each induced on the class."""
        cols = self.cols

        def parts(cells, linked):
            left, out = set(cells), []
            while left:
                seen, todo = set(), [left.pop()]
                while todo:
                    x = todo.pop()
                    seen.add(x)
                    for y in list(left):
                        if linked(x, y):
                            left.discard(y)
                            todo.append(y)
                out.append(seen)
            return out

        def splits(cells):
            compat = parts(cells, lambda a, b: compatible(tops[a], tops[b]))
            if len(compat) > 1:
                return True
            same_line = lambda a, b: a // cols == b // cols or a % cols == b % cols  # noqa: E731
            return len(parts(cells, same_line)) > 1

        return splits([i for i, t in enumerate(tops) if t is not None])

    def alive(self, tops, depth):
        if self.stacks(tops) == 1:
            return True
        if self.dead(tops):
            return False
        return depth == 0 or any(self.alive(c, depth - 1) for c in self.children(tops))

    @lru_cache(maxsize=None)
    def player_win(self, tops, look):
        """The exact chance that the player of look-ahead ``look`` wins from ``tops``."""
        if self.stacks(tops) == 1:
            return 1.0
        kids = self.children(tops)
        if not kids:
            return 0.0
        kept = [c for c in kids if self.alive(c, look - 1)] if look else kids
        kept = kept or kids
        return sum(self.player_win(c, look) for c in kept) / len(kept)

    @lru_cache(maxsize=None)
    def half(self, tops):
        if self.n - self.stacks(tops) == self.n // 2:
            return float(self.win(tops))
        kids = self.children(tops)
        return sum(self.half(c) for c in kids) / len(kids) if kids else 0.0

    @lru_cache(maxsize=None)
    def sols(self, tops):
        return 1 if self.stacks(tops) == 1 else sum(self.sols(c) for c in self.children(tops))

    @lru_cache(maxsize=None)
    def crit(self, tops):
        if self.stacks(tops) == 1:
            return 0
        kids = self.children(tops)
        wins = [c for c in kids if self.win(c)]
        return min(self.crit(c) for c in wins) + (2 * (len(kids) - len(wins)) > len(kids))


def transformed(deal: Deal, rng: random.Random) -> Deal:
    """A random symmetric copy: rows and columns permuted, maybe transposed, suits relabelled,
    maybe ranks reversed."""
    suits = rng.sample(range(4), 4)
    flip = rng.random() < 0.5
    grid = [[deal.cards[r * deal.cols + c] for c in range(deal.cols)] for r in range(deal.rows)]
    rng.shuffle(grid)
    order = rng.sample(range(deal.cols), deal.cols)
    grid = [[row[c] for c in order] for row in grid]
    if rng.random() < 0.5:
        grid = [list(col) for col in zip(*grid)]
    cards = [Card(14 - c.rank if flip else c.rank, suits[c.suit]) for row in grid for c in row]
    return Deal(len(grid), len(grid[0]), tuple(cards))


@settings(max_examples=12, deadline=None)
@given(st.integers(1, 10**6), st.sampled_from([(3, 3), (3, 4), (4, 4), (2, 5)]),
       st.integers(0, 2**32))
def test_every_figure_is_the_same_for_every_symmetric_copy(seed, shape, salt):
    deal = Deal.from_seed(seed, *shape)
    other = transformed(deal, random.Random(salt))
    assert canonical(other) == canonical(deal)
    mine, line = figures(deal)
    theirs, their_line = figures(other)
    assert mine == theirs
    if mine["single_stack"]:
        assert replay(deal, line).stacks() == 1 and replay(other, their_line).stacks() == 1


def test_repeated_estimates_are_independent_draws_of_the_same_figure():
    """Repeat 0 is the grade's own hardness; on a deal whose figure is estimated (4x4 seed 3:
    its level player wins more often than the exact search is tried for) a repeat draws
    another stream (another value), still the same for every symmetric copy (what
    benchmarks/grade_precision.py measures)."""
    deal = Deal.from_seed(3)
    other = transformed(deal, random.Random(7))
    budget = difficulty.DEFAULT_BUDGET
    assert figures(deal)[0]["players"]["look3"]["exact"] is False
    assert difficulty.estimated_hardness(deal, budget, 0) == figures(deal)[0]["hardness"]
    repeats = [difficulty.estimated_hardness(deal, budget, r) for r in range(4)]
    assert len(set(repeats)) == 4
    assert [difficulty.estimated_hardness(other, budget, r) for r in range(4)] == repeats


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 10**6), st.sampled_from([(2, 3), (3, 2), (3, 3), (2, 4)]))
def test_canonical_is_the_smallest_of_every_symmetric_copy(seed, shape):
    """The shortcut of ``canonical_with_map`` (only maps giving the smallest card, first row
    holding it) finds the same minimum as trying every copy."""
    deal = Deal.from_seed(seed, *shape)
    grid = [deal.cards[r * deal.cols:(r + 1) * deal.cols] for r in range(deal.rows)]
    best = None
    for shaped in (grid, [list(col) for col in zip(*grid)]):
        if len(shaped) > len(shaped[0]):
            continue
        for rows in permutations(shaped):
            for order in permutations(range(len(shaped[0]))):
                for suits, flip in CARD_MAPS:
                    copy = (len(shaped), len(shaped[0])) + tuple(
                        map_card(row[c], suits, flip).index for row in rows for c in order)
                    best = copy if best is None or copy < best else best
    assert canonical(deal) == best


def test_the_audited_row_order_pair_grades_alike():
    a = Deal.parse("8C TD 5S 6H TS 6C AD 9C 8H 5D 4H 3H 8S QD 7S JC")
    b = Deal.parse("8H 5D 4H 3H 8C TD 5S 6H TS 6C AD 9C 8S QD 7S JC")
    ga, gb = grade(a), grade(b)
    assert (ga.level, ga.percentile, ga.explanation, ga.metrics) == \
        (gb.level, gb.percentile, gb.explanation, gb.metrics)


def test_rank_reversal_and_transposition_change_nothing():
    deal = Deal.from_seed(11, 4, 5)
    mirror = Deal(4, 5, tuple(Card(14 - c.rank, c.suit) for c in deal.cards))
    transposed = Deal(5, 4, tuple(deal.cards[r * 5 + c] for c in range(5) for r in range(4)))
    assert canonical(mirror) == canonical(deal) == canonical(transposed)
    assert canonical_deal(transposed).rows == 4


def test_players_match_exact_values_on_3x3():
    """The mean of many independent estimates of each player's chance to win equals the exact
    value (pure-Python recursion over the same player) within its standard error."""
    for seed in (2, 7, 13):
        deal = canonical_deal(Deal.from_seed(seed, 3, 3))
        exact_tree = Tree(deal)
        if not exact_tree.win(exact_tree.root):
            continue
        decider = Decider(deal)
        start = tops(Position.start(deal))
        for name, (look, _) in PLAYERS.items():
            exact = exact_tree.player_win(exact_tree.root, look)
            runs = [np.prod(decider.win_chance(start, look, 32, s, 16)[0]) for s in range(300)]
            error = np.std(runs) / math.sqrt(len(runs))
            assert abs(np.mean(runs) - exact) <= 4 * error + 1e-9, (seed, name, exact)


@pytest.mark.parametrize("seed", [1, 8])
def test_the_95_percent_interval_holds_the_exact_chance(seed):
    """Over 300 independent estimates of a 3x4 deal, the interval of the look3 player's chance
    holds the exact value (pure-Python recursion) at least 92% of the time: 0.973 and 0.977 on
    these deals; the binomial variance alone, which ignores the particles' shared ancestry,
    gave 0.853 and 0.833."""
    deal = canonical_deal(Deal.from_seed(seed, 3, 4))
    exact_tree = Tree(deal)
    exact = exact_tree.player_win(exact_tree.root, 3)
    decider = Decider(deal)
    start = tops(Position.start(deal))
    held = 0
    for s in range(300):
        low, high = difficulty.estimate(*decider.win_chance(start, 3, 48, s, 14), 48).interval
        held += low <= exact <= high
    assert held / 300 >= 0.92


def test_players_match_exact_values_with_the_exact_filter_started_late():
    deal = canonical_deal(Deal.from_seed(7, 3, 4))
    exact_tree = Tree(deal)
    assert exact_tree.win(exact_tree.root)
    decider = Decider(deal)
    start = tops(Position.start(deal))
    exact = exact_tree.player_win(exact_tree.root, 1)
    runs = [np.prod(decider.win_chance(start, 1, 32, s, 6)[0]) for s in range(300)]
    assert abs(np.mean(runs) - exact) <= 4 * np.std(runs) / math.sqrt(300) + 1e-9


def test_halfway_ratio_is_exact_when_the_filter_starts_after_halfway():
    """On large grids the exact filter starts after the halfway step (6x6: 14 stacks, halfway
    at 18); the halfway step is then checked exactly too, so the ratio still estimates the
    chance to be winnable there (here 3x4: filter at 4 stacks, halfway at 6)."""
    deal = canonical_deal(Deal.from_seed(7, 3, 4))
    exact_tree = Tree(deal)
    exact = exact_tree.half(exact_tree.root)
    decider = Decider(deal)
    start = tops(Position.start(deal))
    runs = [np.prod(decider.win_chance(start, 0, 32, s, 4, 6)[0][:6]) for s in range(300)]
    assert abs(np.mean(runs) - exact) <= 4 * np.std(runs) / math.sqrt(300) + 1e-9
    figure = difficulty.player_figures(deal, Decider(deal), Budget(exact_stacks=4))
    steps = decider.win_chance(start, 0, 48, stream_seed(deal, "random"), 4, 6)[0]
    assert figure["halfway"].win == pytest.approx(np.prod(steps[:6]))


@pytest.mark.parametrize("seed", [2, 7, 13, 367297990])
def test_exact_figures_match_brute_force(seed):
    deal = canonical_deal(Deal.from_seed(seed, 3, 3))
    exact_tree = Tree(deal)
    metrics, _ = figures(deal)
    if not exact_tree.win(exact_tree.root):
        assert metrics["single_stack"] is False
        return
    root = exact_tree.root
    assert metrics["tree"] == "exact"
    assert metrics["players"]["random"]["win"] == pytest.approx(exact_tree.player_win(root, 0))
    assert metrics["halfway"]["ratio"] == pytest.approx(exact_tree.half(root))
    assert metrics["solutions"] == exact_tree.sols(root)
    assert metrics["min_critical"] == exact_tree.crit(root)
    kids = exact_tree.children(root)
    assert metrics["first_moves"] == len(kids)
    assert metrics["winning_first_share"] == pytest.approx(
        sum(exact_tree.win(c) for c in kids) / len(kids))


def test_intervals_cover_and_estimates_are_reproducible():
    deal = Deal.from_seed(3, 4, 4)
    first, _ = figures(deal, tree_states=0)
    again, _ = figures(deal, tree_states=0)
    assert first == again
    for figure in first["players"].values():
        low, high = figure["interval"]
        assert 0 <= low <= figure["win"] <= high <= 1
    assert first["hardness"] == pytest.approx(-math.log10(first["players"]["look3"]["win"]),
                                              abs=1e-6)
    assert stream_seed(canonical_deal(deal), "look3") != stream_seed(canonical_deal(deal),
                                                                      "random")


def test_the_state_limit_says_limit():

    with pytest.raises(LimitReached):
        figures(Deal.from_seed(3, 4, 4), Budget(states=50))


def test_levels_cover_scores():
    assert level_of(0.0) == "easy" and level_of(100.0) == "master"
    assert [level_of(cut) for cut in LEVELS.values()] == list(LEVELS)


def test_a_score_is_worded_truthfully_and_apart_from_the_next_level():
    """Every game's "harder than X%": never above the score, and no wording shared by two
    levels (an expert score once read "harder than 100%", as a master one)."""
    scores = [k / 100 for k in range(10_001)]
    levels_of = {}
    for score in scores:
        text = harder_than(score)
        assert float(text.removesuffix("%")) <= score
        levels_of.setdefault(text, set()).add(level_of(score))
    assert all(len(levels) == 1 for levels in levels_of.values())
    assert [harder_than(s) for s in (12.0, 93.31, 99.0, 99.72, 99.89, 99.9, 100.0)] == \
        ["12%", "93%", "99%", "99.7%", "99.8%", "99.9%", "100%"]


def test_grade_command_json_explanation_and_bad_input():
    runner = CliRunner()
    result = runner.invoke(cli, ["stacksquared", "grade", "--seed", "367297990", "--json",
                                 "--explain"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["level"] in LEVELS and 0 <= out["percentile"] <= 100
    assert out["score"] == out["percentile"]   # the deprecated name, kept one version
    assert out["explanation"].startswith(out["level"] + ": a player who looks three moves")
    assert out["metrics"]["single_stack"] is True and out["metrics"]["max_score"] == 256
    assert replay(Deal.from_seed(367297990), out["solution"]).stacks() == 1
    for moment in out["critical"]:
        assert 2 * moment["losing"] > moment["legal"] and moment["played"] in moment["winning"]
    for args in (["5S JC QH"], ["--seed", "1", "5S JC"],
                 ["--seed", "1", "--rules", "9x9"]):
        bad = runner.invoke(cli, ["stacksquared", "grade", *args])
        assert bad.exit_code == 2 and bad.output.startswith("error: ")
        assert len(bad.output.strip().splitlines()) == 1


def test_critical_moments_past_the_state_limit_say_limit():
    """The grade stands; only the moments are not claimed (exit 0, as a hint's limit)."""
    runner = CliRunner()
    args = ["stacksquared", "grade", "--seed", "2", "--rules", "3x3", "--explain"]
    full = json.loads(runner.invoke(cli, [*args, "--json"]).output)
    assert full["critical_limit"] is None and isinstance(full["critical"], list)
    cut = runner.invoke(cli, [*args, "--json", "--max-states", "3"])
    assert cut.exit_code == 0, cut.output
    out = json.loads(cut.output)
    assert out["critical"] is None
    assert out["critical_limit"] == "the decision search stored 3 states"
    assert (out["level"], out["percentile"]) == (full["level"], full["percentile"])
    text = runner.invoke(cli, [*args, "--max-states", "3"])
    assert text.exit_code == 0 and "critical moments: limit (the decision search stored 3 " \
        "states; --max-states raises it)" in text.output


def test_unsolvable_deal_is_graded_as_such():
    deal = next(d for d in (Deal.from_seed(s, 3, 3) for s in range(1, 50))
                if not figures(d)[0]["single_stack"])
    result = grade(deal)
    assert result.level == "unsolvable" and result.percentile is None
    assert replay(deal, result.solution).score() == result.metrics["max_score"] < 81


def test_levels_follow_the_calibration_cuts():
    table = load(GAME, Grid(4, 4))
    for name, cut in LEVELS.items():
        assert level_of(percentile_of(table, table["cuts"][name])) == name
        if cut > 0:
            below = level_of(percentile_of(table, table["cuts"][name] - 1e-6))
            assert list(LEVELS).index(below) == list(LEVELS).index(name) - 1


def test_unchecked_steps_move_every_particle_once():
    """Before the first exact check every particle moves once and every survivor stays (no
    drift): a step's share is survivors / particles.  With the whole population resampled from
    half as many tries at every move instead (until 25 Nov 2026), the particles of 6x6 seed 1
    descended from a few first moves by the check at 14 stacks, and all 48 were lost (hardness
    at the floor)."""
    deal = canonical_deal(Deal.from_seed(1, 6, 6))
    steps, hits, _ = Decider(deal).win_chance(tops(Position.start(deal)), 3, 48, 5, 14)
    unchecked = 36 - 14 - 1   # the moves to 35 .. 15 stacks
    assert np.array_equal(steps[:unchecked], hits[:unchecked] / 48)
    assert np.all(hits[unchecked:] <= 24) and np.all(hits > 0)
    floor = -math.log10(difficulty.FLOOR)
    assert difficulty.estimated_hardness(deal, Budget((0, 0, 0, 48))) < floor - 3


def test_no_master_cut_lies_on_the_floor():
    """Master is the hardest 0.1% of random deals: if 0.1% of a grid's calibration deals had
    estimates at the floor (no particle survived), a master grade would mean only that."""
    floor = -math.log10(difficulty.FLOOR)
    for rows, cols in ((3, 3), (3, 4), (4, 4), (4, 5), (5, 5), (6, 6)):
        assert load(GAME, Grid(rows, cols))["cuts"]["master"] < floor - 1


def test_every_shipped_grid_offers_the_levels_its_calibration_supports():
    """10,000 deals tell master apart on every shipped grid."""
    from puzzlegen.grading import offered

    for rows, cols in ((3, 3), (3, 4), (4, 4), (4, 5), (5, 5), (6, 6)):
        assert offered(load(GAME, Grid(rows, cols))) == list(LEVELS)


ROOT = Path(__file__).parents[1]
SHIPPED = sorted(p.relative_to(ROOT / "solvers").as_posix()
                 for p in (ROOT / "solvers").glob("*/calibration-*.json"))


@pytest.mark.parametrize("shipped", SHIPPED)
def test_a_shipped_calibration_is_what_the_code_computes(shipped):
    """A calibration goes with the estimator that built it: the shipped table summarises its
    per-deal file (``calibration-KEY.jsonl`` beside it, not shipped), and the two quickest
    winnable deals of each third of that file (a file built in several runs may mix revisions)
    re-estimate to the figures it records, the quickest beyond the measure too: a changed
    estimator without a rebuilt calibration fails here."""
    table = json.loads((ROOT / "solvers" / shipped).read_text())
    records = calibration.read_figures((ROOT / "solvers" / shipped).with_suffix(".jsonl"))
    game = games.get(table["game"])
    rules = game.parse_rules(table["rules"])
    summary = calibration.summarise(game, rules, table["seed_start"], records)
    assert json.loads(json.dumps(summary)) == table
    third = len(records) // 3 + 1
    for part in range(3):
        won = [r for r in records[part * third:(part + 1) * third]
               if r["won"] and not r.get("beyond")]
        for record in sorted(won, key=lambda r: r["seconds"])[:2]:
            again = calibration.deal_figures((game.name, table["rules"], record["seed"]))
            assert again["hardness"] == pytest.approx(record["hardness"], abs=1e-5), record
    beyond = [r for r in records if r.get("beyond")]
    if beyond:  # the quickest deal beyond the measure is still beyond it
        record = min(beyond, key=lambda r: r["seconds"])
        again = calibration.deal_figures((game.name, table["rules"], record["seed"]))
        assert again["won"] is True and again.get("beyond"), record


def test_deals_beyond_the_measure_count_above_every_measured_one(tmp_path):
    """91 winnable deals of measured hardness 0..90 and 9 beyond the measure (and a lost one):
    the quantiles and cuts that draw on the 9 are not measured (``null`` in strict JSON,
    infinity once read), so expert and master have no cut, the 90th percentile is the last
    measured value, and annealing's targets beyond it interpolate to infinity, never NaN."""
    from puzzlegen import anneal
    records = ([{"seed": s, "won": True, "hardness": float(s)} for s in range(91)]
               + [{"seed": 91 + s, "won": True, "beyond": True} for s in range(9)]
               + [{"seed": 100, "won": False}])
    summary = calibration.summarise(GAME, Grid(4, 4), 0, records)
    text = json.dumps(summary, allow_nan=False)
    assert summary["winnable"] == 100 and summary["beyond"] == 9 and summary["limit"] == 0
    assert summary["hardness"][900] == pytest.approx(89.1) and summary["hardness"][910] is None
    assert summary["cuts"]["medium"] == 49.5 and summary["cuts"]["hard"] == pytest.approx(89.1)
    assert summary["cuts"]["expert"] is None and summary["cuts"]["master"] is None
    table = read_table(text)
    assert offered(table) == ["easy", "medium", "hard"]
    assert level_of(percentile_of(table, 90.0), offered(table)) == "hard"
    assert percentile_of(table, 90.0) < 99
    assert anneal.hardness_at(91.0, table) == math.inf
    assert anneal.hardness_at(90.0, table) == pytest.approx(89.1)
    path = tmp_path / "figures.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert calibration.read_figures(path) == records
    path.write_text(json.dumps({"seed": 1, "won": True}) + "\n")
    with pytest.raises(BadInput, match="line 1: not a figures record"):
        calibration.read_figures(path)


def test_a_level_whose_cut_is_not_measured_is_not_offered():
    """Beyond the measure above the 89th percentile: the hard cut (90th) is not measured, so a
    deal there cannot be told hard and the levels stop at medium."""
    records = ([{"seed": s, "won": True, "hardness": float(s)} for s in range(89)]
               + [{"seed": 89 + s, "won": True, "beyond": True} for s in range(11)])
    table = read_table(json.dumps(calibration.summarise(GAME, Grid(4, 4), 0, records)))
    assert offered(table) == ["easy", "medium"]
    assert level_of(percentile_of(table, 88.0), offered(table)) == "medium"


@pytest.mark.parametrize("name,rules,seed", [("montana", "8", 11), ("stackmgmt", "8x4-k4", 3)])
def test_an_exact_figure_makes_a_certain_level(name, rules, seed):
    """Montana's (one round, fixed Twos) and Stack Management's levels rest on a player's exact
    chance: the grade is certain, and says so."""
    from puzzlegen.grading import grade
    game = games.get(name)
    rules = game.parse_rules(rules)
    graded = grade(game, game.deal_from_seed(seed, rules), rules)
    low, high = graded.metrics["hardness_interval"]
    assert low == high == graded.metrics["hardness"]
    assert graded.level_probabilities == {graded.level: 1.0} and graded.sureness() == "exact"


def test_compiled_grade_kernels_match_the_jit_kernels():
    """The grade's kernels compiled at install (``codes.GRADE``) answer as numba's JIT ones:
    decisions with their lines, whole trees, players' estimates and exact chances."""
    from solvers.stacksquared import chances, players, tree
    from solvers.stacksquared.api import compat_masks, line_masks
    from solvers.stacksquared.codes import GRADE, decision_table
    module = GRADE.built()
    if module is None:
        pytest.skip("the grade's kernels were not compiled ahead of time (pip install does)")
    compat = compat_masks()
    for rows, cols, seed in ((3, 3, 4), (3, 4, 11), (4, 4, 104), (4, 4, 5)):
        deal = Deal.from_seed(seed, rows, cols)
        card, line, width = tops(Position.start(deal)), line_masks(rows, cols), (deal.size + 7) // 8
        answers = []
        for decide, explore, win_chance, chance in (
                (module.decide, module.explore, module.win_chance, module.chances),
                (tree.decide, tree.explore, players.win_chance, chances.chances)):
            path = np.zeros(deal.size, dtype=np.int64)
            full = np.uint64((1 << deal.size) - 1)
            result, table, count, length = decide(card, full, deal.size, line, compat, False,
                                                  decision_table(width), 0, 10 ** 6, path, -1.0)
            steps, hits, table, count, spread = win_chance(card, 3, 64, seed, 14, -1, line,
                                                           compat, table, count, 10 ** 6, path)
            lo, hi, exact, walked, table, count = chance(card, 4, 1, 5000, line, compat, table,
                                                         count, 10 ** 6, path)
            outcome, _, won, solutions, critical = (explore(card, line, compat, 20_000)
                                                    if deal.size <= 12 else (0, 0, [], [], []))
            answers.append((int(result), int(length), [list(a) for a in (steps, hits, spread,
                                                                         lo, hi)],
                            bool(exact), int(walked), int(count), int(outcome), list(won),
                            list(solutions), list(critical)))
        assert answers[0] == answers[1], (rows, cols, seed)


def test_a_grade_command_starts_without_numba(tmp_path):
    """Away from the checkout (so that the installed package runs), grading imports no numba
    when its kernels were compiled ahead of time, and grades as the JIT kernels do."""
    import forked
    out = forked.without_numba(tmp_path, "solvers.stacksquared.codes:GRADE",
                               ["stacksquared", "grade", "--seed", "104", "--rules", "4x4",
                                "--json"])
    assert not out["numba"] and out["level"] == "master"
    assert out["metrics"]["players"]["random"]["win"] == pytest.approx(1.9436e-8, rel=1e-3)
