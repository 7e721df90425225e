"""StacksSquared design benchmarks: grading speed, generation time, hit rate, CP-SAT vs random.

Run: ``nice -n 10 python benchmarks/design_bench.py [--deals 100] [--skip-generate]``
Results are recorded in ``benchmarks/design.md``.
"""
from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from pathlib import Path

import click

from puzzlegen import cpsat
from puzzlegen.commands.stacksquared_design import generate_pack
from puzzlegen.grading import COMPOSITE, grade, graph_figures
from puzzlegen.stats import percentile
from solvers.cards import Card
from solvers.stacksquared import Deal, compatible, solve

ROOT = Path(__file__).resolve().parent.parent


def grade_speed(deals: int) -> dict:
    grade(Deal.from_seed(1))  # warm: compile / load the numba cache
    times = []
    for seed in range(20001, 20001 + deals):
        start = time.perf_counter()
        grade(Deal.from_seed(seed))
        times.append(time.perf_counter() - start)
    times.sort()
    return {"deals": deals, "median_s": statistics.median(times), "p99_s": percentile(times, 99),
            "max_s": times[-1]}


def generate_expert() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        pack = generate_pack(4, 4, 10, "expert", "anneal", 7, 2, str(Path(tmp) / "x.json"))
        seconds = time.perf_counter() - start
    levels = [grade(Deal.parse(p["deal"])).level for p in pack["puzzles"]]
    return {"seconds": seconds, "puzzles": len(levels),
            "regraded_expert": sum(level == "expert" for level in levels)}


def pack_vs_random() -> dict:
    """Mean of each line figure: shipped 4x4 packs against the solvable calibration deals."""
    rows = [json.loads(line) for line in open(ROOT / "benchmarks/design-calibration-4x4.jsonl")]
    solvable = [r for r in rows if r["single_stack"]]
    names = list(COMPOSITE) + ["effort", "line_edges", "odd_cards"]
    out = {"random": {n: statistics.mean(r[n] for r in solvable) for n in names}}
    for path in sorted(ROOT.glob("puzzles/stacksquared-4x4-*.json")):
        puzzles = json.loads(path.read_text())["puzzles"]
        out[path.stem] = {n: statistics.mean(p["metrics"][n] for p in puzzles) for n in names}
    return out


def max_partners(deal: Deal) -> int:
    """The most compatible cards any card has in its row and column."""
    n, cols = deal.size, deal.cols
    return max(sum(1 for b in range(n)
                   if b != a and (a // cols == b // cols or a % cols == b % cols)
                   and compatible(deal.cards[a], deal.cards[b])) for a in range(n))


def cpsat_vs_random(bound: int = 12, partners: int = 2, samples: int = 100_000,
                    built: int = 10) -> dict:
    """Solvable 4x4 deals with at most ``bound`` compatible line pairs and at most ``partners``
    per card: how often random deals qualify, against CP-SAT constructing them directly."""
    rng = random.Random(1)
    hits, solvable = 0, 0
    start = time.perf_counter()
    for _ in range(samples):
        deal = Deal(4, 4, tuple(Card.from_index(i) for i in rng.sample(range(52), 16)))
        if graph_figures(deal)["line_edges"] <= bound and max_partners(deal) <= partners:
            hits += 1
            solvable += bool(solve(deal, max_score=False).details["single_stack"])
    random_seconds = time.perf_counter() - start
    times, made = [], 0
    for k in range(built):
        start = time.perf_counter()
        deal = cpsat.construct(4, 4, random.Random(f"bench:{k}"), line_edges=bound,
                               max_partners=partners)
        times.append(time.perf_counter() - start)
        made += deal is not None and bool(solve(deal, max_score=False).details["single_stack"])
    return {"bound": bound, "partners": partners, "random_samples": samples,
            "random_meeting_bounds": hits, "random_solvable_meeting_bounds": solvable,
            "random_seconds": random_seconds, "cpsat_built_solvable": made, "cpsat_tries": built,
            "cpsat_median_s": statistics.median(times)}


@click.command()
@click.option("--deals", default=100, show_default=True)
@click.option("--skip-generate", is_flag=True)
def main(deals, skip_generate):
    report = {"grade_4x4": grade_speed(deals)}
    if not skip_generate:
        report["generate_10_expert_4x4"] = generate_expert()
    report["pack_vs_random"] = pack_vs_random()
    report["cpsat_vs_random"] = cpsat_vs_random()
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
