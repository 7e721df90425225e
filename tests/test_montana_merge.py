"""``examples/montana_winrate.py``: merging chunked win-rate runs and re-solving their limits
gives the run a bigger table would give; files of other rules or contradicting answers stop it."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from puzzlegen.commands.montana import cli

ROOT = Path(__file__).resolve().parent.parent
RULES = ["--ranks", "6", "--redeals", "2"]


def winrate(*args) -> dict:
    result = CliRunner().invoke(cli, ["winrate", *RULES, "--json", *map(str, args)])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def merge(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "examples/montana_winrate.py", *map(str, args)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def chunks(tmp_path_factory):
    """Seeds 0..11 and 12..23 with a table too small for some deals."""
    folder = tmp_path_factory.mktemp("chunks")
    for seed in (0, 12):
        winrate("--deals", 12, "--seed", seed, "--max-states", 400, "--no-forget",
                "--per-deal", folder / f"seed{seed}.jsonl")
    return [folder / "seed0.jsonl", folder / "seed12.jsonl"]


@pytest.mark.parametrize("resolve", [["--resolve-max-states", 1_000_000],
                                     ["--resolve-max-states", 300, "--forget",
                                      "--resolve-max-nodes", 10**8, "--check", 3]])
def test_merged_chunks_with_their_limits_resolved_are_the_run_of_the_bigger_table(chunks,
                                                                                   resolve):
    """Re-solved with a table big enough for every deal, or with a small forgetting one (which
    must also give the biggest decided deals' lines again: ``--check``)."""
    proc = merge(*chunks, *RULES, *resolve)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    whole = winrate("--deals", 24, "--max-states", 1_000_000, "--no-forget")
    assert out["resolved"] > 0 and out["limit"] == whole["limit"] == 0
    assert out["checked_same"] == (3 if "--check" in resolve else 0)
    for key in ("deals", "won", "lost", "win_rate"):
        assert out[key] == whole[key] and out["first_round"][key] == whole["first_round"][key]


def test_a_file_of_other_rules_is_refused(chunks, tmp_path):
    other = tmp_path / "seven.jsonl"
    winrate("--deals", 2, "--seed", 30, "--ranks", 7, "--per-deal", other)
    proc = merge(*chunks, other, *RULES)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [f"error: {other} was run with other rules: ranks 7, not 6"]


def test_two_files_that_answer_a_deal_differently_are_refused(chunks, tmp_path):
    lines = chunks[0].read_text().splitlines()
    row = next(json.loads(line) for line in lines[1:] if '"first": {"result": "won"' in line)
    row["first"] = {**row["first"], "result": "lost", "locked": 19}
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text(lines[0] + "\n" + json.dumps(row) + "\n")
    proc = merge(*chunks, wrong, *RULES)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"error: seed {row['seed']}: {wrong} says ('lost', 19)")


@pytest.mark.parametrize("text", ["not json\n", '{"seed": 1}\n', ""])
def test_a_broken_file_is_one_error_line(tmp_path, text):
    broken = tmp_path / "broken.jsonl"
    broken.write_text(text)
    proc = merge(broken, *RULES)
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith("error: ")
