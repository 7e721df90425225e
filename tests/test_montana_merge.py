"""``examples/montana_winrate.py``: merging chunked win-rate runs and re-solving their limits
gives the run a bigger table would give; files of other rules (today's or an earlier run's header)
or contradicting answers stop it, and the earlier runs' records are merged as today's."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from puzzlegen.cli import cli

ROOT = Path(__file__).resolve().parent.parent
RULES = ["--rules", "6-redeals2"]


def winrate(*args, rules: list[str] = RULES) -> dict:
    result = CliRunner().invoke(cli, ["montana", "winrate", *rules, "--json",
                                      *map(str, args)])
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
    winrate("--deals", 2, "--seed", 30, "--per-deal", other, rules=["--rules", "7-redeals2"])
    proc = merge(*chunks, other, *RULES)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        f"error: {other} was run with other rules: 7-redeals2, not 6-redeals2"]


def test_an_earlier_runs_file_is_read_as_its_rules_and_merged_as_todays_records(tmp_path):
    """A file of the earlier ``montana winrate --ranks N --redeals R ...`` (its header names the
    rules by their settings, its records ``locked`` and no ``nodes``) is refused under other
    rules and merged under its own: its ``locked`` is the record's ``value``."""
    lines = (ROOT / "examples/output/montana-13-movable-twos-redeals2-seed450.jsonl") \
        .read_text().splitlines()[:4]
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join(lines) + "\n")
    rows = [json.loads(line) for line in lines[1:]]
    assert json.loads(lines[0])["run"]["ranks"] == 13 and "locked" in rows[0]
    proc = merge(old, "--rules", "13-redeals2")
    assert proc.returncode == 2 and proc.stderr.splitlines() == [
        f"error: {old} was run with other rules: 13-movable-twos-redeals2, not 13-redeals2"]
    out = tmp_path / "merged.jsonl"
    proc = merge(old, "--rules", "13-movable-twos-redeals2", "--out", out)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["deals"] == 3 and summary["rules"] == "13-movable-twos-redeals2"
    assert summary["mean_locked"] == sum(r["locked"] for r in rows) / 3
    merged = [json.loads(line) for line in out.read_text().splitlines()]
    assert merged == [{("value" if k == "locked" else k): v for k, v in r.items()} for r in rows]


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
