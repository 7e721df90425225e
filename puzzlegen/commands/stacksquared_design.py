"""``puzzlegen stacksquared grade`` and ``generate``: exact grading and puzzle-pack generation."""
from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections import deque

import click

from puzzlegen import clitools, packs
from puzzlegen.constraints import (NO_CONSTRAINTS, Constraints, constraint_options,
                                   parse_constraints)
from puzzlegen.fileio import write_atomic
from puzzlegen.grading import (LEVELS, TREE_CELLS, TREE_STATES, GradeLimit, grade as grade_deal,
                               parse_level)
from solvers.stacksquared.symmetry import canonical
from solvers.errors import BadInput
from solvers.stacksquared import Deal
from solvers.stacksquared.rules import Move, check_grid

#: Annealing runs allowed per requested puzzle before ``generate`` gives up.
DEFAULT_ATTEMPTS_PER_PUZZLE = 50


def read_deal(deal: str | None, seed: int | None, rows: int, cols: int) -> Deal:
    if (deal is None) == (seed is None):
        raise BadInput("give exactly one of a DEAL or --seed N")
    return Deal.parse(deal, rows, cols) if deal is not None else Deal.from_seed(seed, rows, cols)


@click.command()
@click.argument("deal", required=False)
@click.option("--seed", type=int, help="Microsoft FreeCell deal number to deal from.")
@click.option("--rows", type=click.IntRange(1, 52), default=4, show_default=True,
              help="Rows of the grid.")
@click.option("--cols", type=click.IntRange(1, 52), default=4, show_default=True,
              help="Columns of the grid.")
@click.option("--tree-states", type=click.IntRange(0), default=None,
              help=f"Compute the exact whole-tree figures when the game tree fits this many "
                   f"stored states [default: {TREE_STATES:,} for grids of at most {TREE_CELLS} "
                   f"cells, else 0: a 4x4 tree needs millions, minutes and gigabytes].")
@click.option("--explain", is_flag=True,
              help="Also list the critical moments of the solution: the positions where most "
                   "moves lose.")
@clitools.json_option
def grade(deal, seed, rows, cols, tree_states, explain, as_json):
    """Grade DEAL (cards row-major): level, score (0-100), the reason, and the figures behind it.

    The level rests on how often simulated players win; every symmetric copy of a deal (rows,
    columns, transposition, suits, rank reversal) gets the same grade.
    """
    from puzzlegen.hints import critical_moments, explain_lines

    from puzzlegen.calibration import load

    the_deal = read_deal(deal, seed, rows, cols)
    load(*sorted((rows, cols)))  # a grid without a calibration is refused before any work
    try:
        result = grade_deal(the_deal, tree_states=tree_states)
        moments = critical_moments(the_deal, [Move.parse(m) for m in result.solution]) \
            if explain and result.metrics["single_stack"] else []
    except GradeLimit as exc:
        raise clitools.fail(f"cannot grade this deal exactly: {exc}") from None
    if as_json:
        clitools.emit_json({**result.to_json(), **({"critical": moments} if explain else {})})
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
    click.echo("solution: " + " ".join(result.solution))
    for line in explain_lines(moments):
        click.echo("  " + line)


def stamp(path: str) -> int | None:
    """The file's modification time in ns, None when there is none."""
    return os.stat(path).st_mtime_ns if os.path.exists(path) else None


class AttemptsExhausted(Exception):
    """``generate`` made its last allowed annealing run before finding every puzzle."""

    def __init__(self, message: str, found: int):
        super().__init__(message)
        self.found = found


def generate_pack(rows: int, cols: int, count: int, level: str, method: str, seed: int,
                  jobs: int, out: str, bar=None, max_attempts: int | None = None,
                  constraints: Constraints = NO_CONSTRAINTS) -> dict:
    """Run ``generate`` (see its help); writes ``out`` after every accepted puzzle.

    Annealing runs ``k = 0, 1, ...`` go to the workers ahead of need, but their results are
    taken in order of ``k``, so the pack depends on the seed alone, not on ``jobs``.
    """
    from puzzlegen import anneal
    from puzzlegen.calibration import load

    target = anneal.target_hardness(level, load(*sorted((rows, cols))))
    parameters = {"rows": rows, "cols": cols, "count": count, "level": level,
                  "target_hardness": target, "constraints": constraints.to_json(cols),
                  "schedule": {"tmax": anneal.T_MAX, "tmin": anneal.T_MIN, "steps": anneal.STEPS}}
    puzzles: list[dict] = []
    seen: set[tuple] = set()
    starts = None
    if method == "cpsat":
        from puzzlegen import cpsat
        starts = cpsat.start_deals(rows, cols, seed, constraints)
    limit = max_attempts if max_attempts is not None else DEFAULT_ATTEMPTS_PER_PUZZLE * count
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with ctx.Pool(jobs, initializer=anneal.ignore_sigint) as pool:
        pending: deque = deque()
        k = 0
        while len(puzzles) < count:
            while len(pending) < 2 * jobs and k < limit:
                start = None if starts is None else str(next(starts))
                job = (rows, cols, level, seed, k, start, target, constraints)
                pending.append(pool.apply_async(anneal.find, (job,)))
                k += 1
            if not pending:
                raise AttemptsExhausted(f"found {len(puzzles)} of {count} {level} puzzles in "
                                        f"{limit} annealing runs (--max-attempts)", len(puzzles))
            found = pending.popleft().get()
            if found is None:
                continue
            text, graded = found
            deal = Deal.parse(text, rows, cols)
            form = canonical(deal)
            if form in seen:
                continue
            if graded.level != level or constraints.violation(deal) is not None:
                raise AssertionError(f"annealing returned {deal}, which is not what was asked")
            seen.add(form)
            puzzles.append(packs.puzzle_entry(f"{rows}x{cols}-{level}-{len(puzzles) + 1:03d}",
                                              deal, graded))
            write_atomic(out, packs.dumps(packs.build(puzzles, method, seed, parameters)))
            if bar is not None:
                bar.update(1)
    return packs.build(puzzles, method, seed, parameters)


@click.command()
@click.option("--rows", type=click.IntRange(1, 52), default=4, show_default=True,
              help="Rows of the grid.")
@click.option("--cols", type=click.IntRange(1, 52), default=4, show_default=True,
              help="Columns of the grid.")
@click.option("--count", type=click.IntRange(1), required=True, help="Puzzles to generate.")
@click.option("--level", required=True, help=f"One of {', '.join(LEVELS)}.")
@click.option("--method", type=click.Choice(["anneal", "cpsat"]), default="anneal",
              show_default=True, help="anneal: from random deals meeting the constraints; "
                                      "cpsat: annealing from deals CP-SAT constructs under the "
                                      "constraints with a planted single-stack solution (for "
                                      "rare structures).")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True,
              help="Seed of the annealing runs: the same seed gives the same pack.")
@clitools.out_option(help="Pack file to write (rewritten atomically after every puzzle).")
@click.option("--max-attempts", type=click.IntRange(1), default=None,
              help=f"Give up after this many annealing runs "
                   f"[default: {DEFAULT_ATTEMPTS_PER_PUZZLE} x COUNT].")
@constraint_options
@clitools.jobs_option
@clitools.json_option
def generate(rows, cols, count, level, method, seed, out, max_attempts, require, at, theme,
             max_line_pairs, jobs, as_json):
    """Generate a pack of COUNT distinct puzzles at LEVEL, each verified by the exact solver.

    Annealing pushes each deal toward the heart of the level (or, for master, as hard as it
    can) while the designer's constraints hold.  The pack is rewritten atomically after every
    puzzle, so Ctrl-C keeps the finished ones.
    """
    level = parse_level(level)
    check_grid(rows, cols)
    constraints = parse_constraints(rows, cols, require, at, theme, max_line_pairs)
    from puzzlegen.calibration import load
    load(*sorted((rows, cols)))  # fail early without a calibration
    before = stamp(out)
    start = time.perf_counter()
    bar = None
    if sys.stderr.isatty():
        from tqdm import tqdm
        bar = tqdm(total=count, desc="puzzles", unit="puzzle", file=sys.stderr)
    try:
        pack = generate_pack(rows, cols, count, level, method, seed, jobs, out, bar,
                             max_attempts, constraints)
    except KeyboardInterrupt:
        written = before != stamp(out) and len(packs.load(out)["puzzles"])
        kept = f"the {written} puzzles finished are in {out}" if written else "nothing was written"
        raise clitools.fail(f"interrupted; {kept}") from None
    except AttemptsExhausted as exc:
        kept = f"; those are in {out}" if exc.found else "; nothing was written"
        raise clitools.fail(f"{exc}{kept}") from None
    finally:
        if bar is not None:
            bar.close()
    summary = {"out": out, "puzzles": len(pack["puzzles"]), "level": level,
               "seconds": round(time.perf_counter() - start, 3)}
    if as_json:
        clitools.emit_json(summary)
    else:
        click.echo(f"wrote {summary['puzzles']} {level} puzzles to {out} in "
                   f"{summary['seconds']:.1f} s")
