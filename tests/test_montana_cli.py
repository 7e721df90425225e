"""``puzzlegen montana``: the JSON contract, replayed moves, win rates, and bad input."""
import json

import pytest
from click.testing import CliRunner

from puzzlegen.cli import cli as toolkit
from puzzlegen.runs import read_records
from puzzlegen.winrate import play
from solvers.game import get
from solvers.montana import api
from solvers.result import Limits

GAME = get("montana")


def run(*args):
    return CliRunner().invoke(toolkit, ["montana", *[str(a) for a in args]])


@pytest.mark.parametrize("extra", [[], ["--rules", "6-movable-twos-redeals2"],
                                   ["--rules", "6-redeals2-random-gaps"], ["--rules", "6"],
                                   ["--rules", "6-movable-twos-redeals2", "--no-columns"],
                                   ["--rules", "6-movable-twos-redeals2", "--hop-budgets", "none"],
                                   ["--rules", "6-movable-twos-redeals2", "--no-reach",
                                    "--no-safe"],
                                   ["--max-states", 300, "--forget", "--max-nodes", 10**7]])
def test_solve_json_replays_by_the_rules(extra):
    args = ["--rules", "6-redeals2", *extra] if "--rules" not in extra else extra
    result = run("solve", "--seed", 3, "--json", *args)
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    rules = GAME.parse_rules(args[args.index("--rules") + 1])
    assert set(out) >= {"status", "value", "rounds", "first", "moves"}
    end = GAME.replay_text(GAME.deal_from_seed(3, rules), rules, out["moves"])
    assert end.value == out["value"] and end.won == (out["status"] == "solved")
    assert out["moves"].count("redeal/3") == out["rounds"] - 1


def test_solve_after_moves_and_the_choices_of_that_layout():
    """--moves: the line printed continues the first-round layout they reach and replays whole
    from the deal; --choices decides every legal move of that layout."""
    rules = GAME.parse_rules("6-movable-twos")
    deal = GAME.deal_from_seed(4, rules)
    full = json.loads(run("solve", "--seed", 4, "--rules", "6-movable-twos", "--json").output)
    prefix = full["moves"][:3]
    out = json.loads(run("solve", "--seed", 4, "--rules", "6-movable-twos", "--moves",
                         " ".join(prefix), "--choices", "--json").output)
    assert out["moves_played"] == 3 and out["status"] == full["status"]
    end = GAME.replay_text(deal, rules, prefix + out["moves"])
    assert (end.won, end.value) == (out["status"] == "solved", out["value"])
    layout = GAME.start_after(deal, rules, [GAME.parse_move(m) for m in prefix])
    named = sum(out["choices"].values(), [])
    assert sorted(named) == sorted(GAME.format_move(m) for m, _ in GAME.first_moves(deal, rules,
                                                                                   layout))
    assert bool(out["choices"]["won"]) == (out["status"] == "solved")
    refused = run("solve", "--seed", 4, "--rules", "6-movable-twos-redeals2",
                  "--moves", "redeal/4")
    assert refused.exit_code == 2 and "a solve starts within the first round" in refused.output


def test_solve_a_deal_and_print_for_people():
    deal = "2C 3C 3D AC 2D AD 2H 3H AH 2S 3S AS"
    result = run("solve", *deal.split(), "--rules", 3)
    assert result.exit_code == 0, result.output
    assert "won: 8 of 8 cards locked after 1 round (" in result.output
    assert "solution: " in result.output


def test_winrate_json_counts():
    result = run("winrate", "--deals", 30, "--rules", 5, "--json")
    assert result.exit_code == 0, result.output
    a = json.loads(result.output)
    assert a["limit"] == 0 and a["won"] + a["lost"] == a["deals"] == 30
    assert a["win_rate"]["count"] == a["won"] and a["win_rate"]["deals"] == 30
    lo, hi = a["win_rate"]["wilson95"]
    assert lo <= a["win_rate"]["rate"] <= hi


def test_winrate_counts_limits_separately(tmp_path):
    per_deal = tmp_path / "deals.jsonl"
    result = run("winrate", "--deals", 3, "--rules", "13-redeals2", "--max-states", 5,
                 "--no-forget", "--per-deal", per_deal, "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    lines = list(read_records(per_deal))
    assert out["limit"] == sum(r["result"] == "limit" for r in lines) == 3 - out["won"]
    assert out["win_rate"]["deals"] == 3 - out["limit"]
    assert out["limits_lost_won"]["rate"] == [out["won"] / 3, (out["won"] + out["limit"]) / 3]


def test_a_forgetting_search_stops_at_its_moves():
    """A forgetting table never stops for memory: --max-nodes ends the search with ``limit``,
    and a run's settings name the moves its deals had; a search given no limit at all makes
    ``FORGET_MAX_NODES`` moves."""
    game = ["--seed", 7, "--rules", "13-movable-twos", "--max-states", 10**6, "--forget"]
    out = json.loads(run("solve", *game, "--max-nodes", 5000, "--json").output)
    assert out["status"] == "limit" and out["nodes"] == 5000
    assert out["stopped_by"] == {"limit": "nodes", "value": 5000}
    out = json.loads(run("winrate", "--deals", 1, *game[2:], "--max-nodes", 3000,
                         "--json").output)
    assert out["max_nodes"] == 3000 and out["limit"] == 1
    help = " ".join(run("winrate", "--help").output.split())
    assert f"[default: {api.FORGET_MAX_NODES};" in help
    assert f"and {api.FORGET_MAX_NODES:,} moves a deal) decide 99.9% of random 52-card" in help


@pytest.mark.parametrize("movable, extra", [("", []), ("-movable-twos", ["--pass-states", 2000])])
def test_first_round_of_a_game_is_the_single_deal(tmp_path, movable, extra):
    """Round 1 of a game with redeals is the single-deal search: same outcome, deal by deal."""
    files = {r: tmp_path / f"r{r}.jsonl" for r in (0, 2)}
    outs = {}
    for r, path in files.items():
        rules = f"7{movable}" + (f"-redeals{r}" if r else "")
        result = run("winrate", "--deals", 40, "--seed", 500, "--rules", rules,
                     "--per-deal", path, "--json", *extra)
        assert result.exit_code == 0, result.output
        outs[r] = json.loads(result.output)
    single, game = (list(read_records(files[r])) for r in (0, 2))
    assert [(d["seed"], d["result"], d["value"]) for d in single] == \
        [(d["seed"], d["first"]["result"], d["first"]["locked"]) for d in game]
    assert outs[2]["first_round"]["won"] == outs[0]["won"] == outs[0]["first_round"]["won"]
    assert outs[2]["won"] > outs[2]["first_round"]["won"]


@pytest.mark.parametrize("rules,tuning", [("7-redeals2", {}),
                                          ("6-movable-twos-redeals2", {"pass_states": 500})])
def test_a_bigger_table_changes_only_the_limit_deals(rules, tuning):
    """The search order does not depend on the table size: re-solving a run's limit deals with a
    bigger table gives exactly the run with that table (how examples/montana_winrate.py works).
    The hop-budget passes end at their own cap, whatever the table's size."""
    small, big = ([play(seed, "montana", rules, 0, Limits(states=states),
                        {**tuning, "forget": False}) for seed in range(40)]
                  for states in (3000, 1_000_000))
    assert any(r["result"] == "limit" for r in small)
    for a, b in zip(small, big):
        if a["result"] != "limit":
            assert {**a, "seconds": 0} == {**b, "seconds": 0}


def test_a_forgetting_table_plays_the_games_of_a_big_one():
    """``--forget`` with a small table plays every game as a table big enough for all does
    (fixed Twos: every layout may be forgotten, so no limit)."""
    small, big = ([play(seed, "montana", "7-redeals2", 0, Limits(nodes=10**8, states=states),
                        {"forget": forget})
                   for seed in range(40)] for states, forget in ((300, True), (1_000_000, False)))
    assert [r["result"] for r in small] == [r["result"] for r in big]
    assert small == [{**b, "seconds": s["seconds"], "states": s["states"], "nodes": s["nodes"],
                      "first": {**b["first"], "states": s["first"]["states"]}}
                     for s, b in zip(small, big)]
    assert sum(s["states"] > b["states"] for s, b in zip(small, big)) >= 5


@pytest.mark.parametrize("args,message", [
    (["solve", "--rules", 3, "AC 2C"], "the deal has 2 cards, expected 12"),
    (["solve", "--rules", 3, "AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 3H"], "duplicate card 3H"),
    (["solve", "--rules", 3, "AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 9S"],
     "card 9S is not in a deck of ranks A..3"),
    (["solve", "--rules", 3, "AC AD AH AS 2C 2D 2H 2S 3C 3D 3H ZZ"], "malformed card"),
    (["solve", "--seed", 1, "--rules", 2], "ranks"),
    (["solve"], "give exactly one of a DEAL, --seed N"),
    (["solve", "--seed", 1, "AC"], "give exactly one of a DEAL, --seed N"),
    (["solve", "--seed", 1, "--rules", "8-redeals-1"], "unknown Montana rules"),
    (["solve", "--seed", 1, "--max-states", 0], "'--max-states': 0 is not in the range 1<="),
    (["solve", "--seed", 1, "--max-seconds", 0], "'--max-seconds': 0 is not a finite number"),
    (["winrate", "--deals", 2, "--max-seconds", "nan"], "'--max-seconds': nan is not a finite"),
    (["winrate", "--deals", 2, "--max-nodes", 0], "'--max-nodes': 0 is not in the range 1<="),
    (["winrate", "--deals", 2, "--rules", 20], "ranks"),
    (["winrate", "--deals", 2, "--max-states", 0], "'--max-states': 0 is not in the range 1<="),
    (["solve", "--seed", 1, "--hop-budgets", "2,16", "--rules", "8-movable-twos"],
     "--hop-budgets must be rising numbers from 0 to 15 (or none), got 2,16"),
    (["solve", "--seed", 1, "--hop-budgets", "2,1", "--rules", "8-movable-twos"],
     "--hop-budgets must be rising numbers"),
    (["solve", "--seed", 1, "--hop-budgets", "two"],
     "--hop-budgets takes comma-separated numbers or none"),
    (["winrate", "--deals", 2, "--pass-states", 0], "'--pass-states': 0 is not in the range 1<="),
    (["solve", "--seed", 1, "--redeal-seed", -1], "'--redeal-seed': -1 is not in the range 0<="),
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
        out = json.loads(run("solve", entry["deal"], "--rules", 8, "--choices",
                             "--json").output)
        metrics = entry["metrics"]
        assert sum(map(len, out["choices"].values())) == metrics["first_moves"]
        assert len(out["choices"]["won"]) == metrics["winning_first_moves"]
        assert not out["choices"]["limit"]
        compared += metrics["winning_first_moves"] < metrics["first_moves"]
    assert compared >= 2
    readable = run("solve", pack["puzzles"][0]["deal"], "--rules", 8, "--choices").output
    assert "legal moves keep the deal winnable" in readable
