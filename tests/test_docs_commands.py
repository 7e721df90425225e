"""Every command the documents show names commands and options that exist.

The README, CONTRIBUTING.md, docs/ and benchmarks/*.md quote ``puzzlegen ...`` commands and
``python benchmarks/NAME.py ...``, ``python examples/NAME.py ...`` and ``python -m
puzzlegen.NAME ...`` runs; a renamed option or subcommand would leave them wrong without any
other test noticing.
"""
from __future__ import annotations

import concurrent.futures
import functools
import re
import subprocess
import sys
from pathlib import Path

import click

from puzzlegen.cli import cli

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", *ROOT.glob("docs/*.md"),
                    *ROOT.glob("benchmarks/*.md")])
# A command runs to the end of its code span or line, a comment, a pipe, a redirection or `&&`.
END = r"[^`\n#|>&]*"
PUZZLEGEN = re.compile(rf"(?:^|`|\$ |&& |-m )puzzlegen ({END})", re.M)
SCRIPT = re.compile(rf"python3? ((?:benchmarks|examples)/\w+\.py|-m puzzlegen\.\w+)({END})")


def quoted(pattern: re.Pattern) -> list[tuple[str, re.Match]]:
    return [(path.name, match) for path in DOCUMENTS
            for match in pattern.finditer(path.read_text())]


def options(words: list[str]) -> list[str]:
    return [word.split("=")[0] for word in words if word.startswith("--")]


def test_the_documents_quote_commands():
    assert len(quoted(PUZZLEGEN)) >= 50 and len(quoted(SCRIPT)) >= 50


def test_every_quoted_puzzlegen_command_exists_with_its_options():
    ctx = click.Context(cli)
    wrong = []
    for name, match in quoted(PUZZLEGEN):
        words, command = match.group(1).split(), cli
        while words and isinstance(command, click.Group) and command.get_command(ctx, words[0]):
            command = command.get_command(ctx, words.pop(0))
        if command is cli:
            continue  # prose that starts with the word, e.g. "puzzlegen 2.031 s"
        if isinstance(command, click.Group):
            wrong += [f"{name}: {match.group(0)!r}: no subcommand {words[0]!r}"] if words else []
            continue
        known = {opt for param in command.params for opt in param.opts + param.secondary_opts}
        wrong += [f"{name}: {match.group(0)!r}: {option}" for option in options(words)
                  if option not in known | {"--help"}]
    assert wrong == []


@functools.cache
def usage(*argv: str) -> str:
    proc = subprocess.run([sys.executable, *argv, "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    return proc.stdout if proc.returncode == 0 else ""


def test_every_quoted_script_run_exists_with_its_options():
    runs = []
    for name, match in quoted(SCRIPT):
        script, words = match.group(1).split(), match.group(2).split()
        helps = [script] if script[0] == "-m" or (ROOT / script[0]).exists() else []
        if helps and words and not words[0].startswith("-"):  # a subcommand's own help
            helps.append([*script, words[0]])
        runs.append((name, match, script, words, helps))
    with concurrent.futures.ThreadPoolExecutor(4) as pool:  # each help starts a Python
        list(pool.map(lambda argv: usage(*argv), {tuple(a) for *_, helps in runs for a in helps}))
    wrong = []
    for name, match, script, words, helps in runs:
        if not helps:
            wrong.append(f"{name}: {script[0]} does not exist")
            continue
        text = "".join(usage(*argv) for argv in helps)
        wrong += [f"{name}: {match.group(0)!r}: {option}" for option in options(words)
                  if not re.search(re.escape(option) + r"\b", text)]
    assert wrong == []


def test_every_link_and_shipped_pack_the_documents_name_exists():
    """Relative links and images (``](path)``) resolve from the document's folder, and every
    ``puzzles/*.json`` named exists."""
    named = []
    for path in DOCUMENTS:
        body = path.read_text()
        named += [(path, path.parent / m.group(1))
                  for m in re.finditer(r"\]\(([^)#\s]+)(#[^)]*)?\)", body)
                  if not m.group(1).startswith(("http://", "https://", "mailto:"))]
        named += [(path, ROOT / m.group(1))
                  for m in re.finditer(r"\b(puzzles/[\w.-]+\.json)\b", body)]
    assert [f"{doc.name}: {target}" for doc, target in named if not target.exists()] == []
    assert len(named) >= 30
