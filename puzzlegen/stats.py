"""Summary statistics shared by the win-rate and deal-statistics commands."""
from __future__ import annotations

import math


def wilson_interval(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default); (0, 1) when trials == 0."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def proportion_summary(successes: int, trials: int) -> dict:
    """``{"count", "deals", "rate", "wilson95": [lo, hi]}`` for JSON output."""
    lo, hi = wilson_interval(successes, trials)
    return {"count": successes, "deals": trials,
            "rate": successes / trials if trials else None, "wilson95": [lo, hi]}


def percentile(sorted_values: list[float], q: float) -> float:
    """The q-th percentile (0..100) of already sorted values, nearest-rank method."""
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, math.ceil(q / 100 * len(sorted_values)) - 1))
    return sorted_values[k]
