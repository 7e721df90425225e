"""Run engine throughput on 4x4 StacksSquared deals; results in benchmarks/runs.md.

    nice -n 10 python benchmarks/runs_bench.py throughput [--deals 30000] [--rounds 2]
    nice -n 10 python benchmarks/runs_bench.py million [--deals 1000000] [--per-deal FILE]

``throughput`` solves seeds 0..N-1 (single stack and exact max score) six ways: the plain loop
``for seed in seeds: play(seed, ...)`` (``puzzlegen.winrate.play``, the function the engine runs
for each deal) in one process (the baseline for one worker) and in two processes side by side,
each over half the seeds (the baseline for two: the same contention for the machine, no
engine); ``puzzlegen stacksquared winrate --rules 4x4`` in its own process (``--jobs 1``),
on one and on two workers of a Dask cluster started here (``--scheduler``), and on a local
cluster of two (``--jobs 2``).
Each is a fresh process, run for N deals and for a tiny run of 20 deals; the difference takes
away the fixed costs (Python start, imports, kernel loading, cluster start).  A ``--scheduler``
cluster lasts across runs, as such clusters do: a first tiny run, not counted, loads its
workers' kernels.  Per deal it
reports the wall time per worker and the CPU time of every process involved (command, Dask
scheduler and workers), against the loop's.  CPU time barely depends on what else the machine
runs, so the CPU overhead is the figure to read on a shared machine.

``million`` runs ``puzzlegen stacksquared winrate --rules 4x4 --deals N --jobs 2`` with a
per-deal file and prints the summary, the wall time, the throughput and the CPU time per deal.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

TINY = 20
LOOP = """
import sys
from puzzlegen.winrate import play, warm_up
from solvers.stacksquared import DEFAULT_LIMITS
run = dict(game_name="stacksquared", rules_text="4x4", limits=DEFAULT_LIMITS,
           tuning={"max_score": True})
warm_up("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH 2H 3H", **run)
for seed in range(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])):
    play(seed, seed=0, **run)
"""
WINRATE = [sys.executable, "-m", "puzzlegen", "stacksquared", "winrate", "--rules", "4x4",
           "--json"]


def machine() -> str:
    return (f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"load average {os.getloadavg()[0]:.1f}")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def loops(n: int, side_by_side: int) -> list[list[str]]:
    """The plain loop over seeds 0..n-1, split over ``side_by_side`` processes."""
    return [[sys.executable, "-c", LOOP, str(k), str(n), str(side_by_side)]
            for k in range(side_by_side)]


def timed(commands: list[list[str]], cluster: list[psutil.Process]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (the commands, run side by side, and the cluster's
    processes) of one run."""
    before = children_cpu() + sum(_cpu(p) for p in cluster)
    started = time.perf_counter()
    procs = [subprocess.Popen(command, stdout=subprocess.DEVNULL) for command in commands]
    if any(proc.wait() for proc in procs):
        raise SystemExit("a run failed")
    wall = time.perf_counter() - started
    return wall, children_cpu() + sum(_cpu(p) for p in cluster) - before


def _cpu(proc: psutil.Process) -> float:
    times = proc.cpu_times()
    return times.user + times.system


class Cluster:
    """A Dask scheduler and ``workers`` single-threaded worker processes on localhost."""

    def __init__(self, workers: int) -> None:
        self.folder = tempfile.TemporaryDirectory()
        info = Path(self.folder.name) / "scheduler.json"
        dask = [sys.executable, "-m", "dask"]
        self.procs = [subprocess.Popen(
            [*dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--dashboard-address",
             ":0", "--scheduler-file", str(info)], stderr=subprocess.DEVNULL)]
        try:
            while not (info.exists() and info.read_text().endswith("}")):
                time.sleep(0.1)
            self.address = json.loads(info.read_text())["address"]
            self.procs += [subprocess.Popen(
                [*dask, "worker", self.address, "--nthreads", "1", "--no-nanny",
                 "--no-dashboard", "--host", "127.0.0.1", "--local-directory", self.folder.name],
                stderr=subprocess.DEVNULL) for _ in range(workers)]
            from distributed import Client
            with Client(self.address) as client:
                client.wait_for_workers(workers, timeout=300)
        except BaseException:
            self.close()
            raise
        self.processes = [psutil.Process(p.pid) for p in self.procs]

    def close(self) -> None:
        for proc in self.procs:
            proc.terminate()
            proc.wait()
        self.folder.cleanup()


def throughput(args) -> None:
    print(f"machine: {machine()}; 4x4 seeds 0..{args.deals - 1}, tiny runs of {TINY} deals")
    configs = [("in-process loop (baseline for 1 worker)", 1, None, lambda n: loops(n, 1)),
               ("winrate --jobs 1 (in this process)", 1, None,
                lambda n: [[*WINRATE, "--deals", str(n)]]),
               ("winrate --scheduler, 1 worker", 1, 1,
                lambda n, a=None: [[*WINRATE, "--deals", str(n), "--scheduler", a]]),
               ("two in-process loops side by side (baseline for 2)", 2, None,
                lambda n: loops(n, 2)),
               ("winrate --jobs 2 (local cluster)", 2, None,
                lambda n: [[*WINRATE, "--deals", str(n), "--jobs", "2"]]),
               ("winrate --scheduler, 2 workers", 2, 2,
                lambda n, a=None: [[*WINRATE, "--deals", str(n), "--scheduler", a]])]
    rows = {name: [] for name, *_ in configs}
    for _ in range(args.rounds):
        for name, workers, cluster_size, command in configs:
            cluster = Cluster(cluster_size) if cluster_size else None
            try:
                make = (lambda n: command(n, cluster.address)) if cluster else command
                procs = cluster.processes if cluster else []
                if cluster:   # its workers load the kernels once, as a lasting cluster does
                    timed(make(TINY), procs)
                tiny = timed(make(TINY), procs)
                big = timed(make(args.deals), procs)
            finally:
                if cluster:
                    cluster.close()
            rows[name].append((big, tiny, workers))
    print("| run | workers | wall s | wall s, fixed costs taken away | deals/s | deals/s "
          "per worker | wall ms per deal per worker (vs its baseline) | CPU ms per deal "
          "(vs its baseline) |")
    print("|---|---|---|---|---|---|---|---|")
    baseline: dict[int, list[tuple[float, float]]] = {}
    for name, results in rows.items():
        for k, ((wall, cpu), (tiny_wall, tiny_cpu), workers) in enumerate(results):
            n = args.deals - TINY
            per_worker, per_deal = (wall - tiny_wall) * workers / n, (cpu - tiny_cpu) / n
            if "baseline" in name:   # each round against the baseline of the same round
                baseline.setdefault(workers, []).append((per_worker, per_deal))
            base_wall, base_cpu = baseline[workers][k]
            print(f"| {name} | {workers} | {wall:.1f} | {wall - tiny_wall:.1f} | "
                  f"{n / (wall - tiny_wall):,.0f} | {n / (wall - tiny_wall) / workers:,.0f} | "
                  f"{1e3 * per_worker:.3f} ({per_worker / base_wall - 1:+.1%}) | "
                  f"{1e3 * per_deal:.3f} ({per_deal / base_cpu - 1:+.1%}) |")


def million(args) -> None:
    print(f"machine: {machine()}")
    command = [*WINRATE, "--deals", str(args.deals), "--jobs", "2"]
    if args.per_deal:
        command += ["--per-deal", args.per_deal, "--resume"]
    print("command: " + " ".join(command[2:]))
    before = children_cpu()
    started = time.perf_counter()
    out = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True).stdout
    wall = time.perf_counter() - started
    cpu = children_cpu() - before
    summary = json.loads(out)
    print(json.dumps(summary))
    print(f"wall {wall:.0f} s ({wall / 3600:.2f} h); {args.deals / wall:,.0f} deals/s, "
          f"{args.deals / wall / 2:,.0f} per worker; CPU {cpu:.0f} s, "
          f"{1e3 * cpu / args.deals:.3f} ms per deal; solver time "
          f"{1e3 * summary['seconds']['total'] / args.deals:.4f} ms per deal")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("throughput")
    one.add_argument("--deals", type=int, default=30_000)
    one.add_argument("--rounds", type=int, default=2)
    big = sub.add_parser("million")
    big.add_argument("--deals", type=int, default=1_000_000)
    big.add_argument("--per-deal", help="keep the per-deal lines here (and resume from them)")
    args = parser.parse_args()
    {"throughput": throughput, "million": million}[args.what](args)


if __name__ == "__main__":
    main()
