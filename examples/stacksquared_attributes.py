"""Which attributes of a deal make it hard, and an objective for annealing combined from them.

    pip install ".[research,plots]"
    python examples/stacksquared_attributes.py data/stacksquared-3x4.csv.gz --png attributes.png
    python examples/stacksquared_attributes.py data/stacksquared-4x4.csv.gz \\
        --hardness solvers/stacksquared/calibration-4x4.jsonl

The difficulty is the grade's hardness (``-log10`` of the look3 player's chance to win: exact on
3x3 and 3x4, docs/research.md), over the deals with a single stack.  ``--hardness`` takes it from
a calibration's per-deal file instead (``puzzlegen.calibration``: the same seeded deals), for a
data set built with ``--structure-only``.  The report (JSON), on a seeded 70/30 split:

1. each structural attribute's Spearman correlation with the hardness;
2. a gradient-boosted model of the hardness from all of them (scikit-learn): held-out R^2 and
   Spearman, and each attribute's permutation importance (the held-out R^2 lost when that
   column is shuffled, mean and SD of 10 shuffles);
3. objectives a generator could anneal on: a linear least-squares fit on standardised
   attributes, the same fit on the three most important ones (the generator's guess,
   ``difficulty.rough_hardness``, is this fit on 4x4), and the generator's first guess, minus
   the compatible pairs and half of those in line (``pairs``);
   for each, the held-out Spearman and how many of the held-out expert and master deals are
   among the 1% and the 5% it ranks hardest (a generator steered by it starts there).

An attribute that never varies among deals with a single stack (``flocks``) is left out.
"""
from __future__ import annotations

import json

import numpy as np
import research_reports

from puzzlegen.grading import LEVELS

ATTRIBUTES = ["compat_edges", "line_edges", "odd_cards", "flocks", "min_degree", "max_degree",
              "pendant_cards", "line_components", "largest_suit", "distinct_ranks"]
#: The levels a generator finds hardest to hit, whose share among the top 1% is reported.
TOP_LEVELS = ("expert", "master")


def frame_of(path: str, hardness_file: str | None):
    """The data set's deals with a single stack, their hardness and level; from
    ``hardness_file`` (a calibration's per-deal JSON lines) when given."""
    import pandas as pd

    frame = pd.read_csv(path)
    frame = frame[frame["solvable"].astype(bool)].copy()
    if hardness_file:
        records = [json.loads(line) for line in open(hardness_file, encoding="utf-8")]
        found = {r["seed"]: r["hardness"] for r in records
                 if r.get("won") and r.get("hardness") is not None}
        frame["hardness"] = frame["seed"].map(found)
        frame = frame[frame["hardness"].notna()].copy()
        frame["level"] = level_column(frame)
    if frame.empty or frame["hardness"].isna().any():
        raise ValueError(f"{path}: no hardness for its deals (built with --structure-only? "
                         "give --hardness)")
    return frame


def level_column(frame) -> list[str]:
    """Each deal's level by the shipped calibration of its grid."""
    from puzzlegen.grading import level_of, load, percentile_of
    from solvers import game as games

    game = games.get("stacksquared")
    rules = game.parse_rules(f"{int(frame['rows'].iloc[0])}x{int(frame['cols'].iloc[0])}")
    table = load(game, rules)
    return [level_of(percentile_of(table, h)) for h in frame["hardness"]]


def found_at_top(scores: np.ndarray, levels: np.ndarray, percent: int) -> int:
    """The expert and master deals among the ``percent``% that ``scores`` ranks hardest."""
    top = np.argsort(-scores, kind="stable")[:max(1, len(scores) * percent // 100)]
    return int(np.isin(levels[top], TOP_LEVELS).sum())


def spearman(a, b) -> float:
    from scipy.stats import spearmanr
    return round(float(spearmanr(a, b).statistic), 3)


def report(path: str, hardness_file: str | None) -> dict:
    """The three parts of the module docstring for the data set at ``path``."""
    from sklearn.ensemble import HistGradientBoostingRegressor
    from sklearn.inspection import permutation_importance
    from sklearn.linear_model import LinearRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    frame = frame_of(path, hardness_file)
    names = [name for name in ATTRIBUTES if frame[name].nunique() > 1]
    x, y = frame[names].to_numpy(float), frame["hardness"].to_numpy(float)
    levels = frame["level"].to_numpy(str)
    train, test = train_test_split(np.arange(len(frame)), test_size=0.3, random_state=0)
    model = HistGradientBoostingRegressor(random_state=0).fit(x[train], y[train])
    found = permutation_importance(model, x[test], y[test], n_repeats=10, random_state=0)
    importance = {name: {"mean": round(float(m), 4), "sd": round(float(s), 4)}
                  for name, m, s in zip(names, found.importances_mean, found.importances_std)}
    ranked = sorted(names, key=lambda name: -importance[name]["mean"])

    def linear(columns: list[str]) -> tuple[np.ndarray, dict]:
        index = [names.index(c) for c in columns]
        fit = make_pipeline(StandardScaler(), LinearRegression()).fit(x[train][:, index],
                                                                      y[train])
        scaler, line = fit.named_steps.values()
        weights = {c: round(float(w), 4) for c, w in zip(columns, line.coef_ / scaler.scale_)}
        return fit.predict(x[test][:, index]), weights

    every, every_weights = linear(names)
    three, three_weights = linear(ranked[:3])
    pairs = -(frame["compat_edges"].to_numpy(float) + frame["line_edges"].to_numpy(float) / 2)
    objectives = {"linear_all": (every, every_weights), "linear_top3": (three, three_weights),
                  "pairs": (pairs[test], {"compat_edges": -1.0, "line_edges": -0.5}),
                  "boosted_model": (model.predict(x[test]), None)}
    return {
        "data": path, "grid": f"{int(frame['rows'].iloc[0])}x{int(frame['cols'].iloc[0])}",
        "deals": len(frame), "held_out": len(test),
        "levels": {level: int((levels == level).sum()) for level in LEVELS},
        "spearman": {name: spearman(frame[name], y) for name in names},
        "model": {"r2": round(float(model.score(x[test], y[test])), 3),
                  "spearman": spearman(model.predict(x[test]), y[test])},
        "importance": importance, "ranked": ranked,
        "objectives": {name: {"spearman": spearman(scores, y[test]),
                              "top1": found_at_top(scores, levels[test], 1),
                              "top5": found_at_top(scores, levels[test], 5),
                              "weights": weights}
                       for name, (scores, weights) in objectives.items()},
        "held_out_expert_master": int(np.isin(levels[test], TOP_LEVELS).sum())}


def draw(reports: list[dict], path: str) -> None:
    """Each grid's permutation importance, one panel per data set."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(reports), figsize=(5.5 * len(reports), 4), squeeze=False)
    for ax, r in zip(axes[0], reports):
        names = r["ranked"][::-1]
        ax.barh(names, [r["importance"][n]["mean"] for n in names],
                xerr=[r["importance"][n]["sd"] for n in names], color="#4c72b0")
        ax.set_xlabel("held-out R^2 lost when the column is shuffled")
        ax.set_title(f"{r['grid']}: what makes a deal hard "
                     f"(model R^2 {r['model']['r2']:.2f})")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def reports(args) -> list[dict]:
    """The report of each data set of the command line."""
    if args.hardness and len(args.data) > 1:
        raise ValueError("--hardness goes with one data set")
    return [report(path, args.hardness) for path in args.data]


def options(ap) -> None:
    ap.add_argument("--hardness", help="a calibration's per-deal file: the hardness of the "
                    "deals of a data set built with --structure-only (one data set)")


if __name__ == "__main__":
    research_reports.main(__doc__, reports, draw, "draw the permutation importances here",
                          options)
