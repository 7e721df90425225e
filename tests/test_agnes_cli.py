"""``puzzlegen agnes``: the contract fields, readable output, deck files and bad input."""
import json

import pytest
from click.testing import CliRunner

from puzzlegen.cli import cli
from puzzlegen.runs import read_records
from solvers.agnes import (MAX_LINE, deal_from_seed, limit_text, parse_move, parse_rules, replay,
                           solve)
from solvers.agnes.rules import format_deck
from solvers.result import SolveResult, Status


def run(*args):
    return CliRunner().invoke(cli, ["agnes", *args])


def test_solve_json_line_replays():
    result = run("solve", "--rules", "up-suit-anyrun-nosplit", "--seed", "5", "--start", "139",
                 "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["status"] == "solved" and out["value"] == out["max_score"] == 52
    assert out["nodes"] > 0 and "states" not in out
    board = replay(deal_from_seed(5, 139), parse_rules("Up-Suit-AnyRun-NoSplit"),
                   [parse_move(m) for m in out["moves"]])
    assert board.score == 52



def test_solve_after_moves_continues_from_the_position_they_reach():
    """The line printed after --moves finishes the game those moves began (replayed whole by
    the rule book); a losing prefix is told lost, and the moves are numbered on from it."""
    rules = parse_rules("Up-Suit-AnyRun-NoSplit")
    deal = deal_from_seed(5, 139)
    full = json.loads(run("solve", "--rules", rules.name, "--seed", "5", "--start", "139",
                          "--json").output)
    prefix = [parse_move(m) for m in full["moves"][:40]]
    text = "; ".join(str(m) for m in prefix)
    out = json.loads(run("solve", "--rules", rules.name, "--seed", "5", "--start", "139",
                         "--moves", text, "--json").output)
    assert out["moves_played"] == 40 and out["status"] == "solved"
    assert replay(deal, rules, prefix + [parse_move(m) for m in out["moves"]]).score == 52
    lost = json.loads(run("solve", "--rules", rules.name, "--seed", "5", "--start", "139",
                          "--moves", "deal; deal", "--json").output)
    assert lost["status"] == "unsolvable" and lost["moves_played"] == 2
    readable = run("solve", "--rules", rules.name, "--seed", "5", "--start", "139",
                   "--moves", text.replace("; ", "\n")).output
    assert "after 40 moves:" in readable and "pile 7:" in readable
    assert f"\nsolution from move 41: {out['moves'][0]}; " in readable


def test_choices_say_which_legal_moves_keep_the_deal_winnable():
    """Each legal move of the position is decided: a kept move's position is won, a lost one's
    lost, by the plain search (the losing-state table only) from there."""
    rules = parse_rules("Up-Suit-AnyRun-NoSplit")
    deal = deal_from_seed(5, 139)
    for prefix in ([], [parse_move("6D from pile 6 to foundation")]):
        out = json.loads(run("solve", "--rules", rules.name, "--seed", "5", "--start", "139",
                             "--moves", "; ".join(map(str, prefix)), "--choices", "--json").output)
        board = replay(deal, rules, prefix)
        named = out["choices"]["won"] + out["choices"]["lost"] + out["choices"]["limit"]
        assert sorted(named) == sorted(str(m) for m in board.legal_moves())
        assert not out["choices"]["limit"]
        for text in named:
            after = replay(deal, rules, prefix + [parse_move(text)])
            plain = solve(deal, rules, start=after, prune=0x10)
            assert plain.solved == (text in out["choices"]["won"]), text
    assert out["choices"]["won"] and json.loads(run(
        "solve", "--rules", rules.name, "--seed", "5", "--start", "139", "--choices",
        "--json").output)["choices"]["lost"] == ["deal"]


def test_choices_a_limit_left_open_are_said_so():
    out = run("solve", "--rules", "Up-Suit-AnyRun-NoSplit", "--seed", "5", "--start", "139",
              "--choices", "--max-nodes", "40").output
    assert "choices: 0 of 7 legal moves keep the deal winnable, 7 undecided (the limit " \
           "stopped their search)" in out
    assert out.count("\n  limit ") == 7

def _untimed(output):
    return [line for line in output.splitlines() if not line.startswith("nodes:")]


def test_solve_readable_and_deck_file_in_both_formats(tmp_path):
    deal = deal_from_seed(5, 83)
    seeded = run("solve", "--rules", "Up-Color-High1", "--seed", "5", "--start", "83")
    assert seeded.exit_code == 0 and "\nsolution: " in seeded.output
    assert seeded.output.startswith(format_deck(deal) + "\n")
    for quagnes in (False, True):
        path = tmp_path / f"deck{quagnes}.txt"
        path.write_text(format_deck(deal, quagnes=quagnes))
        from_file = run("solve", "--rules", "Up-Color-High1", "--deal-file", str(path))
        assert from_file.exit_code == 0
        assert _untimed(from_file.output) == _untimed(seeded.output)
    former = run("solve", "--rules", "Up-Color-High1", "--deck", str(path))
    assert former.stderr == "puzzlegen: --deck is deprecated; use --deal-file\n"
    assert _untimed(former.stdout) == _untimed(seeded.output)


def test_limit_is_reported_as_limit_naming_the_limit():
    args = ["solve", "--rules", "Up-Suit-HighRun", "--seed", "1", "--start", "9",
            "--max-nodes", "50"]
    out = json.loads(run(*args, "--json").output)
    assert out["status"] == "limit" and out["nodes"] <= 50
    assert out["stopped_by"] == {"limit": "nodes", "value": 50}
    assert "\nnot decided: the search stopped at the limit of 50 nodes; max score " \
        in run(*args).output


def test_the_depth_limit_is_named_too():
    depth = SolveResult(Status.LIMIT, details={"stopped_by": {"limit": "depth",
                                                              "value": MAX_LINE}})
    assert limit_text(depth) == "the depth limit of 262,142 moves in one line of play"


def test_a_table_too_small_still_never_goes_round_in_circles():
    """The states of the line being searched stay in the table whatever else it forgets, so a
    search with a table far too small ends at the node limit, not at the depth limit (as it
    did, after 656,978 nodes, when the line's states could be evicted)."""
    out = json.loads(run("solve", "--rules", "Up-Color-Any1", "--seed", "1", "--start", "2",
                         "--table-bits", "10", "--max-nodes", "1000000", "--json").output)
    assert out["status"] == "limit" and out["stopped_by"] == {"limit": "nodes", "value": 1000000}


def test_winrate_json_and_per_deal_lines(tmp_path):
    per_deal = tmp_path / "deals.jsonl"
    result = run("winrate", "--rules", "Up-Suit-AnyRun-NoSplit", "--deals", "6", "--seed", "5",
                 "--max-nodes", "20000", "--json", "--per-deal", str(per_deal))
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    lines = list(read_records(per_deal))
    assert [line["index"] for line in lines] == list(range(6))
    for line in lines:
        assert {"index", "result", "value", "nodes", "max_score", "seconds"} <= set(line)
        assert ("stopped_by" in line) == (line["result"] == "limit")
    for line in lines[3:]:   # deal K of the seed, as `solve --start K` deals it
        alone = json.loads(run("solve", "--rules", "Up-Suit-AnyRun-NoSplit", "--seed", "5",
                               "--start", str(line["index"]), "--max-nodes", "20000",
                               "--json").output)
        assert (alone["status"], alone["nodes"]) == (
            {"won": "solved", "lost": "unsolvable"}.get(line["result"], "limit"), line["nodes"])
    for key in ("won", "lost", "limit"):
        assert summary[key] == sum(line["result"] == key for line in lines)
    assert summary["limit"] > 0 and summary["win_rate"]["deals"] == 6 - summary["limit"]
    lo, hi = summary["win_rate"]["wilson95"]
    assert lo <= summary["win_rate"]["rate"] <= hi


@pytest.mark.parametrize("args,message", [
    (["solve", "--rules", "Up-Suit-Nothing", "--seed", "1"], "unknown rules"),
    (["solve", "--rules", "Up-Suit-None"], "exactly one of a DEAL, --seed N"),
    (["solve", "--rules", "Up-Suit-None", "--seed", "1", "--deal-file", "x.txt"],
     "exactly one of"),
    (["solve", "--rules", "Up-Suit-None", "--deal-file", "/no/such/deck.txt"],
     "cannot use /no/such/deck.txt"),
    (["solve", "--rules", "Up-Suit-None", "--code", "x", "--start", "3"],
     "--start K takes --seed N"),
    (["solve", "--rules", "Up-Suit-None", "--seeds", "1..2", "--moves", "deal"],
     "--moves takes one deal"),
    (["winrate", "--rules", "sideways", "--deals", "3"], "unknown rules"),
    (["solve", "--rules", "Up-Suit-None", "--seed", "1", "--moves", "deal; fly"],
     "--moves: malformed move 'fly'"),
    (["solve", "--rules", "Up-Suit-None", "--seed", "1", "--moves", "deal;deal;deal;deal;deal"],
     "--moves: move 5 (deal) is illegal"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and message in result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output


@pytest.mark.parametrize("text,message", [("AC " * 52, "duplicate card AC"),
                                          ("(0, 0)\n(13, 1)\n", "malformed deck line 2"),
                                          ("AC 2C", "2 cards, expected 52")])
def test_bad_deck_files(tmp_path, text, message):
    path = tmp_path / "deck.txt"
    path.write_text(text)
    result = run("solve", "--rules", "Up-Suit-None", "--deal-file", str(path))
    assert result.exit_code == 2 and message in result.output and result.output.count("\n") == 1
