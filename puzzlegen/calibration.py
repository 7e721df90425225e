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
from puzzlegen.fileio import write_atomic
from solvers.errors import BadInput
from solvers.stacksquared import Deal

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


@click.command()
@click.option("--rows", type=click.IntRange(1, 52), required=True)
@click.option("--cols", type=click.IntRange(1, 52), required=True)
@click.option("--deals", type=click.IntRange(1), default=10_000, show_default=True)
@click.option("--seed-start", type=click.IntRange(0), default=1, show_default=True)
@click.option("--figures", "figures_out", type=click.Path(dir_okay=False),
              help="Also write each deal's figures here (JSON lines, as they arrive).")
@click.option("--from-figures", type=click.Path(exists=True, dir_okay=False),
              help="Summarise this figures file instead of computing deals.")
@click.option("--out", type=click.Path(dir_okay=False),
              help="Calibration file (default: the shipped puzzlegen/data one).")
@clitools.jobs_option
def main(rows, cols, deals, seed_start, figures_out, from_figures, out, jobs):
    """Rebuild the difficulty calibration for one grid size from random deals."""
    if from_figures:
        with open(from_figures, encoding="utf-8") as fh:
            records = [json.loads(line) for line in fh if line.strip()]
        seed_start = min(r["seed"] for r in records)
    else:
        records = compute(rows, cols, deals, seed_start, jobs, figures_out)
    target = out or str(resources.files("puzzlegen") / "data" / file_name(rows, cols))
    write_atomic(target, json.dumps(summarise(rows, cols, seed_start, records)))
    solvable = sum(r["single_stack"] is True for r in records)
    limits = sum(r["single_stack"] is None for r in records)
    click.echo(f"{target}: {len(records)} deals, {solvable} solvable, {limits} limit", err=True)


if __name__ == "__main__":
    try:
        main(standalone_mode=True)
    except BadInput as exc:
        raise SystemExit(f"error: {exc}")
