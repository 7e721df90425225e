"""``puzzlegen montana``: the JSON contract, replayed moves, win rates, and bad input."""
import json

import pytest
from click.testing import CliRunner

from puzzlegen.commands import montana as montana_cmd
from puzzlegen.commands.montana import cli, play
from puzzlegen.runs import read_records
from solvers.cards import Card
from solvers.montana import Search
from solvers.montana.rules import Move, Rules, locked_count, parse_deal, replay
from solvers.result import Limits


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.mark.parametrize("extra", [[], ["--movable-twos"], ["--gaps", "random"],
                                   ["--redeals", "0"], ["--movable-twos", "--no-columns"],
                                   ["--movable-twos", "--hop-budgets", "none"],
                                   ["--movable-twos", "--no-reach", "--no-safe"],
                                   ["--max-states", 300, "--forget", "--max-nodes", 10**7]])
def test_solve_json_rounds_replay(extra):
    result = run("solve", "--seed", 3, "--ranks", 6, "--json", *extra)
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    rules = Rules(6, movable_twos="--movable-twos" in extra)
    assert set(out) >= {"won", "rounds", "status", "locked"}
    for rnd in out["rounds"]:
        moves = [Move(Card.parse(m["card"]), tuple(m["to"])) for m in rnd["moves"]]
        assert locked_count(replay(parse_deal(rnd["deal"], 6), moves, rules), 6) == rnd["locked"]
    assert out["won"] == (out["rounds"][-1]["locked"] == 20)


def test_solve_a_deal_and_print_for_people():
    deal = "2C 3C 3D AC 2D AD 2H 3H AH 2S 3S AS"
    result = run("solve", *deal.split(), "--ranks", 3)
    assert result.exit_code == 0, result.output
    assert "round 1: 8 of 8 cards locked (won)" in result.output
    assert result.output.strip().endswith("won")


def test_winrate_json_counts():
    result = run("winrate", "--deals", 30, "--ranks", 5, "--redeals", 0, "--json")
    assert result.exit_code == 0, result.output
    a = json.loads(result.output)
    assert a["limit"] == 0 and a["won"] + a["lost"] == a["deals"] == 30
    assert a["win_rate"]["count"] == a["won"] and a["win_rate"]["deals"] == 30
    lo, hi = a["win_rate"]["wilson95"]
    assert lo <= a["win_rate"]["rate"] <= hi


def test_winrate_counts_limits_separately(tmp_path):
    per_deal = tmp_path / "deals.jsonl"
    result = run("winrate", "--deals", 3, "--max-states", 5, "--no-forget", "--per-deal", per_deal,
                 "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    lines = list(read_records(per_deal))
    assert out["limit"] == sum(r["result"] == "limit" for r in lines) == 3 - out["won"]
    assert out["win_rate"]["deals"] == 3 - out["limit"]
    assert out["limits_lost_won"]["rate"] == [out["won"] / 3, (out["won"] + out["limit"]) / 3]


def test_forget_given_no_limit_stops_at_the_default_moves(monkeypatch):
    """A forgetting table never stops for memory, so a search given neither --max-nodes nor
    --max-seconds makes ``FORGET_MAX_NODES`` moves (lowered here) and says ``limit``; a limit
    given is kept, and a run's settings name the moves its deals had."""
    monkeypatch.setattr(montana_cmd, "FORGET_MAX_NODES", 3000)
    game = ["--seed", 7, "--movable-twos", "--redeals", 0, "--max-states", 300, "--forget"]
    out = json.loads(run("solve", *game, "--json").output)
    assert out["status"] == "limit" and out["nodes"] == 3000
    out = json.loads(run("solve", *game, "--max-nodes", 5000, "--json").output)
    assert out["status"] == "limit" and out["nodes"] == 5000
    assert out["stopped_by"] == out["rounds"][0]["stopped_by"] == {"limit": "nodes",
                                                                    "value": 5000}
    out = json.loads(run("winrate", "--deals", 1, *game[2:], "--json").output)
    assert out["max_nodes"] == 3000 and out["limit"] == 1


@pytest.mark.parametrize("extra", [[], ["--movable-twos", "--pass-states", 2000]])
def test_first_round_of_a_game_is_the_single_deal(tmp_path, extra):
    """Round 1 of a game with redeals is the single-deal search: same outcome, deal by deal."""
    files = {r: tmp_path / f"r{r}.jsonl" for r in (0, 2)}
    outs = {}
    for r, path in files.items():
        result = run("winrate", "--deals", 40, "--seed", 500, "--ranks", 7, "--redeals", r,
                     "--per-deal", path, "--json", *extra)
        assert result.exit_code == 0, result.output
        outs[r] = json.loads(result.output)
    single, game = (list(read_records(files[r])) for r in (0, 2))
    assert [(d["seed"], d["result"], d["locked"]) for d in single] == \
        [(d["seed"], d["first"]["result"], d["first"]["locked"]) for d in game]
    assert outs[2]["first_round"]["won"] == outs[0]["won"] == outs[0]["first_round"]["won"]
    assert outs[2]["won"] > outs[2]["first_round"]["won"]


@pytest.mark.parametrize("rules,search", [(Rules(7), Search()),
                                          (Rules(6, movable_twos=True), Search(pass_states=500))])
def test_a_bigger_table_changes_only_the_limit_deals(rules, search):
    """The search order does not depend on the table size: re-solving a run's limit deals with a
    bigger table gives exactly the run with that table (how examples/montana_winrate.py works).
    The hop-budget passes end at their own cap, whatever the table's size."""
    small, big = ([play(seed, rules, 2, Limits(), states, False, search) for seed in range(40)]
                  for states in (3000, 1_000_000))
    assert any(r["result"] == "limit" for r in small)
    for a, b in zip(small, big):
        if a["result"] != "limit":
            assert {**a, "seconds": 0} == {**b, "seconds": 0}


def test_a_forgetting_table_plays_the_games_of_a_big_one():
    """``--forget`` with a small table plays every game as a table big enough for all does
    (fixed Twos: every layout may be forgotten, so no limit)."""
    rules = Rules(7)
    small, big = ([play(seed, rules, 2, Limits(nodes=10**8), states, False, forget=forget)
                   for seed in range(40)] for states, forget in ((300, True), (1_000_000, False)))
    assert [r["result"] for r in small] == [r["result"] for r in big]
    assert small == [{**b, "seconds": s["seconds"], "states": s["states"],
                      "first": {**b["first"], "states": s["first"]["states"]}}
                     for s, b in zip(small, big)]
    assert sum(s["states"] > b["states"] for s, b in zip(small, big)) >= 5


@pytest.mark.parametrize("args,message", [
    (["solve", "--ranks", 3, "AC", "2C"], "the deal has 2 cards, expected 12"),
    (["solve", "--ranks", 3, *"AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 3H".split()], "duplicate card 3H"),
    (["solve", "--ranks", 3, *"AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 9S".split()],
     "card 9S is not in a deck of ranks A..3"),
    (["solve", "--ranks", 3, *"AC AD AH AS 2C 2D 2H 2S 3C 3D 3H ZZ".split()], "malformed card"),
    (["solve", "--seed", 1, "--ranks", 2], "--ranks must be between 3 and 13"),
    (["solve"], "give either a DEAL or --seed"),
    (["solve", "--seed", 1, "AC"], "give either a DEAL or --seed"),
    (["solve", "--seed", 1, "--redeals", -1], "--redeals must be at least 0"),
    (["solve", "--seed", 1, "--max-states", 0], "'--max-states': 0 is not in the range 1<="),
    (["solve", "--seed", 1, "--max-seconds", 0], "'--max-seconds': 0 is not a finite number"),
    (["winrate", "--deals", 2, "--max-seconds", "nan"], "'--max-seconds': nan is not a finite"),
    (["winrate", "--deals", 2, "--max-nodes", 0], "'--max-nodes': 0 is not in the range 1<="),
    (["winrate", "--deals", 2, "--ranks", 20], "--ranks must be between 3 and 13"),
    (["winrate", "--deals", 2, "--max-states", 0], "'--max-states': 0 is not in the range 1<="),
    (["solve", "--seed", 1, "--hop-budgets", "2,16"],
     "--hop-budgets must be rising numbers from 0 to 15 (or none), got 2,16"),
    (["solve", "--seed", 1, "--hop-budgets", "2,1"], "--hop-budgets must be rising numbers"),
    (["solve", "--seed", 1, "--hop-budgets", "two"],
     "--hop-budgets takes comma-separated numbers or none"),
    (["winrate", "--deals", 2, "--pass-states", 0], "'--pass-states': 0 is not in the range 1<="),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert "Traceback" not in result.output


def test_choices_count_the_winning_first_moves_the_grading_counts():
    """One round with fixed Twos, at the start of shipped puzzles: the legal moves, and those
    after which the game is still won, are the pack's ``first_moves`` and
    ``winning_first_moves`` (the grading's own exact analysis)."""
    from pathlib import Path
    pack = json.loads((Path(__file__).resolve().parent.parent / "puzzles/montana-8.json")
                      .read_text())
    compared = 0
    for entry in pack["puzzles"][::5]:
        out = json.loads(run("solve", entry["deal"], "--ranks", 8, "--redeals", 0, "--choices",
                             "--json").output)
        metrics = entry["metrics"]
        assert sum(map(len, out["choices"].values())) == metrics["first_moves"]
        assert len(out["choices"]["won"]) == metrics["winning_first_moves"]
        assert not out["choices"]["limit"]
        compared += metrics["winning_first_moves"] < metrics["first_moves"]
    assert compared >= 2
    readable = run("solve", pack["puzzles"][0]["deal"], "--ranks", 8, "--redeals", 0,
                   "--choices").output
    assert "legal moves keep the game winnable" in readable
