"""The ``puzzlegen`` command: one subcommand group per game, plus ``pack``."""
from __future__ import annotations

import logging
import sys

import click

from puzzlegen import __version__
from puzzlegen.clitools import Group

GAMES = {
    "stacksquared": ("puzzlegen.commands.stacksquared:cli",
                     "StacksSquared (Birds of a Feather): solve, stats, grade, generate, hint."),
    "pack": ("puzzlegen.commands.pack:cli", "Puzzle packs: validate, re-grade, show, play in a browser, print."),
    "agnes": ("puzzlegen.commands.agnes:cli", "Agnes Sorel: solve, win rates, grade, generate."),
    "montana": ("puzzlegen.commands.montana:cli", "Montana (Gaps): solve, win rates, grade, generate."),
    "stackmgmt": ("puzzlegen.commands.stackmgmt:cli",
                  "Code Jam 2017 Stack Management: solve, contest cases, grade, "
                  "generate."),
    "spider": ("puzzlegen.commands.spider:cli", "Spider: degrees of freedom and run moves."),
}


@click.group(cls=Group, lazy=GAMES, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="puzzlegen")
def cli() -> None:
    """Design solitaire card puzzles: exact solvers, grading, generators and puzzle packs."""


def say_when_compiling() -> None:
    """On a terminal, one line on stderr when numba first compiles a kernel in this process
    (``solvers.jit``), so that the pause of a first run after an install has its reason."""
    if sys.stderr.isatty():
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("puzzlegen: %(message)s"))
        log = logging.getLogger("solvers.jit")
        log.addHandler(handler)
        log.setLevel(logging.INFO)


def main() -> None:
    """The ``puzzlegen`` command; every way it ends is one line (``clitools._OneLineErrors``)."""
    say_when_compiling()
    cli(prog_name="puzzlegen")


if __name__ == "__main__":
    main()
