"""Exact difficulty figures of a StacksSquared deal, its difficulty score and its level.

Every figure is exact (no sampling).  The *line* figures follow the reference solution, the first
single-stack solution a memoised depth-first search finds in reference move order
(``solvers.stacksquared.tree``), and decide every legal move along it exactly:

- ``single_stack``: a single-stack solution exists; ``max_score``: the exact maximum score.
- ``first_moves``: legal first moves; ``safe_first_share``: share of them after which one stack
  is still reachable.
- ``critical``: states on the reference solution where more than half of the legal moves lose.
- ``forced``: states on the reference solution where exactly one legal move keeps the win.
- ``losing_share``: the mean, over the states of the reference solution, of the share of legal
  moves that lose.
- ``halfway_safe_share``: on the reference solution after half of the moves, the share of legal
  moves that keep the win.
- ``effort``: states the decision search stored for all of the above (solver effort).
- ``odd_cards``: cards with no compatible card in their row or column.
- ``flocks``: connected components of the compatibility graph of the dealt cards (1 = flockable).
- ``compat_edges`` / ``line_edges``: compatible pairs of dealt cards, and those sharing a line.

When the game tree fits ``TREE_STATES`` stored states (every reachable state that is not dead,
plus the dead children; ``grade --tree-states`` raises it), the *tree* figures are computed
exactly (else they are ``null`` and ``tree`` is ``"limit"``): ``winnable_states`` (states from which one stack is reachable), ``winnable_share`` (of the
states a player can be in without having lost earlier, the share still winnable),
``random_win`` (the probability that uniformly random legal play wins), ``halfway_random`` (the
probability that such play is still winnable after half of the moves), ``solutions`` (distinct
winning move sequences) and ``min_critical`` (the fewest critical states on any solution).

The score is the percentile (0-100) of a composite of the line figures among the solvable random
deals of the same size (``puzzlegen.calibration``); the levels cut the score at fixed
percentiles.  A deal without a single-stack solution gets level ``"unsolvable"``, score ``null``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.errors import BadInput
from solvers.stacksquared import Deal, replay, solve
from solvers.stacksquared.api import compat_masks, line_masks
from solvers.stacksquared import tree
from solvers.stacksquared.rules import Move, Position, compatible

#: The largest winnable sub-tree whose whole-tree figures are computed.
TREE_STATES = 20_000
#: Decision-table states allowed for the line figures (about 0.5 GB for 5x5 at worst).
DECIDE_STATES = 8_000_000
#: Levels and the lowest score of each.
LEVELS = {"easy": 0.0, "medium": 50.0, "hard": 80.0, "expert": 95.0}
#: The line figures the composite ranks, each with +1 when larger is harder, -1 when easier.
COMPOSITE = {"losing_share": 1, "critical": 1, "forced": 1, "safe_first_share": -1,
             "halfway_safe_share": -1}


class GradeLimit(Exception):
    """The decision search hit ``DECIDE_STATES``: no grade is claimed."""


@dataclass
class Grade:
    level: str
    score: float | None
    metrics: dict
    solution: list[str]

    def to_json(self) -> dict:
        return {"level": self.level, "score": self.score, "metrics": self.metrics,
                "solution": self.solution}


class Decider:
    """Exact single-stack decisions for positions of one deal, sharing one memo table."""

    def __init__(self, deal: Deal):
        self.n = deal.size
        self.line = line_masks(deal.rows, deal.cols)
        self.compat = compat_masks()
        width = (self.n + 7) >> 3
        self.keys = np.zeros((1024, width), dtype=np.uint64)
        self.status = np.zeros(1024, dtype=np.int8)
        self.slots = np.full(2048, -1, dtype=np.int64)
        self.count = 0
        self.path = np.zeros(self.n, dtype=np.int64)

    def decide(self, card: np.ndarray,
               reference: bool = False) -> tuple[bool, list[tuple[int, int]]]:
        """(winnable, a winning line as cell pairs) for the tops ``card``; the line is the first
        one in reference move order when ``reference``, else the quickest to find."""
        occupied = 0
        for i, c in enumerate(card):
            if c >= 0:
                occupied |= 1 << i
        result, self.keys, self.status, self.slots, self.count, length = tree.decide(
            card, np.uint64(occupied), bin(occupied).count("1"), self.line, self.compat,
            not reference, self.keys, self.status, self.slots, self.count, DECIDE_STATES,
            self.path)
        if result == tree.OPEN:
            raise GradeLimit(f"the decision search stored {DECIDE_STATES} states")
        return result == tree.WINS, [divmod(int(p), 64) for p in self.path[:length]]


def tops(position: Position) -> np.ndarray:
    """The kernel's view of a position: card index per cell, -1 when empty."""
    return np.array([-1 if t is None else t.index for t in position.tops], dtype=np.int8)


def line_figures(deal: Deal) -> tuple[dict, list[Move]]:
    """The line figures (see the module docstring) and the reference solution (or [])."""
    decider = Decider(deal)
    position = Position.start(deal)
    winnable, cells = decider.decide(tops(position), reference=True)
    if not winnable:
        return {"single_stack": False}, []
    moves, shares, critical, forced = [], [], 0, 0
    halfway = (deal.size - 1) // 2
    figures = {"single_stack": True}
    for step, (a, b) in enumerate(cells):
        legal = list(position.legal_moves())
        wins = sum(decider.decide(tops(position.play(m)))[0] for m in legal)
        lose = len(legal) - wins
        shares.append(lose / len(legal))
        critical += 2 * lose > len(legal)
        forced += wins == 1
        if step == 0:
            figures.update(first_moves=len(legal), safe_first_share=wins / len(legal))
        if step == halfway:
            figures["halfway_safe_share"] = wins / len(legal)
        move = Move(position.tops[a], position.tops[b])
        moves.append(move)
        position = position.play(move)
    if deal.size == 1:
        figures.update(first_moves=0, safe_first_share=1.0, halfway_safe_share=1.0)
    figures.update(critical=critical, forced=forced,
                   losing_share=sum(shares) / len(shares) if shares else 0.0,
                   effort=decider.count)
    return figures, moves


def graph_figures(deal: Deal) -> dict:
    """Compatibility-graph figures of the dealt cards (see the module docstring)."""
    cards, n = deal.cards, deal.size
    pos = Position.start(deal)
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n) if compatible(cards[a], cards[b])]
    line_pairs = [(a, b) for a, b in pairs if pos.same_line(a, b)]
    partnered = {x for pair in line_pairs for x in pair}
    parent = list(range(n))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        parent[root(a)] = root(b)
    return {"odd_cards": n - len(partnered), "flocks": len({root(x) for x in range(n)}),
            "compat_edges": len(pairs), "line_edges": len(line_pairs)}


def tree_figures(deal: Deal, max_states: int = TREE_STATES) -> dict:
    """The whole-tree figures (see the module docstring), ``null`` past ``max_states``."""
    line, compat = line_masks(deal.rows, deal.cols), compat_masks()
    out = tree.explore(tops(Position.start(deal)), line, compat, max_states)
    outcome, keys, win, prob, half, sols, crit = out
    names = ("winnable_states", "winnable_share", "random_win", "halfway_random", "solutions",
             "min_critical")
    if outcome != tree.DONE:
        return {"tree": "limit", **dict.fromkeys(names)}
    lost = tree.mistakes(keys, win, line, compat)
    winnable = int(win.sum())
    seen = winnable + int(lost.sum())
    return {"tree": "exact", "winnable_states": winnable,
            "winnable_share": winnable / seen if seen else 0.0, "random_win": float(prob[0]),
            "halfway_random": float(half[0]),
            "solutions": int(sols[0]) if sols[0] < 2 ** 53 else float(sols[0]),
            "min_critical": int(crit[0]) if win[0] else None}


def level_of(score: float) -> str:
    return max((cut, name) for name, cut in LEVELS.items() if score >= cut)[1]


def figures(deal: Deal, with_tree: bool = True,
            tree_states: int = TREE_STATES) -> tuple[dict, list[Move]]:
    """Every figure of ``deal`` and its reference solution (replayed by the rules module), or
    for a deal without one, a line of play reaching the maximum score.

    Cross-checks the decision search against the solver of ``solvers.stacksquared``; a
    disagreement is a bug and raises ``AssertionError`` rather than grading anything.
    """
    metrics, moves = line_figures(deal)
    result = solve(deal)
    if result.details["single_stack"] is None or result.details["max_score"] is None:
        raise GradeLimit("the exact solver hit its limit")
    if result.details["single_stack"] != metrics["single_stack"]:
        raise AssertionError(f"decision search and solver disagree on {deal}")
    if moves and replay(deal, moves).stacks() != 1:
        raise AssertionError(f"the reference solution of {deal} does not end in one stack")
    metrics["max_score"] = result.details["max_score"]
    if not metrics["single_stack"]:
        moves = result.moves
    metrics.update(graph_figures(deal))
    if with_tree:
        metrics.update(tree_figures(deal, tree_states))
    return metrics, moves


def score(metrics: dict, rows: int, cols: int) -> float:
    """The calibrated score (0-100) of a solvable deal's line figures."""
    from puzzlegen.calibration import composite, load, percentile_rank

    table = load(rows, cols)
    return round(100.0 * percentile_rank(table["composite"], composite(metrics, table)), 2)


def grade(deal: Deal, with_tree: bool = True, tree_states: int = TREE_STATES) -> Grade:
    """The grade of ``deal``: level, score, metrics and the reference solution (or best line)."""
    metrics, moves = figures(deal, with_tree, tree_states)
    if not metrics["single_stack"]:
        return Grade("unsolvable", None, metrics, [str(m) for m in moves])
    value = score(metrics, deal.rows, deal.cols)
    return Grade(level_of(value), value, metrics, [str(m) for m in moves])


def parse_level(text: str) -> str:
    """A level name (case-insensitive); :class:`BadInput` otherwise."""
    name = text.strip().lower()
    if name not in LEVELS:
        raise BadInput(f"unknown level {text!r}: choose one of {', '.join(LEVELS)}")
    return name
