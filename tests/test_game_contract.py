"""The game contract, for every registered game: the same pipeline runs on each.

Deal from seed, text round trips, an exact solve replayed by the rules module, a limit that
says ``limit``; for designable games also a grade invariant under symmetry, one generated puzzle
and the validation of its pack.
"""
from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from puzzlegen import packs
from puzzlegen.cli import cli
from puzzlegen.grading import LEVELS, figure, grade
from solvers import game as games
from solvers.errors import BadInput
from solvers.result import Limits, SolveResult, Status

#: Limits every game's small deals are decided within.
LIMITS = Limits(states=2_000_000, seconds=120)


@pytest.fixture(params=games.names())
def game(request) -> games.Game:
    return games.get(request.param)


def test_registry_names_every_game_and_refuses_others():
    assert set(games.names()) == {"stacksquared", "agnes", "montana", "stackmgmt", "spider"}
    assert {g.name for g in map(games.get, games.names())} == set(games.names())
    with pytest.raises(BadInput, match="unknown game"):
        games.get("freecell")


def test_rules_round_trip_and_bad_rules_are_refused(game):
    for name in game.variants():
        rules = game.parse_rules(name)
        assert game.parse_rules(game.format_rules(rules)) == rules
    for bad in ("no such rules", "4x\u00b2", "\u00b2", ""):
        with pytest.raises(BadInput):
            game.parse_rules(bad)


def test_deal_solve_replay(game):
    rules = game.parse_rules(game.default_rules)
    for seed in (1, 2, 3):
        deal = game.deal_from_seed(seed, rules)
        assert game.parse_deal(game.format_deal(deal), rules) == deal
        assert game.deal_from_seed(seed, rules) == deal
        result = game.solve(deal, rules, LIMITS)
        assert isinstance(result, SolveResult) and result.status is not Status.LIMIT
        texts = [game.format_move(m) for m in result.moves]
        assert [game.format_move(game.parse_move(t)) for t in texts] == texts
        assert game.parse_line(game.move_separator.join(texts)) == result.moves
        end = game.replay_text(deal, rules, texts)
        assert end.won == (result.status is Status.SOLVED) or not game_is_designable(game)
        if result.value is not None:
            assert end.value == result.value


def test_a_solve_from_a_position_continues_the_moves_that_reach_it(game):
    """Where a solver starts mid-game (``start_after``), the line it finds from the position
    after a winning line's first moves, or after each legal move there, replays whole from the
    deal; elsewhere ``--moves`` is refused and ``first_moves`` is None."""
    rules = game.parse_rules(game.default_rules)
    deal = game.deal_from_seed(2, rules)
    line = game.solve(deal, rules, LIMITS).moves
    try:
        start = game.start_after(deal, rules, line[:2])
    except BadInput:
        assert game.first_moves(deal, rules) is None
        return
    for before, at in [(line[:2], start), *(([*line[:2], move], after) for move, after
                                             in game.first_moves(deal, rules, start))]:
        result = game.solve(deal, rules, LIMITS, start=at)
        assert result.status is not Status.LIMIT
        assert game.line_problem(deal, rules, before + result.moves, result.solved,
                                 result.value) is None


def test_a_result_does_not_depend_on_what_was_solved_before(game):
    """Deals solved in one order and then in the reverse one, in one process, get the same
    status, line, value and work each time, and so do deals stopped by a node limit."""
    rules = game.parse_rules(game.default_rules)
    deals = [game.deal_from_seed(seed, rules) for seed in (1, 2, 3, 4)]

    def results(limits):
        return [(r.status, [game.format_move(m) for m in r.moves], r.value, r.nodes)
                for r in (game.solve(deal, rules, limits) for deal in deals)]
    for limits in (LIMITS, Limits(nodes=200)):
        first = results(limits)
        deals.reverse()
        again = results(limits)[::-1]
        deals.reverse()
        assert again == first


def test_replay_names_a_bad_move(game):
    rules = game.parse_rules(game.default_rules)
    deal = game.deal_from_seed(1, rules)
    result = game.solve(deal, rules, LIMITS)
    if not result.moves:
        pytest.skip("no line of play to break")
    texts = [game.format_move(m) for m in result.moves]
    with pytest.raises(BadInput):
        game.replay_text(deal, rules, texts + texts[-1:])
    with pytest.raises(BadInput):
        game.parse_move("not a move")


def test_a_tiny_limit_says_limit(game):
    rules = game.parse_rules(game.default_rules)
    for seed in range(1, 40):
        result = game.solve(game.deal_from_seed(seed, rules), rules, Limits(nodes=1))
        if result.status is Status.LIMIT:
            return
    pytest.skip("every deal of these rules is decided within one node")


def game_is_designable(game) -> bool:
    return isinstance(game, games.Designable)


@pytest.fixture(params=games.designable())
def designable(request) -> games.Designable:
    return games.get(request.param)


def test_grade_is_a_property_of_the_puzzle(designable):
    rules = designable.parse_rules(designable.default_rules)
    rng = random.Random(7)
    deal = designable.deal_from_seed(11, rules)
    first = grade(designable, deal, rules)
    assert first.level in (*LEVELS, "unsolvable")
    copy = designable.symmetric_copy(deal, rules, rng)
    assert designable.canonical(copy, rules) == designable.canonical(deal, rules)
    assert designable.rough_hardness(copy, rules) == designable.rough_hardness(deal, rules)
    again = grade(designable, copy, rules)
    assert again.to_json() | {"solution": None} == first.to_json() | {"solution": None}
    if first.level != "unsolvable":
        assert designable.replay_text(copy, rules, again.solution).won
        assert designable.hardness(deal, rules) == first.metrics["hardness"]
        assert designable.hardness(copy, rules, repeat=1) == \
            designable.hardness(deal, rules, repeat=1)
        assert isinstance(figure(first.metrics, designable.check_figure), (int, float))
    neighbour = designable.neighbour(deal, rules, rng)
    assert designable.parse_deal(designable.format_deal(neighbour), rules) == neighbour


def test_generate_one_puzzle_and_validate_its_pack(designable, tmp_path):
    out = tmp_path / f"{designable.name}.json"
    result = CliRunner().invoke(cli, [designable.name, "generate", "--level", "easy",
                                      "--count", "1", "--seed", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    pack = packs.load(out)
    assert pack["game"] == designable.name and len(pack["puzzles"]) == 1
    assert pack["puzzles"][0]["level"] == "easy"
    assert packs.validate(pack) == []
    shown = CliRunner().invoke(cli, ["pack", "show", str(out)])
    assert shown.exit_code == 0 and pack["puzzles"][0]["id"] in shown.output


def test_every_game_says_how_people_see_it(game):
    """A title for every game; a designable game's goal and move notation in words, a printed
    sheet of a deal with a cell for every place of its grid, and a page script that registers
    itself under the game's name."""
    assert game.title
    if not game_is_designable(game):
        return
    assert game.goal.endswith(".") and game.notation.endswith(".")
    rules = game.parse_rules(game.default_rules)
    sheet = game.sheet(game.deal_from_seed(11, rules), rules)
    assert len(sheet.cells) == sheet.rows * sheet.cols
    assert all(len(labels) in (0, size) for labels, size in ((sheet.row_labels, sheet.rows),
                                                             (sheet.col_labels, sheet.cols)))
    assert f"puzzlegen.games.{game.name} = " in game.page_script_text()


@pytest.mark.parametrize("bad", [dict(nodes=-5), dict(states=-1), dict(seconds=-0.5),
                                 dict(seconds=float("nan"))])
def test_limits_refuse_what_would_mean_no_limit(bad):
    # The kernels read a cap below zero as "unlimited": a negative limit must not get there.
    with pytest.raises(ValueError, match="at least 0"):
        Limits(**bad)
    assert Limits(nodes=0).after(nodes_used=3).nodes == 0


@pytest.mark.parametrize("name", games.names())
def test_one_check_of_a_line_for_every_game(name):
    """``line_problem``: the solver's own line is fine; a line claiming the other outcome, or
    another value, or holding a move that is not one, is named."""
    game = games.get(name)
    rules = game.parse_rules(game.default_rules)
    for seed in range(20):
        deal = game.deal_from_seed(seed, rules)
        result = game.solve(deal, rules, LIMITS)
        if result.moves and result.status.value != "limit":
            break
    else:
        pytest.skip("no decided line of play in 20 deals")
    text = [game.format_move(m) for m in result.moves]
    assert game.line_problem(deal, rules, result.moves, result.solved, result.value) is None
    assert game.line_problem(deal, rules, text, result.solved, result.value) is None
    assert game.line_problem(deal, rules, text, not result.solved) in (
        "does not win", "wins, though it claims no win")
    if result.value is not None:
        assert game.line_problem(deal, rules, text, result.solved, result.value + 1) == \
            f"reaches {result.value:,}, not the {result.value + 1:,} it claims"
    assert game.line_problem(deal, rules, ["not a move"], result.solved)


@pytest.mark.parametrize("name", games.names())
def test_every_tuning_default_is_the_solvers_own(name):
    """A ``Tuning`` names a keyword of ``solve`` and gives the default ``solve`` has, so that
    an option left out of a command and a library call without it solve alike."""
    import inspect
    game = games.get(name)
    params = inspect.signature(game.solve).parameters
    for tune in game.tuning:
        assert tune.name in params, tune.name
        assert params[tune.name].default == tune.default, tune.name
        assert tune.kind in (bool, int, str) and tune.help
