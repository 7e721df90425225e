"""Do the levels separate?  Independent measures of the shipped packs against random deals.

The grader's levels rest on the look3 player (numba, the grading decision table).  This script
measures two other things with separate code: the random player's chance to win and Neller and
Ziegler's halfway solvability ratio, by sequential Monte Carlo written here in plain Python over
the rules module (``Position.legal_moves``/``play``), multinomial resampling, and the exact
solver's own search (``solvers.stacksquared.api.run_search``) as the winnability oracle.

For each pair of adjacent levels it reports, on both measures, the probability that a puzzle of
the easier level is easier than one of the harder level (ties count half), and for each pack
where its puzzles fall among random solvable deals measured the same way.

  python benchmarks/difficulty_check.py puzzles/stacksquared-4x4-*.json --random 400 --jobs 2 \
      --json benchmarks/results/difficulty-check-4x4.json
"""
from __future__ import annotations

import json
import math
import random
import statistics
from pathlib import Path

import click

from puzzlegen import clitools, runs
from puzzlegen.grading import LEVELS
from puzzlegen.separation import easier_share
from solvers.result import Limits
from solvers.stacksquared import Deal, Position
from solvers.stacksquared.api import run_search


def winnable(position: Position, memo: dict) -> bool:
    key = position.tops
    if key not in memo:
        n = sum(position.sizes)
        outcome, best, *_ = run_search(position, with_sizes=False, floor=n * n - 1,
                                       ceiling=n * n, limits=Limits(states=20_000_000))
        if outcome != 0:
            raise RuntimeError(f"the solver hit its limit on {position}")
        memo[key] = best == n * n
    return memo[key]


def random_play(job: tuple[str, int, int, int]) -> dict:
    """(deal text, rows, cols, particles) -> the random player's win chance and halfway ratio."""
    text, rows, cols, particles = job
    deal = Deal.parse(text, rows, cols)
    rng = random.Random(f"check:{text}")
    memo: dict = {}
    start = Position.start(deal)
    if not winnable(start, memo):
        return {"deal": text, "solvable": False}
    swarm, factors = [start] * particles, []
    for _ in range(deal.size - 1):
        survivors = []
        for position in swarm:
            moves = list(position.legal_moves())
            if moves:
                child = position.play(rng.choice(moves))
                if winnable(child, memo):
                    survivors.append(child)
        factors.append(len(survivors) / particles)
        if not survivors:
            break
        swarm = [rng.choice(survivors) for _ in range(particles)]
    factors += [0.0] * (deal.size - 1 - len(factors))
    return {"deal": text, "solvable": True, "random_win": math.prod(factors),
            "halfway": math.prod(factors[:deal.size // 2])}


def below_share(values: list[float], reference: list[float]) -> float:
    """The mean share of reference values at or below each value (its percentile, 0..1)."""
    return statistics.mean(sum(r <= v for r in reference) / len(reference) for v in values)


@click.command()
@click.argument("packs", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--random", "random_deals", default=400, show_default=True,
              help="Random deals (seeds 50001, ...) of the packs' grid to compare with.")
@click.option("--particles", default=100, show_default=True)
@click.option("--jobs", type=clitools.Jobs(), default=min(2, clitools.cores()),
              show_default=True)
@click.option("--json", "json_out", type=click.Path(dir_okay=False))
def main(packs, random_deals, particles, jobs, json_out):
    by_level, rows, cols = {}, None, None
    for path in packs:
        for entry in json.loads(Path(path).read_text())["puzzles"]:
            rows, cols = entry["rows"], entry["cols"]
            by_level.setdefault(entry["level"], []).append(entry["deal"])
    jobs_list = [(d, rows, cols, particles) for deals in by_level.values() for d in deals]
    jobs_list += [(str(Deal.from_seed(s, rows, cols)), rows, cols, particles)
                  for s in range(50001, 50001 + random_deals)]
    results = {r["deal"]: r for r in runs.run(random_play, jobs_list, jobs=jobs)}
    randoms = [results[str(Deal.from_seed(s, rows, cols))] for s in range(50001,
                                                                         50001 + random_deals)]
    randoms = [r for r in randoms if r["solvable"]]
    report = {"grid": f"{rows}x{cols}", "particles": particles,
              "random_solvable": len(randoms), "levels": {}, "separation": {},
              "puzzles": {level: [results[d] for d in deals] for level, deals in by_level.items()}}
    for measure in ("random_win", "halfway"):
        reference = [r[measure] for r in randoms]
        report.setdefault("random_mean", {})[measure] = statistics.mean(reference)
        for level, deals in by_level.items():
            values = [results[d][measure] for d in deals]
            report["levels"].setdefault(level, {"puzzles": len(deals)})
            report["levels"][level][measure] = {
                "mean": statistics.mean(values), "median": statistics.median(values),
                "percentile_among_random": below_share(values, reference)}
    present = [lv for lv in LEVELS if lv in by_level]
    for easy, hard in zip(present, present[1:]):
        report["separation"][f"{easy}<{hard}"] = {
            measure: easier_share([results[d][measure] for d in by_level[easy]],
                                  [results[d][measure] for d in by_level[hard]])
            for measure in ("random_win", "halfway")}
    text = json.dumps(report, indent=1)
    print(text)
    if json_out:
        Path(json_out).write_text(text + "\n")


if __name__ == "__main__":
    main()
