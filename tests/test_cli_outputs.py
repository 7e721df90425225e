"""Output paths and files given on the command line: a bad one fails at once, in one line."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from puzzlegen import calibration
from puzzlegen.cli import cli

MISSING = "/nonexistent-folder/out.json"


@pytest.mark.parametrize("args", [
    ["stacksquared", "generate", "--rules", "3x3", "--count", "1", "--level", "easy",
     "--out", MISSING],
    ["montana", "winrate", "--rules", "5", "--deals", "1", "--per-deal", MISSING],
    ["agnes", "winrate", "--rules", "Up-Suit-None", "--deals", "1", "--per-deal", MISSING],
])
def test_missing_output_folder_fails_before_any_work(args):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert result.output == f"error: cannot write {MISSING}: there is no folder " \
                            f"/nonexistent-folder\n"


def test_calibration_bad_input_is_one_line_exit_2(tmp_path):
    broken = tmp_path / "figures.jsonl"
    broken.write_text('{"seed": 1, "won": true, "hardness": 2.5}\n{cut off')
    unsolvable = tmp_path / "none.jsonl"
    unsolvable.write_text('{"seed": 1, "won": false}\n')
    out = str(tmp_path / "cal.json")
    for args, fragment in (
            (["--rules", "2x2", "--out", MISSING], "there is no folder"),
            (["--rules", "9x9", "--out", out], "impossible grid"),
            (["--rules", "4x3", "--out", out], "calibrate 3x4 instead"),
            (["--game", "spider", "--out", out], "no difficulty grading"),
            (["--rules", "3x3", "--from-figures", str(broken), "--out", out],
             "line 2: not a figures record"),
            (["--rules", "3x3", "--from-figures", str(unsolvable), "--out", out],
             "no winnable deal")):
        result = CliRunner().invoke(calibration.main, args)
        assert result.exit_code == 2 and result.output.startswith("error: "), result.output
        assert fragment in result.output and len(result.output.splitlines()) == 1
    assert not (tmp_path / "cal.json").exists()


def test_an_interrupted_calibration_says_where_its_figures_are(tmp_path):
    figures = tmp_path / "figures.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "puzzlegen.calibration", "--rules", "3x3",
                             "--deals", "100000", "--figures", str(figures),
                             "--out", str(tmp_path / "cal.json")],
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.time() + 300  # a cold numba cache on a busy machine compiles for a while
    while not (figures.exists() and figures.read_text().count("\n") >= 2) \
            and time.time() < deadline:
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGINT)   # Ctrl-C reaches the whole process group
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err   # Ctrl-C's status, as for every run
    last = err.strip().splitlines()[-1]
    assert last.startswith("interrupted: ") and f"they are in {figures}" in last, err
    assert "--resume" in last and "none kept" not in err
    assert not (tmp_path / "cal.json").exists()


def test_a_calibration_resumes_its_figures_as_every_run_does(tmp_path):
    """The --figures file is a run engine's per-deal file: a longer run reuses it, and a line
    that is not a deal's figures is refused with its number."""
    figures, out = tmp_path / "figures.jsonl", str(tmp_path / "cal.json")
    args = ["--rules", "3x3", "--figures", str(figures), "--out", out, "--force"]
    assert CliRunner().invoke(calibration.main, [*args, "--deals", "20"]).exit_code == 0
    first = figures.read_text().splitlines()
    assert json.loads(first[0])["run"]["command"] == "calibration" and len(first) == 21
    result = CliRunner().invoke(calibration.main, [*args, "--deals", "30", "--resume"])
    assert result.exit_code == 0, result.output
    lines = figures.read_text().splitlines()
    assert lines[:21] == first and len(lines) == 31
    assert calibration.read_figures(figures) == [json.loads(line) for line in lines[1:]]
    with open(figures, "a") as fh:
        fh.write('{"seed": 31, "won": true}\n')
    result = CliRunner().invoke(calibration.main, [*args, "--deals", "40", "--resume"])
    assert result.exit_code == 2 and "line 32: not a record of this run (a winnable deal " \
                                      "without its hardness)" in result.output, result.output


def test_calibration_takes_seed_as_every_run_does(tmp_path):
    """``--seed S`` names the first deal's seed, as ``winrate --seed`` does; ``--seed-start``
    is its former spelling for one version, with one line on stderr."""
    tables = {}
    for option in ("--seed", "--seed-start"):
        out = tmp_path / f"{option}.json"
        result = CliRunner().invoke(calibration.main, ["--rules", "3x3", "--deals", "40", option,
                                                       "5", "--out", str(out)])
        assert result.exit_code == 0, result.output
        tables[option] = json.loads(out.read_text())
        assert ("deprecated" in result.stderr) == (option == "--seed-start")
    assert tables["--seed"] == tables["--seed-start"] and tables["--seed"]["seed_start"] == 5
