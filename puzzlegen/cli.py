"""The ``puzzlegen`` command: one subcommand group per registered game, plus ``pack``, and the
puzzle server's ``serve`` and ``ratings``."""
from __future__ import annotations

import importlib
import importlib.util
import logging
import sys

import click

from puzzlegen import __version__
from puzzlegen.clitools import Group
from solvers import game as games

#: The puzzle server's commands (``puzzlegen.commands.serve``), with their lines in the help.
SERVER = {"serve": "The puzzle server: pages, daily puzzle, attempts, ratings.",
          "ratings": "Puzzle ratings from a server's attempts against the grades."}


class Toolkit(Group):
    """The groups of the games in ``solvers.game.REGISTRY``: a game's own
    ``puzzlegen.commands.<game>`` module when it has one, else ``solve`` and ``winrate`` (and
    ``grade`` and ``generate`` for a designable game) built from the contract
    (``puzzlegen.commands.design.add_game_commands``, which a game's own module calls too); each
    is imported only when used (or listed by ``--help``), so one game's numba kernels never slow
    down another game's command."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*games.names(), "pack", *SERVER])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name == "pack":
            from puzzlegen.commands.pack import cli as pack
            return pack
        if name in SERVER:
            from puzzlegen.commands import serve
            return getattr(serve, name)
        if name not in games.names():
            return None
        module = f"puzzlegen.commands.{name}"
        if importlib.util.find_spec(module):
            return importlib.import_module(module).cli
        from puzzlegen.commands.design import design_group
        return design_group(games.get(name))

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            if name in SERVER:
                rows.append((name, SERVER[name]))
                continue
            group = self.get_command(ctx, name)
            title = "Puzzle packs" if name == "pack" else games.get(name).title
            rows.append((name, f"{title}: {', '.join(group.list_commands(ctx))}."))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=Toolkit, context_settings={"help_option_names": ["-h", "--help"]})
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
