"""Output paths and files given on the command line: a bad one fails at once, in one line."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from puzzlegen import calibration
from puzzlegen.cli import cli

MISSING = "/nonexistent-folder/out.json"


@pytest.mark.parametrize("args", [
    ["stacksquared", "generate", "--rows", "3", "--cols", "3", "--count", "1", "--level", "easy",
     "--out", MISSING],
    ["montana", "winrate", "--ranks", "5", "--deals", "1", "--per-deal", MISSING],
    ["agnes", "winrate", "--rules", "Up-Suit-None", "--deals", "1", "--per-deal", MISSING],
])
def test_missing_output_folder_fails_before_any_work(args):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert result.output == f"error: cannot write {MISSING}: there is no folder " \
                            f"/nonexistent-folder\n"


def test_calibration_bad_input_is_one_line_exit_2(tmp_path):
    broken = tmp_path / "figures.jsonl"
    broken.write_text('{"seed": 1, "won": true}\n{cut off')
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
