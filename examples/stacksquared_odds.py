"""How likely is a single-stack solution, and how are maximum scores spread?  (StacksSquared)

Answers the seed's first two questions exactly, by solving seeded deals (Microsoft FreeCell
deal numbers 0..N-1) for 3x3, 3x4, 4x4, 4x5 and 5x5 grids:

    pip install ".[plots]" && python examples/stacksquared_odds.py [--jobs 2] [--scale 1.0]

Each grid is one ``puzzlegen stacksquared winrate --rules RxC --seed 0 --deals N`` run
(``puzzlegen.winrate.win_rate``: the game's default limits, the exact maximum score too).
Writes examples/output/stacksquared_odds.{json,md,png}: the runs' ``winrate --json`` summaries
(with each grid's ``rows`` and ``cols``) and their table and plot.  ``--scale 0.1`` runs a
tenth of the deals.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from puzzlegen.clitools import jobs_argument
from puzzlegen.fileio import write_atomic
from puzzlegen.winrate import win_rate
from solvers import game as games

PLAN = [(3, 3, 10_000), (3, 4, 10_000), (4, 4, 100_000), (4, 5, 10_000), (5, 5, 10_000)]
OUT = Path(__file__).parent / "output"
GAME = games.get("stacksquared")


def odds(rows: int, cols: int, deals: int, jobs: int) -> dict:
    """The win-rate summary of deals 0..deals-1 of a grid (single stack: ``single_stack``; max
    scores: ``max_score_distribution``; solver seconds: ``seconds``), with its rows and cols."""
    rules = GAME.parse_rules(f"{rows}x{cols}")
    tuning = {tune.name: tune.default for tune in GAME.tuning}   # the exact maximum score too
    run = {"jobs": jobs, "scheduler": None, "per_deal": None, "resume": False}
    return {"rows": rows, "cols": cols,
            **win_rate(GAME, rules, 0, 0, deals, GAME.default_limits, tuning, run)}


def table(results: list[dict]) -> str:
    lines = ["| grid | deals | single stack | Wilson 95% | limit | mean max score (no single stack) | ms/deal |",
             "|---|---|---|---|---|---|---|"]
    for r in results:
        p = r["single_stack"]
        lo, hi = p["wilson95"]
        dist = {int(k): v for k, v in r["max_score_distribution"].items()}
        full = (r["rows"] * r["cols"]) ** 2
        rest = {k: v for k, v in dist.items() if k != full}
        mean_rest = (f"{sum(k * v for k, v in rest.items()) / sum(rest.values()):.1f}"
                     if rest else "n/a")
        lines.append(f"| {r['rows']}x{r['cols']} | {r['deals']:,} | {100 * p['rate']:.3f}% | "
                     f"{100 * lo:.3f}%..{100 * hi:.3f}% | {r['limit']} | "
                     f"{mean_rest} of {full} | {1e3 * r['seconds']['total'] / r['deals']:.2f} |")
    return "\n".join(lines) + "\n"


def plot(results: list[dict], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    names = [f"{r['rows']}x{r['cols']}" for r in results]
    rates = [100 * r["single_stack"]["rate"] for r in results]
    errs = [[100 * (r["single_stack"]["rate"] - r["single_stack"]["wilson95"][0]) for r in results],
            [100 * (r["single_stack"]["wilson95"][1] - r["single_stack"]["rate"]) for r in results]]
    axes[0].bar(names, rates, yerr=errs, capsize=4, color="tab:blue")
    axes[0].set_ylabel("deals with a single-stack solution (%)")
    axes[0].set_ylim(min(rates) - 5, 100.5)
    axes[0].set_title("Single-stack probability (Wilson 95%)")
    for r in results:
        full = (r["rows"] * r["cols"]) ** 2
        dist = {int(k) / full: v / r["deals"] for k, v in r["max_score_distribution"].items()}
        xs = sorted(dist)
        axes[1].plot(xs, [dist[x] for x in xs], marker="o", ms=3, label=f"{r['rows']}x{r['cols']}")
    axes[1].set_yscale("log")
    axes[1].set_xlabel("max score / (r*c)^2")
    axes[1].set_ylabel("share of deals")
    axes[1].set_title("Maximum-score distribution")
    axes[1].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=jobs_argument, default=2)
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the planned deals")
    args = parser.parse_args()
    results = []
    for rows, cols, deals in PLAN:
        n = max(1, int(deals * args.scale))
        results.append(odds(rows, cols, n, args.jobs))
        print(table(results[-1:]).splitlines()[-1], flush=True)
    OUT.mkdir(exist_ok=True)
    write_atomic(OUT / "stacksquared_odds.json", json.dumps(results, indent=1))
    write_atomic(OUT / "stacksquared_odds.md", table(results))
    plot(results, OUT / "stacksquared_odds.png")
    print(table(results))


if __name__ == "__main__":
    main()
