"""How layouts recur in one Montana round with movable Twos: the size of each deal's layout
graph and of its strongly connected sets (layouts that lead to each other), the cycles a
player's exact chance would have to solve as linear systems (docs/montana.md, "Puzzles").

  python examples/montana_cycles.py --ranks 6 --seeds 1..14

One JSON line a deal: ``layouts`` (None past ``--max-layouts``), ``cyclic`` (layouts in a set of
more than one), ``largest`` (the five largest sets).  Needs SciPy (it comes with scikit-learn,
the research extra).
"""
from __future__ import annotations

import collections
import json

import click
import numpy as np

from puzzlegen import clitools
from solvers.montana.rules import (Rules, apply_move, deal_from_seed, legal_moves,
                                   locked_count)


def layout_graph(cells: tuple, rules: Rules, cap: int) -> tuple[int, list] | None:
    """(layouts, moves as index pairs) of the round from ``cells``, breadth-first; None past
    ``cap`` layouts."""
    index = {cells: 0}
    order = [cells]
    edges = []
    for i, layout in enumerate(order):
        if locked_count(layout, rules.ranks) == 4 * (rules.ranks - 1):
            continue
        for move in legal_moves(layout, rules):
            child = apply_move(layout, move, rules)
            if child not in index:
                if len(order) == cap:
                    return None
                index[child] = len(order)
                order.append(child)
            edges.append((i, index[child]))
    return len(order), edges


@click.command(cls=clitools.Command)
@click.option("--ranks", type=click.IntRange(3, 13), default=6, show_default=True,
              help="Ranks of the deck (4 suits each).")
@click.option("--seeds", default="1..14", show_default=True, help="Deal seeds, as A..B.")
@click.option("--max-layouts", type=click.IntRange(1), default=300_000, show_default=True,
              help="Give up on a deal's graph past this many layouts (it is held in memory).")
def main(ranks: int, seeds: str, max_layouts: int) -> None:
    """Print each deal's layout graph and strongly connected sets with movable Twos."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components
    rules = Rules(ranks, movable_twos=True)
    for seed in clitools.parse_seed_range(seeds, range(2 ** 63)):
        graph = layout_graph(deal_from_seed(seed, ranks), rules, max_layouts)
        if graph is None:
            print(json.dumps({"seed": seed, "layouts": None}))
            continue
        count, edges = graph
        pairs = np.array(edges, np.int64).reshape(-1, 2)
        matrix = csr_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])),
                            shape=(count, count))
        _, label = connected_components(matrix, directed=True, connection="strong")
        sizes = sorted(collections.Counter(label.tolist()).values(), reverse=True)
        print(json.dumps({"seed": seed, "layouts": count,
                          "cyclic": sum(s for s in sizes if s > 1), "largest": sizes[:5]}))


if __name__ == "__main__":
    main()
