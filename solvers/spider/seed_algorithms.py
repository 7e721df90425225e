"""The seed document's two algorithms for moving units off a stack when some of their cards
can also be placed on other cards, implemented as written (for the ``off`` question).

Both work with the current DoF = 2**n - 1 (n empty stacks, none freed on the way) and the top
cards of the other stacks as helpers.  A step picks a card of the remaining units that fits a
helper; the units above that card are parked in the empty stacks (they need that many DoF), the
card and the cards above it in its same-suit run go onto the helper, the parked units follow,
and the helper stack is no longer considered.  When no step is left, the remaining units must fit
the DoF.

* ``first``: "use the first plausible card": scanning down from the top, the first card that
  fits a helper; if the DoF do not cover the units above it, the move is declared impossible.
* ``most``: "use the card which requires most degrees of freedom to be moved while still being
  movable": among the cards that fit a helper and whose units above fit the DoF, the one with the
  most units above; ties go to the highest rank.
"""
from __future__ import annotations

from solvers.spider.calc import dof
from solvers.spider.question import Question, group_start
from solvers.spider.rules import FACE_DOWN, Board, empty_count, follows, rank, suit

RULES = ("first", "most")


def _units(cards: tuple[int, ...]) -> list[list[int]]:
    units: list[list[int]] = []
    for c in cards:
        if units and suit(c) == suit(units[-1][-1]) and follows(c, units[-1][-1]):
            units[-1].append(c)
        else:
            units.append([c])
    return units


def decide(board: Board, q: Question, rule: str, empties: int | None = None) -> bool:
    """The algorithm's answer to an ``off`` question, with ``empties`` empty stacks (default:
    the board's own count)."""
    if q.kind != "off" or rule not in RULES:
        raise ValueError("the seed algorithms answer 'off' questions with rule 'first' or 'most'")
    free = dof(empty_count(board) if empties is None else empties)
    stack = board[q.src]
    units = _units(stack[group_start(stack, q.units, q.src + 1):])
    helpers = [s[-1] for i, s in enumerate(board) if i != q.src and s and s[-1] != FACE_DOWN]
    while units:
        # candidates: (units above, rank, unit index, card index, helper index)
        found = [(len(units) - 1 - u, rank(units[u][k]), u, k, h)
                 for u in range(len(units) - 1, -1, -1)
                 for k in range(len(units[u]) - 1, -1, -1)
                 for h, top in enumerate(helpers) if follows(units[u][k], top)]
        if not found:
            break
        if rule == "first":
            pick = found[0]
            if pick[0] > free:
                return False
        else:
            movable = [f for f in found if f[0] <= free]
            if not movable:
                break
            pick = max(movable, key=lambda f: (f[0], f[1]))
        _, _, u, k, h = pick
        units = units[:u] + ([units[u][:k]] if k else [])
        helpers.pop(h)
    return len(units) <= free


def needed(board: Board, q: Question, rule: str, most: int = 6) -> int | None:
    """The fewest empty stacks with which the algorithm says yes (None beyond ``most``)."""
    return next((n for n in range(most + 1) if decide(board, q, rule, n)), None)
