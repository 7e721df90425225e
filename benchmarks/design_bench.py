"""Design benchmarks of any designable game (StacksSquared 4x4 by default): grading speed and
precision, annealing against sampling, generation time.  Results: ``benchmarks/design.md``.

  python benchmarks/design_bench.py grade --rules 4x4 --deals 100
  python benchmarks/design_bench.py search --rules 4x4 --level master --seconds 300
  python benchmarks/design_bench.py generate --level expert --count 10 --jobs 2
  python benchmarks/design_bench.py grade --game agnes --deals 100
"""
from __future__ import annotations

import json
import math
import random
import statistics
import time

import click

from puzzlegen import anneal, clitools
from puzzlegen.design import generate_pack
from puzzlegen.grading import LEVELS, grade, load, parse_level
from solvers import game as games
from solvers.errors import LimitReached


@click.group()
def main():
    """Design benchmarks for any designable game (JSON on stdout)."""


def game_options(fn):
    """``--game`` and ``--rules``, turned into the game and its rules."""
    fn = click.option("--rules", "rules_text", default=None, help="Default: the game's.")(fn)
    return click.option("--game", "game_name", default="stacksquared", show_default=True,
                        type=click.Choice(games.names()))(fn)


def game_and_rules(game_name: str, rules_text: str | None):
    game = games.get(game_name)
    return game, game.parse_rules(rules_text or game.default_rules)


@main.command("grade")
@game_options
@click.option("--deals", default=100, show_default=True)
def grade_speed(game_name, rules_text, deals):
    """Warm grading time per deal (one core; a deal graded ``limit`` is timed too and counted
    in ``limit``, and in ``beyond`` when it is winnable but beyond the game's measure); for
    StacksSquared also the look3 interval's half-width (log10)."""
    game, rules = game_and_rules(game_name, rules_text)
    grade(game, game.deal_from_seed(2, rules), rules)
    times, widths, limits, beyond = [], [], 0, 0
    for seed in range(20001, 20001 + deals):
        deal = game.deal_from_seed(seed, rules)
        start = time.process_time()
        result = grade(game, deal, rules)
        times.append(time.process_time() - start)
        limits += result.level == "limit"
        beyond += bool(result.metrics.get("beyond"))
        interval = result.metrics.get("players", {}).get("look3", {}).get("interval")
        if interval and result.level != "unsolvable":
            low, high = interval
            widths.append(math.log10(high / low) / 2 if low > 0 else math.inf)
    times.sort()
    print(json.dumps({"game": game.name, "rules": game.format_rules(rules), "deals": deals,
                      "median_s": statistics.median(times), "mean_s": statistics.mean(times),
                      "p90_s": times[int(0.9 * (len(times) - 1))], "max_s": times[-1],
                      "limit": limits, "beyond": beyond,
                      "look3_halfwidth_log10_median": statistics.median(widths) if widths
                      else None}, indent=1))


def sampling(game, rules, level: str, seconds: float) -> dict:
    """Uniformly random deals graded (hardness first, the full grade when it qualifies) until
    the CPU budget is spent: ``found`` counts the deals of the level, ``kept`` those a pack
    would keep (``anneal.keeps``: below master, inside the level's window, and confirmed by
    independent estimates), annealing's bar."""
    table = load(game, rules)
    cut = table["cuts"][level]
    names = list(LEVELS)
    upper = table["cuts"][names[names.index(level) + 1]] if level != names[-1] else math.inf
    rng, tried, start = random.Random(f"sampling:{level}"), 0, time.process_time()
    found, kept = set(), set()
    while time.process_time() - start < seconds:
        deal = game.random_deal(rng, rules)
        tried += 1
        try:
            value = game.hardness(deal, rules)
        except LimitReached:
            continue
        if value is None or not cut <= value < upper:
            continue
        graded = grade(game, deal, rules)
        if graded.level == level:
            found.add(game.canonical(deal, rules))
        if anneal.keeps(game, rules, deal, level, graded, table):
            kept.add(game.canonical(deal, rules))
    used = time.process_time() - start
    return {"found": len(found), "kept": len(kept), "deals": tried, "cpu_s": used,
            "per_cpu_s": len(found) / used, "kept_per_cpu_s": len(kept) / used}


def annealing(game, rules, level: str, seconds: float) -> dict:
    """Annealing runs (``anneal.find``, one after another in this process) until the CPU budget
    is spent."""
    target = anneal.target_hardness(level, load(game, rules))
    found, runs, start = set(), 0, time.process_time()
    while time.process_time() - start < seconds:
        result = anneal.find((game.name, game.format_rules(rules), level, 2026, runs, None,
                              target, None))
        runs += 1
        if result is not None:
            found.add(game.canonical(game.parse_deal(result[0], rules), rules))
    used = time.process_time() - start
    return {"found": len(found), "runs": runs, "cpu_s": used, "per_cpu_s": len(found) / used}


@main.command("search")
@game_options
@click.option("--level", default="master", show_default=True)
@click.option("--seconds", default=300.0, show_default=True, help="CPU budget per method.")
def search(game_name, rules_text, level, seconds):
    """Puzzles of LEVEL found per CPU-second: annealing against sampling, same budget, same run
    (``ratio`` against every sampled deal of the level, ``ratio_same_bar`` against those a pack
    keeps)."""
    game, rules = game_and_rules(game_name, rules_text)
    level = parse_level(level)
    grade(game, game.deal_from_seed(2, rules), rules)
    sample = sampling(game, rules, level, seconds)
    anneals = annealing(game, rules, level, seconds)
    ratio = (anneals["per_cpu_s"] / sample["per_cpu_s"]) if sample["found"] else None
    same_bar = (anneals["per_cpu_s"] / sample["kept_per_cpu_s"]) if sample["kept"] else None
    print(json.dumps({"game": game.name, "rules": game.format_rules(rules), "level": level,
                      "sampling": sample, "annealing": anneals, "ratio": ratio,
                      "ratio_same_bar": same_bar}, indent=1))


@main.command("generate")
@game_options
@click.option("--level", default="expert", show_default=True)
@click.option("--count", default=10, show_default=True)
@click.option("--jobs", type=clitools.Jobs(), default=min(2, clitools.cores()),
              show_default=True)
def generate(game_name, rules_text, level, count, jobs):
    """Wall time of ``generate`` and the levels its puzzles re-grade to."""
    game, rules = game_and_rules(game_name, rules_text)
    start = time.perf_counter()
    pack = generate_pack(game, rules, count, [parse_level(level)], 7, jobs)
    seconds = time.perf_counter() - start
    levels = [grade(game, game.parse_deal(p["deal"], rules), rules).level
              for p in pack["puzzles"]]
    print(json.dumps({"game": game.name, "rules": game.format_rules(rules), "level": level,
                      "count": count, "jobs": jobs,
                      "seconds": seconds, "regraded_at_level": levels.count(level)}, indent=1))


if __name__ == "__main__":
    main()
