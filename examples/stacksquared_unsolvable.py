"""Grids without a single stack: what sets them apart, and how well a small tree tells them.

    pip install ".[research,plots]"
    python examples/stacksquared_unsolvable.py data/stacksquared-3x3.csv.gz \\
        data/stacksquared-3x4.csv.gz data/stacksquared-4x4.csv.gz --png unsolvable.png

For each data set (examples/stacksquared_dataset.py; columns in docs/research.md):

1. the share of deals without a single stack, and which of the solver's proofs already decides
   each one at the start, before any move: the partition rule (the cards fall into classes that
   can never join, solvers/stacksquared/kernel.py), else the pendant rule (same module), else
   only the search;
2. the mean of each structural attribute with and without a single stack;
3. a decision tree of depth at most 3 over those attributes (scikit-learn), trained on 70% of
   the deals and scored on the other 30% (a seeded split that keeps the share without a single
   stack): accuracy, the share of unsolvable deals it calls solvable (false "solvable") and of
   solvable deals it calls unsolvable, beside the rule "the compatibility graph is connected"
   and beside calling every deal solvable.

It prints one JSON report and, with ``--png``, draws the proofs' shares and the unsolvable share
by odd cards.
"""
from __future__ import annotations

import numpy as np
import research_reports

#: The structural attributes of docs/research.md, the tree's inputs.
ATTRIBUTES = ["compat_edges", "line_edges", "odd_cards", "flocks", "min_degree", "max_degree",
              "pendant_cards", "line_components", "largest_suit", "distinct_ranks"]
PROOFS = ["partition", "pendant", "search"]


def start_proof(cards: str, rows: int, cols: int) -> str:
    """Which proof shows at the start that the deal has no single stack: ``partition`` (the
    partition bound is below n*n), ``pendant`` (the pendant rule), else ``search``."""
    from solvers.stacksquared import kernel
    from solvers.stacksquared.api import line_masks, position_arrays
    from solvers.stacksquared.rules import Deal, Position

    deal = Deal.parse(cards, rows, cols)
    card, size = position_arrays(Position.start(deal))
    n = deal.size
    occupied = np.uint64((1 << n) - 1)
    line = line_masks(rows, cols)
    suit_cells = np.zeros(4, dtype=np.uint64)
    rank_cells = np.zeros(16, dtype=np.uint64)
    kernel.group_cells(card, occupied, suit_cells, rank_cells)
    bound = kernel.score_bound(card, size, occupied, line, suit_cells, rank_cells,
                               np.zeros(n, dtype=np.uint64), np.zeros(2 * n, dtype=np.uint64))
    if bound < n * n:
        return "partition"
    if kernel.bridge_dead(card, occupied, line, suit_cells, rank_cells,
                          np.empty(kernel.PLAYS, dtype=np.uint64),
                          np.zeros(3 * kernel.GAMES, dtype=np.uint64)):
        return "pendant"
    return "search"


def rates(truth: np.ndarray, called: np.ndarray) -> dict:
    """Accuracy and the two error shares of a call of solvability against the truth."""
    unsolvable = ~truth
    return {"accuracy": round(float((truth == called).mean()), 6),
            "false_solvable": round(float((called & unsolvable).sum() / max(unsolvable.sum(), 1)),
                                    4),
            "false_unsolvable": round(float((~called & truth).sum() / max(truth.sum(), 1)), 6)}


def rules(tree) -> list[str]:
    """The fitted tree as the conditions under which it calls a deal unsolvable, one line per
    leaf; a subtree whose leaves all call the same is one leaf."""
    t = tree.tree_
    solvable_column = list(tree.classes_).index(True)

    def calls(node: int) -> set[bool]:
        if t.children_left[node] < 0:
            return {bool(t.value[node][0].argmax() == solvable_column)}
        return calls(t.children_left[node]) | calls(t.children_right[node])

    def walk(node: int, path: list[str]) -> list[str]:
        if calls(node) == {True}:
            return []
        if calls(node) == {False}:
            return [" and ".join(path) or "always"]
        name, cut = ATTRIBUTES[t.feature[node]], t.threshold[node]
        return (walk(t.children_left[node], [*path, f"{name} <= {cut:g}"])
                + walk(t.children_right[node], [*path, f"{name} > {cut:g}"]))

    return walk(0, [])


def tree_report(frame) -> dict:
    """The depth-3 tree against the connected-graph rule and "always solvable", held out."""
    from sklearn.model_selection import train_test_split
    from sklearn.tree import DecisionTreeClassifier

    x, y = frame[ATTRIBUTES].to_numpy(), frame["solvable"].to_numpy(dtype=bool)
    train, test = train_test_split(np.arange(len(frame)), test_size=0.3, random_state=0,
                                   stratify=y if 1 < (~y).sum() else None)
    tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(x[train], y[train])
    return {"held_out": len(test), "held_out_unsolvable": int((~y[test]).sum()),
            "tree": rates(y[test], tree.predict(x[test]).astype(bool)),
            "tree_rules": rules(tree),
            "connected_graph": rates(y[test], frame["flocks"].to_numpy()[test] == 1),
            "always_solvable": rates(y[test], np.ones(len(test), dtype=bool))}


def unsolvable_by(frame, name: str) -> dict:
    """For each value of the attribute ``name``: its deals, and those without a single stack."""
    counts = frame.groupby(name)["solvable"].agg(["size", "sum"])
    return {int(k): {"deals": int(v["size"]), "unsolvable": int(v["size"] - v["sum"])}
            for k, v in counts.iterrows()}


def report(path: str) -> dict:
    """The three parts of the module docstring for the data set at ``path``."""
    import pandas as pd

    frame = pd.read_csv(path)
    if frame["limit"].any():
        raise ValueError(f"{path}: {int(frame['limit'].sum())} deals at a limit")
    rows, cols = int(frame["rows"].iloc[0]), int(frame["cols"].iloc[0])
    frame["solvable"] = frame["solvable"].astype(bool)
    unsolvable = frame[~frame["solvable"]]
    proofs = [start_proof(cards, rows, cols) for cards in unsolvable["cards"]]
    return {
        "grid": f"{rows}x{cols}", "deals": len(frame), "unsolvable": len(unsolvable),
        "proof_at_start": {name: proofs.count(name) for name in PROOFS},
        "search_only_seeds": [int(s) for s, p in zip(unsolvable["seed"], proofs)
                              if p == "search"][:20],
        "means": {name: {"solvable": round(float(frame.loc[frame["solvable"], name].mean()), 3),
                         "unsolvable": round(float(unsolvable[name].mean()), 3)}
                  for name in ATTRIBUTES},
        **{f"by_{name}": unsolvable_by(frame, name) for name in ("min_degree", "odd_cards")},
        **tree_report(frame)}


def draw(reports: list[dict], path: str) -> None:
    """Left: the deals without a single stack, split by the proof that decides each at the
    start; right: the share without a single stack by the fewest partners a card has."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    grids = [r["grid"] for r in reports]
    bottom = np.zeros(len(reports))
    for name, colour in zip(PROOFS, ["#4c72b0", "#dd8452", "#c44e52"]):
        share = np.array([100 * r["proof_at_start"][name] / r["unsolvable"] for r in reports])
        left.bar(grids, share, bottom=bottom, color=colour,
                 label="the search alone" if name == "search" else f"the {name} rule at the start")
        bottom += share
    for x, r in enumerate(reports):
        left.annotate(f"{100 * r['unsolvable'] / r['deals']:.2g}% of deals", (x, 101),
                      ha="center", fontsize=9)
    left.set_ylim(0, 110)
    left.set_ylabel("% of the deals without a single stack")
    left.set_title("Which proof decides a deal without a single stack")
    left.legend(fontsize=8, loc="lower right")
    for r in reports:
        fewest = sorted(k for k, v in r["by_min_degree"].items() if v["unsolvable"])
        share = [100 * r["by_min_degree"][k]["unsolvable"] / r["by_min_degree"][k]["deals"]
                 for k in fewest]
        right.plot(fewest, share, marker="o", label=r["grid"])
    right.set_yscale("log")
    right.set_xlabel("fewest compatible cards of any card (0% not drawn)")
    right.xaxis.get_major_locator().set_params(integer=True)
    right.set_ylabel("% without a single stack")
    right.set_title("A card with few partners makes a dead deal")
    right.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    research_reports.main(__doc__, lambda args: [report(path) for path in args.data], draw,
                          "draw the figure here")
