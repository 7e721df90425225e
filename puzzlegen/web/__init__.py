"""Self-contained puzzle pages (``puzzlegen pack html``): one HTML file, no network, that plays
every puzzle of a pack.

The page is ``page.html`` with ``page.css``, the shared ``cards.js``, ``hints.js``, ``codes.js``
and ``attempts.js``, the game's script (``Designable.page_script``) and the generic ``app.js``
inlined, and the pack's data as JSON: what every page shows of a puzzle and what the game's
``page_puzzle`` adds.
docs/packs.md has the DOM contract and how a game's script plays.
"""
from __future__ import annotations

import hashlib
import json
import re
from importlib import resources

from puzzlegen import __version__
from puzzlegen.codes import encode
from puzzlegen.packs import read_entry
from solvers import game as games
from solvers.errors import BadInput


def puzzle_data(game: games.Designable, entry: dict) -> dict:
    """What the page reads of a puzzle whose stored solution replays to what the pack claims:
    id, level, percentile, deal, solution, its puzzle code, the explanation if the pack has one,
    how much skill matters if the game says, and the game's ``page_puzzle``; :class:`BadInput`
    naming the puzzle when the page cannot play it."""
    data = {key: entry[key] for key in ("id", "level", "percentile", "deal", "solution")}
    if entry.get("explanation"):
        data["explanation"] = entry["explanation"]
    if game.skill_words(entry["metrics"]):
        data["skill"] = game.skill_words(entry["metrics"])
    try:
        deal, rules = read_entry(game, entry)
        data["code"] = encode(game, rules, deal)
        data.update(game.page_puzzle(deal, rules, entry))
    except BadInput as exc:
        raise BadInput(f"puzzle {entry['id']}: {exc}") from None
    return data


def asset(name: str) -> str:
    return (resources.files("puzzlegen.web") / name).read_text(encoding="utf-8")


def fingerprint(pack: dict) -> str:
    """A short key for the pack's puzzles, so progress of two packs never mixes in a browser."""
    puzzles = [(p["id"], p["deal"]) for p in pack["puzzles"]]
    return hashlib.sha256(json.dumps([pack["game"], puzzles]).encode()).hexdigest()[:16]


def page_data(pack: dict, title: str) -> dict:
    """What the page reads of a checked pack (``packs.load_checked``): the game and its name in
    codes, a title, the progress key and each puzzle's data."""
    game = games.get(pack["game"])
    if not isinstance(game, games.Designable):
        raise BadInput(f"no puzzle page for {pack['game']} packs: pack html plays "
                       f"{', '.join(games.designable())} packs")
    if not pack["puzzles"]:
        raise BadInput("the pack has no puzzles")
    return {"game": pack["game"], "gameTitle": game.title,
            "codeName": game.code_name or game.name, "title": title,
            "key": fingerprint(pack),
            "puzzles": [puzzle_data(game, entry) for entry in pack["puzzles"]]}


#: What the page may load and run: nothing from outside, no request unless served.
POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"


def page(pack: dict, title: str, attempts_url: str | None = None) -> str:
    """The whole page for ``pack`` as one HTML string.  A puzzle server gives the address its
    attempts go to (``attempts_url``, on the page's own origin): the page then posts each
    finished attempt there, and its policy allows that one kind of request."""
    data = page_data(pack, title)
    if attempts_url is not None:
        data["server"] = {"attempts": attempts_url}
    embedded = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    scripts = "\n".join([asset("cards.js"), asset("hints.js"), asset("codes.js"),
                         asset("attempts.js"),
                         games.get(pack["game"]).page_script_text(), asset("app.js")])
    escape = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}
    fields = {"TITLE": "".join(escape.get(c, c) for c in title),
              "POLICY": POLICY + ("; connect-src 'self'" if attempts_url is not None else ""),
              "GENERATOR": f"puzzlegen {__version__}", "STYLE": asset("page.css"),
              "SCRIPTS": scripts, "DATA": embedded}
    # One pass over the template: what is put in is never searched for fields again.
    return re.sub(r"__([A-Z]+)__", lambda field: fields[field[1]], asset("page.html"))
