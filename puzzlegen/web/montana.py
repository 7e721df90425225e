"""What the puzzle page needs of one Montana puzzle: the layout, its shape and the stored
solution, replayed here by the rule book.

The page plays one round with the Twos fixed (the rules Montana's puzzles are graded under); its
hints come from the page's own exact search (``montana.js``): a round's layouts never recur, and
an 8-rank deal has at most about a million and a half of them.
"""
from __future__ import annotations

from puzzlegen.web import replayed, shown
from solvers.errors import BadInput


def one_round(rules, game) -> None:
    if rules.redeals or rules.rules.movable_twos:
        raise BadInput(f"the page plays one round with fixed Twos, not the rules "
                       f"{game.format_rules(rules)}")


def puzzle_data(entry: dict) -> dict:
    _, rules = replayed("montana", entry, one_round)
    return shown(entry, 4, rules.ranks)
