"""How long a StacksSquared grade takes, and how often its figures are exact.

Grades the random deals of ``--seeds`` (every figure of ``difficulty.figures``, as ``grade``
computes them; warm: the kernels are loaded first) and prints the median, 99th percentile and
largest time a deal, the peak memory of the process, and the share of winnable deals whose level
figure is exact.  ``--source DIR`` runs the same on another checkout's code (DIR first on
PYTHONPATH), so a before and an after are measured in one run, as ratios:

    python benchmarks/grade_bench.py --rules 4x4 --seeds 200001..200300
    python benchmarks/grade_bench.py --rules 4x4 --seeds 200001..200300 --source ../main-before
"""
from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time

import click


def measure(rules: str, first: int, last: int) -> dict:
    """Grade every deal of seeds ``first..last`` in this process; the summary."""
    from solvers.stacksquared import Deal
    from solvers.stacksquared.difficulty import figures

    rows, cols = map(int, rules.split("x"))
    figures(Deal.from_seed(104, 4, 4))   # load the kernels
    seconds, exact, winnable = [], 0, 0
    for seed in range(first, last + 1):
        start = time.perf_counter()
        metrics, _ = figures(Deal.from_seed(seed, rows, cols))
        seconds.append(time.perf_counter() - start)
        if metrics["single_stack"]:
            winnable += 1
            exact += bool(metrics["players"]["look3"].get("exact"))
    seconds.sort()
    return {"rules": rules, "deals": len(seconds), "median_s": round(statistics.median(seconds), 4),
            "p99_s": round(seconds[int(0.99 * (len(seconds) - 1))], 3),
            "max_s": round(seconds[-1], 3), "total_s": round(sum(seconds), 1),
            "exact_share": round(exact / max(winnable, 1), 4),
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}


@click.command()
@click.option("--rules", default="4x4", show_default=True, help="The grid, ROWSxCOLS.")
@click.option("--seeds", default="200001..200300", show_default=True, help="FIRST..LAST.")
@click.option("--source", type=click.Path(file_okay=False, exists=True),
              help="Measure this checkout's code instead (DIR first on PYTHONPATH).")
def main(rules: str, seeds: str, source: str | None) -> None:
    first, _, last = seeds.partition("..")
    if source:
        env = dict(os.environ, PYTHONPATH=os.path.abspath(source))
        code = (f"import sys; sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r});"
                f"import grade_bench, json; print(json.dumps(grade_bench.measure("
                f"{rules!r}, {int(first)}, {int(last)})))")
        out = subprocess.run([sys.executable, "-c", code], env=env, check=True, cwd=source,
                             capture_output=True, text=True).stdout
        click.echo(out.strip())
        return
    click.echo(json.dumps(measure(rules, int(first), int(last))))


if __name__ == "__main__":
    main()
