"""Two pictures of StacksSquared difficulty, from the calibration runs and the shipped packs.

1. ``examples/design-hardness.png``: the hardness (``-log10`` of the look3 player's chance to win)
   of the solvable random deals of each calibrated grid, with the level cuts;
2. ``examples/design-ladder.png``: each player's chance to win, by level, over the shipped 4x4
   packs (a level should sit lower than the one before it for every player).

Run: ``pip install ".[plots]" && python examples/design_plots.py``
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from puzzlegen.grading import LEVELS, load
from solvers.stacksquared.difficulty import PLAYERS
from solvers.stacksquared.game import GAME, UNGRADED, Grid

ROOT = Path(__file__).resolve().parent.parent


def pyplot():
    """matplotlib's pyplot drawing to files (the ``plots`` extra, imported only to draw)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def hardness_plot(plt) -> None:
    grids = {path: tuple(map(int, path.stem.removeprefix("calibration-").split("x")))
             for path in sorted((ROOT / "solvers/stacksquared").glob("calibration-*.jsonl"))}
    files = [path for path, grid in grids.items() if grid not in UNGRADED]  # graded grids
    fig, axes = plt.subplots(1, len(files), figsize=(4 * len(files), 3.2), sharey=True)
    for ax, path in zip(np.atleast_1d(axes), files):
        rows, cols = grids[path]
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


def ladder_plot(plt) -> None:
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
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    plt = pyplot()
    hardness_plot(plt)
    ladder_plot(plt)
