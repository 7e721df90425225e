"""``puzzlegen spider``: degrees of freedom of a Spider board and the run-move questions."""
from __future__ import annotations

import click

from puzzlegen import clitools
from puzzlegen.commands.design import add_game_commands
from puzzlegen.commands.solving import limit_options, make_limits
from solvers.errors import BadInput
from solvers.result import Limits
from solvers.spider import ask, dof_report, move_report, parse_board
from solvers.spider import seed_algorithms
from solvers.spider.game import GAME

BOARD_HELP = ("BOARD: stacks separated by '|', each bottom to top as space-separated cards, "
              "'##' for a face-down card, e.g. \"KS QH JH | ## 9D | | 5C\".")
exact_option = click.option("--exact", is_flag=True,
                            help="Answer with the exact oracle (plain breadth-first search) "
                                 "instead of the calculator.")


def _limits(max_states: int, max_nodes: int | None, max_seconds: float) -> Limits:
    return make_limits(GAME, None, max_states, max_nodes, max_seconds, {})


cli = clitools.group("spider", help="Spider: degrees of freedom and run moves.\n\n" + BOARD_HELP)


@cli.command("dof", help="Empty stacks and DoF = 2^n - 1 now, and the most reachable by "
                         "reversible moves.\n\n" + BOARD_HELP)
@click.argument("board")
@exact_option
@limit_options(GAME)
@clitools.json_option
def dof_cmd(board: str, exact: bool, max_states: int, max_nodes: int | None,
            max_seconds: float, as_json: bool) -> None:
    report = dof_report(parse_board(board), exact, _limits(max_states, max_nodes, max_seconds))
    if as_json:
        clitools.emit_json(report)
        return
    click.echo(f"empty stacks: {report['empty_stacks']} (DoF {report['dof']})")
    if report["max_empty_stacks"] is None:
        limits = [f"{max_states:,} boards stored" if max_states else "",
                  f"{max_nodes:,} examined" if max_nodes else "",
                  f"{max_seconds:g} s" if max_seconds else ""]
        click.echo(f"most empty stacks: unknown, the search stopped at its limit "
                   f"({' or '.join(filter(None, limits))})")
    else:
        click.echo(f"most empty stacks by reversible moves: {report['max_empty_stacks']} "
                   f"(DoF {report['max_dof']}) [{report['method']}]")
        if report["moves"]:
            click.echo("moves: " + ", ".join(_text(m) for m in report["moves"]))


def _text(move: dict) -> str:
    return f"{move['from']}>{move['to']} {' '.join(move['cards'])}"


@cli.command("move", help="Can the top --units units of stack --from be moved: off it (no --to), "
                          "onto stack --to, into the empty stack --to, or exchanged with the "
                          "top --swap units of stack --to?  Stacks are numbered from 1.\n\n"
                          + BOARD_HELP)
@click.argument("board")
@click.option("--from", "src", type=clitools.IntRange(1), required=True, help="Source stack.")
@click.option("--units", type=clitools.IntRange(1), required=True,
              help="How many same-suit runs from the top of the source.")
@click.option("--to", "dst", type=clitools.IntRange(1), default=None, help="Destination stack.")
@click.option("--swap", type=clitools.IntRange(1), default=None,
              help="Exchange with this many units from the top of --to.")
@exact_option
@limit_options(GAME)
@clitools.json_option
def move_cmd(board: str, src: int, units: int, dst: int | None, swap: int | None, exact: bool,
             max_states: int, max_nodes: int | None, max_seconds: float, as_json: bool) -> None:
    b = parse_board(board)
    if swap is not None and dst is None:
        raise BadInput("--swap needs --to: the stack to exchange with")
    q = ask(b, src - 1, units, None if dst is None else dst - 1, swap)
    report = move_report(b, q, exact, _limits(max_states, max_nodes, max_seconds))
    if q.kind == "off":
        report["seed_algorithms"] = {rule: seed_algorithms.decide(b, q, rule)
                                     for rule in seed_algorithms.RULES}
    if as_json:
        clitools.emit_json(report)
        return
    what = {"off": "off stack {f}", "onto": "from stack {f} onto stack {t}",
            "into": "from stack {f} into empty stack {t}",
            "exchange": "of stack {f} for the top {u2} of stack {t}"}[q.kind]
    verdict = {True: "possible", False: "impossible", None: "unknown (search limit)"}
    click.echo(f"move {units} unit(s) " + what.format(f=src, t=dst, u2=swap) + ": "
               + verdict[report["possible"]] + f" [{report['method']}]")
    need = report["needed_empty_stacks"]
    click.echo(f"empty stacks: {report['empty_stacks']}, needed: "
               + ("unknown" if need is None else str(need)))
    if "capacity" in report:
        click.echo(f"units movable with {report['empty_stacks']} empty stack(s) and no "
                   f"helpers: {report['capacity']}")
    if "seed_algorithms" in report:
        click.echo("seed algorithms: " + ", ".join(
            f"{k} {'yes' if v else 'no'}" for k, v in report["seed_algorithms"].items()))
    if report["moves"]:
        click.echo("moves: " + ", ".join(_text(m) for m in report["moves"]))
add_game_commands(cli, "spider")
