"""What the puzzle page needs of one Agnes Sorel puzzle: the deck, the rules and the stored
solution, replayed here by the rule book.

The page plays face-up rules only (a face-down deal would show its hidden cards) and has no
Agnes solver: its hints follow the stored solution (``agnes.js``).
"""
from __future__ import annotations

from puzzlegen.web import replayed, shown
from solvers.errors import BadInput

#: Board rows: the foundations and the stock, then room for the longest pile (7 dealt, 4 from
#: the stock, and a whole run of 13 moved onto them).
ROWS = 1 + 7 + 4 + 13


def face_up(rules, game) -> None:
    if not rules.face_up:
        raise BadInput(f"the page plays face-up rules only, not {rules.name} (its hidden cards "
                       f"would show)")


def puzzle_data(entry: dict) -> dict:
    _, rules = replayed("agnes", entry, face_up)
    return {**shown(entry, ROWS, 7), "rules": rules.name}
