"""What the puzzle page needs of one Stack Management puzzle: the stacks, the board's shape and
the stored solution, replayed here by the rule book.

Its hints need no data: the page decides any position with the contest analysis' criterion
(``stackmgmt.js``), exact and linear in the cards.
"""
from __future__ import annotations

from puzzlegen.web import replayed, shown


def puzzle_data(entry: dict) -> dict:
    _, rules = replayed("stackmgmt", entry)
    return shown(entry, rules.c, rules.n)
