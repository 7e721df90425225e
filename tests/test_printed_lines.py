"""Every line a solver prints is replayed by its rule book first: a line that does not reach what
the solver claims stops the command (a solver bug is never printed as an answer)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from puzzlegen.cli import cli
from solvers.result import Limits
from solvers.spider import api as spider
from solvers.stackmgmt import api as stackmgmt
from solvers.stackmgmt.contest import parse_contest

#: The contest's sample: a POSSIBLE case, then an IMPOSSIBLE one.
SAMPLE = "5\n2 7 2 7 1\n2 6 4 7 4\n2 3 2 6 2\n2 4 2 10 2\n2 5 4 7 3\n2\n2 2\n0 2\n3 2\n4 1 3\n"


def dropping_the_last_move(real):
    """``real`` with its result's last move taken off."""
    def solver(*args, **kwargs):
        result = real(*args, **kwargs)
        result.moves = result.moves[:-1]
        return result
    return solver


def test_every_solve_replays_its_lines(monkeypatch):
    """``solve`` (``puzzlegen.winrate.solved``) replays a line to the win and the value it
    claims: solved, unsolvable (the maximum score) and limit (the best score found) alike."""
    from puzzlegen.winrate import solved
    from solvers.stacksquared import game
    rules = game.GAME.parse_rules("3x3")
    runs = [(seed, limits) for seed in range(12)
            for limits in (Limits(nodes=5_000_000), Limits(nodes=3))]
    results = [solved(game.GAME, seed, game.GAME.deal_from_seed(seed, rules), rules, limits, {})
               for seed, limits in runs]
    assert {(r.status.value, r.value is not None) for r in results} >= \
        {("solved", True), ("unsolvable", True), ("limit", True)}
    monkeypatch.setattr(game, "solve", dropping_the_last_move(game.solve))
    for (seed, limits), result in zip(runs, results):
        if result.moves:
            with pytest.raises(AssertionError, match=r"line (does not win|reaches [0-9]+, "
                                                     r"not the [0-9]+ it claims)"):
                solved(game.GAME, seed, game.GAME.deal_from_seed(seed, rules), rules, limits,
                       {})


def test_agnes_solve_replays_its_line(monkeypatch):
    from solvers.agnes import game
    args = ["agnes", "solve", "--rules", "Up-Suit-AnyRun-NoSplit", "--seed", "5", "--start",
            "139"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    monkeypatch.setattr(game.api, "solve", dropping_the_last_move(game.api.solve))
    result = CliRunner().invoke(cli, args)
    assert isinstance(result.exception, AssertionError)
    assert "the agnes solver's line does not win" in str(result.exception)


def test_stackmgmt_lines_replay(monkeypatch):
    case = parse_contest(SAMPLE)[0]
    assert stackmgmt.solve(case, explain=True).moves
    assert stackmgmt.solve_brute(case).moves
    real = stackmgmt.winning_line
    monkeypatch.setattr(stackmgmt, "winning_line", lambda *a: real(*a)[:-1])
    with pytest.raises(AssertionError, match="does not replay"):
        stackmgmt.solve(case, explain=True)


def test_spider_lines_replay(monkeypatch):
    board = spider.parse_board("## 7S | 9S 8S | 6H | 5H 4H")
    report = spider.dof_report(board)
    assert report["moves"] and report["max_empty_stacks"] > report["empty_stacks"]
    monkeypatch.setattr(spider.calc, "max_empty_stacks",
                        dropping_the_last_move(spider.calc.max_empty_stacks))
    with pytest.raises(AssertionError, match="does not replay"):
        spider.dof_report(board)


def test_a_win_rate_replays_every_line_it_counts_won(monkeypatch):
    """Every game's ``winrate`` (``puzzlegen.winrate.play``) and ``solve`` replay a winning line
    by the game's rules before they count or print it."""
    from puzzlegen import winrate
    from solvers.stacksquared import game
    for seed in range(3):
        assert winrate.play(seed, "stacksquared", "3x3", 0, Limits(nodes=5_000_000), {})
    monkeypatch.setattr(game, "solve", dropping_the_last_move(game.solve))
    with pytest.raises(AssertionError, match="the stacksquared solver's line does not win"):
        for seed in range(3):
            winrate.play(seed, "stacksquared", "3x3", 0, Limits(nodes=5_000_000), {})


def test_a_grades_line_replays(monkeypatch):
    """The line a grade prints (every game's, through ``grading.grade``) is replayed first."""
    from puzzlegen.grading import grade
    from solvers.agnes.game import GAME
    rules = GAME.parse_rules("Up-Suit-AnyRun-NoSplit")
    deal = GAME.deal_from_seed(42, rules)
    assert grade(GAME, deal, rules).solution
    real = GAME.figures

    def figures(*args, **kwargs):
        fig = real(*args, **kwargs)
        fig.solution = fig.solution[:-1]
        return fig
    monkeypatch.setattr(GAME, "figures", figures)
    with pytest.raises(AssertionError, match="the grade's line does not win"):
        grade(GAME, deal, rules)
