"""Solving many StacksSquared deals: one JSON record a deal, and the summary of a survey."""
from __future__ import annotations

import time
from collections import Counter

from puzzlegen import clitools
from puzzlegen.stats import percentile, proportion_summary
from solvers.result import Limits
from solvers.stacksquared import Deal, solve, warm_up


def solve_record(deal: Deal, limits: Limits, want_max: bool = True) -> dict:
    """The DESIGN.md solve fields for one deal."""
    result = solve(deal, limits, max_score=want_max)
    out = {"status": result.status.value,
           "single_stack": result.details["single_stack"],
           "max_score": result.details["max_score"],
           "moves": [str(m) for m in result.moves],
           "nodes": result.nodes,
           "seconds": round(result.seconds, 6)}
    if "best_score" in result.details:
        out["best_score"] = result.details["best_score"]
    return out


def solve_seed(job: tuple[int, int, int, Limits, bool]) -> dict:
    seed, rows, cols, limits, want_max = job
    return {"seed": seed, **solve_record(Deal.from_seed(seed, rows, cols), limits, want_max)}


def survey(rows: int, cols: int, seeds: range, limits: Limits, jobs: int = 1) -> dict:
    """Solve the seeded deals and summarise: single-stack share (Wilson 95%), max scores, time."""
    Deal.from_seed(0, rows, cols)  # checks the grid before any work
    warm_up()
    started = time.perf_counter()
    results = list(clitools.progress(
        clitools.map_jobs(solve_seed, [(s, rows, cols, limits, True) for s in seeds], jobs),
        total=len(seeds), desc=f"{rows}x{cols} deals"))
    wall = time.perf_counter() - started
    decided = [r for r in results if r["single_stack"] is not None]
    single = sum(1 for r in decided if r["single_stack"])
    scores = Counter(r["max_score"] for r in results if r["max_score"] is not None)
    seconds = sorted(r["seconds"] for r in results)
    return {
        "rows": rows, "cols": cols, "deals": len(seeds), "seed_start": seeds.start,
        "single_stack": proportion_summary(single, len(decided)),
        "limit": sum(1 for r in results if r["status"] == "limit"),
        "undecided_single_stack": len(seeds) - len(decided),
        "max_score_distribution": {str(k): scores[k] for k in sorted(scores)},
        "timing": {"wall_seconds": round(wall, 3), "jobs": jobs,
                   "mean_ms": round(1e3 * sum(seconds) / len(seeds), 4),
                   "median_ms": round(1e3 * percentile(seconds, 50), 4),
                   "p99_ms": round(1e3 * percentile(seconds, 99), 4),
                   "max_ms": round(1e3 * seconds[-1], 4)},
    }
