"""The grade of a deal of any game: its level, percentile and explanation from the game's figures.

The game (``solvers.game.Designable``) computes the figures, ``hardness`` among them, so that
every symmetric copy of a deal gets the same ones.  The percentile (0-100) is the percentile of the
hardness among random winnable deals of the same rules (``puzzlegen.calibration``), and the
levels cut it: easy below 50, medium 50-90, hard 90-99, expert 99-99.9, master the hardest 0.1%.
A level is offered only where its cut is measured (not among the deals whose hardness is beyond
the game's measure) and the calibration has at least ``SUPPORT`` deals harder than it.  A deal
that cannot be won is ``"unsolvable"``; one whose analysis hits a limit, or whose hardness is
beyond the game's measure, is ``"limit"``: no level is claimed.

How sure a level is: where the game states the 95% interval of the hardness
(``metrics["hardness_interval"]``), the grade gives the probability of each level
(``level_probabilities``), reading the estimate as normal on the hardness (log) scale with that
interval; an exact hardness (both ends equal) gives its level probability 1.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from solvers.errors import BadInput, LimitReached
from solvers.game import Designable

#: Levels and the lowest percentile (of hardness among random winnable deals) of each.
LEVELS = {"easy": 0.0, "medium": 50.0, "hard": 90.0, "expert": 99.0, "master": 99.9}
#: The calibration deals a level needs beyond its cut before it is offered.
SUPPORT = 5
#: A calibration keeps the hardness at these quantiles of its winnable deals.
QUANTILES = np.linspace(0.0, 1.0, 1001)


@dataclass
class Grade:
    level: str
    percentile: float | None
    metrics: dict
    solution: list[str]
    explanation: str = ""
    level_probabilities: dict[str, float] | None = None

    def to_json(self) -> dict:
        return {"level": self.level, "percentile": self.percentile,
                "level_probabilities": self.level_probabilities,
                "explanation": self.explanation, "metrics": self.metrics,
                "solution": self.solution,
                "score": self.percentile}   # the percentile's former name, kept one version

    def sureness(self) -> str:
        """How sure the level is, for people: "exact", "83% sure; else medium", or "" when
        the game does not say."""
        chances = self.level_probabilities
        if not chances:
            return ""
        if exact(self.metrics):
            return "exact"
        others = [name for name, p in sorted(chances.items(), key=lambda kv: -kv[1])
                  if name != self.level and p >= 0.005]
        sure = f"{math.floor(100 * chances.get(self.level, 0.0)):.0f}% sure"
        return sure + (f"; else {' or '.join(others)}" if others else "")


def exact(metrics: dict) -> bool:
    """Whether the hardness is exact (an interval of one value)."""
    interval = metrics.get("hardness_interval")
    return interval is not None and interval[0] == interval[1]


def level_probabilities(table: dict, metrics: dict) -> dict[str, float] | None:
    """The probability of each offered level given the hardness and its 95% interval (module
    docstring); None when the game states no interval."""
    interval = metrics.get("hardness_interval")
    if interval is None or metrics.get("hardness") is None:
        return None
    levels = offered(table)
    cuts = [table["cuts"][name] for name in levels] + [math.inf]
    cuts[0] = -math.inf
    centre = metrics["hardness"]
    spread = max(centre - interval[0], interval[1] - centre) / 1.96

    def below(x: float) -> float:
        if spread == 0:
            return float(centre < x)
        return 0.5 * math.erfc(-(x - centre) / (spread * math.sqrt(2)))

    chances = {name: below(cuts[i + 1]) - below(cuts[i]) for i, name in enumerate(levels)}
    return {name: round(p, 4) for name, p in chances.items() if round(p, 4) > 0}


def percentile_rank(quantiles: list[float], value: float) -> float:
    """The mid-rank (0..1) of ``value`` among the values summarised by ``quantiles``."""
    q = np.asarray(quantiles)
    below = np.searchsorted(q, value, side="left")
    upto = np.searchsorted(q, value, side="right")
    return float((below + upto) / 2 / len(q))


def percentile_of(table: dict, hardness: float) -> float:
    """The percentile (0-100) of a winnable deal of this hardness among the calibration deals,
    exact at the level cuts (a deal at or above a cut is at least at it)."""
    value = 100.0 * percentile_rank(table["hardness"], hardness)
    for name, cut in LEVELS.items():
        if hardness >= table["cuts"][name]:
            value = max(value, cut)
        else:
            value = min(value, cut - 0.01)
    return round(value, 2)


def load(game: Designable, rules) -> dict:
    """The shipped calibration of ``rules``; :class:`BadInput` when the game cannot grade these
    rules or there is no calibration."""
    game.check_graded(rules)
    return _load(game.beside(f"calibration-{game.calibration_key(rules)}.json"), game.name,
                 game.format_rules(rules))


@lru_cache(maxsize=None)
def _load(path: Path, name: str, rules_text: str) -> dict:
    if not path.is_file():
        raise BadInput(f"no difficulty calibration for {name} {rules_text}; build one with "
                       f"python -m puzzlegen.calibration --game {name} --rules {rules_text} "
                       f"--out {path} (docs/design.md)")
    return read_table(path.read_text())


def read_table(text: str) -> dict:
    """A calibration table from its JSON, a quantile or cut beyond the game's measure (``null``)
    as infinity: above every measured hardness."""
    table = json.loads(text)
    table["hardness"] = [math.inf if q is None else q for q in table["hardness"]]
    table["cuts"] = {name: math.inf if q is None else q for name, q in table["cuts"].items()}
    return table


def offered(table: dict) -> list[str]:
    """The levels this calibration can tell apart: a measured cut with enough deals above."""
    return [name for name, cut in LEVELS.items()
            if table["winnable"] * (1.0 - cut / 100.0) >= SUPPORT
            and table["cuts"][name] < math.inf]


def level_of(percentile: float, levels: list[str] | None = None) -> str:
    """The level of a percentile (among ``levels``, by default all)."""
    levels = levels or list(LEVELS)
    return max((LEVELS[name], name) for name in levels if percentile >= LEVELS[name])[1]


def grade(game: Designable, deal, rules, **options) -> Grade:
    """The grade of ``deal``: level, percentile, explanation, figures and a winning line (replayed
    by the game's rules first); ``options`` go to the game's ``figures``.  A search inside that
    hits its limit grades ``"limit"`` (no percentile, no figures, the reason as explanation), and so
    does a winnable deal whose hardness is beyond the game's measure (with its figures and
    line)."""
    table = load(game, rules)  # before any work: rules without calibration fail at once
    try:
        fig = game.figures(deal, rules, **options)
    except LimitReached as exc:
        return Grade("limit", None, {}, [], f"limit: {exc}; no grade is claimed.")
    problem = game.line_problem(deal, rules, fig.solution, fig.won, fig.metrics.get("max_score"))
    assert problem is None, f"the grade's line {problem}"
    solution = [game.format_move(m) for m in fig.solution]
    if not fig.won:
        return Grade("unsolvable", None, fig.metrics, solution,
                     game.explain("unsolvable", None, fig.metrics, rules))
    if fig.metrics["hardness"] is None:  # winnable, but beyond what the game measures
        return Grade("limit", None, fig.metrics, solution,
                     game.explain("limit", None, fig.metrics, rules))
    value = percentile_of(table, fig.metrics["hardness"])
    level = level_of(value, offered(table))
    return Grade(level, value, fig.metrics, solution,
                 game.explain(level, value, fig.metrics, rules),
                 level_probabilities(table, fig.metrics))


def parse_level(text: str) -> str:
    """A level name (case-insensitive); :class:`BadInput` otherwise."""
    name = text.strip().lower()
    if name not in LEVELS:
        raise BadInput(f"unknown level {text!r}: choose one of {', '.join(LEVELS)}")
    return name


def figure(metrics: dict, path: str):
    """The metric at a dotted ``path`` (``"halfway.ratio"``)."""
    for part in path.split("."):
        metrics = metrics[part]
    return metrics
