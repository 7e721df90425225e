"""Self-contained puzzle pages (``puzzlegen pack html``): one HTML file, no network, that plays
every puzzle of a pack.

The page is ``page.html`` with ``page.css``, the shared ``cards.js`` and ``hints.js``, the
game's script and the generic ``app.js`` inlined, and the pack's data as JSON.  Each game adds a
script (the rules, moves and hints in the page) and a Python ``puzzle_data(entry)`` (what the
page needs of one puzzle, checked here); ``GAMES`` lists them.  docs/packs.md has the DOM
contract and how to add a game.
"""
from __future__ import annotations

import hashlib
import json
import re
from importlib import import_module, resources

from puzzlegen import __version__
from puzzlegen.packs import read_entry
from solvers import game as games
from solvers.errors import BadInput

#: game -> (its script in this folder, the module whose ``puzzle_data(entry)`` serves the page).
GAMES = {"stacksquared": ("stacksquared.js", "puzzlegen.web.stacksquared"),
         "montana": ("montana.js", "puzzlegen.web.montana"),
         "stackmgmt": ("stackmgmt.js", "puzzlegen.web.stackmgmt"),
         "agnes": ("agnes.js", "puzzlegen.web.agnes")}


def replayed(game_name: str, entry: dict, playable=None) -> tuple:
    """The deal and rules of a pack entry, once ``playable(rules, game)`` (a check that raises
    :class:`BadInput`) accepts them and the rule book has replayed its stored solution to a
    win; :class:`BadInput` naming the puzzle otherwise."""
    pid = entry["id"]
    game = games.get(game_name)
    try:
        deal, rules = read_entry(game, entry)
        if playable:
            playable(rules, game)
    except BadInput as exc:
        raise BadInput(f"puzzle {pid}: {exc}") from None
    try:
        end = game.replay_text(deal, rules, entry["solution"])
    except BadInput as exc:
        raise BadInput(f"puzzle {pid}: field solution: {exc}") from None
    if not end.won:
        raise BadInput(f"puzzle {pid}: field solution: it does not win (it reaches {end.value})")
    return deal, rules


def shown(entry: dict, rows: int, cols: int) -> dict:
    """What every game's page shows of a puzzle: id, level, score, deal, solution, the board's
    shape and the explanation if the pack has one."""
    data = {key: entry[key] for key in ("id", "level", "score", "deal", "solution")}
    data.update(rows=rows, cols=cols)
    if entry.get("explanation"):
        data["explanation"] = entry["explanation"]
    return data


def asset(name: str) -> str:
    return (resources.files("puzzlegen.web") / name).read_text(encoding="utf-8")


def fingerprint(pack: dict) -> str:
    """A short key for the pack's puzzles, so progress of two packs never mixes in a browser."""
    puzzles = [(p["id"], p["deal"]) for p in pack["puzzles"]]
    return hashlib.sha256(json.dumps([pack["game"], puzzles]).encode()).hexdigest()[:16]


def page_data(pack: dict, title: str) -> dict:
    """What the page reads: the game, a title, the progress key and each puzzle's data."""
    if pack["game"] not in GAMES:
        raise BadInput(f"no puzzle page for {pack['game']} packs: pack html plays "
                       f"{', '.join(GAMES)} packs (pack show prints any pack)")
    if not pack["puzzles"]:
        raise BadInput("the pack has no puzzles")
    game = import_module(GAMES[pack["game"]][1])
    return {"game": pack["game"], "title": title, "key": fingerprint(pack),
            "puzzles": [game.puzzle_data(entry) for entry in pack["puzzles"]]}


def page(pack: dict, title: str) -> str:
    """The whole page for ``pack`` as one HTML string."""
    data = page_data(pack, title)
    embedded = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    names = ("cards.js", "hints.js", GAMES[pack["game"]][0], "app.js")
    scripts = "\n".join(asset(name) for name in names)
    escape = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}
    fields = {"TITLE": "".join(escape.get(c, c) for c in title),
              "GENERATOR": f"puzzlegen {__version__}", "STYLE": asset("page.css"),
              "SCRIPTS": scripts, "DATA": embedded}
    # One pass over the template: what is put in is never searched for fields again.
    return re.sub(r"__([A-Z]+)__", lambda field: fields[field[1]], asset("page.html"))
