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


def cpsat_vs_random(bounds: tuple[int, ...] = (12, 10, 8), partners: int = 2,
                    samples: int = 100_000, built: int = 10) -> list[dict]:
    """Solvable 4x4 deals with at most ``bound`` compatible line pairs and at most ``partners``
    per card: how often random deals qualify (one pass of ``samples`` deals for every bound),
    against CP-SAT constructing them directly."""
    rng = random.Random(1)
    hits, solvable = dict.fromkeys(bounds, 0), dict.fromkeys(bounds, 0)
    start = time.perf_counter()
    for _ in range(samples):
        deal = Deal(4, 4, tuple(Card.from_index(i) for i in rng.sample(range(52), 16)))
        edges = graph_figures(deal)["line_edges"]
        if edges <= max(bounds) and max_partners(deal) <= partners:
            single = bool(solve(deal, max_score=False).details["single_stack"])
            for bound in bounds:
                if edges <= bound:
                    hits[bound] += 1
                    solvable[bound] += single
    random_seconds = time.perf_counter() - start
    out = []
    for bound in bounds:
        times, made = [], 0
        for k in range(built):
            start = time.perf_counter()
            deal = cpsat.construct(4, 4, random.Random(f"bench:{k}"), line_edges=bound,
                                   max_partners=partners)
            times.append(time.perf_counter() - start)
            made += deal is not None and bool(solve(deal, max_score=False).details["single_stack"])
        out.append({"bound": bound, "partners": partners, "random_samples": samples,
                    "random_meeting_bounds": hits[bound],
                    "random_solvable_meeting_bounds": solvable[bound],
                    "random_seconds": random_seconds, "cpsat_built_solvable": made,
                    "cpsat_tries": built, "cpsat_total_s": sum(times),
                    "cpsat_median_s": statistics.median(times)})
    return out


@click.command()
@click.option("--deals", default=100, show_default=True)
@click.option("--skip-generate", is_flag=True)
@click.option("--only-cpsat", is_flag=True, help="Run only the CP-SAT comparison.")
def main(deals, skip_generate, only_cpsat):
    if only_cpsat:
        print(json.dumps({"cpsat_vs_random": cpsat_vs_random()}, indent=1))
        return
    report = {"grade_4x4": grade_speed(deals)}
    if not skip_generate:
        report["generate_10_expert_4x4"] = generate_expert()
    report["pack_vs_random"] = pack_vs_random()
    report["cpsat_vs_random"] = cpsat_vs_random()
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
