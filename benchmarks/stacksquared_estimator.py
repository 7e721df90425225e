"""How good is the level player's estimate?  Precision, cost and interval coverage per setting.

A StacksSquared grade rests on one estimate of the look3 player's chance to win
(``solvers.stacksquared.difficulty.level_estimate``).  For each SETTING, ``PARTICLES:FILTER``
(look3 particles, and the most stacks a position may have for the exact filter) or ``default``
(the grid's own), this script draws ``--estimates`` independent estimates of each winnable deal
of seeds ``--seed-start``.. and reports, in hardness units (log10 of the chance to win):

- ``within_sd``: the spread of one deal's estimates (pooled standard deviation);
- ``between_sd``: the spread of the deals' mean estimates;
- ``reliability``: the share of single estimates' variance that lies between deals, not in the
  noise (one-way intraclass correlation ICC(1), ``solvers.stats.reliability``);
- ``floor``: estimates where every particle was lost (hardness at the floor, 12);
- ``limit``: estimates stopped by the decision table's state limit (left out of the rest);
- ``cover``: the share of estimates whose 95% interval holds the log of the mean of the deal's
  estimates (the mean of unbiased estimates: a stand-in for the true chance);
- ``seconds``: the mean wall time of one estimate.

  python benchmarks/stacksquared_estimator.py --rules 5x5 --deals 30 --estimates 4 --jobs 2 \\
      48:14 96:14 48:16
  python benchmarks/stacksquared_estimator.py --rules 4x4 --deals 60 --estimates 8 default
"""
from __future__ import annotations

import json
import math
import time
from functools import partial

import click
import numpy as np

from puzzlegen import clitools, runs
from solvers import game as games
from solvers.errors import LimitReached
from solvers.stacksquared.difficulty import (FLOOR, LEVEL_PLAYER, PLAYERS, Budget,
                                             level_estimate)
from solvers.stats import reliability


class Setting(click.ParamType):
    """``PARTICLES:FILTER`` (two positive integers) or ``default``."""

    name = "setting"

    def convert(self, value, param, ctx):
        if value == "default":
            return value
        try:
            particles, stacks = (int(x) for x in value.split(":"))
        except ValueError:
            self.fail(f"{value!r} is not PARTICLES:FILTER (e.g. 96:14) or default", param, ctx)
        if not (2 <= particles <= 4096 and 2 <= stacks <= 52):
            self.fail(f"{value!r}: particles must be 2..4096 and the filter 2..52 stacks",
                      param, ctx)
        return value


def budget_of(setting: str) -> Budget:
    if setting == "default":
        return Budget()
    particles, stacks = (int(x) for x in setting.split(":"))
    ladder = tuple(particles if name == LEVEL_PLAYER else 0 for name in PLAYERS)
    return Budget(ladder, stacks)


def estimates(deal_text: str, rules_text: str, settings: tuple[str, ...], count: int) -> dict:
    """Per setting, ``count`` estimates of one deal (``win``, ``interval``, ``seconds``, or
    ``"limit"``); ``None`` for a deal without a single stack."""
    game = games.get("stacksquared")
    deal = game.parse_deal(deal_text, game.parse_rules(rules_text))
    out = {}
    for setting in settings:
        rows = []
        for repeat in range(count):
            start = time.perf_counter()
            try:
                found = level_estimate(deal, budget_of(setting), repeat)
            except LimitReached:
                rows.append("limit")
                continue
            if found is None:
                return {"deal": deal_text, "estimates": None}
            rows.append({"win": found.win, "interval": found.interval,
                         "seconds": time.perf_counter() - start})
        out[setting] = rows
    return {"deal": deal_text, "estimates": out}


def summary(records: list[dict], setting: str) -> dict:
    """The figures of the module docstring for one setting over the winnable deals."""
    logs, covered, seconds, floor, limit = [], [], [], 0, 0
    for record in records:
        rows = [r for r in record["estimates"][setting] if r != "limit"]
        limit += len(record["estimates"][setting]) - len(rows)
        if len(rows) < 2:
            continue
        wins = np.array([r["win"] for r in rows])
        floor += int(np.sum(wins < FLOOR))
        logs.append(np.log10(np.maximum(wins, FLOOR)))
        mean = float(wins.mean())
        covered.extend(low <= mean <= high for low, high in (r["interval"] for r in rows))
        seconds.extend(r["seconds"] for r in rows)
    if len(logs) < 2:
        return {"deals": len(logs), "limit": limit}
    within = pooled_sd(logs)
    means = np.array([x.mean() for x in logs])
    return {"deals": len(logs), "estimates": sum(len(x) for x in logs),
            "within_sd": round(within, 3), "between_sd": round(float(means.std(ddof=1)), 3),
            "reliability": round(reliability([x.tolist() for x in logs]), 3),
            "floor": floor, "limit": limit, "cover": round(float(np.mean(covered)), 3),
            "seconds": round(float(np.mean(seconds)), 3)}


def pooled_sd(groups: list[np.ndarray]) -> float:
    """The pooled within-group standard deviation."""
    squares = sum(float(((g - g.mean()) ** 2).sum()) for g in groups)
    return math.sqrt(squares / sum(len(g) - 1 for g in groups))


@click.command(cls=clitools.Command)
@click.argument("settings", nargs=-1, type=Setting())
@click.option("--rules", "rules_text", default="4x4", show_default=True,
              help="The grid, ROWSxCOLS.")
@click.option("--deals", type=click.IntRange(2, 100_000), default=30, show_default=True,
              help="Random deals (seeds --seed-start..); those without a single stack are "
                   "skipped.")
@click.option("--seed-start", type=click.IntRange(0), default=100_001, show_default=True,
              help="The first seed (the calibration uses 1..10,000).")
@click.option("--estimates", "count", type=click.IntRange(2, 1000), default=4,
              show_default=True, help="Independent estimates of each deal per setting.")
@click.option("--jobs", type=clitools.Jobs(), default=1, show_default=True,
              help="Worker processes, at most the machine's cores.")
def main(settings, rules_text, deals, seed_start, count, jobs):
    """Precision, cost and interval coverage of the level player's estimate for each SETTING,
    PARTICLES:FILTER (look3 particles and the most stacks of an exactly checked position) or
    default (the grid's own; also when no SETTING is given); prints JSON (the figures are
    described at the top of this script)."""
    game = games.get("stacksquared")
    rules = game.parse_rules(rules_text)
    settings = settings or ("default",)
    texts = [game.format_deal(game.deal_from_seed(s, rules))
             for s in range(seed_start, seed_start + deals)]
    fn = partial(estimates, rules_text=game.format_rules(rules), settings=settings,
                 count=count)
    records = [r for r in runs.run(fn, texts, jobs=jobs, desc="deals")
               if r["estimates"] is not None]
    print(json.dumps({"rules": game.format_rules(rules), "seed_start": seed_start,
                      "winnable": len(records),
                      "settings": {s: summary(records, s) for s in settings}}, indent=1))


if __name__ == "__main__":
    main()
