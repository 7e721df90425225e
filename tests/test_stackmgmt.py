"""Stack Management: the contest data sets exactly, the command line, and bad input."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from puzzlegen.cli import cli
from solvers.errors import BadInput
from solvers.result import Limits, Status
from solvers.stackmgmt import format_contest, parse_contest, solve, solve_brute, verdict_word
from solvers.stackmgmt.generate import generate
from solvers.stackmgmt.rules import parse_move, replay

DATA = Path(__file__).parent / "data" / "codejam2017-stack-management"
SAMPLE = "5\n2 7 2 7 1\n2 6 4 7 4\n2 3 2 6 2\n2 4 2 10 2\n2 5 4 7 3\n2\n2 2\n0 2\n3 2\n4 1 3\n"


def answers(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines() if line.strip()]


def test_contest_data_is_in_the_repository():
    """The practice sets are public contest data kept in tests/data: a missing file fails."""
    for name in ("sample", "E-small-practice", "E-large-practice"):
        for ext in ("in", "out"):
            assert (DATA / f"{name}.{ext}").is_file(), f"tests/data lacks {name}.{ext}"


def run(*args, input=None):
    return CliRunner().invoke(cli, ["stackmgmt", *args], input=input)


def replay_output(text: str, cases) -> int:
    """Replay every explained line of ``solve --explain`` output; return how many won."""
    blocks = text.split("Case #")[1:]
    assert len(blocks) == len(cases)
    wins = 0
    for block, case in zip(blocks, cases):
        head, *moves = block.splitlines()
        if head.endswith("POSSIBLE") and not head.endswith("IMPOSSIBLE"):
            assert replay(case.stacks(), [parse_move(m) for m in moves]).won()
            wins += 1
        else:
            assert not moves
    return wins


def test_sample():
    result = run("contest", input=SAMPLE)
    assert result.exit_code == 0
    assert result.output.splitlines() == ["Case #1: POSSIBLE", "Case #2: IMPOSSIBLE"]


@pytest.mark.parametrize("name", ["sample", "E-small-practice", "E-large-practice"])
def test_practice_sets_exactly(name):
    result = run("contest", str(DATA / f"{name}.in"))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == answers(DATA / f"{name}.out")


@pytest.mark.parametrize("name", ["sample", "E-small-practice"])
def test_brute_force_on_practice_sets(name):
    result = run("contest", "--brute", str(DATA / f"{name}.in"))
    assert result.output.splitlines() == answers(DATA / f"{name}.out")


def test_explained_small_practice_lines_win():
    path = DATA / "E-small-practice.in"
    result = run("contest", "--explain", str(path))
    assert replay_output(result.output, parse_contest(path.read_text())) == \
        sum(a.endswith(" POSSIBLE") for a in answers(DATA / "E-small-practice.out"))


def test_explained_large_cases_win():
    cases = parse_contest((DATA / "E-large-practice.in").read_text())
    # The longest path (44,534 suits over 50,000 stacks of 2) and a 250 x 200 path of 4.
    paths = {len(solve(c).details["path"]): c for c in cases}
    picked = [paths[max(paths)], paths[4]]
    for case in picked:
        result = solve(case, explain=True)
        assert result.solved and replay(case.stacks(), result.moves).won()


def test_json_lines():
    result = run("contest", "--json", "--explain", input=SAMPLE)
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [r["answer"] for r in rows] == ["POSSIBLE", "IMPOSSIBLE"]
    assert rows[0]["status"] == "solved" and rows[0]["moves"]
    assert rows[1]["status"] == "unsolvable" and rows[1]["reason"]


def test_brute_limit_is_not_an_answer():
    case = parse_contest(SAMPLE)[0]
    assert solve_brute(case).solved
    for limits, by in ((Limits(states=1), "states"), (Limits(nodes=1), "nodes")):
        limited = solve_brute(parse_contest(SAMPLE)[1], limits)
        assert verdict_word(limited) == "LIMIT"
        assert limited.details["stopped_by"] == {"limit": by, "value": 1}
    assert "Case #2: LIMIT" in run("contest", "--brute", "--max-states", "1", input=SAMPLE).output
    big = generate("blocked", 60, 40, None, seed=1)   # far beyond a second of search
    limited = solve_brute(big, Limits(seconds=1.0))   # a second: work done even on a busy machine
    assert limited.status is Status.LIMIT
    assert limited.details["stopped_by"] == {"limit": "seconds", "value": 1.0}
    assert limited.nodes >= limited.details["states"] > 1


BAD = [
    ("", "line 1: the input is empty; expected the number of premade stacks"),
    (" \n\n", "line 1: the input is empty"),
    ("1\n1 99999999999999999999999 1\n1\n1 1\n0\n",
     "line 2: 99999999999999999999999 is too large a number"),
    ("1\n1 9223372036854775808 1\n1\n1 1\n0\n", "line 2: 9223372036854775808 is too large"),
    ("x\n", "line 1: 'x' is not a whole number"),
    ("2\n1 1 1\n", "line 3: input ends where premade stack 1 of 2"),
    ("1\n2 1 1 2\n1\n1 2\n0\n", "line 2: premade stack 0 must be a card count C >= 1 followed "
                                "by C value-suit pairs, found 4 numbers"),
    ("1\n1 0 1\n1\n1 1\n0\n", "line 2: card (0,1) has a value or suit outside 1..50000"),
    ("1\n1 1 50001\n1\n1 1\n0\n", "line 2: card (1,50001) has a value or suit outside"),
    ("2\n1 1 1\n1 2 1\n1\n2 1\n0\n", "line 6: expected the 2 premade stack indices of case #1 "
                                     "(2 numbers), found 1 numbers"),
    ("2\n1 1 1\n1 2 1\n1\n2 1\n0 2\n", "line 6: premade stack 2 does not exist"),
    ("2\n1 1 1\n1 2 1\n1\n2 1\n1 1\n", "line 6: premade stack 1 is used twice in case #1"),
    ("2\n1 1 1\n2 2 1 3 1\n1\n2 1\n0 1\n", "line 6: premade stack 1 has 2 cards but case #1 "
                                           "needs C = 1"),
    ("2\n1 1 1\n1 1 1\n1\n2 1\n0 1\n", "line 6: card (1,1) occurs twice in case #1"),
    ("1\n2 1 1 1 1\n1\n1 2\n0\n", "line 5: card (1,1) occurs twice in case #1"),
    ("2\n1 1 1\n1 2 1\n2\n2 1\n0 1\n", "line 7: input ends where 'N C' of case #2"),
    ("2\n1 1 1\n1 2 1\n1\n2 1\n0 1\n7\n", "line 7: unexpected numbers after the last case"),
    ("2\n1 1 1\n\n1 2 1\n1\n2 1\n0 1\n", "line 3: premade stack 1 must be a card count"),
    ("1\n1 1 -1\n1\n1 1\n0\n", "line 2: '-1' is not a whole number"),
    ("1\n1 1 1\n0\n", "line 3: the number of cases must be at least 1"),
]


@pytest.mark.parametrize("text,message", BAD)
def test_bad_input_is_one_sentence_and_exit_2(text, message):
    with pytest.raises(BadInput, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_contest(text)
    result = run("contest", input=text)
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and result.output.startswith("error: line ")


def test_missing_file_and_bad_options(tmp_path):
    result = run("contest", str(tmp_path / "nope.in"))
    assert result.exit_code == 2 and result.output.startswith("error: cannot use")
    out = tmp_path / "g.in"
    result = run("cases", "--kind", "path", "--stacks", "4", "--length", "3", "--out", str(out))
    assert result.exit_code == 2 and "length from 1 to 2" in result.output
    assert not out.exists()


def test_good_input_variants_parse():
    # Windows line ends, tabs, trailing blank lines.
    text = SAMPLE.replace("\n", "\r\n").replace(" ", "\t") + "\r\n\r\n"
    assert [verdict_word(solve(c)) for c in parse_contest(text)] == ["POSSIBLE", "IMPOSSIBLE"]


@pytest.mark.parametrize("kind", ["path", "blocked"])
def test_generate_writes_contest_input_that_solves_as_promised(tmp_path, kind):
    out = tmp_path / f"{kind}.in"
    result = run("cases", "--kind", kind, "--count", "3", "--stacks", "12", "--cards", "7",
                 "--seed", "5", "--out", str(out))
    assert result.exit_code == 0, result.output
    cases = parse_contest(out.read_text())
    solved = run("contest", "--explain", str(out))
    expected = "POSSIBLE" if kind == "path" else "IMPOSSIBLE"
    assert [line for line in solved.output.splitlines() if line.startswith("Case")] == \
        [f"Case #{x}: {expected}" for x in (1, 2, 3)]
    assert replay_output(solved.output, cases) == (3 if kind == "path" else 0)
    for case in cases:
        details = solve(case).details
        assert details["suits"] == 12
        if kind == "path":
            assert len(details["path"]) == 10
        else:
            assert (case.values[:, 0] == [max(v for v, s in sum(case.stacks(), []) if s == suit)
                                          for suit in case.suits[:, 0]]).all()


def test_generate_never_replaces_a_file_unless_forced(tmp_path):
    out = tmp_path / "hard.in"
    out.write_text("precious\n")
    result = run("cases", "--kind", "path", "--out", str(out))
    assert result.exit_code == 2 and "already exists; use --force" in result.output
    assert out.read_text() == "precious\n"
    result = run("cases", "--kind", "path", "--out", str(out), "--force")
    assert result.exit_code == 0 and len(parse_contest(out.read_text())) == 1


@pytest.mark.parametrize("args,message", [
    (["--stacks", "50001"], "at most 50000 suits"),
    (["--stacks", "4000", "--cards", "4000"], "one run generates at most 10,000,000"),
    (["--stacks", "1000", "--cards", "1000", "--count", "11"], "11,000,000 cards"),
    (["--stacks", "4", "--cards", "30000"], "a suit would need more than 50000 cards"),
])
def test_generator_sizes_are_refused_in_one_line(tmp_path, args, message):
    out = tmp_path / "g.in"
    result = run("cases", "--kind", "path", *args, "--out", str(out))
    assert result.exit_code == 2 and message in result.output
    assert result.output.count("\n") == 1 and not out.exists()


def test_brute_force_is_bounded_by_default():
    """Without --max-states the oracle stores what fits in 2 GB; a large case says LIMIT."""
    big = format_contest([generate("blocked", 60, 40, None, seed=1)])
    result = run("contest", "--brute", "--max-seconds", "0.3", "--json", input=big)
    assert result.exit_code == 0 and json.loads(result.output)["answer"] == "LIMIT"
    assert json.loads(result.output)["stopped_by"] == {"limit": "seconds", "value": 0.3}
    result = run("contest", "--brute", "--max-states", "1000000000000000000", input=SAMPLE)
    assert result.exit_code == 2 and "would need" in result.output


def test_leading_zeros_are_the_same_number():
    padded = SAMPLE.replace("\n2 7 2 7 1\n", "\n2 0000000000000000000000007 2 7 1\n")
    assert [verdict_word(solve(c)) for c in parse_contest(padded)] == ["POSSIBLE", "IMPOSSIBLE"]
