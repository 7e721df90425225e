"""``puzzlegen stacksquared``: solve (here, with runs of many deals), grade and generate
(stacksquared_design), hint (stacksquared_hint); winrate is every game's."""
from __future__ import annotations

import sys
from functools import partial

import click

from puzzlegen import clitools, runs
from puzzlegen.commands.design import add_game_commands
from puzzlegen.survey import solve_record, solve_seed, solve_text
from solvers.errors import BadInput
from solvers.result import Limits
from solvers.stacksquared import DEFAULT_LIMITS, Deal, warm_up
from solvers.stacksquared.api import table_bytes
from solvers.stacksquared.rules import check_grid

cli = clitools.group("stacksquared", help="StacksSquared (Birds of a Feather): an r x c grid of "
                     "cards; stacks merge along rows and columns; score = sum of squared stack sizes.",
                     lazy={"grade": ("puzzlegen.commands.stacksquared_design:grade",
                                     "Grade a deal's difficulty: level, percentile, how sure."),
                           "generate": ("puzzlegen.commands.stacksquared_design:generate",
                                        "Generate a puzzle pack at a difficulty level."),
                           "hint": ("puzzlegen.commands.stacksquared_hint:hint",
                                    "Safe and losing moves after the moves played so far.")})


def grid_options(fn):
    """``--rows`` and ``--cols`` of every command that takes a grid (a side holds at most the
    deck's 52 cards; whether the grid fits the deck is the rules' ``check_grid``)."""
    fn = click.option("--cols", "-c", type=clitools.IntRange(1, 52), default=4, show_default=True,
                      help="Columns of the grid.")(fn)
    return click.option("--rows", "-r", type=clitools.IntRange(1, 52), default=4,
                        show_default=True, help="Rows of the grid.")(fn)


def limit_options(fn):
    fn = click.option("--max-seconds", type=clitools.POSITIVE, default=None,
                      help="Time limit per deal; reaching it reports 'limit'.")(fn)
    fn = click.option("--max-states", type=clitools.COUNT, default=DEFAULT_LIMITS.states,
                      show_default=True,
                      help="Distinct states stored per search (bounds memory).")(fn)
    return click.option("--max-nodes", type=clitools.COUNT, default=None,
                        help="Node limit per deal; reaching it reports 'limit'.")(fn)


def make_limits(max_nodes, max_states, max_seconds, rows=4, cols=4, jobs=1) -> Limits:
    """The limits of the options, once the grid is possible and the state tables of ``jobs``
    workers fit in memory."""
    check_grid(rows, cols)
    clitools.check_memory(f"--max-states {max_states}" + (f" with {jobs} jobs" if jobs > 1 else ""),
                          jobs * table_bytes(max_states, rows * cols))
    return Limits(nodes=max_nodes, states=max_states, seconds=max_seconds)


def read_deal_lines(source: str, rows: int, cols: int) -> list[str]:
    """Deals from FILE or ``-`` (stdin), one a line, checked and in canonical notation; blank
    lines and ``#`` comments skipped."""
    if source == "-":
        lines = sys.stdin.read().splitlines()
    else:
        with open(source, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    deals = []
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if text:
            try:
                deals.append(str(Deal.parse(text, rows, cols)))
            except BadInput as exc:
                raise BadInput(f"{source}, line {number}: {exc}") from None
    if not deals:
        raise BadInput(f"{'stdin' if source == '-' else source} holds no deal (one a line)")
    return deals


def print_result(deal: Deal, out: dict) -> None:
    click.echo(deal.grid_text())
    n = deal.size
    if out["status"] == "limit":
        click.echo(f"limit: the search stopped after {out['nodes']} nodes "
                   f"({out['seconds']:.3f} s) without deciding")
        if out.get("best_score") is not None:
            click.echo(f"no single stack; best score found {out['best_score']} (not proven maximal)")
    elif out["single_stack"]:
        click.echo(f"single stack: yes, score {n * n} in {len(out['moves'])} moves")
    else:
        click.echo(f"single stack: no; maximum score {out['max_score']} (of {n * n})")
    if out["moves"]:
        click.echo("moves: " + " ".join(out["moves"]))
    click.echo(f"nodes: {out['nodes']}  seconds: {out['seconds']:.4f}")


@cli.command()
@click.argument("deal", required=False)
@click.option("--seed", type=clitools.FREECELL_SEED,
              help="Deal with the Microsoft FreeCell deal number N (0..2147483647).")
@click.option("--seeds", "seed_range", metavar="A..B",
              help="Solve the deals of seeds A..B (inclusive); prints JSON lines.")
@click.option("--input", "input_file", metavar="FILE",
              help="Solve the deals in FILE ('-' for stdin), one a line; prints JSON lines.")
@grid_options
@limit_options
@clitools.jobs_option
@clitools.scheduler_option
@clitools.json_option
def solve(deal, seed, seed_range, input_file, rows, cols, max_nodes, max_states, max_seconds,
          jobs, scheduler, as_json):
    """Solve a deal exactly: single-stack solution and maximum score.

    DEAL lists the cards row-major, e.g. "5S JC QH 8H KC 6H 3H 9H 3S JS TH TS KS 7D AH 5C".
    Status 'solved' means a single-stack solution exists (its moves are printed), 'unsolvable'
    that none does (the moves reach the maximum score), 'limit' that a limit stopped the search.
    With --seeds or --input the deals are solved as a run (--jobs, --scheduler) and printed in
    order as JSON lines.
    """
    sources = [x is not None for x in (deal, seed, seed_range, input_file)]
    if sum(sources) != 1:
        raise BadInput("give exactly one of DEAL, --seed, --seeds or --input")
    limits = make_limits(max_nodes, max_states, max_seconds, rows, cols, jobs)
    if seed_range is not None or input_file is not None:
        if seed_range is not None:
            specs = clitools.parse_seed_range(seed_range)
            Deal.from_seed(0, rows, cols)  # checks the grid before any work
            fn = partial(solve_seed, rows=rows, cols=cols, limits=limits, check=True)
        else:
            specs = read_deal_lines(input_file, rows, cols)
            fn = partial(solve_text, rows=rows, cols=cols, limits=limits, check=True)
        for out in runs.run(fn, specs, jobs=jobs, scheduler=scheduler, setup=warm_up):
            clitools.emit_json(out)
        return
    the_deal = Deal.from_seed(seed, rows, cols) if seed is not None else Deal.parse(deal, rows, cols)
    warm_up()  # kernel loading is not part of the solve's time
    out = solve_record(the_deal, limits, check=True)
    if as_json:
        clitools.emit_json(out)
    else:
        print_result(the_deal, out)


add_game_commands(cli, "stacksquared")
