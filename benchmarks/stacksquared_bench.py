"""StacksSquared solver benchmarks; results are recorded in benchmarks/stacksquared.md.

    python benchmarks/stacksquared_bench.py tail [--deals 10000]        # no bad tail
    python benchmarks/stacksquared_bench.py pernode [--deals 1000]      # cost of a node
    python benchmarks/stacksquared_bench.py startup [--repeat 9] [--fresh-venv]
    python benchmarks/stacksquared_bench.py command [--seeds 0..999] [--repeat 3]
    python benchmarks/stacksquared_bench.py classify [--deals 10000]
    python benchmarks/stacksquared_bench.py scaling
    python benchmarks/stacksquared_bench.py symmetry [--deals 200]

The baseline is benchmarks/stacksquared_baseline.cpp, a plain memoised depth-first search in
C++ (row-major moves, a hash set of visited tops, the two connectivity prunings), compiled with
``g++ -O2`` into a temporary directory by the commands that use it; it searches the same tree as
the kernel's ROW_MAJOR plan, node for node (``pernode`` checks it deal by deal).  Times inside a
process are warm (the kernel is loaded before timing) and count the thread's CPU time on both
sides, which a busy machine disturbs far less than wall time.  ``startup`` and ``command`` time whole
commands; ``--source DIR`` runs them on another checkout's code (e.g. main's, for a before
figure) through ``python -m puzzlegen`` with DIR first on PYTHONPATH.
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from puzzlegen.clitools import parse_seed_range
from solvers.result import Limits, Status
from solvers.stacksquared import Deal, Position, solve, warm_up
from solvers.stacksquared.api import line_masks, position_arrays, search_kernel
from solvers.stacksquared.codes import (ALL_CUTS, DONE, FEWEST_PARTNERS, PERTURBED, PORTFOLIO,
                                        ROW_MAJOR, SEARCH)

BASELINE = Path(__file__).with_name("stacksquared_baseline.cpp")
ORDERS = {"row-major": ROW_MAJOR, "fewest partners": FEWEST_PARTNERS, "perturbed": PERTURBED}
TAIL_GRIDS = [(4, 4), (5, 5), (6, 6), (7, 7), (4, 13)]
#: Deals the issue named for their bad tail: (rows, cols, seed).
NAMED = [(4, 13, 790), (4, 4, 5326), (7, 7, 353)]


def machine() -> str:
    load = os.getloadavg()[0]
    kernel = "compiled ahead of time" if SEARCH.load() is not None else "numba JIT"
    return (f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}, search {kernel}, "
            f"load average {load:.1f} at start")


def build_baseline(workdir: str) -> str:
    """Compile the C++ baseline; return the program's path."""
    program = os.path.join(workdir, "stacksquared_baseline")
    subprocess.run(["g++", "-O2", "-std=c++17", "-o", program, str(BASELINE)], check=True)
    return program


def baseline_lines(deals: list[Deal]) -> str:
    return "".join(f"{d.rows} {d.cols} " + " ".join(str(c.index) for c in d.cards) + "\n"
                   for d in deals)


def run_baseline(program: str, deals: list[Deal], max_nodes: int = -1) -> list[tuple[str, int, int]]:
    """(status, nodes, nanoseconds) per deal, as the C++ program reports them."""
    out = subprocess.run([program, str(max_nodes)], input=baseline_lines(deals),
                         capture_output=True, text=True, check=True).stdout.split()
    return [(out[i], int(out[i + 1]), int(out[i + 2])) for i in range(0, len(out), 3)]


def single_stack_search(deal: Deal, plan: int, max_nodes: int = -1):
    """The kernel's single-stack search of ``deal`` alone: (outcome, solved, nodes, CPU seconds)."""
    card, size = position_arrays(Position.start(deal))
    line = line_masks(deal.rows, deal.cols)
    n = deal.size
    start = time.thread_time()
    outcome, best, *_moves, nodes, _states = search_kernel()(
        card, size, line, False, n * n - 1, n * n, max_nodes, -1, -1.0, plan, ALL_CUTS)
    return outcome, best == n * n, nodes, time.thread_time() - start


def describe(values_ms: np.ndarray) -> str:
    return (f"mean {values_ms.mean():.3f} ms, median {np.median(values_ms):.3f} ms, "
            f"p99 {np.percentile(values_ms, 99):.3f} ms, max {values_ms.max():.1f} ms")


def tail(args) -> None:
    """Per grid: the portfolio's nodes against each order alone, and the slowest whole solve.

    Each order alone is stopped at 10x the portfolio's nodes + 1,000: beyond that it cannot
    make the portfolio's ratio exceed 10, and some orders alone run for minutes.
    """
    warm_up()
    print(f"seeds 0..{args.deals - 1} per grid; ratio = portfolio nodes / fewest nodes of the "
          f"three orders alone ({', '.join(ORDERS)}); solve = single stack + exact max score, "
          f"CPU time")
    print("| grid | portfolio nodes: mean | p99 | max (seed) | ratio: mean | p99 | max (seed: "
          "row-major / fewest / perturbed / portfolio) | slowest solve (seed) |")
    print("|---|---|---|---|---|---|---|---|")
    for rows, cols in TAIL_GRIDS:
        nodes, ratios, solve_ms = [], [], []
        worst_ratio = (0.0, None, None)
        for seed in range(args.deals):
            deal = Deal.from_seed(seed, rows, cols)
            outcome, _solved, portfolio, _s = single_stack_search(deal, PORTFOLIO)
            assert outcome == DONE
            alone = []
            for plan in ORDERS.values():
                out, _solved, count, _s = single_stack_search(deal, plan, 10 * portfolio + 1000)
                alone.append(count if out == DONE else None)
            best = min(x for x in alone + [10 * portfolio + 1001] if x is not None)
            ratio = portfolio / max(best, 1)
            if ratio > worst_ratio[0]:
                worst_ratio = (ratio, seed, alone + [portfolio])
            start = time.thread_time()
            result = solve(deal)
            solve_ms.append(1e3 * (time.thread_time() - start))
            assert result.status is not Status.LIMIT
            nodes.append(portfolio)
            ratios.append(ratio)
        nd, rt, ms = np.array(nodes), np.array(ratios), np.array(solve_ms)
        counts = " / ".join(">cap" if x is None else f"{x:,}" for x in worst_ratio[2])
        print(f"| {rows}x{cols} | {nd.mean():.0f} | {np.percentile(nd, 99):.0f} | "
              f"{nd.max():,} ({nd.argmax()}) | {rt.mean():.2f} | {np.percentile(rt, 99):.2f} | "
              f"{worst_ratio[0]:.2f} ({worst_ratio[1]}: {counts}) | "
              f"{ms.max():.1f} ms ({ms.argmax()}) |")
    named(args)


def named(args) -> None:
    """The issue's bad deals: each order alone, the portfolio, and the C++ baseline."""
    with tempfile.TemporaryDirectory() as workdir:
        program = build_baseline(workdir)
        print("\n| deal | C++ baseline | row-major | fewest partners | perturbed | portfolio |")
        print("|---|---|---|---|---|---|")
        for rows, cols, seed in NAMED:
            deal = Deal.from_seed(seed, rows, cols)
            status, cpp_nodes, cpp_ns = run_baseline(program, [deal], 50_000_000)[0]
            cells = [f"{cpp_nodes:,} nodes, {cpp_ns / 1e6:.2f} ms ({status})"]
            for plan in list(ORDERS.values()) + [PORTFOLIO]:
                out, _solved, count, seconds = single_stack_search(deal, plan, 50_000_000)
                cells.append(f"{count:,} nodes, {1e3 * seconds:.2f} ms"
                             + ("" if out == DONE else " (limit)"))
            print(f"| {rows}x{cols} seed {seed} | " + " | ".join(cells) + " |")


def pernode(args) -> None:
    """Time per node of the kernel's ROW_MAJOR search and of the C++ baseline, same tree."""
    warm_up()
    deals = [Deal.from_seed(s) for s in range(args.deals)]
    cpp_ns = np.full(len(deals), np.inf)
    ours_ns = np.full(len(deals), np.inf)
    node_counts = np.zeros(len(deals), dtype=np.int64)
    with tempfile.TemporaryDirectory() as workdir:
        program = build_baseline(workdir)
        for _ in range(args.repeat):
            for i, (status, nodes, ns) in enumerate(run_baseline(program, deals)):
                _out, solved, count, seconds = single_stack_search(deals[i], ROW_MAJOR)
                assert count == nodes and solved == (status == "solved"), deals[i]
                node_counts[i] = count
                cpp_ns[i] = min(cpp_ns[i], ns)
                ours_ns[i] = min(ours_ns[i], 1e9 * seconds)
    total = node_counts.sum()
    print(f"4x4 seeds 0..{args.deals - 1}, single-stack search, row-major order, best of "
          f"{args.repeat} runs per deal; node counts identical deal by deal ({total:,} nodes)")
    print(f"C++ baseline {cpp_ns.sum() / total:.1f} ns/node, kernel {ours_ns.sum() / total:.1f} "
          f"ns/node: {cpp_ns.sum() / ours_ns.sum():.2f}x faster per node")
    big = node_counts >= 100_000
    print(f"deals of 100,000 nodes or more ({big.sum()} deals, {node_counts[big].sum():,} nodes): "
          f"C++ {cpp_ns[big].sum() / node_counts[big].sum():.1f} ns/node, kernel "
          f"{ours_ns[big].sum() / node_counts[big].sum():.1f} ns/node: "
          f"{cpp_ns[big].sum() / ours_ns[big].sum():.2f}x")
    i = 1163 if args.deals > 1163 else int(node_counts.argmax())
    print(f"seed {i} ({node_counts[i]:,} nodes): C++ {cpp_ns[i] / node_counts[i]:.1f} ns/node, "
          f"kernel {ours_ns[i] / node_counts[i]:.1f} ns/node: {cpp_ns[i] / ours_ns[i]:.2f}x")


def timed_run(cmd: list[str], env: dict | None = None, stdin: str | None = None,
              cwd: str | None = None) -> tuple[float, float, str]:
    """Wall and CPU (user + system) seconds of one child process, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, input=stdin, check=True, capture_output=True, text=True,
                          cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def puzzlegen_command(args) -> tuple[list[str], dict]:
    """How to run the command under test: the installed one, or ``--source``'s code."""
    env = dict(os.environ)
    if args.source:
        env["PYTHONPATH"] = os.path.abspath(args.source)
        return [sys.executable, "-m", "puzzlegen"], env
    exe = shutil.which("puzzlegen") or sys.exit("puzzlegen is not installed")
    return [exe], env


def median_runs(runs: list[tuple[float, float, str]]) -> tuple[float, float]:
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def startup(args) -> None:
    """A warm single-deal `solve` against the python + numpy + click floor, interleaved; with
    ``--fresh-venv``, also the first run after `pip install` into a new virtual environment."""
    cmd, env = puzzlegen_command(args)
    solve_cmd = cmd + ["stacksquared", "solve", "--seed", "1"]
    floor_cmd = [sys.executable, "-c", "import numpy, click"]
    bare_cmd = [sys.executable, "-c", "pass"]
    timed_run(solve_cmd, env)  # warm the caches
    runs = {"solve": [], "floor": [], "bare": []}
    with tempfile.TemporaryDirectory() as cwd:  # away from the checkout's sources
        for _ in range(args.repeat):
            runs["solve"].append(timed_run(solve_cmd, env, cwd=cwd))
            runs["floor"].append(timed_run(floor_cmd, cwd=cwd))
            runs["bare"].append(timed_run(bare_cmd, cwd=cwd))
    (sw, sc), (fw, fc), (bw, bc) = (median_runs(runs[k]) for k in ("solve", "floor", "bare"))
    print(f"medians of {args.repeat} interleaved runs (wall / CPU):")
    print(f"  puzzlegen stacksquared solve --seed 1   {sw:.3f} s / {sc:.3f} s")
    print(f"  python -c 'import numpy, click' (floor) {fw:.3f} s / {fc:.3f} s")
    print(f"  python -c pass                          {bw:.3f} s / {bc:.3f} s")
    print(f"  solve / floor: {sw / fw:.2f}x wall, {sc / fc:.2f}x CPU")
    if args.fresh_venv:
        fresh_venv(args)


def fresh_venv(args) -> None:
    """`pip install .` into a new virtual environment, then time the first solves there."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        venv = os.path.join(tmp, "venv")
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        pip = os.path.join(venv, "bin", "pip")
        start = time.perf_counter()
        subprocess.run([pip, "install", "--quiet", str(root)], check=True)
        print(f"fresh venv: pip install . took {time.perf_counter() - start:.1f} s")
        exe = [os.path.join(venv, "bin", "puzzlegen"), "stacksquared", "solve", "--seed", "1"]
        runs = [timed_run(exe, cwd=tmp) for _ in range(3)]
        print(f"  first run {runs[0][0]:.3f} s wall / {runs[0][1]:.3f} s CPU; then "
              f"{runs[1][0]:.3f} s and {runs[2][0]:.3f} s wall")


def command(args) -> None:
    """The whole `solve --seeds A..B --json` command against the C++ program on the same deals."""
    deals = [Deal.from_seed(s, args.rows, args.cols) for s in parse_seed_range(args.seeds)]
    cmd, env = puzzlegen_command(args)
    ours_cmd = cmd + ["stacksquared", "solve", "--seeds", args.seeds, "--rules",
                      f"{args.rows}x{args.cols}", "--json"]
    with tempfile.TemporaryDirectory() as workdir:
        program = build_baseline(workdir)
        text = baseline_lines(deals)
        timed_run(ours_cmd, env, cwd=workdir)  # warm the caches
        cpp, ours = [], []
        for _ in range(args.repeat):
            cpp.append(timed_run([program], stdin=text, cwd=workdir))
            ours.append(timed_run(ours_cmd, env, cwd=workdir))
    verdicts = [line.split()[0] for line in cpp[0][2].splitlines()]
    records = [json.loads(line) for line in ours[0][2].splitlines()]
    agree = all((v == "solved") == r["single_stack"] for v, r in zip(verdicts, records))
    assert agree and len(records) == len(deals), "the two programs disagree"
    (cw, cc), (ow, oc) = median_runs(cpp), median_runs(ours)
    print(f"{args.rows}x{args.cols} seeds {args.seeds} ({len(deals)} deals), medians of "
          f"{args.repeat} interleaved runs; single-stack verdicts agree on every deal")
    print(f"  C++ baseline (single stack only)             {cw:.3f} s wall / {cc:.3f} s CPU")
    print(f"  puzzlegen stacksquared solve --seeds --json  {ow:.3f} s wall / {oc:.3f} s CPU "
          f"(single stack and exact max score)")
    print(f"  puzzlegen is {cw / ow:.1f}x faster in wall time, {cc / oc:.1f}x in CPU time")


def classify(args) -> None:
    """Single stack and exact max score for 4x4 seeds 0..N-1."""
    warm_up()
    times, statuses = [], []
    for seed in range(args.deals):
        start = time.thread_time()
        result = solve(Deal.from_seed(seed))
        times.append(1e3 * (time.thread_time() - start))
        statuses.append(result.status)
    t = np.array(times)
    unsolvable = np.array([s is Status.UNSOLVABLE for s in statuses])
    print(f"4x4 seeds 0..{args.deals - 1}, single stack + exact max score, CPU time: {describe(t)}")
    print(f"  solved {sum(s is Status.SOLVED for s in statuses)}, unsolvable {unsolvable.sum()}, "
          f"limit {sum(s is Status.LIMIT for s in statuses)}; total {t.sum() / 1e3:.2f} s; "
          f"share of time on unsolvable deals {t[unsolvable].sum() / t.sum():.1%}")


def scaling(args) -> None:
    """Share decided, nodes and time per grid size, with a node limit."""
    warm_up()
    plan = [((3, 3), 2000), ((3, 4), 2000), ((4, 4), 2000), ((4, 5), 1000), ((5, 5), 1000),
            ((6, 6), 1000), ((7, 7), 1000), ((4, 13), 1000)]
    limits = Limits(nodes=args.max_nodes, states=4_000_000)
    print(f"node limit {args.max_nodes:,} per deal; seeds 0..N-1; CPU time")
    print("| grid | deals | single stack | decided | median nodes | p99 nodes | median ms | p99 ms | max ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (r, c), n in plan:
        nodes, times, single, decided = [], [], 0, 0
        for seed in range(n):
            start = time.thread_time()
            result = solve(Deal.from_seed(seed, r, c), limits)
            times.append(1e3 * (time.thread_time() - start))
            nodes.append(result.nodes)
            decided += result.status is not Status.LIMIT
            single += result.status is Status.SOLVED
        nd, t = np.array(nodes), np.array(times)
        print(f"| {r}x{c} | {n} | {single / n:.2%} | {decided / n:.2%} | {np.median(nd):.0f} | "
              f"{np.percentile(nd, 99):.0f} | {np.median(t):.3f} | {np.percentile(t, 99):.3f} | "
              f"{t.max():.1f} |")


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
    sub.add_parser("tail").add_argument("--deals", type=int, default=10000)
    p = sub.add_parser("pernode")
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--repeat", type=int, default=3)
    p = sub.add_parser("startup")
    p.add_argument("--repeat", type=int, default=9)
    p.add_argument("--fresh-venv", action="store_true")
    p.add_argument("--source", help="run another checkout's code (python -m puzzlegen)")
    p = sub.add_parser("command")
    p.add_argument("--seeds", default="0..999")
    p.add_argument("--rows", type=int, default=4)
    p.add_argument("--cols", type=int, default=4)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--source", help="run another checkout's code (python -m puzzlegen)")
    sub.add_parser("classify").add_argument("--deals", type=int, default=10000)
    sub.add_parser("scaling").add_argument("--max-nodes", type=int, default=2_000_000)
    sub.add_parser("symmetry").add_argument("--deals", type=int, default=200)
    args = parser.parse_args()
    print(f"# {args.what}: {machine()}")
    if getattr(args, "source", None):
        print(f"# the command under test: python -m puzzlegen with {args.source} first on PYTHONPATH")
    globals()[args.what](args)


if __name__ == "__main__":
    main()
