"""``puzzlegen stacksquared grade`` and ``generate``: exact grading and puzzle-pack generation."""
from __future__ import annotations

import click

from puzzlegen import clitools
from puzzlegen.commands.design import generate_options, read_deal, run_generate
from puzzlegen.commands.stacksquared import grid_options
from puzzlegen.commands.stacksquared_hint import decision_states
from puzzlegen.constraints import NO_CONSTRAINTS, constraint_options, parse_constraints
from puzzlegen.grading import grade as grade_deal, load
from solvers.errors import LimitReached
from solvers.stacksquared.difficulty import DEFAULT_BUDGET, TREE_CELLS, TREE_STATES
from solvers.stacksquared.game import GAME, Grid
from solvers.stacksquared.hints import critical_moments, explain_lines
from solvers.stacksquared.rules import Move
from solvers.stacksquared.tree import explore_bytes


@click.command()
@click.argument("deal", required=False)
@click.option("--seed", type=int, help="Microsoft FreeCell deal number to deal from.")
@grid_options
@click.option("--tree-states", type=click.IntRange(0), default=None,
              help=f"Compute the exact whole-tree figures when the game tree fits this many "
                   f"stored states [default: {TREE_STATES:,} for grids of at most {TREE_CELLS} "
                   f"cells, else 0: a 4x4 tree needs millions, minutes and gigabytes].")
@click.option("--explain", is_flag=True,
              help="Also list the critical moments of the solution: the positions where most "
                   "moves lose.")
@click.option("--max-states", type=clitools.COUNT, default=None,
              help=f"States the decision search of --explain may store; past them the critical "
                   f"moments are 'limit' [default: {DEFAULT_BUDGET.states:,}].")
@clitools.json_option
def grade(deal, seed, rows, cols, tree_states, explain, max_states, as_json):
    """Grade DEAL (cards row-major): level, score (0-100), the reason, and the figures behind it.

    The level rests on how often simulated players win; every symmetric copy of a deal (rows,
    columns, transposition, suits, rank reversal) gets the same grade.
    """
    grid = Grid(rows, cols)
    the_deal = read_deal(GAME, grid, deal, seed)
    load(GAME, grid)  # a grid without a calibration is refused before any work
    max_states = decision_states(max_states, rows * cols)
    if tree_states is not None:
        clitools.check_memory(f"--tree-states {tree_states}",
                              explore_bytes(rows * cols, tree_states))
    result = grade_deal(GAME, the_deal, grid, tree_states=tree_states)
    moments, limit = [], None
    try:
        if explain and result.metrics.get("single_stack"):
            moments = critical_moments(the_deal, [Move.parse(m) for m in result.solution],
                                       max_states)
    except LimitReached as exc:
        moments, limit = None, str(exc)
    if as_json:
        clitools.emit_json({**result.to_json(),
                            **({"critical": moments, "critical_limit": limit} if explain else {})})
        return
    score = "-" if result.score is None else f"{result.score:.2f}"
    click.echo(the_deal.grid_text())
    click.echo(f"level {result.level}  score {score}")
    click.echo(result.explanation)
    metrics = dict(result.metrics)
    for name, figure in metrics.pop("players", {}).items():
        low, high = figure["interval"]
        how = ("exact" if figure["exact"]
               else f"95% {low:.3g}..{high:.3g}, {figure['particles']} particles")
        click.echo(f"  {name + ' wins':20} {figure['win']:.4g} ({how})")
    half = metrics.pop("halfway", None)
    if half:
        click.echo(f"  {'halfway ratio':20} {half['ratio']:.4g}")
    for name, value in metrics.items():
        click.echo(f"  {name:20} {value}")
    if result.solution:
        click.echo("solution: " + " ".join(result.solution))
    if limit:
        click.echo(f"critical moments: limit ({limit}; --max-states raises it)")
    for line in explain_lines(moments or []):
        click.echo("  " + line)


@click.command()
@grid_options
@click.option("--method", type=click.Choice(["anneal", "cpsat"]), default="anneal",
              show_default=True, help="anneal: from random deals meeting the constraints; "
                                      "cpsat: annealing from deals CP-SAT constructs under the "
                                      "constraints with a planted single-stack solution (for "
                                      "rare structures).")
@constraint_options
@generate_options
def generate(rows, cols, method, require, at, theme, max_line_pairs, count, level, seed, out,
             max_attempts, jobs, as_json):
    """Generate a pack of COUNT distinct puzzles at LEVEL, each verified by the exact solver.

    Annealing pushes each deal toward the heart of the level (for master, well past its cut)
    while the designer's constraints hold; a deal is kept only when further independent
    estimates of its hardness confirm its level.  The pack is rewritten atomically after every
    puzzle, so Ctrl-C keeps the finished ones.
    """
    grid = Grid(rows, cols)
    constraints = parse_constraints(rows, cols, require, at, theme, max_line_pairs)
    starts = None
    if method == "cpsat":
        from puzzlegen import cpsat
        starts = cpsat.start_deals(rows, cols, seed, constraints)
    run_generate(GAME, grid, count, level, seed, out, max_attempts, jobs, as_json,
                 constraints=None if constraints == NO_CONSTRAINTS else constraints,
                 starts=starts, method=method,
                 parameters={"rows": rows, "cols": cols,
                             "constraints": constraints.to_json(cols)})
