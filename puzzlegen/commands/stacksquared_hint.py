"""``puzzlegen stacksquared hint``: safe and losing moves of a position, exactly decided."""
from __future__ import annotations

import click

from puzzlegen import clitools
from solvers import stats
from puzzlegen.commands.solving import code_option, read_deal
from puzzlegen.commands.stacksquared import grid_option
from solvers.result import Status
from solvers.stacksquared.difficulty import DEFAULT_BUDGET
from solvers.stacksquared.hints import hint as hint_of, parse_moves
from solvers.stacksquared.game import GAME
from solvers.stacksquared.rules import Position, replay
from solvers.stacksquared.codes import decision_bytes


#: The default time limit of a hint: an answer within a minute.
MAX_SECONDS = 60.0


def position_text(position: Position) -> str:
    """The grid as r lines: each stack's top card with its size when above 1, ``--`` if empty."""
    cells = ["--" if t is None else f"{t}" + (f"({s})" if s > 1 else "")
             for t, s in zip(position.tops, position.sizes)]
    width = max(len(c) for c in cells)
    c = position.cols
    return "\n".join(" ".join(x.ljust(width) for x in cells[i:i + c]).rstrip()
                     for i in range(0, len(cells), c))


def decision_states(max_states: int | None, cells: int) -> int:
    """The decision search's state limit from ``--max-states`` (None: the default), refused
    with one error line when its table could not fit in free memory."""
    if max_states is None:
        return DEFAULT_BUDGET.states
    clitools.check_memory(f"--max-states {max_states}", decision_bytes(cells, max_states))
    return max_states


@click.command()
@click.argument("deal", required=False)
@click.option("--seed", type=clitools.DealNumber(GAME.seeds),
              help="Deal with FreeCell deal number N.")
@code_option
@click.option("--moves", default="", metavar="MOVES",
              help='Moves played so far, e.g. "9H-TS 8H-9H" (mover-destination top cards).')
@grid_option
@click.option("--max-states", type=clitools.COUNT, default=None,
              help=f"States the decision search may store; past them the answer is 'limit' "
                   f"[default: {DEFAULT_BUDGET.states:,}].")
@click.option("--max-seconds", type=clitools.POSITIVE, default=MAX_SECONDS, show_default=True,
              help="Seconds the decision searches may run in all; past them the answer is "
                   "'limit'.")
@clitools.json_option
def hint(deal, seed, code, moves, grid, max_states, max_seconds, as_json):
    """After MOVES from DEAL (cards row-major; or --seed N, or --code CODE): is one stack still reachable, which legal moves
    keep it reachable (safe) and which lose, and the safe move leaving the most safe moves; when
    the search hits its state or time limit, 'limit' and no moves."""
    the_deal, grid = read_deal(GAME, grid, deal, seed, code)
    played = parse_moves(moves.split())
    position = replay(the_deal, played)
    result = hint_of(the_deal, played, decision_states(max_states, grid.rows * grid.cols), max_seconds)
    if as_json:
        verdicts = {**dict.fromkeys(result.safe, Status.SOLVED),
                    **dict.fromkeys(result.losing, Status.UNSOLVABLE)}
        clitools.emit_json({**result.to_json(), "moves_played": [str(m) for m in played],
                            "stacks": position.stacks(), "choices": stats.choices(
                                [(m, verdicts.get(str(m), Status.LIMIT))
                                 for m in position.legal_moves()])})
        return
    click.echo(position_text(position))
    if result.limit:
        click.echo(f"solvable: limit ({result.limit}; --max-{result.stopped_by} raises it)")
        return
    click.echo(f"solvable: {'yes' if result.solvable else 'no'}")
    click.echo("safe moves: " + (" ".join(result.safe) or "none"))
    click.echo("losing moves: " + (" ".join(result.losing) or "none"))
    click.echo(f"suggested: {result.suggested or 'none'}")
