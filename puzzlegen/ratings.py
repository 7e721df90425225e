"""How well the grades predict the puzzles' ratings (``puzzlegen ratings``, docs/server.md):
Spearman's rank correlation of the rating with the percentile and with the hardness, the
median rating of each level, and whether adjacent levels separate."""
from __future__ import annotations

import statistics

from puzzlegen.grading import LEVELS
from solvers.stats import spearman

#: The share of (easier, harder) puzzle pairs whose harder one rates higher at which two
#: adjacent levels count as separated (the bar of the levels' separation check, README).
SEPARATES = 0.9


def higher_share(easier: list[float], harder: list[float]) -> float:
    """The share of pairs (one of each) whose ``harder`` rating is above the ``easier`` one
    (ties count a half)."""
    wins = sum((h > e) + 0.5 * (h == e) for e in easier for h in harder)
    return wins / (len(easier) * len(harder))


def report(puzzles: list[dict], min_games: int = 1) -> dict:
    """The report over the rated puzzles (``AttemptsDB.puzzle_ratings``) with at least
    ``min_games`` rated attempts."""
    rated = [p for p in puzzles if p["games"] >= min_games]
    correlations = {}
    for figure in ("percentile", "hardness"):
        pairs = [(p[figure], p["rating"]) for p in rated if p[figure] is not None]
        correlations[figure] = {"puzzles": len(pairs),
                                "spearman": spearman(*map(list, zip(*pairs))) if pairs else None}
    by_level = {level: [p["rating"] for p in rated if p["level"] == level] for level in LEVELS}
    levels = [{"level": level, "puzzles": len(ratings),
               "median_rating": round(statistics.median(ratings), 1)}
              for level, ratings in by_level.items() if ratings]
    adjacent = []
    for easier, harder in zip(levels, levels[1:]):
        share = higher_share(by_level[easier["level"]], by_level[harder["level"]])
        adjacent.append({"easier": easier["level"], "harder": harder["level"],
                         "harder_rates_higher": round(share, 3),
                         "separate": (share >= SEPARATES
                                      and harder["median_rating"] > easier["median_rating"])})
    return {"min_games": min_games, "puzzles": rated, "correlation": correlations,
            "levels": levels, "adjacent": adjacent}


def lines(result: dict) -> list[str]:
    """The report for people."""
    out = [f"{len(result['puzzles']):,} puzzles with at least {result['min_games']:,} rated "
           f"attempt{'s' * (result['min_games'] != 1)}, easiest first:"]
    for p in result["puzzles"]:
        percentile = "-" if p["percentile"] is None else f"{p['percentile']:g}"
        out.append(f"  {p['rating']:6.0f} +- {2 * p['rd']:4.0f}  {p['games']:5,} attempts  "
                   f"{p['level']:<7} {percentile:>6}  {p['pack']} {p['puzzle']}")
    for figure, c in result["correlation"].items():
        rho = "n/a" if c["spearman"] is None else f"{c['spearman']:.3f}"
        out.append(f"Spearman correlation of the rating with the {figure}: {rho} "
                   f"({c['puzzles']:,} puzzles)")
    if result["levels"]:
        out.append("median rating by level: " + ", ".join(
            f"{lv['level']} {lv['median_rating']:.0f} ({lv['puzzles']:,})"
            for lv in result["levels"]))
    for pair in result["adjacent"]:
        out.append(f"{pair['easier']} < {pair['harder']}: the {pair['harder']} puzzle rates "
                   f"higher in {pair['harder_rates_higher']:.1%} of pairs: "
                   + ("separate" if pair["separate"] else "do not separate"))
    return out
