"""``puzzlegen stacksquared grade`` and ``generate``: grading and puzzle-pack generation."""
from __future__ import annotations

from functools import partial

import click

from puzzlegen import clitools, codes
from puzzlegen.commands.design import generate_options, run_generate
from puzzlegen.commands.solving import code_option, read_deal
from puzzlegen.commands.stacksquared import grid_option
from puzzlegen.commands.stacksquared_hint import decision_states
from puzzlegen.constraints import NO_CONSTRAINTS, constraint_options, parse_constraints
from puzzlegen.grading import grade as grade_deal, load
from solvers.errors import LimitReached
from solvers.game import harder_than
from solvers.stacksquared.difficulty import DEFAULT_BUDGET, PLAYERS, TREE_CELLS, TREE_STATES
from solvers.stacksquared.game import GAME
from solvers.stacksquared.hints import critical_moments, explain_lines
from solvers.stacksquared.rules import Move
from solvers.stacksquared.codes import explore_bytes


@click.command()
@click.argument("deal", required=False)
@click.option("--seed", type=clitools.INT, help="Microsoft FreeCell deal number to deal from.")
@code_option
@grid_option
@click.option("--tree-states", type=clitools.IntRange(0), default=None,
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
def grade(deal, seed, code, grid, tree_states, explain, max_states, as_json):
    """Grade DEAL (cards row-major; or --seed N, or --code CODE): level, percentile, the reason, and the figures behind it.

    The level rests on how often a player who looks three moves ahead wins, ranked among random
    solvable deals of the grid (the percentile).  Every chance is exact on grids of up to 12
    cards (every 3x3 and 3x4 deal) and on the hardest 4x4 deals (estimated at most 1 win in
    1,000) whose exact search fits its budget; elsewhere they are estimated, and the grade says
    how sure its level is.  Every symmetric copy of a deal (rows, columns, transposition, suits, rank
    reversal) gets the same grade.
    """
    the_deal, grid = read_deal(GAME, grid, deal, seed, code)
    rows, cols = grid.rows, grid.cols
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
        clitools.emit_json({**result.to_json(), "code": codes.encode(GAME, grid, the_deal),
                            **({"critical": moments, "critical_limit": limit} if explain else {})})
        return
    click.echo(the_deal.grid_text())
    click.echo(f"code: {codes.encode(GAME, grid, the_deal)}")
    for line in grade_lines(result, rows, cols):
        click.echo(line)
    if result.solution:
        click.echo("solution: " + " ".join(result.solution))
    if limit:
        click.echo(f"critical moments: limit ({limit}; --max-states raises it)")
    for line in explain_lines(moments or []):
        click.echo("  " + line)


def chance_words(figure: dict, value: float) -> str:
    """A chance and how sure it is, for people."""
    if figure["exact"]:
        return f"{value:.3g} (exact)"
    low, high = figure["interval"]
    return f"{value:.3g} (estimate, 95% between {low:.2g} and {high:.2g})"


def grade_lines(result, rows: int, cols: int) -> list[str]:
    """The grade of a deal for people: level and how sure, the reason, then each figure in
    plain words."""
    sure = result.sureness()
    lines = [f"Level: {result.level}" + (f" ({sure})" if sure else "")]
    if result.percentile is not None:
        lines[0] += (f", harder than {harder_than(result.percentile)} of random solvable "
                     f"{min(rows, cols)}x{max(rows, cols)} deals")
    lines.append(result.explanation)
    m = result.metrics
    if not m:
        return lines
    if not m["single_stack"]:
        return lines + [f"Best score: {m['max_score']} of {(rows * cols) ** 2}."]
    lines.append("How often each player wins:")
    for name, figure in m["players"].items():
        lines.append(f"  {PLAYERS[name][1]:55} {chance_words(figure, figure['win'])}")
    lines.append(f"  {'a perfect player':55} 1 (a single stack exists)")
    lines.append(GAME.skill_words(m))
    if m.get("halfway"):
        half = m["halfway"]
        lines.append("Halfway ratio (random play to half of the stacks, then still winnable): "
                     + chance_words(half, half["ratio"]))
    share = m["winning_first_share"]
    lines.append(f"First move: {round(share * m['first_moves'])} of {m['first_moves']} legal "
                 f"moves keep a single stack reachable.")
    lines.append(f"Cards: {m['odd_cards']} with no partner in their row or column, "
                 f"{m['compat_edges']} compatible pairs ({m['line_edges']} sharing a row or "
                 f"column), {m['flocks']} flock{'s' if m['flocks'] > 1 else ''} (cards linked "
                 f"by compatibility).")
    if m["tree"] == "exact":
        lines.append(f"Winning lines: {m['solutions']:,}; the fewest critical moments (most "
                     f"moves lose) on one: {m['min_critical']}.")
    return lines


@click.command()
@grid_option
@click.option("--method", type=click.Choice(["anneal", "cpsat"]), default="anneal",
              show_default=True, help="anneal: from random deals meeting the constraints; "
                                      "cpsat: annealing from deals CP-SAT constructs under the "
                                      "constraints with a planted single-stack solution (for "
                                      "rare structures).")
@constraint_options
@generate_options
def generate(grid, method, require, at, theme, max_line_pairs, count, level, seed, out,
             max_attempts, jobs, scheduler, as_json):
    """Generate a pack of COUNT distinct puzzles at LEVEL, each verified by the exact solver.

    Annealing pushes each deal toward the heart of the level (for master, well past its cut)
    while the designer's constraints hold; a deal is kept when its hardness is exact, or when
    further independent estimates of it confirm its level.  The pack is rewritten atomically
    after every puzzle, so Ctrl-C keeps the finished ones.
    """
    rows, cols = grid.rows, grid.cols
    constraints = parse_constraints(rows, cols, require, at, theme, max_line_pairs)
    starts = None
    if method == "cpsat":
        from puzzlegen import cpsat
        starts = partial(cpsat.start_deals, rows, cols, seed, constraints)
    run_generate(GAME, grid, count, level, seed, out, max_attempts, jobs, scheduler, as_json,
                 constraints=None if constraints == NO_CONSTRAINTS else constraints,
                 starts=starts, method=method,
                 parameters={"rows": rows, "cols": cols,
                             "constraints": constraints.to_json(cols)})
