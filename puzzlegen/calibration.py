"""Calibration of the difficulty score on random deals, shipped as ``puzzlegen/data/*.json``.

For one grid (rows <= cols: a transposed grid is the same puzzle), the hardness
(``grading.hardness``) of the solvable random deals ``Deal.from_seed(s)``, ``s = seed_start, ...``
is summarised by 1001 quantiles, and the level cuts are the hardness at the percentiles of
``grading.LEVELS``.  A deal's score is its mid-rank percentile among those deals.

Rebuild: ``python -m puzzlegen.calibration --rows 4 --cols 4 --deals 10000 --jobs 2
--figures per-deal.jsonl --out puzzlegen/data/calibration-4x4.json`` (``--from-figures FILE``
summarises such a file without recomputing).
"""
from __future__ import annotations

import json
import os
import time
from functools import lru_cache
from importlib import resources

import click
import numpy as np

from puzzlegen import clitools
from puzzlegen.fileio import check_writable, write_atomic
from solvers.errors import BadInput
from solvers.stacksquared import Deal
from solvers.stacksquared.rules import check_grid

QUANTILES = np.linspace(0.0, 1.0, 1001)


def percentile_rank(quantiles: list[float], value: float) -> float:
    """The mid-rank (0..1) of ``value`` among the values summarised by ``quantiles``."""
    q = np.asarray(quantiles)
    below = np.searchsorted(q, value, side="left")
    upto = np.searchsorted(q, value, side="right")
    return float((below + upto) / 2 / len(q))


def score_of(table: dict, hardness: float) -> float:
    """The score (0-100) of a solvable deal of this hardness: its percentile among the
    calibration deals, exact at the level cuts (a deal at or above a cut scores at least it)."""
    from puzzlegen.grading import LEVELS

    value = 100.0 * percentile_rank(table["hardness"], hardness)
    for name, cut in LEVELS.items():
        if hardness >= table["cuts"][name]:
            value = max(value, cut)
        else:
            value = min(value, cut - 0.01)
    return round(value, 2)


def file_name(rows: int, cols: int) -> str:
    return f"calibration-{rows}x{cols}.json"


@lru_cache(maxsize=None)
def load(rows: int, cols: int) -> dict:
    """The shipped calibration for ``rows`` x ``cols``; :class:`BadInput` when there is none."""
    path = resources.files("puzzlegen") / "data" / file_name(rows, cols)
    if not path.is_file():
        raise BadInput(f"no difficulty calibration for {rows}x{cols} grids; build one with "
                       f"python -m puzzlegen.calibration --rows {rows} --cols {cols} "
                       f"--out puzzlegen/data/{file_name(rows, cols)} (docs/design.md)")
    return json.loads(path.read_text())


def deal_figures(job: tuple[int, int, int]) -> dict:
    """The hardness of the random deal ``(rows, cols, seed)`` (worker function): the look3
    player alone, with the grade's budget, so the value is the grade's."""
    from puzzlegen.grading import DEFAULT_BUDGET, GradeLimit, estimated_hardness

    rows, cols, seed = job
    start = time.perf_counter()
    try:
        value = estimated_hardness(Deal.from_seed(seed, rows, cols), DEFAULT_BUDGET)
    except GradeLimit:
        return {"seed": seed, "single_stack": None, "limit": True,
                "seconds": round(time.perf_counter() - start, 4)}
    record = {"seed": seed, "single_stack": value is not None,
              "seconds": round(time.perf_counter() - start, 4)}
    if value is not None:
        record["hardness"] = value
    return record


def summarise(rows: int, cols: int, seed_start: int, records: list[dict]) -> dict:
    """The calibration table from the per-deal records."""
    from puzzlegen.grading import LEVELS

    solvable = [r for r in records if r["single_stack"] is True]
    values = np.array([r["hardness"] for r in solvable], dtype=float)
    return {"rows": rows, "cols": cols, "deals": len(records), "seed_start": seed_start,
            "solvable": len(solvable), "limit": sum(r["single_stack"] is None for r in records),
            "cuts": {name: (float(np.quantile(values, cut / 100.0)) if cut > 0 else 0.0)
                     for name, cut in LEVELS.items()},
            "hardness": np.quantile(values, QUANTILES).tolist()}


def compute(rows: int, cols: int, deals: int, seed_start: int, jobs: int,
            figures_out: str | None, resume: bool = False) -> list[dict]:
    """Every deal's figures, streamed to ``figures_out`` (JSON lines) as they arrive; with
    ``resume`` the deals already in that file are kept, not recomputed."""
    seeds = range(seed_start, seed_start + deals)
    records = [r for r in read_figures(figures_out) if r["seed"] in seeds] if resume else []
    done = {r["seed"] for r in records}
    jobs_list = [(rows, cols, s) for s in seeds if s not in done]
    sink = open(figures_out, "a" if resume else "w", encoding="utf-8") if figures_out else None
    try:
        for record in clitools.progress(clitools.map_jobs(deal_figures, jobs_list, jobs),
                                        total=len(jobs_list), desc="deals"):
            records.append(record)
            if sink:
                sink.write(json.dumps(record) + "\n")
                sink.flush()
    finally:
        if sink:
            sink.close()
    return records


def read_figures(path: str) -> list[dict]:
    """The per-deal records of a ``--figures`` file; :class:`BadInput` naming a broken line."""
    records = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                record = None
            if not isinstance(record, dict) or not {"seed", "single_stack"} <= record.keys():
                raise BadInput(f"{path}, line {number}: not a figures record")
            records.append(record)
    return records


@click.command(cls=clitools.Command)
@click.option("--rows", type=click.IntRange(1, 52), required=True, help="Rows of the grid.")
@click.option("--cols", type=click.IntRange(1, 52), required=True, help="Columns of the grid.")
@click.option("--deals", type=click.IntRange(1), default=10_000, show_default=True,
              help="Random deals to grade.")
@click.option("--seed-start", type=click.IntRange(0), default=1, show_default=True,
              help="The deals are Deal.from_seed(S), S = this, this + 1, ...")
@click.option("--figures", "figures_out", type=click.Path(dir_okay=False),
              help="Also write each deal's figures here (JSON lines, as they arrive).")
@click.option("--from-figures", type=click.Path(exists=True, dir_okay=False),
              help="Summarise this figures file (of ROWS x COLS deals) instead of computing "
                   "deals; --deals and --seed-start are then not used.")
@clitools.out_option(help="Calibration file to write (ship it as "
                          "puzzlegen/data/calibration-RxC.json).")
@click.option("--resume", is_flag=True,
              help="Keep the deals already in the --figures file and compute the rest.")
@clitools.jobs_option
def main(rows, cols, deals, seed_start, figures_out, from_figures, out, resume, jobs):
    """Rebuild the difficulty calibration for one grid size from random deals."""
    check_grid(rows, cols)
    if rows > cols:
        raise BadInput(f"calibrate {cols}x{rows} instead: a transposed grid is the same puzzle")
    if resume and not (figures_out and os.path.exists(figures_out)):
        raise BadInput("--resume needs an existing --figures file")
    target = out
    if from_figures:
        records = read_figures(from_figures)
        seed_start = min((r["seed"] for r in records), default=0)
    else:
        if figures_out and not resume:
            check_writable(figures_out)
            if os.path.exists(figures_out):
                raise BadInput(f"{figures_out} already exists; use --resume to continue it")
        records = compute(rows, cols, deals, seed_start, jobs, figures_out, resume)
    if not any(r["single_stack"] is True for r in records):
        raise BadInput("no solvable deal among the records: nothing to calibrate on")
    write_atomic(target, json.dumps(summarise(rows, cols, seed_start, records)))
    solvable = sum(r["single_stack"] is True for r in records)
    limits = sum(r["single_stack"] is None for r in records)
    click.echo(f"{target}: {len(records)} deals, {solvable} solvable, {limits} limit", err=True)


if __name__ == "__main__":
    main()
