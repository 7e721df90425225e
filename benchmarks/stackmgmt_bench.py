"""Stack Management speed: the whole ``puzzlegen stackmgmt contest`` command on the large practice
file against interpreter baselines measured in the same run, and the time per card in-process.

    nice -n 10 python benchmarks/stackmgmt_bench.py [--repeat 5] [--data DIR]

Prints Markdown tables (recorded in benchmarks/stackmgmt.md).
"""
from __future__ import annotations

import argparse
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

from solvers.stackmgmt import format_contest, parse_contest, solve
from solvers.stackmgmt.generate import generate

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "codejam2017-stack-management"


def wall(cmd: list[str], repeat: int) -> tuple[list[float], list[float]]:
    """Wall seconds and CPU seconds (user + system) of each of ``repeat`` runs of ``cmd``."""
    times, cpu = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return times, cpu


def in_process(text: str, repeat: int, explain: bool = False) -> dict:
    """Best-of-``repeat`` CPU seconds to parse and to solve (the machine is shared, so CPU
    time is steadier than wall time), and the cards decided."""
    parse_s, solve_s = [], []
    for _ in range(repeat):
        start = time.process_time()
        cases = parse_contest(text)
        mid = time.process_time()
        for case in cases:
            solve(case, explain=explain)
        parse_s.append(mid - start)
        solve_s.append(time.process_time() - mid)
    return {"cases": len(cases), "cards": sum(c.cards for c in cases),
            "parse": min(parse_s), "solve": min(solve_s)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args()
    large = args.data / "E-large-practice.in"
    exe = shutil.which("puzzlegen") or sys.exit("the puzzlegen command is not installed")
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}\n")

    print(f"| command ({args.repeat} runs) | wall best (ratio) | wall median | CPU best |")
    print("|---|---|---|---|")
    rows = {"python -c pass": [sys.executable, "-c", "pass"],
            "python -c 'import numpy, click'": [sys.executable, "-c", "import numpy, click"],
            "puzzlegen stackmgmt contest E-large-practice.in": [exe, "stackmgmt", "contest",
                                                               str(large)]}
    base = None
    for name, cmd in rows.items():
        t, cpu = wall(cmd, args.repeat)
        base = base or min(t)
        print(f"| `{name}` | {min(t):.3f} ({min(t) / base:.1f}x) | {statistics.median(t):.3f} | "
              f"{min(cpu):.3f} |")

    print("\n| input (in-process, CPU) | cases | cards | parse s | decide s | ns per card |")
    print("|---|---|---|---|---|---|")
    inputs = {"E-large-practice": large.read_text()}
    gen = {"path, 2000 stacks x 50 cards, path of 1998": ("path", 2000, 50),
           "blocked, 250 stacks x 400 cards, cycle of 250": ("blocked", 250, 400)}
    for name, (kind, n, c) in gen.items():
        inputs[name] = format_contest([generate(kind, n, c, None, seed) for seed in range(2)])
    for name, text in inputs.items():
        r = in_process(text, args.repeat)
        per = 1e9 * (r["parse"] + r["solve"]) / r["cards"]
        print(f"| {name} | {r['cases']} | {r['cards']:,} | {r['parse']:.3f} | {r['solve']:.3f} | "
              f"{per:.0f} |")

    r = in_process(inputs["path, 2000 stacks x 50 cards, path of 1998"], 1, explain=True)
    print(f"\nexplain (winning line + decision), path 2000 x 50, 2 cases: {r['solve']:.3f} s, "
          f"{1e9 * r['solve'] / r['cards']:.0f} ns per card")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "g.in"
        t, _ = wall([exe, "stackmgmt", "cases", "--kind", "path", "--stacks", "2000",
                     "--cards", "50", "--out", str(out)], 1)
        print(f"generate path 2000 x 50 (one case, command wall): {t[0]:.3f} s")


if __name__ == "__main__":
    main()
