"""StacksSquared solver benchmarks; results are recorded in benchmarks/stacksquared.md.

    python benchmarks/stacksquared_bench.py classify [--deals 10000]
    python benchmarks/stacksquared_bench.py ablation [--deals 3000]
    python benchmarks/stacksquared_bench.py scaling
    python benchmarks/stacksquared_bench.py startup
    python benchmarks/stacksquared_bench.py symmetry [--deals 200]

Times are per deal on one core, warm (the kernel is loaded before timing), and include the whole
``solve`` call (deal set-up, both searches, naming the moves).
"""
from __future__ import annotations

import argparse
import itertools
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

from solvers.result import Limits, Status
from solvers.stacksquared import Deal, Position, solve, warm_up
from solvers.stacksquared.api import run_search


def machine() -> str:
    load = os.getloadavg()[0]
    return (f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}, load average {load:.1f} at start")


def describe(values_ms: np.ndarray) -> str:
    return (f"mean {values_ms.mean():.3f} ms, median {np.median(values_ms):.3f} ms, "
            f"p99 {np.percentile(values_ms, 99):.3f} ms, max {values_ms.max():.1f} ms")


def classify(args) -> None:
    """Single stack and exact max score for 4x4 seeds 0..N-1."""
    warm_up()
    times, statuses = [], []
    for seed in range(args.deals):
        start = time.perf_counter()
        result = solve(Deal.from_seed(seed))
        times.append(1e3 * (time.perf_counter() - start))
        statuses.append(result.status)
    t = np.array(times)
    unsolvable = np.array([s is Status.UNSOLVABLE for s in statuses])
    print(f"4x4 seeds 0..{args.deals - 1}, single stack + exact max score: {describe(t)}")
    print(f"  solved {sum(s is Status.SOLVED for s in statuses)}, unsolvable {unsolvable.sum()}, "
          f"limit {sum(s is Status.LIMIT for s in statuses)}; total {t.sum() / 1e3:.2f} s; "
          f"share of time on unsolvable deals {t[unsolvable].sum() / t.sum():.1%}")


def ablation(args) -> None:
    """Nodes and time of the single-stack search with and without move ordering, same deals."""
    warm_up()
    for order in (False, True):
        nodes, times = [], []
        for seed in range(args.deals):
            position = Position.start(Deal.from_seed(seed))
            start = time.perf_counter()
            outcome, *_rest, n, _states = run_search(position, with_sizes=False, floor=255,
                                                    limits=Limits(), order_moves=order)
            times.append(1e3 * (time.perf_counter() - start))
            nodes.append(n)
        nodes_a, t = np.array(nodes), np.array(times)
        print(f"order_moves={order}: nodes mean {nodes_a.mean():.0f}, median {np.median(nodes_a):.0f}, "
              f"p99 {np.percentile(nodes_a, 99):.0f}, max {nodes_a.max()}; time {describe(t)}; "
              f"total {t.sum() / 1e3:.2f} s")


def scaling(args) -> None:
    """Share decided, nodes and time per grid size, with a node limit."""
    warm_up()
    plan = [((3, 3), 2000), ((3, 4), 2000), ((4, 4), 2000), ((4, 5), 1000), ((5, 5), 1000),
            ((6, 6), 300), ((4, 13), 200)]
    limits = Limits(nodes=args.max_nodes, states=4_000_000)
    print(f"node limit {args.max_nodes:,} per deal; seeds 0..N-1")
    print("| grid | deals | single stack | decided | median nodes | p99 nodes | median ms | p99 ms | max ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (r, c), n in plan:
        nodes, times, single, decided = [], [], 0, 0
        for seed in range(n):
            start = time.perf_counter()
            result = solve(Deal.from_seed(seed, r, c), limits)
            times.append(1e3 * (time.perf_counter() - start))
            nodes.append(result.nodes)
            decided += result.status is not Status.LIMIT
            single += result.status is Status.SOLVED
        nd, t = np.array(nodes), np.array(times)
        print(f"| {r}x{c} | {n} | {single / n:.2%} | {decided / n:.2%} | {np.median(nd):.0f} | "
              f"{np.percentile(nd, 99):.0f} | {np.median(t):.3f} | {np.percentile(t, 99):.3f} | "
              f"{t.max():.1f} |")


def timed_run(cmd: list[str], env: dict | None = None) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def startup(args) -> None:
    """Wall and CPU time of `puzzlegen stacksquared solve` on the example deal, cold and warm.

    On a busy machine wall time overstates what an idle one gives; CPU time does not.
    """
    exe = shutil.which("puzzlegen") or sys.exit("puzzlegen is not installed")
    cmd = [exe, "stacksquared", "solve", "--seed", "367297990", "--json"]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        runs = [timed_run(cmd, env) for _ in range(1 + args.repeat)]
    bare = timed_run([sys.executable, "-c", "pass"])
    numba_import = timed_run([sys.executable, "-c", "import numba"])
    warm = sorted(runs[1:])
    cpu = sorted(r[1] for r in runs[1:])
    print(f"cold (compiling into an empty cache): {runs[0][0]:.2f} s wall, {runs[0][1]:.2f} s CPU")
    print(f"warm over {len(warm)} runs: wall median {warm[len(warm) // 2][0]:.2f} s, best "
          f"{warm[0][0]:.2f} s; CPU median {cpu[len(cpu) // 2]:.2f} s")
    print(f"same run: python -c pass {bare[0]:.2f} s wall / {bare[1]:.2f} s CPU; "
          f"import numba {numba_import[0]:.2f} s wall / {numba_import[1]:.2f} s CPU")


def symmetry(args) -> None:
    """How much canonicalising under row and column permutations would shrink the state space."""
    r, c = 3, 3
    perms = [(rp, cp) for rp in itertools.permutations(range(r))
             for cp in itertools.permutations(range(c))]
    states = classes = 0
    for seed in range(args.deals):
        start = Position.start(Deal.from_seed(seed, r, c))
        seen, todo = {start.tops}, [start]
        while todo:
            pos = todo.pop()
            for move in pos.legal_moves():
                nxt = pos.play(move)
                if nxt.tops not in seen:
                    seen.add(nxt.tops)
                    todo.append(nxt)
        codes = [tuple(-1 if x is None else x.index for x in t) for t in seen]
        canonical = {min(tuple(code[rp[i] * c + cp[j]] for i in range(r) for j in range(c))
                         for rp, cp in perms) for code in codes}
        states += len(seen)
        classes += len(canonical)
    print(f"3x3 seeds 0..{args.deals - 1}: {states} reachable top-card states, {classes} classes "
          f"under row and column permutations: at most {states / classes:.2f}x fewer states, for "
          f"a canonical form costing up to {len(perms)} relabellings a node")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("classify").add_argument("--deals", type=int, default=10000)
    sub.add_parser("ablation").add_argument("--deals", type=int, default=3000)
    sub.add_parser("scaling").add_argument("--max-nodes", type=int, default=2_000_000)
    sub.add_parser("startup").add_argument("--repeat", type=int, default=5)
    sub.add_parser("symmetry").add_argument("--deals", type=int, default=200)
    args = parser.parse_args()
    print(f"# {args.what}: {machine()}")
    globals()[args.what](args)


if __name__ == "__main__":
    main()
