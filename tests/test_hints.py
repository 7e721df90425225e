"""Hints and critical moments against a brute-force search over the rules module."""
from __future__ import annotations

import json
import time
from functools import lru_cache

from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from puzzlegen.cli import cli
from solvers.stacksquared.difficulty import Decider, line_cells_to_moves, tops
from solvers.stacksquared.hints import critical_moments, explain_lines, hint
from solvers.stacksquared import Deal
from solvers.stacksquared.rules import Position, replay

SHAPES = [(3, 3), (2, 4)]


@lru_cache(maxsize=None)
def wins(position: Position) -> bool:
    """One stack is reachable from ``position`` (plain recursion over every move)."""
    return position.stacks() == 1 or any(wins(position.play(m)) for m in position.legal_moves())


def safe_by_brute_force(position: Position) -> list[str]:
    return [str(m) for m in position.legal_moves() if wins(position.play(m))]


def random_prefix(deal: Deal, picks: list[int]) -> list[str]:
    position, played = Position.start(deal), []
    for pick in picks:
        legal = list(position.legal_moves())
        if not legal:
            break
        move = legal[pick % len(legal)]
        played.append(str(move))
        position = position.play(move)
    return played


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 30000), st.sampled_from(SHAPES), st.lists(st.integers(0, 99), max_size=8))
def test_hint_matches_brute_force(seed, shape, picks):
    deal = Deal.from_seed(seed, *shape)
    moves = random_prefix(deal, picks)
    position = replay(deal, moves)
    result = hint(deal, moves)
    legal = [str(m) for m in position.legal_moves()]
    safe = safe_by_brute_force(position)
    assert result.solvable == wins(position)
    assert result.safe == safe
    assert result.losing == [m for m in legal if m not in safe]
    if not safe:
        assert result.suggested is None
    else:
        def after(m):
            return len(safe_by_brute_force(position.play(next(x for x in position.legal_moves()
                                                                if str(x) == m))))
        best = max(after(m) for m in safe)
        assert result.suggested == min(m for m in safe if after(m) == best)
    assert result.to_json() == {"solvable": result.solvable, "safe": result.safe,
                                "losing": result.losing, "suggested": result.suggested,
                                "limit": None, "stopped_by": None}


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 30000), st.sampled_from(SHAPES))
def test_critical_moments_match_brute_force(seed, shape):
    deal = Deal.from_seed(seed, *shape)
    moments = critical_moments(deal)
    if not wins(Position.start(deal)):
        assert moments == []
        return
    _, cells = Decider(deal).decide(tops(Position.start(deal)), reference=True)
    line = line_cells_to_moves(deal, cells)
    assert replay(deal, line).stacks() == 1
    by_step = {m["step"]: m for m in moments}
    position = Position.start(deal)
    for step, move in enumerate(line, 1):
        legal = list(position.legal_moves())
        safe = safe_by_brute_force(position)
        critical = 2 * (len(legal) - len(safe)) > len(legal)
        assert (step in by_step) == critical
        if critical:
            assert by_step[step] == {"step": step, "stacks": position.stacks(),
                                     "legal": len(legal), "losing": len(legal) - len(safe),
                                     "winning": safe, "played": str(move)}
            assert str(move) in safe
        position = position.play(move)


def test_some_deals_have_critical_moments_and_explanations():
    deal = next(d for d in (Deal.from_seed(s, 3, 3) for s in range(200)) if critical_moments(d))
    moments = critical_moments(deal)
    lines = explain_lines(moments)
    assert len(lines) == len(moments)
    m = moments[0]
    assert lines[0].startswith(f"move {m['step']} ({m['stacks']} stacks left): only "
                               f"{len(m['winning'])} of {m['legal']} moves")
    assert lines[0].endswith(": " + ", ".join(m["winning"]))


def test_unsolvable_deal_has_no_moments_and_no_safe_move():
    deal = next(d for d in (Deal.from_seed(s, 3, 3) for s in range(200))
                if not wins(Position.start(d)))
    assert critical_moments(deal) == []
    result = hint(deal)
    assert not result.solvable and result.safe == [] and result.suggested is None
    assert result.losing == [str(m) for m in Position.start(deal).legal_moves()]


def run(*args):
    return CliRunner().invoke(cli, ["stacksquared", "hint", *args])


def test_cli_json_and_text():
    deal = Deal.from_seed(4, 3, 3)
    moves = random_prefix(deal, [3, 1])
    out = run("--seed", "4", "--rules", "3x3", "--moves", " ".join(moves), "--json")
    assert out.exit_code == 0, out.output
    got = json.loads(out.output)
    assert set(got) == {"solvable", "safe", "losing", "suggested", "limit", "stopped_by",
                        "moves_played", "stacks", "choices"}
    assert got["moves_played"] == moves and got["stacks"] == 9 - len(moves)
    position = replay(deal, moves)
    assert got["solvable"] == wins(position) and got["safe"] == safe_by_brute_force(position)
    # The same verdicts in the shape every game's --choices has, in legal-move order.
    legal = [str(m) for m in position.legal_moves()]
    assert got["choices"] == {"won": got["safe"], "lost": got["losing"], "limit": []}
    assert sorted(got["safe"] + got["losing"], key=legal.index) == legal
    text = run(str(deal), "--rules", "3x3", "--moves", " ".join(moves))
    assert text.exit_code == 0, text.output
    assert f"solvable: {'yes' if got['solvable'] else 'no'}" in text.output
    assert f"suggested: {got['suggested'] or 'none'}" in text.output
    grid = [line.split() for line in text.output.splitlines()[:3]]
    assert [len(row) for row in grid] == [3, 3, 3]
    assert sum(row.count("--") for row in grid) == len(moves)


def test_a_position_past_the_state_limit_says_limit():
    """The 4x4 deal 1 stores more than 1,000 states before its start is decided: the hint
    claims nothing (``limit``, no moves), with exit status 0, as a solve's ``limit``; with the
    default limit the same call decides a small deal."""
    deal = Deal.from_seed(1, 4, 4)
    assert hint(deal, max_states=1000).to_json() == {
        "solvable": None, "safe": [], "losing": [], "suggested": None,
        "limit": "the decision search stored 1,000 states", "stopped_by": "states"}
    out = run("--seed", "1", "--max-states", "1000", "--json")
    assert out.exit_code == 0 and json.loads(out.output)["limit"], out.output
    legal = [str(m) for m in replay(deal, []).legal_moves()]
    assert json.loads(out.output)["choices"] == {"won": [], "lost": [], "limit": legal}
    text = run("--seed", "1", "--max-states", "1000")
    assert text.exit_code == 0 and "solvable: limit (the decision search stored 1,000 states; " \
        "--max-states raises it)" in text.output and "safe moves" not in text.output
    assert hint(Deal.from_seed(4, 3, 3)).limit is None
    huge = run("--seed", "1", "--max-states", str(10 ** 15))
    assert huge.exit_code == 2 and huge.output.startswith("error: --max-states ") \
        and "of memory" in huge.output


def test_a_hint_past_its_time_limit_says_limit():
    """A whole deck in one row: sorting every safe move by the safe moves after it runs far
    past a minute; with --max-seconds 2 the hint says limit, naming the time, within seconds."""
    hint(Deal.from_seed(4, 3, 3), max_seconds=5)   # compiled before the clock starts
    start = time.monotonic()
    text = run("--seed", "5", "--rules", "1x52", "--max-seconds", "2")
    assert time.monotonic() - start < 10
    assert text.exit_code == 0 and "solvable: limit (the decision searches ran for 2 seconds; " \
        "--max-seconds raises it)" in text.output, text.output
    out = json.loads(run("--seed", "5", "--rules", "1x52", "--max-seconds", "0.5",
                         "--json").output)
    assert out["stopped_by"] == "seconds" and out["safe"] == [] and out["solvable"] is None
    bad = run("--seed", "5", "--max-seconds", "0")
    assert bad.exit_code == 2 and bad.output.startswith("error: ")


def test_cli_bad_input_is_one_error_line():
    deal = Deal.from_seed(4, 3, 3)
    first = str(next(Position.start(deal).legal_moves()))
    cases = {(first, first): f"move 2 ({first}) is illegal",
             (first, "ZZ-9H"): "ZZ-9H", ("9H",): "9H"}
    for moves, named in cases.items():
        bad = run("--seed", "4", "--rules", "3x3", "--moves", " ".join(moves))
        assert bad.exit_code == 2, bad.output
        assert bad.output.startswith("error: ") and len(bad.output.strip().splitlines()) == 1
        assert named in bad.output
    for args in (["5S JC QH"], ["--seed", "1", "5S JC"], ["--rules", "3x3"]):
        bad = run(*args)
        assert bad.exit_code == 2 and bad.output.startswith("error: ")
        assert len(bad.output.strip().splitlines()) == 1
