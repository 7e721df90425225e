"""The files in benchmarks/ and examples/ parse, and each script answers ``--help`` with its usage.

They are not imported by the package, so nothing else would notice one that no longer runs.
"""
from __future__ import annotations

import py_compile
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*ROOT.glob("benchmarks/*.py"), *ROOT.glob("examples/*.py")])
SCRIPTS = [path for path in FILES if 'if __name__ == "__main__":' in path.read_text()]


def name(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def test_there_are_scripts_to_check():
    assert len(SCRIPTS) >= 20


@pytest.mark.parametrize("path", FILES, ids=name)
def test_a_file_compiles(path, tmp_path):
    py_compile.compile(str(path), cfile=str(tmp_path / "file.pyc"), doraise=True)


@pytest.mark.parametrize("script", SCRIPTS, ids=name)
def test_a_script_prints_its_usage(script):
    proc = subprocess.run([sys.executable, str(script), "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.lower().startswith("usage:"), proc.stdout[:200]
