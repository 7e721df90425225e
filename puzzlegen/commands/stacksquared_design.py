"""``puzzlegen stacksquared grade`` and ``generate``: exact grading and puzzle-pack generation."""
from __future__ import annotations

import multiprocessing
import sys
import time
from collections import deque

import click

from puzzlegen import clitools, packs
from puzzlegen.fileio import check_writable, write_atomic
from puzzlegen.grading import LEVELS, TREE_STATES, GradeLimit, grade as grade_deal, parse_level
from solvers.stacksquared.symmetry import canonical
from solvers.errors import BadInput
from solvers.stacksquared import Deal
from solvers.stacksquared.rules import check_grid

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
@click.option("--tree-states", type=click.IntRange(1), default=TREE_STATES, show_default=True,
              help="Compute the whole-tree figures when the game tree fits this many stored "
                   "states (a 4x4 tree needs millions: minutes and gigabytes).")
@clitools.json_option
def grade(deal, seed, rows, cols, tree_states, as_json):
    """Grade DEAL (cards row-major) exactly: level, score (0-100) and the figures behind it."""
    the_deal = read_deal(deal, seed, rows, cols)
    try:
        result = grade_deal(the_deal, tree_states=tree_states)
    except GradeLimit as exc:
        raise clitools.fail(f"cannot grade this deal exactly: {exc}") from None
    if as_json:
        clitools.emit_json(result.to_json())
        return
    score = "-" if result.score is None else f"{result.score:.2f}"
    click.echo(the_deal.grid_text())
    click.echo(f"level {result.level}  score {score}")
    for name, value in result.metrics.items():
        click.echo(f"  {name:20} {value}")
    click.echo("solution: " + " ".join(result.solution))


class AttemptsExhausted(Exception):
    """``generate`` made its last allowed annealing run before finding every puzzle."""

    def __init__(self, message: str, found: int):
        super().__init__(message)
        self.found = found


def generate_pack(rows: int, cols: int, count: int, level: str, method: str, seed: int,
                  jobs: int, out: str, bar=None, max_attempts: int | None = None) -> dict:
    """Run ``generate`` (see its help); writes ``out`` after every accepted puzzle.

    Annealing runs ``k = 0, 1, ...`` go to the workers ahead of need, but their results are
    taken in order of ``k``, so the pack depends on the seed alone, not on ``jobs``.
    """
    from puzzlegen import anneal

    parameters = {"rows": rows, "cols": cols, "count": count, "level": level,
                  "schedule": {"tmax": anneal.T_MAX, "tmin": anneal.T_MIN, "steps": anneal.STEPS}}
    puzzles: list[dict] = []
    seen: set[tuple] = set()
    starts = None
    if method == "cpsat":
        from puzzlegen import cpsat
        parameters["line_edges"] = rows * cols - 2
        starts = cpsat.start_deals(rows, cols, seed, line_edges=rows * cols - 2)
    limit = max_attempts if max_attempts is not None else DEFAULT_ATTEMPTS_PER_PUZZLE * count
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with ctx.Pool(jobs, initializer=anneal.ignore_sigint) as pool:
        pending: deque = deque()
        k = 0
        while len(puzzles) < count:
            while len(pending) < 2 * jobs and k < limit:
                job = (rows, cols, level, seed, k, None if starts is None else str(next(starts)))
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
            if graded.level != level:
                raise AssertionError(f"annealing reached {deal} but it grades {graded.level}")
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
              show_default=True, help="anneal: from random deals; cpsat: annealing from deals "
                                      "CP-SAT constructs with a planted solution.")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True,
              help="Seed of the annealing runs: the same seed gives the same pack.")
@click.option("--out", type=click.Path(dir_okay=False), required=True, help="Pack file to write.")
@click.option("--max-attempts", type=click.IntRange(1), default=None,
              help=f"Give up after this many annealing runs "
                   f"[default: {DEFAULT_ATTEMPTS_PER_PUZZLE} x COUNT].")
@clitools.jobs_option
@clitools.json_option
def generate(rows, cols, count, level, method, seed, out, max_attempts, jobs, as_json):
    """Generate a pack of COUNT distinct puzzles at LEVEL, each verified by the exact solver.

    The pack is rewritten atomically after every puzzle, so Ctrl-C keeps the finished ones.
    """
    level = parse_level(level)
    check_grid(rows, cols)
    check_writable(out)
    from puzzlegen.calibration import load
    load(rows, cols)  # fail early without a calibration
    start = time.perf_counter()
    bar = None
    if sys.stderr.isatty():
        from tqdm import tqdm
        bar = tqdm(total=count, desc="puzzles", unit="puzzle", file=sys.stderr)
    try:
        pack = generate_pack(rows, cols, count, level, method, seed, jobs, out, bar,
                             max_attempts)
    except KeyboardInterrupt:
        raise clitools.fail(f"interrupted; the puzzles finished so far are in {out}") from None
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
