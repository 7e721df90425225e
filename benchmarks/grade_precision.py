"""How precise is a grade?  Independent repeats of the figure levels rest on.

A grade rests on one estimate of a simulated player's chance to win (the game's ``hardness``:
for StacksSquared the look3 player's), drawn from a random stream seeded by the deal.  This
script draws ``--repeats`` more estimates of the same deals from other streams (the game
contract's ``hardness(..., repeat=r)``; an exact figure repeats itself) and reports:

- ``within_sd``: the spread of one deal's estimates (pooled standard deviation, hardness units,
  that is log10 of the chance to win), to compare with the width of the levels (``bands``);
- ``reliability``: the share of the spread between deals that is not estimation noise
  (one-way intraclass correlation of a single estimate, ICC(1); 1 is perfect, 0 is noise);
- ``floor``: the share of estimates at StacksSquared's floor (every particle lost: hardness 12);
- ``same_level``: per level (of the grade's own estimate, or of the pack), how often a repeat
  gives that level, and by how much the grade's estimate exceeds the mean of the repeats (a
  search for hard deals also finds lucky estimates); ``grade_mean_minus_repeats`` over all.

  python benchmarks/grade_precision.py --rules 5x5 --deals 40 --repeats 3 --jobs 2
  python benchmarks/grade_precision.py puzzles/stacksquared-4x4-*.json --repeats 3 --jobs 2

The first form estimates the winnable deals of seeds ``--seed-start``.. of ``--game`` (the
calibration starts at seed 1; the default 100,001 keeps these apart), the second the puzzles of
the packs (one game, one set of rules).  Without a calibration (StacksSquared 4x13) only the
figures that need no levels are printed.
"""
from __future__ import annotations

import json
import math
import statistics
from functools import partial

import click
import numpy as np

from puzzlegen import clitools, packs, runs
from puzzlegen.grading import LEVELS, level_of, load, offered, percentile_of
from solvers import game as games
from solvers.errors import BadInput, LimitReached
from solvers.stacksquared.difficulty import FLOOR
from solvers.stats import reliability


def estimates(deal_text: str, game_name: str, rules_text: str, repeats: int) -> dict:
    """The grade's hardness (repeat 0) and ``repeats`` independent ones; ``None`` when the deal
    cannot be won, ``"limit"`` when a search hit its limit."""
    game = games.get(game_name)
    rules = game.parse_rules(rules_text)
    deal = game.parse_deal(deal_text, rules)
    try:
        values = [game.hardness(deal, rules, repeat=r) for r in range(repeats + 1)]
    except LimitReached:
        return {"deal": deal_text, "hardness": "limit"}
    return {"deal": deal_text, "hardness": None if values[0] is None else values}


def summary(records: list[dict], table: dict | None, label_of: dict[str, str],
            floor: float | None) -> dict:
    """The figures of the module docstring over the winnable records (without a calibration
    ``table``, those that need no levels; without a ``floor``, no floor share)."""
    won = [r for r in records if isinstance(r["hardness"], list)]
    if len(won) < 2:
        raise BadInput(f"{len(won)} winnable deals: nothing to compare")
    values = np.array([r["hardness"] for r in won])
    k = values.shape[1]
    msw = float(values.var(axis=1, ddof=1).mean())
    figures = {
        "deals": len(records), "winnable": len(won),
        "limit": sum(r["hardness"] == "limit" for r in records), "estimates_per_deal": k,
        "within_sd": round(msw ** 0.5, 3), "between_sd": round(float(values.mean(axis=1).std(
            ddof=1)), 3), "reliability": round(reliability(values.tolist()), 3),
        "grade_mean_minus_repeats": round(float((values[:, 0] - values[:, 1:].mean(
            axis=1)).mean()), 3)}
    if floor is not None:
        figures["floor"] = round(float(np.mean(values >= floor)), 4)
    if table is None:
        return figures
    levels = offered(table)

    def level(h: float) -> str:
        return level_of(percentile_of(table, h), levels)

    same: dict[str, list[bool]] = {}
    lucky: dict[str, list[float]] = {}
    for record, row in zip(won, values):
        graded = label_of.get(record["deal"]) or level(row[0])
        same.setdefault(graded, []).extend(level(h) == graded for h in row[1:])
        lucky.setdefault(graded, []).append(row[0] - row[1:].mean())
    cuts = [table["cuts"][name] for name in levels]
    bands = {f"{a}..{b}": round(y - x, 3)
             for a, b, x, y in zip(levels, levels[1:], cuts, cuts[1:])}
    same_level = {name: {"puzzles": len(same[name]) // (k - 1),
                         "share": round(statistics.fmean(same[name]), 3),
                         "grade_minus_repeats": round(statistics.fmean(lucky[name]), 3)}
                  for name in LEVELS if name in same}
    return {**figures, "bands": bands, "same_level": same_level}


@click.command(cls=clitools.Command)
@click.argument("pack_files", nargs=-1, type=click.Path(exists=True, dir_okay=False))
@click.option("--game", "game_name", default="stacksquared", show_default=True,
              type=click.Choice(games.designable()))
@click.option("--rules", "rules_text", default=None, help="The random deals' rules (default: "
              "the game's).")
@click.option("--deals", type=click.IntRange(2), default=40, show_default=True,
              help="Random deals (seeds --seed-start..), when no pack is given.")
@click.option("--seed-start", type=click.IntRange(0), default=100_001, show_default=True)
@click.option("--repeats", type=click.IntRange(1, 100), default=3, show_default=True,
              help="Independent estimates besides the grade's own.")
@click.option("--jobs", type=clitools.Jobs(), default=1, show_default=True,
              help="Worker processes, at most the machine's cores.")
def main(pack_files, game_name, rules_text, deals, seed_start, repeats, jobs):
    """Independent repeats of the figure a grade rests on, for random deals or for the puzzles
    of PACK_FILES; prints JSON (the figures are in the module docstring)."""
    if pack_files:
        loaded = [packs.load(p) for p in pack_files]
        if len({pack["game"] for pack in loaded}) != 1:
            raise click.UsageError("give the packs of one game")
        game = games.get(loaded[0]["game"])
        entries = [e for pack in loaded for e in pack["puzzles"]]
        rules_of = {game.format_rules(packs.read_entry(game, e)[1]) for e in entries}
        if len(rules_of) != 1:
            raise click.UsageError(f"give the packs of one set of rules, not {sorted(rules_of)}")
        rules = game.parse_rules(rules_of.pop())
        label_of = {e["deal"]: e["level"] for e in entries}
        texts = list(label_of)
    else:
        game = games.get(game_name)
        rules = game.parse_rules(rules_text or game.default_rules)
        label_of = {}
        texts = [game.format_deal(game.deal_from_seed(s, rules))
                 for s in range(seed_start, seed_start + deals)]
    try:
        table = load(game, rules)
    except BadInput:   # rules without a calibration (StacksSquared 4x13): no levels
        table = None
    floor = -math.log10(FLOOR) if game.name == "stacksquared" else None
    fn = partial(estimates, game_name=game.name, rules_text=game.format_rules(rules),
                 repeats=repeats)
    records = list(runs.run(fn, texts, jobs=jobs, desc="deals"))
    print(json.dumps({"game": game.name, "rules": game.format_rules(rules),
                      "packs": list(pack_files), **summary(records, table, label_of, floor)},
                     indent=1))


if __name__ == "__main__":
    main()
