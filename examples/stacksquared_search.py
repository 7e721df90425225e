"""What each move order and each cut of the single-stack search buys, in nodes and time.

    python examples/stacksquared_search.py data/stacksquared-4x4.csv.gz --solvable 500 \\
        --png search.png

The deals are those of a data set (examples/stacksquared_dataset.py): every deal without a
single stack and the first ``--solvable`` with one.  Each is searched for a single stack
(``kernel.solve_search``, as ``solve`` asks it) in each move order (row-major; fewest partners
first; the solver's portfolio of orders with restarts) with each set of cuts (none, the
partition bound, the pendant rule, both: the kernel's module docstring), stopped at
``--max-nodes``.  It prints one JSON report: per order and cuts, and separately for the deals
with and without a single stack, the nodes in all, the CPU seconds in all (this thread's), the
searches stopped at the cap, and the nodes saved against no cut in row-major order.
"""
from __future__ import annotations

import time

import numpy as np
import research_reports

from solvers.stacksquared import Deal, Position
from solvers.stacksquared.api import line_masks, position_arrays, search_kernel, warm_up
from solvers.stacksquared.codes import (DONE, FEWEST_PARTNERS, PARTITION_CUT, PENDANT_CUT,
                                        PORTFOLIO, ROW_MAJOR)

ORDERS = {"row-major": ROW_MAJOR, "fewest partners": FEWEST_PARTNERS, "portfolio": PORTFOLIO}
CUTS = {"none": 0, "partition": PARTITION_CUT, "pendant": PENDANT_CUT,
        "both": PARTITION_CUT | PENDANT_CUT}


def searched(deal: Deal, plan: int, cuts: int, max_nodes: int) -> tuple[bool, int, float]:
    """(stopped at the cap, nodes, CPU seconds) of one single-stack search of ``deal``."""
    card, size = position_arrays(Position.start(deal))
    n = deal.size
    start = time.thread_time()
    outcome, *_, nodes, _ = search_kernel()(card, size, line_masks(deal.rows, deal.cols), False,
                                             n * n - 1, n * n, max_nodes, -1, -1.0, plan, cuts)
    return bool(outcome != DONE), int(nodes), time.thread_time() - start


def report(path: str, args) -> dict:
    import pandas as pd

    frame = pd.read_csv(path)
    rows, cols = int(frame["rows"].iloc[0]), int(frame["cols"].iloc[0])
    groups = {"without a single stack": frame[~frame["solvable"].astype(bool)],
              "with a single stack": frame[frame["solvable"].astype(bool)].head(args.solvable)}
    warm_up()
    out = {"data": path, "grid": f"{rows}x{cols}", "max_nodes": args.max_nodes, "groups": {}}
    for group, part in groups.items():
        deals = [Deal.parse(cards, rows, cols) for cards in part["cards"]]
        found = {}
        for order, plan in ORDERS.items():
            for cut, cuts in CUTS.items():
                runs = [searched(deal, plan, cuts, args.max_nodes) for deal in deals]
                found[f"{order}, {cut}"] = {
                    "nodes": sum(r[1] for r in runs), "cpu_s": round(sum(r[2] for r in runs), 3),
                    "at_cap": sum(r[0] for r in runs)}
        base = found["row-major, none"]["nodes"]
        for figures in found.values():
            figures["saved"] = round(1 - figures["nodes"] / base, 5) if base else None
        out["groups"][group] = {"deals": len(deals), "searches": found}
    return out


def draw(reports: list[dict], path: str) -> None:
    """Nodes in all (log scale) by order and cuts, one panel per group of the first report."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = reports[0]["groups"]
    fig, axes = plt.subplots(1, len(groups), figsize=(11, 4.2), squeeze=False)
    for ax, (group, found) in zip(axes[0], groups.items()):
        width = 0.8 / len(CUTS)
        for i, cut in enumerate(CUTS):
            nodes = [found["searches"][f"{order}, {cut}"]["nodes"] for order in ORDERS]
            ax.bar(np.arange(len(ORDERS)) + i * width, nodes, width, label=f"cuts: {cut}")
        ax.set_xticks(np.arange(len(ORDERS)) + width * (len(CUTS) - 1) / 2, list(ORDERS))
        ax.set_yscale("log")
        ax.set_ylabel("nodes, all deals")
        ax.set_title(f"{reports[0]['grid']}, {found['deals']} deals {group}", fontsize=10)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def options(ap) -> None:
    ap.add_argument("--solvable", type=int, default=500,
                    help="deals with a single stack to search (default 500, the first ones)")
    ap.add_argument("--max-nodes", type=int, default=20_000_000,
                    help="nodes a search may take (default 20 million)")


if __name__ == "__main__":
    research_reports.main(__doc__, lambda args: [report(path, args) for path in args.data], draw,
                          "draw the nodes by order and cuts here", options)
