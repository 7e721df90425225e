"""The players' exact analysis of one Montana round (the grade's figures) with and without the
reach bound, in one run: layouts stored and seconds a deal, as ratios; or, with ``--rev``, the
grade's figures against those of an earlier git revision (``solvers/montana`` copied as in
``montana_vs_revision.py``), deal by deal in turn.  Results: ``benchmarks/montana.md``.

  python benchmarks/montana_players.py --rules 8 --deals 200
  python benchmarks/montana_players.py --rules 13 --deals 20
  python benchmarks/montana_players.py --rules 13 --deals 8 --rev eff9371
"""
from __future__ import annotations

import importlib
import json
import statistics
import tempfile
import time
from pathlib import Path

import click
import numpy as np

from puzzlegen import clitools
from solvers.montana import api, players
from solvers.montana.game import ANALYSIS_STATES, GAME, _WEIGHTS
from montana_vs_revision import load_revision


def analyse(board: np.ndarray, n: int, prune: bool) -> tuple[int, int, float, list[float]]:
    """(status, layouts stored, seconds, chances) of one analysis of the encoded deal."""
    word, mul, words, shift = api._packing(n)
    table = players._table(ANALYSIS_STATES, words, shift, len(_WEIGHTS))
    out = np.zeros(len(_WEIGHTS))
    start = time.perf_counter()
    status, _, _, states, _ = players.evaluate(
        board, n, word, mul, *table, ANALYSIS_STATES, prune, _WEIGHTS,
        *players._scratch(len(_WEIGHTS)), out)
    return status, states, time.perf_counter() - start, list(out)


@click.command(cls=clitools.Command)
@click.option("--rules", "rules_text", default="8", show_default=True,
              help="One round with fixed Twos: the ranks, 8 or 13.")
@click.option("--deals", type=click.IntRange(1), default=100, show_default=True,
              help="Deals to analyse both ways.")
@click.option("--seed", type=click.IntRange(0), default=1, show_default=True,
              help="The deals of seeds S, S + 1, ...")
@click.option("--rev", default=None,
              help="Compare the grade's figures with those of this git revision instead.")
def main(rules_text: str, deals: int, seed: int, rev: str | None) -> None:
    """Time the analysis with the bound and without it on the same deals (alternating which
    goes first), or the figures against ``--rev``; print JSON with the medians and the ratios
    of the totals."""
    rules = GAME.parse_rules(rules_text)
    GAME.check_graded(rules)
    if rev is not None:
        return against_revision(rules, deals, seed, rev)
    n = rules.ranks
    analyse(api._encode(GAME.deal_from_seed(seed, rules), n), n, True)  # compile
    rows = []
    for s in range(seed, seed + deals):
        board = api._encode(GAME.canonical(GAME.deal_from_seed(s, rules), rules), n)
        order = (True, False) if s % 2 else (False, True)
        runs = {prune: analyse(board, n, prune) for prune in order}
        if any(status != players.DONE for status, *_ in runs.values()):
            rows.append({"seed": s, "limit": True})
            continue
        assert runs[True][3] == runs[False][3], f"seed {s}: the bound changed the chances"
        rows.append({"seed": s, "layouts": runs[True][1], "layouts_all": runs[False][1],
                     "seconds": runs[True][2], "seconds_all": runs[False][2]})
    done = [r for r in rows if "layouts" in r]

    def total(key):
        return sum(r[key] for r in done)
    print(json.dumps({
        "rules": rules_text, "deals": deals, "limit": len(rows) - len(done),
        "median_layouts": statistics.median(r["layouts"] for r in done),
        "median_layouts_all": statistics.median(r["layouts_all"] for r in done),
        "median_seconds": round(statistics.median(r["seconds"] for r in done), 4),
        "median_seconds_all": round(statistics.median(r["seconds_all"] for r in done), 4),
        "layouts_ratio": round(total("layouts_all") / total("layouts"), 3),
        "seconds_ratio": round(total("seconds_all") / total("seconds"), 3)}, indent=1))


def against_revision(rules, deals: int, seed: int, rev: str) -> None:
    """The grade's figures (no line) of each deal by ``rev``'s code and the current code in
    turn (alternating which goes first); they must agree.  Prints the medians and the ratio of
    the totals (``rev`` over current)."""
    with tempfile.TemporaryDirectory() as tmp:
        load_revision(rev, Path(tmp))
        games = {"rev": importlib.import_module("montana_at_rev.game").GAME, "current": GAME}
        first = GAME.deal_from_seed(seed, rules)
        for game in games.values():
            game.figures(first, rules, solution=False)  # compile
        seconds = {name: [] for name in games}
        for s in range(seed, seed + deals):
            deal = GAME.deal_from_seed(s, rules)
            metrics = {}
            for name in (("rev", "current") if s % 2 else ("current", "rev")):
                start = time.perf_counter()
                metrics[name] = games[name].figures(deal, rules, solution=False).metrics
                seconds[name].append(time.perf_counter() - start)
            assert metrics["rev"] == metrics["current"], f"seed {s}: the figures differ"
    print(json.dumps({
        "rules": GAME.format_rules(rules), "deals": deals, "rev": rev,
        **{f"median_seconds_{name}": round(statistics.median(t), 4)
           for name, t in seconds.items()},
        "seconds_ratio": round(sum(seconds["rev"]) / sum(seconds["current"]), 3)}, indent=1))


if __name__ == "__main__":
    main()
