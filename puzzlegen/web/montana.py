"""What the puzzle page needs of one Montana puzzle: the layout, its shape and the stored
solution, replayed here by the rule book.

The page plays one round with the Twos fixed (the rules Montana's puzzles are graded under); its
hints come from the page's own exact search (``montana.js``): a round's layouts never recur, and
an 8-rank deal has at most about a million and a half of them.
"""
from __future__ import annotations

from puzzlegen.packs import read_entry
from solvers import game as games
from solvers.errors import BadInput


def puzzle_data(entry: dict) -> dict:
    pid = entry["id"]
    game = games.get("montana")
    try:
        deal, rules = read_entry(game, entry)
    except BadInput as exc:
        raise BadInput(f"puzzle {pid}: {exc}") from None
    if rules.redeals or rules.rules.movable_twos:
        raise BadInput(f"puzzle {pid}: the page plays one round with fixed Twos, not the rules "
                       f"{game.format_rules(rules)}")
    try:
        end = game.replay_text(deal, rules, entry["solution"])
    except BadInput as exc:
        raise BadInput(f"puzzle {pid}: field solution: {exc}") from None
    if not end.won:
        raise BadInput(f"puzzle {pid}: field solution: it locks {end.value} of "
                       f"{rules.rules.target} cards, not every card")
    data = {key: entry[key] for key in ("id", "level", "score", "deal", "solution")}
    data.update(rows=4, cols=rules.ranks)
    if entry.get("explanation"):
        data["explanation"] = entry["explanation"]
    return data
