"""Designer constraints on 4x4: rejection sampling against CP-SAT construction, same run.

For each constraint set, each method gets the same CPU budget and counts the deals that meet
every constraint and have a single-stack solution (exact solver):

- rejection: ``random_deal`` (fixed cells, required cards and theme by construction), then
  ``Constraints.violation`` (the line-pair bound), then the exact solve;
- cpsat: ``cpsat.construct`` with seeded plans, each deal re-checked and solved the same way.

Run: ``nice -n 10 python benchmarks/constraints_bench.py [--seconds 16]``; results in
``benchmarks/constraints.md``.
"""
from __future__ import annotations

import json
import random
import time

import click

from puzzlegen import cpsat
from puzzlegen.constraints import Constraints, parse_constraints, random_deal
from solvers.stacksquared import solve, warm_up

CORNERS = ("r1c1=AS", "r1c4=KH", "r4c1=QD", "r4c4=2C")
SH = {"theme": "suits:SH", "require": "AH KH AS KS"}
SETS = [("max-line-pairs 12", {"max_line_pairs": 12}),
        ("max-line-pairs 10", {"max_line_pairs": 10}),
        ("max-line-pairs 8", {"max_line_pairs": 8}),
        ('theme suits:SH, require "AH KH AS KS"', SH),
        ("same, max-line-pairs 20", {**SH, "max_line_pairs": 20}),
        ("same, max-line-pairs 18", {**SH, "max_line_pairs": 18}),
        ("fixed corners AS KH / QD 2C", {"at": CORNERS}),
        ("fixed corners, max-line-pairs 8", {"at": CORNERS, "max_line_pairs": 8})]


def accepted(deal, constraints: Constraints) -> bool:
    return (constraints.violation(deal) is None
            and bool(solve(deal, max_score=False).details["single_stack"]))


def run(method: str, constraints: Constraints, seconds: float, seed: int) -> dict:
    """Deals tried, made (not None), accepted (distinct) and made but rejected by one method
    within ``seconds`` of CPU time."""
    rng = random.Random(seed)
    tries, made, rejected, found = 0, 0, 0, set()
    start = time.process_time()
    while time.process_time() - start < seconds:
        if method == "rejection":
            deal = random_deal(4, 4, rng, constraints)
        else:
            deal = cpsat.construct(4, 4, random.Random(f"{seed}:cpsat:{tries}"), constraints)
        tries += 1
        if deal is not None:
            made += 1
            if accepted(deal, constraints):
                found.add(str(deal))
            else:
                rejected += 1
    cpu = time.process_time() - start
    return {"tries": tries, "made": made, "accepted": len(found), "rejected": rejected,
            "cpu_s": round(cpu, 2),
            "per_cpu_s": round(len(found) / cpu, 3)}


@click.command()
@click.option("--seconds", default=16.0, show_default=True, help="CPU budget per method and set.")
@click.option("--seed", default=0, show_default=True)
def main(seconds, seed):
    warm_up()
    cpsat.construct(4, 4, random.Random(0))
    print("| constraints | rejection: accepted / tries | per CPU-s | CP-SAT: accepted / tries "
          "| per CPU-s | CP-SAT / rejection |")
    print("|---|---|---|---|---|---|")
    for name, options in SETS:
        constraints = parse_constraints(4, 4, **options)
        rej = run("rejection", constraints, seconds, seed)
        cp = run("cpsat", constraints, seconds, seed)
        ratio = cp["per_cpu_s"] / rej["per_cpu_s"] if rej["accepted"] else float("inf")
        print(json.dumps({"set": name, "rejection": rej, "cpsat": cp}), flush=True)
        print(f"| {name} | {rej['accepted']} / {rej['tries']} | {rej['per_cpu_s']} | "
              f"{cp['accepted']} / {cp['tries']} | {cp['per_cpu_s']} | {ratio:.3g}x |", flush=True)


if __name__ == "__main__":
    main()
