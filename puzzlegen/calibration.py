"""Calibration of the difficulty percentile on random deals, shipped beside each game's module as
``calibration-KEY.json``.

For one game and rules (``solvers.game.Designable``; one table per ``calibration_key``), the
hardness of the winnable random deals ``deal_from_seed(s)``, ``s = seed_start, ...`` is
summarised by 1001 quantiles, and the level cuts are the hardness at the percentiles of
``grading.LEVELS``.  A deal's percentile is its mid-rank percentile among those deals.  A winnable
deal whose hardness is beyond the game's measure (:class:`BeyondMeasure`) counts as harder than
every measured one; a quantile or cut that falls among those deals is not measured (``null``),
and its level is not offered.

Rebuild: ``python -m puzzlegen.calibration --game stacksquared --rules 4x4 --deals 10000
--jobs 2 --figures per-deal.jsonl --out solvers/stacksquared/calibration-4x4.json``
(``--from-figures FILE`` summarises such a file without recomputing).
"""
from __future__ import annotations

import json
import time
from operator import itemgetter

import click
import numpy as np

from puzzlegen import clitools, runs
from puzzlegen.fileio import write_atomic
from puzzlegen.grading import LEVELS, QUANTILES
from solvers import game as games
from solvers.errors import BadInput, BeyondMeasure, LimitReached


def deal_figures(job: tuple[str, str, int]) -> dict:
    """The hardness of the random deal ``(game, rules, seed)`` (worker function), as the
    grade computes it."""
    name, rules_text, seed = job
    game = games.get(name)
    rules = game.parse_rules(rules_text)
    start = time.perf_counter()
    try:
        value = game.hardness(game.deal_from_seed(seed, rules), rules)
    except BeyondMeasure:
        return {"seed": seed, "won": True, "beyond": True,
                "seconds": round(time.perf_counter() - start, 4)}
    except LimitReached:
        return {"seed": seed, "won": None, "seconds": round(time.perf_counter() - start, 4)}
    record = {"seed": seed, "won": value is not None,
              "seconds": round(time.perf_counter() - start, 4)}
    if value is not None:
        record["hardness"] = value
    return record


def summarise(game: games.Designable, rules, seed_start: int, records: list[dict]) -> dict:
    """The calibration table from the per-deal records."""
    winnable = [r for r in records if r["won"] is True]
    values = np.array([np.inf if r.get("beyond") else r["hardness"] for r in winnable],
                      dtype=float)
    cuts = measured_quantiles(values, [cut / 100.0 for cut in LEVELS.values()])
    return {"game": game.name, "rules": game.format_rules(rules), "deals": len(records),
            "seed_start": seed_start, "winnable": len(winnable),
            "limit": sum(r["won"] is None for r in records),
            "beyond": int(np.isinf(values).sum()),
            "cuts": {name: (value if cut > 0 else 0.0)
                     for (name, cut), value in zip(LEVELS.items(), cuts)},
            "hardness": measured_quantiles(values, QUANTILES)}


def measured_quantiles(values: np.ndarray, quantiles) -> list[float | None]:
    """``np.quantile`` (linear) of ``values``, where infinite values (beyond the measure) count
    above every finite one: a quantile that would draw on one is None."""
    finite = np.sort(values[np.isfinite(values)])
    capped = np.concatenate([finite, np.full(len(values) - len(finite), finite[-1])])
    position = np.asarray(quantiles) * (len(values) - 1)
    return [float(q) if np.ceil(p) < len(finite) else None
            for q, p in zip(np.quantile(capped, quantiles), position)]


def compute(game: games.Designable, rules, deals: int, seed_start: int, jobs: int,
            figures_out: str | None, resume: bool = False) -> list[dict]:
    """Every deal's figures, by the run engine; with ``figures_out`` its per-deal file
    (docs/runs.md: locked while the run writes it, continued with ``resume``, every resumed
    record checked)."""
    text = game.format_rules(rules)
    specs = [(game.name, text, seed) for seed in range(seed_start, seed_start + deals)]
    store = {"key": "seed", "spec_key": itemgetter(2), "per_deal": figures_out,
             "resume": resume, "check": check_figures,
             "fingerprint": {"command": "calibration", "game": game.name, "rules": text}} \
        if figures_out else {}
    return list(runs.run(deal_figures, specs, jobs=jobs, desc="deals", **store))


def check_figures(spec, record: dict) -> None:
    """``ValueError`` unless ``record`` is one of :func:`deal_figures` (a run's ``check``)."""
    runs.check_fields(record, {"seed": int, "won": (True, False, None)},
                      optional={"seconds": float, "beyond": (True,), "hardness": float})
    if record["won"] is True and not record.get("beyond") and "hardness" not in record:
        raise ValueError("a winnable deal without its hardness")


def read_figures(path: str) -> list[dict]:
    """The per-deal records of a ``--figures`` file (its run's first line skipped);
    :class:`BadInput` naming a broken line."""
    records = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                if number == 1 and isinstance(record, dict) and set(record) == {"run", "key"}:
                    continue
                check_figures(None, record)
            except (ValueError, TypeError):
                raise BadInput(f"{path}, line {number}: not a figures record") from None
            records.append(record)
    return records


@click.command(cls=clitools.Command)
@click.option("--game", "game_name", default="stacksquared", show_default=True,
              help="The game: a designable game of the registry (solvers/game.py).")
@click.option("--rules", "rules_text", default=None,
              help="The game's rules (StacksSquared: the grid, e.g. 4x4); default the game's.")
@click.option("--deals", type=clitools.IntRange(1), default=10_000, show_default=True,
              help="Random deals to grade.")
@clitools.option("--seed", deprecated="--seed-start", type=clitools.IntRange(0), default=1,
                 show_default=True, help="The deals are the game's deals of seeds S, S + 1, ... "
                                         "(as winrate's --seed).")
@click.option("--figures", "figures_out", type=click.Path(dir_okay=False),
              help="Also write each deal's figures here (JSON lines, as they arrive).")
@click.option("--from-figures", type=click.Path(exists=True, dir_okay=False),
              help="Summarise this figures file (of deals of these rules) instead of computing "
                   "deals; --deals and --seed are then not used.")
@clitools.out_option(help="Calibration file to write (ship it as calibration-KEY.json beside "
                          "the game's module, e.g. solvers/agnes/).")
@click.option("--resume", is_flag=True,
              help="Continue the run recorded in the --figures file (same game and rules); "
                   "compute only the deals it lacks.")
@clitools.jobs_option
def main(game_name, rules_text, deals, seed, figures_out, from_figures, out, resume, jobs):
    """Rebuild the difficulty calibration of one game's rules from random deals."""
    game = games.get(game_name)
    if not isinstance(game, games.Designable):
        raise BadInput(f"{game_name} has no difficulty grading to calibrate: choose one of "
                       f"{', '.join(games.designable())}")
    rules = game.parse_rules(rules_text or game.default_rules)
    game.check_graded(rules)
    key, text = game.calibration_key(rules), game.format_rules(rules)
    if not key.endswith(text):
        raise BadInput(f"{text} is graded with the calibration {key}: calibrate "
                       f"{key.rpartition('-')[2]} instead (the same puzzles)")
    if resume and not figures_out:
        raise BadInput("--resume needs --figures FILE (the file of the run to continue)")
    if from_figures:
        records = read_figures(from_figures)
        seed_start = min((r["seed"] for r in records), default=0)
    else:
        seed_start = seed
        records = compute(game, rules, deals, seed_start, jobs, figures_out, resume)
    if not any(r["won"] is True and not r.get("beyond") for r in records):
        raise BadInput("no winnable deal of measured hardness among the records: nothing to "
                       "calibrate on")
    table = summarise(game, rules, seed_start, records)
    write_atomic(out, json.dumps(table))
    click.echo(f"{out}: {table['deals']} deals, {table['winnable']} winnable "
               f"({table['beyond']} beyond the measure), {table['limit']} limit", err=True)


if __name__ == "__main__":
    main()
