"""One meaning per limit option in every game's commands: ``--max-states`` bounds the positions a
search stores, ``--max-nodes`` those it examines (the moves it makes), ``--max-seconds`` its time;
a search they stop says ``limit`` and names the limit the same way.  The former spellings (every
game's ``--seconds``, stackmgmt ``--max-nodes``) still work for one version, each with one line
on stderr."""
from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from puzzlegen.cli import cli
from puzzlegen.runs import read_records
from solvers.stackmgmt import format_contest
from solvers.stackmgmt.generate import generate

SAMPLE = "5\n2 7 2 7 1\n2 6 4 7 4\n2 3 2 6 2\n2 4 2 10 2\n2 5 4 7 3\n2\n2 2\n0 2\n3 2\n4 1 3\n"
AGNES = ["agnes", "solve", "--rules", "Up-Suit-HighRun", "--seed", "1", "--start", "9"]
#: A deal whose search runs long (a table far too small): a time limit stops it.
AGNES_LONG = ["agnes", "solve", "--rules", "Up-Color-Any1", "--seed", "1", "--start", "2",
              "--table-bits", "10"]
AGNES_RUN = ["agnes", "winrate", "--rules", "Up-Suit-HighRun", "--deals", "3", "--seed", "1",
             "--table-bits", "12"]
#: A forgetting table never fills: only --max-nodes or --max-seconds stop this round.
MONTANA = ["montana", "solve", "--seed", "7", "--rules", "13-movable-twos",
           "--max-states", "1000000", "--forget"]
MONTANA_RUN = ["montana", "winrate", "--deals", "2", "--rules", "5-redeals2"]


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def ok(result) -> list[str]:
    """The stderr lines of a command that succeeded."""
    assert result.exit_code == 0, result.output
    return result.stderr.splitlines()


def untimed(stdout: str) -> list:
    """JSON lines without their times, or text lines without the timed result line."""
    def drop(obj):
        if isinstance(obj, dict):
            return {k: drop(v) for k, v in obj.items() if "seconds" not in k or k.startswith("max")}
        return [drop(v) for v in obj] if isinstance(obj, list) else obj
    lines = stdout.splitlines()
    try:
        return [drop(json.loads(line)) for line in lines]
    except ValueError:
        return [line for line in lines if not line.startswith("result:")
                and "seconds" not in line and "time" not in line]


# The standard options: a tiny limit says `limit`, naming the limit.

def test_agnes_max_nodes_and_max_seconds():
    out = json.loads(run(*AGNES, "--max-nodes", "50", "--json").stdout)
    assert out["status"] == "limit" and out["stopped_by"] == {"limit": "nodes", "value": 50}
    assert "the limit of 50 nodes; " in run(*AGNES, "--max-nodes", "50").stdout
    out = json.loads(run(*AGNES_LONG, "--max-seconds", "0.05", "--json").stdout)
    assert out["status"] == "limit" and out["stopped_by"] == {"limit": "seconds", "value": 0.05}
    assert "the time limit of 0.05 s; " in run(*AGNES_LONG, "--max-seconds", "0.05").stdout
    out = json.loads(run(*AGNES, "--max-states", "50", "--json").stdout)
    assert out["status"] == "limit" and out["stopped_by"] == {"limit": "states", "value": 50}


def test_agnes_winrate_limits_are_per_deal_and_named(tmp_path):
    per_deal = tmp_path / "deals.jsonl"
    summary = json.loads(run(*AGNES_RUN, "--max-nodes", "50", "--max-seconds", "30", "--json",
                             "--per-deal", str(per_deal)).stdout)
    assert summary["max_nodes"] == 50 and summary["max_seconds"] == 30 and summary["limit"] > 0
    assert summary["max_states"] is None and summary["table_bits"] == 12
    lines = list(read_records(per_deal))
    assert {line.get("stopped_by") for line in lines if line["result"] == "limit"} == {"nodes"}
    slow = json.loads(run("agnes", "winrate", "--rules", "Up-Color-Any1", "--deals", "1",
                          "--seed", "1", "--start", "2", "--table-bits", "10",
                          "--max-seconds", "0.05", "--json").stdout)
    assert slow["limit"] == 1 and slow["max_seconds"] == 0.05


def test_montana_max_seconds_and_max_nodes():
    out = json.loads(run(*MONTANA, "--max-seconds", "0.2", "--json").stdout)
    assert out["status"] == "limit" and out["stopped_by"] == {"limit": "seconds", "value": 0.2}
    out = json.loads(run(*MONTANA, "--max-nodes", "5000", "--json").stdout)
    assert out["stopped_by"] == {"limit": "nodes", "value": 5000} and out["nodes"] == 5000
    assert "stopped by the limit of 5,000 moves (--max-nodes): " in \
        run(*MONTANA, "--max-nodes", "5000").stdout
    small = run("montana", "solve", "--seed", "1", "--rules", "13", "--max-states", "1000",
                "--no-forget")
    assert "stopped by the limit of 1,000 layouts in a round's table (--max-states): " in \
        small.stdout
    out = json.loads(run("montana", "solve", "--seed", "1", "--rules", "13", "--max-states",
                         "1000", "--no-forget", "--json").stdout)
    assert out["stopped_by"] == {"limit": "states", "value": 1000}


def test_montana_winrate_names_max_seconds():
    summary = json.loads(run(*MONTANA_RUN, "--max-seconds", "30", "--json").stdout)
    assert summary["max_seconds"] == 30 and "seconds_limit" not in summary


def test_stackmgmt_max_states_and_max_seconds():
    rows = [json.loads(line) for line in
            run("stackmgmt", "contest", "--brute", "--max-states", "1", "--json",
                input=SAMPLE).stdout.splitlines()]
    assert rows[1]["answer"] == "LIMIT"
    assert rows[1]["stopped_by"] == {"limit": "states", "value": 1} and rows[1]["states"] == 1
    big = format_contest([generate("blocked", 60, 40, None, seed=1)])
    row = json.loads(run("stackmgmt", "contest", "--brute", "--max-seconds", "0.2", "--json",
                         input=big).stdout)
    assert row["answer"] == "LIMIT" and row["stopped_by"] == {"limit": "seconds", "value": 0.2}


# The former spellings: the same answer, and one line on stderr.

ALIASES = [  # (command, former spelling, value, standard spelling)
    (AGNES, "--seconds", "30", "--max-seconds"),
    (AGNES_RUN, "--seconds", "30", "--max-seconds"),
    (MONTANA, "--seconds", "30", "--max-seconds"),
    (MONTANA_RUN, "--seconds", "30", "--max-seconds"),
    (["stackmgmt", "contest", "--brute"], "--max-nodes", "1", "--max-states"),
    (["stackmgmt", "contest", "--brute"], "--seconds", "30", "--max-seconds"),
    (AGNES[:-2], "--index", "9", "--start"),
]
ONE_COMMAND_EACH = [ALIASES[i] for i in (0, 2, 4, 5)]   # solve commands: no run needed


def ids(cases: list) -> list[str]:
    return [f"{' '.join(command[:2])} {old}" for command, old, _, _ in cases]


@pytest.mark.parametrize("command,old,value,new", ALIASES, ids=ids(ALIASES))
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_a_former_spelling_works_with_one_line_on_stderr(command, old, value, new, as_json):
    extra = ["--max-nodes", "5000"] if command is MONTANA else []   # a short search either way
    given = [*command, *extra, *(["--json"] if as_json else [])]
    former = run(*given, old, value, input=SAMPLE)
    assert ok(former) == [f"puzzlegen: {old} is deprecated; use {new}"]
    standard = run(*given, new, value, input=SAMPLE)
    assert ok(standard) == []
    assert untimed(former.stdout) == untimed(standard.stdout)


@pytest.mark.parametrize("command,old,value,new", ONE_COMMAND_EACH, ids=ids(ONE_COMMAND_EACH))
def test_bad_values_of_either_spelling_are_one_error_line(command, old, value, new):
    for option in (old, new):
        for bad in ("0", "-1", "nan", "x", ""):
            result = run(*command, option, bad, input=SAMPLE)
            assert result.exit_code == 2, (option, bad, result.output)
            assert result.stdout == "" and len(result.stderr.splitlines()) == 1
            assert result.stderr.startswith(f"error: Invalid value for '{option}': ")
    both = run(*command, old, value, new, value, input=SAMPLE)
    assert both.exit_code == 2 and len(both.stderr.splitlines()) == 1
    assert both.stderr.startswith(f"error: give {new} only ({old} is its deprecated spelling)")


def test_a_failing_command_prints_its_error_line_only():
    """A former spelling's line is printed once the command has succeeded: a command that fails
    says one thing, its error."""
    for args in (["agnes", "solve", "--rules", "Up-Suit-Nothing", "--seed", "1"],
                 ["montana", "solve", "--seed", "1", "AC"]):
        result = run(*args, "--seconds", "1")
        lines = result.stderr.splitlines()
        assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: ")


def commands(group: click.Group, ctx: click.Context) -> list[click.Command]:
    found = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        found += commands(command, ctx) if isinstance(command, click.Group) else [command]
    return found


def test_help_shows_the_standard_spellings_and_no_empty_range():
    """The former spellings are hidden; an option with no bounds shows none (not [x<=None])."""
    ctx = click.Context(cli)
    for command in commands(cli, ctx):
        text = command.get_help(click.Context(command, info_name=command.name))
        assert "None]" not in text and "None;" not in text, command.name
    for words, hidden in ((["agnes", "solve"], "--seconds "),
                          (["montana", "winrate"], "--seconds "),
                          (["spider", "solve"], "--seconds "),
                          (["stackmgmt", "contest"], "--max-nodes")):
        text = run(*words, "--help").stdout
        assert hidden not in text and "--max-seconds" in text
