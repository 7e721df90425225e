"""StacksSquared design benchmarks: grading speed and precision, annealing against sampling,
generation time.  Results are recorded in ``benchmarks/design.md``.

  python benchmarks/design_bench.py grade --rows 4 --cols 4 --deals 100
  python benchmarks/design_bench.py search --rows 4 --cols 4 --level master --seconds 300
  python benchmarks/design_bench.py generate --level expert --count 10 --jobs 2
"""
from __future__ import annotations

import json
import math
import random
import statistics
import tempfile
import time
from pathlib import Path

import click

from puzzlegen import anneal
from puzzlegen.calibration import load
from puzzlegen.commands.stacksquared_design import generate_pack
from puzzlegen.constraints import NO_CONSTRAINTS
from puzzlegen.grading import (DEFAULT_BUDGET, LEVELS, GradeLimit, estimated_hardness, grade,
                               parse_level)
from solvers.cards import Card
from solvers.stacksquared import Deal
from solvers.stacksquared.symmetry import canonical


@click.group()
def main():
    """StacksSquared design benchmarks (JSON on stdout)."""


@main.command("grade")
@click.option("--rows", default=4, show_default=True)
@click.option("--cols", default=4, show_default=True)
@click.option("--deals", default=100, show_default=True)
def grade_speed(rows, cols, deals):
    """Warm grading time per deal (one core) and the look3 interval's half-width (log10)."""
    grade(Deal.from_seed(2, rows, cols))
    times, widths = [], []
    for seed in range(20001, 20001 + deals):
        deal = Deal.from_seed(seed, rows, cols)
        start = time.process_time()
        result = grade(deal)
        times.append(time.process_time() - start)
        if result.metrics["single_stack"]:
            low, high = result.metrics["players"]["look3"]["interval"]
            widths.append(math.log10(high / low) / 2 if low > 0 else math.inf)
    times.sort()
    print(json.dumps({"grid": f"{rows}x{cols}", "deals": deals,
                      "median_s": statistics.median(times), "mean_s": statistics.mean(times),
                      "p90_s": times[int(0.9 * (len(times) - 1))], "max_s": times[-1],
                      "look3_halfwidth_log10_median": statistics.median(widths)}, indent=1))


def sampling(rows: int, cols: int, level: str, seconds: float) -> dict:
    """Uniformly random deals graded (hardness first, the full grade when it qualifies) until
    the CPU budget is spent."""
    table = load(rows, cols)
    cut = table["cuts"][level]
    names = list(LEVELS)
    upper = table["cuts"][names[names.index(level) + 1]] if level != names[-1] else math.inf
    rng, found, tried, start = random.Random(f"sampling:{level}"), set(), 0, time.process_time()
    while time.process_time() - start < seconds:
        deal = Deal(rows, cols, tuple(Card.from_index(i) for i in rng.sample(range(52),
                                                                             rows * cols)))
        tried += 1
        try:
            value = estimated_hardness(deal, DEFAULT_BUDGET)
        except GradeLimit:
            continue
        if value is not None and cut <= value < upper and grade(deal).level == level:
            found.add(canonical(deal))
    used = time.process_time() - start
    return {"found": len(found), "deals": tried, "cpu_s": used, "per_cpu_s": len(found) / used}


def annealing(rows: int, cols: int, level: str, seconds: float) -> dict:
    """Annealing runs (``anneal.find``, one after another in this process) until the CPU budget
    is spent."""
    target = anneal.target_hardness(level, load(rows, cols))
    found, runs, start = set(), 0, time.process_time()
    while time.process_time() - start < seconds:
        result = anneal.find((rows, cols, level, 2026, runs, None, target, NO_CONSTRAINTS))
        runs += 1
        if result is not None:
            found.add(canonical(Deal.parse(result[0], rows, cols)))
    used = time.process_time() - start
    return {"found": len(found), "runs": runs, "cpu_s": used, "per_cpu_s": len(found) / used}


@main.command("search")
@click.option("--rows", default=4, show_default=True)
@click.option("--cols", default=4, show_default=True)
@click.option("--level", default="master", show_default=True)
@click.option("--seconds", default=300.0, show_default=True, help="CPU budget per method.")
def search(rows, cols, level, seconds):
    """Puzzles of LEVEL found per CPU-second: annealing against sampling, same budget, same run."""
    level = parse_level(level)
    grade(Deal.from_seed(2, rows, cols))
    sample = sampling(rows, cols, level, seconds)
    anneals = annealing(rows, cols, level, seconds)
    ratio = (anneals["per_cpu_s"] / sample["per_cpu_s"]) if sample["found"] else None
    print(json.dumps({"grid": f"{rows}x{cols}", "level": level, "sampling": sample,
                      "annealing": anneals, "ratio": ratio}, indent=1))


@main.command("generate")
@click.option("--rows", default=4, show_default=True)
@click.option("--cols", default=4, show_default=True)
@click.option("--level", default="expert", show_default=True)
@click.option("--count", default=10, show_default=True)
@click.option("--jobs", default=2, show_default=True)
def generate(rows, cols, level, count, jobs):
    """Wall time of ``generate`` and the levels its puzzles re-grade to."""
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        pack = generate_pack(rows, cols, count, parse_level(level), "anneal", 7, jobs,
                             str(Path(tmp) / "x.json"))
        seconds = time.perf_counter() - start
    levels = [grade(Deal.parse(p["deal"], rows, cols)).level for p in pack["puzzles"]]
    print(json.dumps({"grid": f"{rows}x{cols}", "level": level, "count": count, "jobs": jobs,
                      "seconds": seconds, "regraded_at_level": levels.count(level)}, indent=1))


if __name__ == "__main__":
    main()
