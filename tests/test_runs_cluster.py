"""Runs on real Dask workers: a scheduler and two worker processes started here on localhost
(``--scheduler``), and local clusters (``--jobs 2``) stopped by Ctrl-C and by SIGKILL.

A deal's per-deal line is the same solved alone, inside a batch, and on workers; a run
interrupted either way and resumed ends with the file and summary of an uninterrupted run.
"""
import contextlib
import itertools
import json
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest
from click.testing import CliRunner

from puzzlegen.cli import cli
from puzzlegen import runs
from puzzlegen.runs import read_records

LOCALHOST = "127.0.0.1"


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """The address of a Dask scheduler with two single-threaded worker processes."""
    with _cluster(tmp_path_factory.mktemp("dask"), workers=2) as address:
        yield address


@contextlib.contextmanager
def _cluster(folder, workers: int, worker_ttl: str = "None", procs: list | None = None):
    """A scheduler and ``workers`` worker processes on localhost, set up as docs/runs.md says
    (the scheduler dropping a worker silent for ``worker_ttl``); ``procs`` gets the processes,
    the scheduler's first."""
    info = folder / "scheduler.json"
    dask = [sys.executable, "-m", "dask"]
    procs = [] if procs is None else procs
    procs.append(subprocess.Popen([*dask, "scheduler", "--host", LOCALHOST, "--port", "0",
                               "--dashboard-address", ":0", "--scheduler-file", str(info)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env={**os.environ,
                                   "DASK_DISTRIBUTED__SCHEDULER__WORKER_TTL": worker_ttl}))
    try:
        _wait_for(lambda: _address(info), "the scheduler file")
        for k in range(workers):
            procs.append(subprocess.Popen(
                [*dask, "worker", "--scheduler-file", str(info), "--nthreads", "1",
                 "--no-nanny", "--no-dashboard", "--memory-limit", "0", "--host", LOCALHOST,
                 "--name", f"w{k}", "--local-directory", str(folder)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        if workers:
            from distributed import Client
            with Client(_address(info), timeout="30s") as client:
                client.wait_for_workers(workers, timeout=120)
        yield _address(info)
    finally:
        # One at a time, workers first: a worker told to stop while the scheduler stops too
        # waits for it until killed (10 s a cluster).
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _address(info) -> str | None:
    """The scheduler's address once its file is written whole."""
    try:
        return json.loads(info.read_text())["address"]
    except (OSError, ValueError, KeyError):
        return None


def _wait_for(condition, what: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def _lines(path) -> list[dict]:
    """Per-deal records without their timing (the one thing a machine may change)."""
    return [{k: v for k, v in r.items() if k != "seconds"} for r in read_records(path)]


def _run(tmp_path, name: str, *args) -> list[dict]:
    path = tmp_path / f"{name}.jsonl"
    result = CliRunner().invoke(cli, [*args, "--per-deal", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return _lines(path)


# Each game: its run command, and the options for deals K..K+N-1 (10 deals from FIRST).
GAMES = {
    # A tiny losing-state table evicts all the time: the case where Agnes once depended on
    # what the process had solved before.
    "agnes": (["agnes", "winrate", "--rules", "Up-Suit-AnyRun", "--seed", "2024",
               "--table-bits", "12", "--max-nodes", "300000"],
              lambda k, n: ["--start", str(k), "--deals", str(n)], 1940),
    "montana": (["montana", "winrate", "--rules", "7-redeals2"],
                lambda k, n: ["--seed", str(k), "--deals", str(n)], 500),
    "stacksquared": (["stacksquared", "winrate", "--rules", "4x4"],
                     lambda k, n: ["--seed", str(k), "--deals", str(n)], 0),
}


@pytest.mark.parametrize("game", GAMES)
def test_a_deal_is_the_same_alone_in_a_batch_and_on_workers(tmp_path, scheduler, game):
    command, deals, first = GAMES[game]
    n = 10
    batch = _run(tmp_path, "batch", *command, *deals(first, n))
    on_workers = _run(tmp_path, "workers", *command, *deals(first, n), "--scheduler", scheduler)
    alone = [line for k in reversed(range(first, first + n))   # after the others, backwards
             for line in _run(tmp_path, f"alone{k}", *command, *deals(k, 1))][::-1]
    assert len(batch) == n
    assert batch == on_workers == alone


BIG_RUN = ["stacksquared", "winrate", "--rules", "4x4", "--deals", "6000"]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory, scheduler):
    """The per-deal lines and summary of BIG_RUN left alone (on the two workers)."""
    path = tmp_path_factory.mktemp("whole") / "deals.jsonl"
    result = CliRunner().invoke(cli, [*BIG_RUN, "--scheduler", scheduler, "--per-deal",
                                      str(path), "--json"])
    assert result.exit_code == 0, result.output
    return _lines(path), _untimed(json.loads(result.output))


def _untimed(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in ("seconds", "wall_seconds")}


@pytest.mark.parametrize("how", ["SIGINT", "SIGKILL"])
def test_a_stopped_run_resumes_to_the_uninterrupted_result(tmp_path, scheduler, uninterrupted,
                                                           how):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) or SIGKILL of a
    ``--jobs 2`` run: every finished deal is in the file, no worker is left running, and
    ``--resume`` ends with the uninterrupted run's lines and summary."""
    path = tmp_path / "deals.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "puzzlegen", *BIG_RUN, "--jobs", "2",
                             "--per-deal", str(path), "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    _wait_for(lambda: path.exists() and len(path.read_bytes().splitlines()) > 5,
              "the first deals")
    workers = psutil.Process(proc.pid).children(recursive=True)
    assert len(workers) >= 2
    if how == "SIGINT":
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.kill()
    out, err = proc.communicate(timeout=120)
    psutil.wait_procs(workers, timeout=60)
    assert not [w for w in workers if w.is_running() and w.status() != psutil.STATUS_ZOMBIE]
    finished = path.read_bytes().count(b"\n") - 1   # whole lines after the header (a kill
    #                                                  may leave a last line cut short)
    if how == "SIGINT":
        assert proc.returncode == 130 and out == ""
        assert err == f"interrupted: {finished:,} of 6,000 deals finished; they are in {path} " \
                      "(run again with --resume to go on)\n"
    else:
        assert proc.returncode == -signal.SIGKILL and "Traceback" not in err
    assert 0 < finished < 6000
    lines, summary = uninterrupted
    resumed = CliRunner().invoke(cli, [*BIG_RUN, "--scheduler", scheduler, "--per-deal",
                                       str(path), "--resume", "--json"])
    assert resumed.exit_code == 0, resumed.output
    assert _untimed(json.loads(resumed.output)) == summary
    assert _lines(path) == lines


def test_a_cluster_where_no_worker_runs_ends_the_run(tmp_path, monkeypatch):
    """A scheduler without workers (as when every worker died or Dask paused them all): the run
    stops with one error line after the stall time instead of waiting for ever."""
    monkeypatch.setattr(runs, "STALL_SECONDS", 2)
    path = tmp_path / "deals.jsonl"
    with _cluster(tmp_path, workers=0) as address:
        started = time.monotonic()
        result = CliRunner().invoke(cli, [*BIG_RUN[:-1], "5", "--scheduler", address,
                                          "--per-deal", str(path)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: no Dask worker has run a task for 2 s (workers: 0")
    assert result.output.count("\n") == 1
    assert time.monotonic() - started < 60


def test_a_lost_scheduler_ends_the_run_in_one_line(tmp_path):
    """The scheduler killed mid-run: one error line, exit 2, and a file that resumes."""
    path = tmp_path / "deals.jsonl"
    procs: list = []
    with _cluster(tmp_path, workers=1, procs=procs) as address:
        run = subprocess.Popen([sys.executable, "-m", "puzzlegen", *BIG_RUN[:-1], "3000000",
                                "--scheduler", address, "--per-deal", path.name],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               cwd=tmp_path)
        _wait_for(lambda: path.exists() and path.stat().st_size > 20_000, "deals from a worker")
        procs[0].kill()
        _, err = run.communicate(timeout=120)
    assert run.returncode == 2 and err.count("\n") == 1, err
    assert err.startswith(f"error: lost the Dask scheduler at {address}: ")
    assert err.rstrip().endswith("(run again with --resume to go on)")
    kept = list(read_records(path))
    assert kept and len({r["seed"] for r in kept}) == len(kept)


def test_a_long_montana_round_keeps_its_worker(tmp_path):
    # One kernel call of 6 s under a scheduler that drops a worker silent for 2 s: the search
    # releases the GIL, so its worker keeps answering and the deal is solved (holding it, the
    # worker is dropped mid-deal and the run ends with no worker left).
    with _cluster(tmp_path, workers=1, worker_ttl="2s") as address:
        out = CliRunner().invoke(cli, [
            "montana", "winrate", "--rules", "13-movable-twos", "--hop-budgets", "none",
            "--seed", "488", "--deals", "1", "--max-seconds", "6", "--scheduler", address,
            "--json"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.output)
    assert (summary["deals"], summary["limit"]) == (1, 1)


def test_a_local_cluster_never_drops_a_silent_worker():
    # The --jobs cluster's scheduler has no worker-ttl: the other games' kernels hold the GIL
    # through a call, and Dask's default (5 minutes) would drop the worker of a long one.
    cluster = runs._local_cluster(1)
    try:
        assert cluster.scheduler.worker_ttl is None
    finally:
        cluster.close()


def _new_workers(process: psutil.Process, before: set) -> list[psutil.Process]:
    """The worker processes ``process`` started since ``before`` (not the resource tracker that
    multiprocessing keeps for as long as the process lives)."""
    return [p for p in process.children(recursive=True)
            if p not in before and "spawn_main" in " ".join(p.cmdline())]


def test_generate_makes_the_same_pack_on_a_scheduler_as_here(tmp_path, scheduler):
    """The pack depends on the seed alone: the same on the scheduler's two workers as in this
    process (annealing draws from its own seeded streams, never from the ``random`` module
    that a Dask worker's other threads draw from too)."""
    packs = []
    for where in ([], ["--scheduler", scheduler]):
        out = tmp_path / f"pack{len(packs)}.json"
        result = CliRunner().invoke(cli, ["stacksquared", "generate", "--rules", "3x3",
                                          "--count", "3", "--level", "hard", "--seed", "4",
                                          "--out", str(out), *where])
        assert result.exit_code == 0, result.output
        packs.append(json.loads(out.read_text()))
    assert packs[0] == packs[1] and len(packs[0]["puzzles"]) == 3


def test_a_stream_closed_early_stops_its_local_workers_at_once():
    """An endless stream of specs on two local workers: it is read only a little ahead of the
    records taken, and closing the run after three records cancels the rest and stops the
    workers (no hang, no worker left)."""
    ours = psutil.Process()
    before = set(ours.children(recursive=True))
    read = []

    def specs():
        for n in itertools.count():
            read.append(n)
            yield 0.2       # seconds each deal takes (time.sleep is the solver)

    records = runs.run(time.sleep, specs(), jobs=2, progress_every=None)
    with contextlib.closing(records):
        assert [next(records) for _ in range(3)] == [None] * 3
        workers = _new_workers(ours, before)
        assert len(workers) == 2
        started = time.monotonic()
    assert time.monotonic() - started < 30
    assert 3 <= len(read) < 20     # two batches (of about BATCH_SECONDS each) a worker ahead
    psutil.wait_procs(workers, timeout=30)
    assert not [w for w in workers if w.is_running() and w.status() != psutil.STATUS_ZOMBIE]
