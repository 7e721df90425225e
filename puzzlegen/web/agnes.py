"""What the puzzle page needs of one Agnes Sorel puzzle: the deck, the rules and the stored
solution, replayed here by the rule book.

The page plays face-up rules only (a face-down deal would show its hidden cards); its hints come
from the kernel's search ported to ``agnes.js``.
"""
from __future__ import annotations

from puzzlegen.web import replayed, shown
from solvers.agnes.rules import EMPTY_TAKES, Rules
from solvers.errors import BadInput

#: The board's rows at the start: the foundations and the stock, pile 7's cards and room for
#: its last card; ``rowsOf`` in agnes.js adds rows as piles grow.
START_ROWS = 1 + 7 + 3


def page_rules(rules: Rules) -> dict:
    """The rules as agnes.js reads them (parsed once, here)."""
    return {"name": rules.name, "sameSuit": rules.same_suit, "empty": rules.empty,
            "emptyTakes": EMPTY_TAKES[rules.empty], "split": rules.split}


def face_up(rules, game) -> None:
    if not rules.face_up:
        raise BadInput(f"the page plays face-up rules only, not {rules.name} (its hidden cards "
                       f"would show)")


def puzzle_data(entry: dict) -> dict:
    _, rules = replayed("agnes", entry, face_up)
    return {**shown(entry, START_ROWS, 7), "rules": page_rules(rules)}
