"""Design benchmarks of any designable game (StacksSquared 4x4 by default): grading speed and
precision, annealing against sampling, generation time.  Results: ``benchmarks/design.md``.

  python benchmarks/design_bench.py grade --rules 4x4 --deals 100
  python benchmarks/design_bench.py search --rules 4x4 --level master --seconds 300
  python benchmarks/design_bench.py search --level expert --methods annealing,player,structure
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


def annealing(game, rules, level: str, seconds: float, guess: bool = True) -> dict:
    """Annealing runs (``anneal.find``, one after another in this process) until the CPU budget
    is spent; ``guess`` False anneals on the players' estimates at every level."""
    target = anneal.target_hardness(level, load(game, rules))

    def run(k: int):
        result = anneal.find((game.name, game.format_rules(rules), level, 2026, k, None, target,
                              None), guess)
        return None if result is None else game.parse_deal(result[0], rules)

    return runs_until(game, rules, run, seconds)


def runs_until(game, rules, run, seconds: float) -> dict:
    """``run(k)`` for k = 0, 1, ... until the CPU budget is spent: the distinct deals (up to
    symmetry) of those it returns."""
    found, runs, start = set(), 0, time.process_time()
    while time.process_time() - start < seconds:
        deal = run(runs)
        runs += 1
        if deal is not None:
            found.add(game.canonical(deal, rules))
    used = time.process_time() - start
    return {"found": len(found), "runs": runs, "cpu_s": used, "per_cpu_s": len(found) / used}


#: The structure method's default objective: the generator's earlier guess, minus the
#: compatible pairs and half of those in line.
WEIGHTS = "compat_edges=-1,line_edges=-0.5"


def objective_annealing(game, rules, level: str, seconds: float, objective) -> dict:
    """Runs of ``anneal.STEPS`` steps on ``objective`` (a function of the deal's structure
    alone) from a random deal, each deal reached graded in full and counted when a pack of
    ``level`` keeps it (``anneal.keeps``), until the CPU budget is spent."""
    table = load(game, rules)

    def run(k: int):
        rng = random.Random(f"2026:{k}")
        annealer = anneal.DealAnnealer(game, rules, game.random_deal(rng, rules), 0.0, False,
                                       (0.0, 0.0), None, rng, random.Random(f"2026:{k}:accept"),
                                       objective)
        annealer.set_schedule({"tmax": anneal.T_MAX, "tmin": anneal.T_MIN,
                               "steps": anneal.STEPS, "updates": 0})
        annealer.copy_strategy = "deepcopy"
        deal, _ = annealer.anneal()
        graded = grade(game, deal, rules)
        return deal if anneal.keeps(game, rules, deal, level, graded, table) else None

    return runs_until(game, rules, run, seconds)


def fitted_objective(weights: str):
    """The linear objective ``NAME=WEIGHT,...`` over the deal's structure columns
    (docs/research.md: the grade's graph figures and the largest suit)."""
    from solvers.stacksquared.difficulty import graph_figures
    try:
        terms = {name: float(value) for name, value in (part.split("=")
                                                         for part in weights.split(","))}
    except ValueError:
        raise click.BadParameter(f"{weights!r} is not NAME=NUMBER,...", param_hint="--weights")

    def objective(deal) -> float:
        suits = [sum(card.suit == s for card in deal.cards) for s in {c.suit for c in deal.cards}]
        found = {**graph_figures(deal), "largest_suit": max(suits)}
        if not terms.keys() <= found.keys():
            raise click.BadParameter(f"no column {sorted(terms.keys() - found.keys())}",
                                     param_hint="--weights")
        return sum(weight * found[name] for name, weight in terms.items())

    return objective


@main.command("search")
@game_options
@click.option("--level", default="master", show_default=True)
@click.option("--seconds", default=300.0, show_default=True, help="CPU budget per method.")
@click.option("--methods", default="sampling,annealing", show_default=True,
              help="Of sampling, annealing (the generator's runs), player (annealing on the "
                   "players' estimates at every level) and structure (annealing on --weights, "
                   "StacksSquared).")
@click.option("--weights", default=WEIGHTS, show_default=True,
              help="The structure method's objective.")
def search(game_name, rules_text, level, seconds, methods, weights):
    """Puzzles of LEVEL found per CPU-second by each method, same budget, same run; with
    sampling and annealing, ``ratio`` of annealing against every sampled deal of the level and
    ``ratio_same_bar`` against those a pack keeps."""
    game, rules = game_and_rules(game_name, rules_text)
    level = parse_level(level)
    chosen = methods.split(",")
    if not set(chosen) <= {"sampling", "annealing", "player", "structure"}:
        raise click.BadParameter(methods, param_hint="--methods")
    if "structure" in chosen and game.name != "stacksquared":
        raise click.BadParameter("structure anneals StacksSquared deals", param_hint="--methods")
    objective = fitted_objective(weights)
    if "structure" in chosen:
        objective(game.deal_from_seed(2, rules))   # a bad --weights is refused before any run
    grade(game, game.deal_from_seed(2, rules), rules)
    run = {"sampling": lambda: sampling(game, rules, level, seconds),
           "annealing": lambda: annealing(game, rules, level, seconds),
           "player": lambda: annealing(game, rules, level, seconds, guess=False),
           "structure": lambda: objective_annealing(game, rules, level, seconds, objective)}
    out = {"game": game.name, "rules": game.format_rules(rules), "level": level}
    out.update({name: run[name]() for name in chosen})
    if "sampling" in out and "annealing" in out:
        sample, anneals = out["sampling"], out["annealing"]
        out["ratio"] = anneals["per_cpu_s"] / sample["per_cpu_s"] if sample["found"] else None
        out["ratio_same_bar"] = (anneals["per_cpu_s"] / sample["kept_per_cpu_s"]
                                 if sample["kept"] else None)
    print(json.dumps(out, indent=1))


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
