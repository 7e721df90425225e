"""Grading figures against a brute-force pure-Python enumeration of the whole game tree."""
from __future__ import annotations

import json
import math
from functools import lru_cache

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from puzzlegen.cli import cli
from puzzlegen.grading import LEVELS, figures, level_of
from solvers.stacksquared.symmetry import canonical
from solvers.cards import Card
from solvers.stacksquared import Deal, compatible, replay


def oracle(deal: Deal) -> dict:
    """Every figure by plain recursion over tops-only states (tuples of cards or None)."""
    n, cols = deal.size, deal.cols
    halfway = (n - 1) // 2

    def moves(tops):
        return [(a, b) for a in range(n) for b in range(n)
                if a != b and tops[a] is not None and tops[b] is not None
                and (a // cols == b // cols or a % cols == b % cols)
                and compatible(tops[a], tops[b])]

    def play(tops, a, b):
        t = list(tops)
        t[b], t[a] = t[a], None
        return tuple(t)

    def children(tops):
        return [play(tops, a, b) for a, b in moves(tops)]

    def stacks(tops):
        return sum(t is not None for t in tops)

    @lru_cache(maxsize=None)
    def win(tops):
        return stacks(tops) == 1 or any(win(c) for c in children(tops))

    def mean(values):
        return sum(values) / len(values) if values else 0.0

    @lru_cache(maxsize=None)
    def prob(tops):
        return 1.0 if stacks(tops) == 1 else mean([prob(c) for c in children(tops)])

    @lru_cache(maxsize=None)
    def half(tops):
        if n - stacks(tops) == halfway:
            return float(win(tops))
        return mean([half(c) for c in children(tops)])

    @lru_cache(maxsize=None)
    def sols(tops):
        return 1 if stacks(tops) == 1 else sum(sols(c) for c in children(tops))

    @lru_cache(maxsize=None)
    def crit(tops):
        if stacks(tops) == 1:
            return 0
        kids = children(tops)
        wins = [c for c in kids if win(c)]
        return min(crit(c) for c in wins) + (2 * (len(kids) - len(wins)) > len(kids))

    def first_solution(tops):
        if stacks(tops) == 1:
            return []
        for a, b in moves(tops):
            child = play(tops, a, b)
            if win(child):
                return [f"{tops[a]}-{tops[b]}"] + first_solution(child)

    root = tuple(deal.cards)
    winnable, lost, frontier = set(), set(), [root]
    while frontier:
        state = frontier.pop()
        if state in winnable or not win(state):
            continue
        winnable.add(state)
        for c in children(state):
            (frontier.append(c) if win(c) else lost.add(c))
    out = {"single_stack": win(root), "random_win": prob(root), "halfway_random": half(root),
           "solutions": sols(root), "winnable_states": len(winnable),
           "winnable_share": len(winnable) / (len(winnable) + len(lost)) if winnable else 0.0,
           "min_critical": crit(root) if win(root) else None}
    if win(root):
        out["solution"] = first_solution(root)
        shares, critical, forced, state = [], 0, 0, root
        for step, move in enumerate(out["solution"]):
            kids = children(state)
            wins = sum(win(c) for c in kids)
            shares.append((len(kids) - wins) / len(kids))
            critical += 2 * (len(kids) - wins) > len(kids)
            forced += wins == 1
            if step == 0:
                out["safe_first_share"] = wins / len(kids)
            if step == halfway:
                out["halfway_safe_share"] = wins / len(kids)
            mover, dest = move.split("-")
            a, b = state.index(Card.parse(mover)), state.index(Card.parse(dest))
            state = play(state, a, b)
        out.update(critical=critical, forced=forced, losing_share=mean(shares))
    return out


def check_against_oracle(deal: Deal) -> None:
    metrics, moves = figures(deal)
    expected = oracle(deal)
    assert metrics["tree"] == "exact"
    for name, value in expected.items():
        got = [str(m) for m in moves] if name == "solution" else metrics[name]
        if isinstance(value, float):
            assert math.isclose(got, value, rel_tol=1e-9, abs_tol=1e-12), (name, deal)
        else:
            assert got == value, (name, deal)


@pytest.mark.parametrize("seed", [1, 3, 5, 11, 367297990])
def test_3x3_figures_match_brute_force(seed):
    check_against_oracle(Deal.from_seed(seed, 3, 3))


small_deals = st.sampled_from([(2, 2), (2, 3), (3, 2), (2, 4), (1, 5)]).flatmap(
    lambda rc: st.permutations(range(52)).map(
        lambda p: Deal(rc[0], rc[1], tuple(Card.from_index(i) for i in p[:rc[0] * rc[1]]))))


@settings(max_examples=25, deadline=None)
@given(small_deals)
def test_small_figures_match_brute_force(deal):
    check_against_oracle(deal)


@settings(max_examples=15, deadline=None)
@given(small_deals, st.permutations(range(4)), st.booleans())
def test_symmetric_deals_share_canonical_form_and_figures(deal, suits, flip_rows):
    cards = [Card(c.rank, suits[c.suit]) for c in deal.cards]
    rows = [cards[r * deal.cols:(r + 1) * deal.cols] for r in range(deal.rows)]
    rows = rows[::-1] if flip_rows else rows
    rows = [row[::-1] for row in rows]
    other = Deal(deal.rows, deal.cols, tuple(c for row in rows for c in row))
    assert canonical(other) == canonical(deal)
    mine, theirs = figures(deal)[0], figures(other)[0]
    for name in ("single_stack", "random_win", "solutions", "winnable_states", "max_score"):
        assert mine[name] == pytest.approx(theirs[name])


def test_levels_cover_scores():
    assert level_of(0.0) == "easy" and level_of(100.0) == "expert"
    assert [level_of(cut) for cut in LEVELS.values()] == list(LEVELS)


def test_grade_command_json_and_bad_input():
    runner = CliRunner()
    result = runner.invoke(cli, ["stacksquared", "grade", "--seed", "367297990", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["level"] in LEVELS and 0 <= out["score"] <= 100
    assert out["metrics"]["single_stack"] is True and out["metrics"]["max_score"] == 256
    for args in (["5S JC QH"], ["--seed", "1", "5S JC"],
                 ["--seed", "1", "--rows", "9", "--cols", "9"]):
        bad = runner.invoke(cli, ["stacksquared", "grade", *args])
        assert bad.exit_code == 2 and bad.output.startswith("error: ")
        assert len(bad.output.strip().splitlines()) == 1


def test_unsolvable_deal_is_graded_as_such():
    deal = next(d for d in (Deal.from_seed(s, 3, 3) for s in range(1, 50))
                if not figures(d)[0]["single_stack"])
    metrics, moves = figures(deal)
    assert replay(deal, moves).score() == metrics["max_score"] < 81


def test_tree_states_option_bounds_the_whole_tree_figures():
    def run(*extra):
        result = CliRunner().invoke(cli, ["stacksquared", "grade", "--seed", "4", "--rows", "3",
                                          "--cols", "4", "--json", *extra])
        assert result.exit_code == 0, result.output
        return json.loads(result.output)["metrics"]

    small, large = run("--tree-states", "10"), run("--tree-states", "1000000")
    assert small["tree"] == "limit" and small["random_win"] is None
    assert large["tree"] == "exact" and 0.0 <= large["random_win"] <= 1.0
