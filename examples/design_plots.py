"""Which attributes make StacksSquared deals hard, and what unsolvable deals have in common.

Reads the per-deal figures the calibration run streams (``benchmarks/design-calibration-*.jsonl``)
and writes three plots to ``examples/design-*.png`` plus a small table on stdout:

1. every line and graph figure against the difficulty score (4x4 solvable random deals), with
   Spearman correlations;
2. graph figures of solvable against unsolvable deals (3x3, where 38% are unsolvable);
3. the annealing objective: energy against score for each target level.

Run: ``python examples/design_plots.py``
"""
from __future__ import annotations

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from puzzlegen import grading  # noqa: E402
from puzzlegen.anneal import UNSOLVABLE_ENERGY, energy_of, level_range  # noqa: E402
from puzzlegen.grading import LEVELS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "examples"
FIGURES = ["losing_share", "critical", "forced", "safe_first_share", "halfway_safe_share",
           "effort", "first_moves", "line_edges", "compat_edges", "odd_cards"]


def records(size: str) -> list[dict]:
    path = ROOT / f"benchmarks/design-calibration-{size}.jsonl"
    return [json.loads(line) for line in path.open()]


def ranks(values) -> np.ndarray:
    return np.argsort(np.argsort(values)).astype(float)


def figures_against_score() -> None:
    deals = [r for r in records("4x4") if r["single_stack"]]
    score = np.array([grading.score(r, 4, 4) for r in deals])
    fig, axes = plt.subplots(2, 5, figsize=(18, 7))
    print("figure                 Spearman rho with the score (4x4, solvable random deals)")
    for ax, name in zip(axes.flat, FIGURES):
        values = np.array([r[name] for r in deals], dtype=float)
        rho = np.corrcoef(ranks(values), ranks(score))[0, 1]
        print(f"{name:22} {rho:+.2f}")
        ax.scatter(values, score, s=4, alpha=0.4)
        ax.set_xlabel(name)
        ax.set_ylabel("score")
        ax.set_title(f"rho = {rho:+.2f}")
    fig.tight_layout()
    fig.savefig(OUT / "design-figures-vs-score.png", dpi=80)


def unsolvable_profile() -> None:
    deals = records("3x3")
    names = ["odd_cards", "flocks", "line_edges", "compat_edges"]
    fig, axes = plt.subplots(1, 4, figsize=(16, 4))
    print("\n3x3 figure      mean solvable  mean unsolvable")
    for ax, name in zip(axes, names):
        yes = [r[name] for r in deals if r["single_stack"]]
        no = [r[name] for r in deals if not r["single_stack"]]
        print(f"{name:15} {np.mean(yes):13.2f} {np.mean(no):16.2f}")
        bins = np.arange(min(yes + no), max(yes + no) + 2) - 0.5
        ax.hist([yes, no], bins=bins, density=True, label=["solvable", "unsolvable"])
        ax.set_xlabel(name)
        ax.legend()
    fig.tight_layout()
    fig.savefig(OUT / "design-unsolvable.png", dpi=80)


def objective() -> None:
    score = np.linspace(0, 100, 501)
    fig, ax = plt.subplots(figsize=(7, 4))
    for level in LEVELS:
        low, high = level_range(level)
        ax.plot(score, [energy_of(x, low, high) for x in score], label=level)
    ax.axhline(UNSOLVABLE_ENERGY, color="k", linestyle=":", label="no single stack")
    ax.set_xlabel("difficulty score")
    ax.set_ylabel("annealing energy")
    ax.legend()
    fig.tight_layout()
    fig.savefig(OUT / "design-objective.png", dpi=80)


if __name__ == "__main__":
    figures_against_score()
    unsolvable_profile()
    objective()
