"""Calibration of the difficulty score on random deals, shipped as ``puzzlegen/data/*.json``.

For one grid size, the line figures of the solvable random deals ``Deal.from_seed(s)`` for
``s = seed_start, ...`` are summarised by 1001 quantiles each.  A deal's composite is the mean of
its mid-rank percentiles on the figures of ``grading.COMPOSITE`` (turned so that larger is
harder); the composite's own quantiles turn it into the score.

Rebuild: ``python -m puzzlegen.calibration --rows 4 --cols 4 --deals 10000 --jobs 2``
(``--figures FILE`` also streams every deal's figures as JSON lines; ``--from-figures FILE``
summarises such a file without recomputing).
"""
from __future__ import annotations

import json
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


def composite(metrics: dict, table: dict) -> float:
    """The mean over the composite figures of the deal's harder-is-larger percentile rank."""
    from puzzlegen.grading import COMPOSITE

    ranks = []
    for name, sign in COMPOSITE.items():
        rank = percentile_rank(table["figures"][name], metrics[name])
        ranks.append(rank if sign > 0 else 1.0 - rank)
    return float(np.mean(ranks))


def file_name(rows: int, cols: int) -> str:
    return f"calibration-{rows}x{cols}.json"


@lru_cache(maxsize=None)
def load(rows: int, cols: int) -> dict:
    """The shipped calibration for ``rows`` x ``cols``; :class:`BadInput` when there is none."""
    path = resources.files("puzzlegen") / "data" / file_name(rows, cols)
    if not path.is_file():
        raise BadInput(f"no difficulty calibration for {rows}x{cols} grids; build one with "
                       f"python -m puzzlegen.calibration --rows {rows} --cols {cols}")
    return json.loads(path.read_text())


def deal_figures(job: tuple[int, int, int]) -> dict:
    """The line figures of the random deal ``(rows, cols, seed)`` (worker function)."""
    from puzzlegen.grading import GradeLimit, figures

    rows, cols, seed = job
    start = time.perf_counter()
    try:
        metrics, _ = figures(Deal.from_seed(seed, rows, cols), with_tree=False)
    except GradeLimit:
        metrics = {"single_stack": None, "limit": True}
    return {"seed": seed, "seconds": time.perf_counter() - start, **metrics}


def summarise(rows: int, cols: int, seed_start: int, records: list[dict]) -> dict:
    """The calibration table from the per-deal figures."""
    from puzzlegen.grading import COMPOSITE

    solvable = [r for r in records if r["single_stack"] is True]
    table = {"rows": rows, "cols": cols, "deals": len(records), "seed_start": seed_start,
             "solvable": len(solvable),
             "limit": sum(r["single_stack"] is None for r in records), "figures": {}}
    for name in COMPOSITE:
        values = np.array([r[name] for r in solvable], dtype=float)
        table["figures"][name] = np.quantile(values, QUANTILES).tolist()
    scores = [composite(r, table) for r in solvable]
    table["composite"] = np.quantile(np.array(scores), QUANTILES).tolist()
    return table


def compute(rows: int, cols: int, deals: int, seed_start: int, jobs: int,
            figures_out: str | None) -> list[dict]:
    """Every deal's figures, streamed to ``figures_out`` (JSON lines) as they arrive."""
    jobs_list = [(rows, cols, s) for s in range(seed_start, seed_start + deals)]
    records = []
    sink = open(figures_out, "w", encoding="utf-8") if figures_out else None
    try:
        for record in clitools.progress(clitools.map_jobs(deal_figures, jobs_list, jobs),
                                        total=deals, desc="deals"):
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
@click.option("--out", type=click.Path(dir_okay=False),
              help="Calibration file (default: the shipped one inside the installed package).")
@clitools.jobs_option
def main(rows, cols, deals, seed_start, figures_out, from_figures, out, jobs):
    """Rebuild the difficulty calibration for one grid size from random deals."""
    check_grid(rows, cols)
    target = out or str(resources.files("puzzlegen") / "data" / file_name(rows, cols))
    check_writable(target)
    if from_figures:
        records = read_figures(from_figures)
        seed_start = min((r["seed"] for r in records), default=0)
    else:
        if figures_out:
            check_writable(figures_out)
        records = compute(rows, cols, deals, seed_start, jobs, figures_out)
    if not any(r["single_stack"] is True for r in records):
        raise BadInput("no solvable deal among the records: nothing to calibrate on")
    write_atomic(target, json.dumps(summarise(rows, cols, seed_start, records)))
    solvable = sum(r["single_stack"] is True for r in records)
    limits = sum(r["single_stack"] is None for r in records)
    click.echo(f"{target}: {len(records)} deals, {solvable} solvable, {limits} limit", err=True)


if __name__ == "__main__":
    main()
