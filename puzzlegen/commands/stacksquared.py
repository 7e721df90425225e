"""``puzzlegen stacksquared``: grade and generate (stacksquared_design) and hint
(stacksquared_hint) of its own; solve and winrate are every game's."""
from __future__ import annotations

import click

from puzzlegen import clitools
from puzzlegen.commands.design import add_game_commands
from solvers.errors import BadInput

cli = clitools.group("stacksquared", help="StacksSquared (Birds of a Feather): an r x c grid of "
                     "cards; stacks merge along rows and columns; score = sum of squared stack sizes.",
                     lazy={"grade": ("puzzlegen.commands.stacksquared_design:grade",
                                     "Grade a deal's difficulty: level, percentile, how sure."),
                           "generate": ("puzzlegen.commands.stacksquared_design:generate",
                                        "Generate a puzzle pack at a difficulty level."),
                           "hint": ("puzzlegen.commands.stacksquared_hint:hint",
                                    "Safe and losing moves after the moves played so far.")})


def _grid(ctx: click.Context, param: click.Parameter, value: str):
    from solvers.stacksquared.game import GAME
    try:
        return GAME.parse_rules(value)
    except BadInput as exc:
        raise click.BadParameter(str(exc), ctx, param) from None


#: ``--rules RxC`` of the StacksSquared commands of their own, as every game's commands take
#: it; the command receives the :class:`~solvers.stacksquared.game.Grid` as ``grid``.
grid_option = click.option("--rules", "grid", default="4x4", show_default=True, callback=_grid,
                           help="The grid, ROWSxCOLS, e.g. 3x4, 4x4, 4x5, 5x5.")


add_game_commands(cli, "stacksquared")
