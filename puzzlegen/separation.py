"""Do a game's levels separate on a figure no level is built on?

The puzzles of one game's packs under one rules (levels are ranks among random deals of the same
rules) are grouped by level; for each pair of adjacent levels present,
``easier_is_easier`` is the probability that a puzzle of the easier level is easier on the
figure (by default the game's ``check_figure``; higher = easier; ties count half), with each
level's median.  A level that does not separate from the next is a bug.
"""
from __future__ import annotations

import statistics

from puzzlegen import packs
from puzzlegen.grading import LEVELS, figure
from solvers import game as games
from solvers.errors import BadInput


def easier_share(easy: list[float], hard: list[float]) -> float:
    """P(a value of ``easy`` beats one of ``hard``), ties counting half."""
    wins = sum((a > b) + 0.5 * (a == b) for a in easy for b in hard)
    return wins / (len(easy) * len(hard))


def separation(paths: list, name: str | None = None) -> dict:
    """The separation of the levels of the packs at ``paths`` (one game, one rules) on the
    figure at the dotted path ``name`` of their metrics."""
    loaded = [packs.load(p) for p in paths]
    names = {pack["game"] for pack in loaded}
    if len(names) != 1:
        raise BadInput(f"give the packs of one game, not {sorted(names)}")
    game = games.get(names.pop())
    name = name or game.check_figure
    rules = {game.format_rules(game.entry_rules(entry)) for pack in loaded
             for entry in pack["puzzles"]}
    if len(rules) != 1:
        raise BadInput(f"give the packs of one rules, not {sorted(rules)}: a level ranks a deal "
                       f"among deals of its own rules")
    by_level: dict[str, list[float]] = {}
    for pack in loaded:
        for entry in pack["puzzles"]:
            try:
                value = figure(entry["metrics"], name)
            except (KeyError, TypeError):
                raise BadInput(f"no figure {name!r} in the metrics of a {game.name} puzzle") \
                    from None
            by_level.setdefault(entry["level"], []).append(float(value))
    levels = [name for name in LEVELS if name in by_level]
    return {"game": game.name, "rules": rules.pop(), "figure": name,
            "levels": {name: {"puzzles": len(by_level[name]),
                              "median": statistics.median(by_level[name])} for name in levels},
            "easier_is_easier": {f"{a}<{b}": round(easier_share(by_level[a], by_level[b]), 3)
                                 for a, b in zip(levels, levels[1:])}}
