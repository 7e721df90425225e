"""Two pictures of StacksSquared difficulty, from the calibration runs and the shipped packs.

1. ``examples/design-hardness.png``: the hardness (``-log10`` of the look3 player's chance to win)
   of the solvable random deals of each calibrated grid, with the level cuts;
2. ``examples/design-ladder.png``: each player's chance to win, by level, over the shipped 4x4
   packs (a level should sit lower than the one before it for every player).

Run: ``pip install ".[plots]" && python examples/design_plots.py``
"""
from __future__ import annotations

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from puzzlegen.grading import LEVELS, load  # noqa: E402
from solvers.stacksquared.difficulty import PLAYERS  # noqa: E402
from solvers.stacksquared.game import GAME, Grid  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def hardness_plot() -> None:
    files = sorted((ROOT / "benchmarks/calibration").glob("[0-9]*x*.jsonl")  # StacksSquared grids)
    fig, axes = plt.subplots(1, len(files), figsize=(4 * len(files), 3.2), sharey=True)
    for ax, path in zip(np.atleast_1d(axes), files):
        rows, cols = map(int, path.stem.split("x"))
        values = [r["hardness"] for r in map(json.loads, path.open()) if r.get("hardness")]
        ax.hist(values, bins=60, color="#6a8caf")
        ax.set_yscale("log")
        for name, cut in load(GAME, Grid(rows, cols))["cuts"].items():
            if LEVELS[name] > 0:
                ax.axvline(cut, color="#b03a2e", lw=0.8)
                ax.text(cut, ax.get_ylim()[1] * 0.5, name, rotation=90, fontsize=7)
        ax.set_title(f"{path.stem}: {len(values):,} solvable deals")
        ax.set_xlabel("hardness (-log10 look3 win)")
    fig.tight_layout()
    fig.savefig(ROOT / "examples/design-hardness.png", dpi=120)


def ladder_plot() -> None:
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for offset, player in enumerate(PLAYERS):
        spots, values = [], []
        for x, level in enumerate(LEVELS):
            path = ROOT / f"puzzles/stacksquared-4x4-{level}.json"
            if path.exists():
                for entry in json.loads(path.read_text())["puzzles"]:
                    spots.append(x + 0.15 * offset - 0.22)
                    values.append(max(entry["metrics"]["players"][player]["win"], 1e-12))
        ax.scatter(spots, values, s=8, label=player)
    ax.set_yscale("log")
    ax.set_xticks(range(len(LEVELS)), list(LEVELS))
    ax.set_ylabel("chance to win")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(ROOT / "examples/design-ladder.png", dpi=120)


if __name__ == "__main__":
    hardness_plot()
    ladder_plot()
