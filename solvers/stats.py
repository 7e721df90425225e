"""Summary statistics of many solves: outcomes, win rates with Wilson intervals, times; rank
correlation."""
from __future__ import annotations

import math
import statistics

from solvers.result import Status

#: A solve's status as a win-rate record says it.
OUTCOME = {Status.SOLVED: "won", Status.UNSOLVABLE: "lost", Status.LIMIT: "limit"}


def choices(verdicts: list[tuple[object, Status]]) -> dict:
    """Legal moves and the status of the position each leads to, as ``{"won": [...], "lost":
    [...], "limit": [...]}`` of the moves' names (the ``--choices`` field of solve commands)."""
    return {word: [str(move) for move, got in verdicts if got is status]
            for status, word in OUTCOME.items()}


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


def win_summary(won: int, lost: int, limit: int) -> dict:
    """The win-rate figures every game reports (one JSON shape for ``winrate --json``).

    ``win_rate`` is the proportion of decided deals won, with its Wilson 95% interval;
    ``limits_lost_won`` bounds the rate over all deals whatever the ``limit`` deals would be:
    ``rate`` counts them lost, then won, and ``wilson95`` runs from the lower end of the first's
    interval to the upper end of the second's.
    """
    deals = won + lost + limit
    low = wilson_interval(won, deals)[0]
    high = wilson_interval(won + limit, deals)[1]
    return {"deals": deals, "won": won, "lost": lost, "limit": limit,
            "win_rate": proportion_summary(won, won + lost),
            "limits_lost_won": {"rate": [won / deals, (won + limit) / deals] if deals else None,
                                "wilson95": [low, high]}}


def tally(records: list[dict]) -> dict:
    """:func:`win_summary` of per-deal records whose ``result`` is an :data:`OUTCOME` word."""
    count = {word: sum(r["result"] == word for r in records) for word in OUTCOME.values()}
    return win_summary(count["won"], count["lost"], count["limit"])


def seconds_summary(times: list[float]) -> dict:
    """Median, 99th percentile and total of per-deal solve times."""
    times = sorted(times)
    return {"median": percentile(times, 50), "p99": percentile(times, 99), "total": sum(times)}


def format_win_summary(label: str, s: dict) -> str:
    """One line for people: counts, the win rate of decided deals, the band with limits."""
    w = s["win_rate"]
    rate = "n/a" if w["rate"] is None else f"{100 * w['rate']:.2f}%"
    line = (f"{label}: won {s['won']:,}, lost {s['lost']:,}, limit {s['limit']:,}; win rate "
            f"{rate} of decided deals (Wilson 95%: {100 * w['wilson95'][0]:.2f}%.."
            f"{100 * w['wilson95'][1]:.2f}%)")
    if s["limit"]:
        lo, hi = s["limits_lost_won"]["rate"]
        wlo, whi = s["limits_lost_won"]["wilson95"]
        line += (f"; counting limits as lost..won: {100 * lo:.2f}%..{100 * hi:.2f}% "
                 f"(Wilson 95%: {100 * wlo:.2f}%..{100 * whi:.2f}%)")
    return line


def ranks(values: list[float]) -> list[float]:
    """The rank of each value (1 = smallest), ties sharing their average rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Spearman's rank correlation (the Pearson correlation of the ranks); None for fewer than
    three pairs or a constant side."""
    if len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx, syy = sum((a - mx) ** 2 for a in rx), sum((b - my) ** 2 for b in ry)
    return None if sxx == 0 or syy == 0 else sxy / (sxx * syy) ** 0.5


def reliability(groups: list[list[float]]) -> float | None:
    """The one-way intraclass correlation ICC(1) of single values: the share of their variance
    that lies between the groups (e.g. one deal's repeated estimates), not within them (1:
    every repeat agrees, 0: pure noise); groups of unequal sizes by the usual k0.  None for
    fewer than two groups of two values or more."""
    groups = [list(g) for g in groups if len(g) >= 2]
    if len(groups) < 2:
        return None
    sizes = [len(g) for g in groups]
    total = sum(sizes)
    grand = sum(map(sum, groups)) / total
    means = [sum(g) / len(g) for g in groups]
    within = sum((x - m) ** 2 for g, m in zip(groups, means) for x in g) / (total - len(groups))
    between = sum(n * (m - grand) ** 2 for n, m in zip(sizes, means)) / (len(groups) - 1)
    k0 = (total - sum(n * n for n in sizes) / total) / (len(groups) - 1)
    denominator = between + (k0 - 1) * within
    return None if denominator == 0 else (between - within) / denominator
