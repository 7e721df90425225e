"""The run engine: many deals solved by one function, locally or on a Dask cluster.

A run maps a plain function over deal specs (``fn(spec) -> record``, a JSON-ready dict naming
its deal under ``key``) and yields the records in the order of the specs::

    from functools import partial
    from puzzlegen import runs

    solve_one = partial(solve_seed, rows=4, cols=4, limits=limits)   # module-level function
    for record in runs.run(solve_one, range(1000), key="seed", jobs=2,
                           per_deal="deals.jsonl", resume=True,
                           fingerprint={"command": "stacksquared stats", "rows": 4, ...}):
        ...

Where the work runs: ``jobs=1`` (and no scheduler) solves in this process; ``jobs=J`` starts a
local Dask cluster of J single-threaded worker processes; ``scheduler="tcp://host:8786"`` sends
the run to an existing cluster (see docs/runs.md).  The records are the same either way: a
record depends on its spec and ``fn``'s settings only (the solvers keep no state that changes a
result between deals).

``per_deal``: every record is appended to this JSON-lines file as it arrives (flushed, one
complete line each), after a first line ``{"run": fingerprint, "key": key}``; a finished run
leaves the records in spec order.  ``resume=True`` continues from such a file: it must hold the
same fingerprint (command, rules, seed, limits: whatever decides a record), its records are
yielded as they are, and only the missing specs are solved.  Without ``resume`` an existing file
is refused, never overwritten.

``specs`` may also be an iterator (a stream, possibly endless: ``generate``'s annealing runs):
it is read only as work is sent, never more than two batches per worker ahead of the records
taken, and a consumer that stops early closes the run (``contextlib.closing``, or the
generator's ``close()``), which cancels the work still pending and stops the local workers.  A
stream has no per-deal file.

Ctrl-C (SIGINT) stops a run at once: workers are stopped, the file keeps every finished deal,
and :class:`Interrupted` (a ``KeyboardInterrupt``) says how many finished and where; the
command line turns it into one line on stderr and exit status 130.  A long ``fn`` solving in
this process (``jobs=1``) may poll :func:`stopping` and raise ``KeyboardInterrupt`` to end at
once.  Progress goes to stderr: a bar on a terminal, otherwise a line every ``progress_every``
seconds.
"""
from __future__ import annotations

import fcntl
import gc
import json
import logging
import math
import os
import queue
import signal
import threading
import time
from concurrent.futures import CancelledError
from pathlib import Path
from typing import Any, Callable, Hashable, Iterable, Iterator, Sequence

from puzzlegen.clitools import Progress
from puzzlegen.fileio import check_regular, check_writable, write_atomic
from solvers.errors import BadInput

#: Seconds of work a batch sent to a worker aims at (small deals travel in batches).
BATCH_SECONDS = 0.5
#: Specs a run may solve ahead of the first unfinished one (bounds the records held back to
#: yield them in order).
LOOKAHEAD = 100_000
# A cluster on which no worker has run a task for this long, while work waits, ends the run.
STALL_SECONDS = 120


#: Dask settings of the local cluster (docs/runs.md gives them to remote ones): no statistical
#: profiler (it samples the solving thread every 10 ms) and a calmer event-loop health check,
#: so that a worker's other threads seldom take the GIL from the solver; and a scheduler that
#: never drops a worker for silence, since a kernel holding the GIL keeps its worker from
#: answering, for longer than Dask's 5 minutes in a long round (a worker that dies is still
#: seen by its nanny).
WORKER_CONFIG = {"distributed.worker.profile.enabled": False,
                 "distributed.admin.tick.interval": "1s",
                 "distributed.scheduler.worker-ttl": None}


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C; ``str()`` is the one line to show."""


class ClusterLost(Exception):
    """The Dask cluster of a run can no longer run it: its scheduler went away (stopped, killed,
    or the network to it), or no worker has run a task for ``STALL_SECONDS`` while work waits."""


def run(fn: Callable[[Any], Any], specs: Iterable, *, key: str | None = None,
        spec_key: Callable[[Any], Hashable] | None = None, jobs: int = 1,
        scheduler: str | None = None, per_deal: str | os.PathLike | None = None,
        resume: bool = False, fingerprint: dict | None = None,
        check: Callable[[Any, dict], None] | None = None,
        setup: Callable[[], None] | None = None, desc: str = "deals", unit: str = "deals",
        progress_every: float | None = 30.0) -> Iterator[Any]:
    """Solve ``specs`` with ``fn`` and yield one record per spec, in order.

    ``specs`` is a sequence, or an iterator read only as work is sent (a stream, which may be
    endless: close the run to end it).  ``fn`` must be picklable by reference (a module-level
    function or a ``functools.partial`` of one).  With a ``per_deal`` file (a sequence only) it
    returns a JSON-ready dict whose ``record[key]`` is ``spec_key(spec)`` (default: the spec
    itself), and ``fingerprint`` is a JSON object of
    everything that decides a record; ``check(spec, record)``
    vets each record a resumed file holds (raising :class:`BadInput`, ``ValueError``,
    ``KeyError`` or ``TypeError`` to refuse it: fields, their types and ranges, what can be
    verified cheaply).  ``setup`` runs once in each process before its first spec
    (loading kernels, so that the first deal's time is not the compiler's).  ``desc`` labels the
    progress (``progress_every`` seconds between lines in a log; None: no progress).  Raises
    :class:`Interrupted` on Ctrl-C, saying how many ``unit`` finished and, for a caller that
    keeps records (a ``key``), where they are or that ``--per-deal FILE`` would keep them; and
    :class:`BadInput` for a file that cannot be used, or a cluster that can no longer run.
    """
    stream = not isinstance(specs, Sequence)
    store = ids = None
    if per_deal is not None:
        if key is None or fingerprint is None:
            raise ValueError("a per-deal file needs a key and a fingerprint")
        if stream:
            raise ValueError("a per-deal file needs a sequence of specs, not a stream")
        spec_key = spec_key or (lambda spec: spec)
        ids = [_canonical(spec_key(spec)) for spec in specs]
        store = _PerDealFile(per_deal, fingerprint, key, dict(zip(ids, specs)), resume, check)
    elif resume:
        raise BadInput("--resume needs --per-deal FILE (the file of the run to continue)")
    total = None if stream else len(specs)
    resumed = {pos: ident for pos, ident in enumerate(ids) if ident in store.done} \
        if store else {}
    todo = ((pos, spec) for pos, spec in enumerate(specs) if pos not in resumed)
    with _Stopper() as stopper:
        where = progress = None
        try:
            where = _Local(fn, todo, setup) if jobs <= 1 and not scheduler else \
                _Dask(fn, todo, None if stream else total - len(resumed), setup, jobs,
                      scheduler)
            if store:
                store.open()
            progress = Progress(total, len(resumed), desc, progress_every)
            yield from _ordered(total, resumed, where, store, ids, key, progress, stopper)
            if store:
                store.finish()
        except (KeyboardInterrupt, ClusterLost) as exc:
            finished = len(resumed) + (where.arrived if where else 0)
            kept = f"; they are in {per_deal} (run again with --resume to go on)" if store \
                else "; none kept (--per-deal FILE keeps them)" if key else ""
            told = f"{finished:,}{'' if stream else f' of {total:,}'} {unit} finished{kept}"
            if isinstance(exc, ClusterLost):
                raise BadInput(f"{exc}: {told}") from None
            raise Interrupted(f"interrupted: {told}") from None
        finally:
            # Also when the consumer stops early (GeneratorExit): pending work is cancelled.
            if progress:
                progress.close()
            if stopper.installed:   # a Ctrl-C while stopping the workers changes nothing
                signal.signal(signal.SIGINT, signal.SIG_IGN)
            if where:
                where.close()
            if store:
                store.close()


def _canonical(value: Any) -> str:
    """A deal's identity as text (``7``, ``"5S JC ..."``): JSON, so it survives the file."""
    return json.dumps(value, sort_keys=True)


def _ordered(total, resumed, where, store, ids, key, progress, stopper) -> Iterator[Any]:
    """Yield records in spec order: resumed ones from the file, the others as they arrive (a
    stream's until its specs run out)."""
    waiting: dict[int, Any] = {}
    pos = 0
    while total is None or pos < total:
        if pos in resumed:
            yield store.read(resumed[pos])
            pos += 1
            continue
        while pos not in waiting:
            if where.finished:
                return
            stopper.check()
            arrivals = where.arrivals()
            for apos, record in arrivals:
                if store:
                    if _canonical(record.get(key)) != ids[apos]:
                        raise ValueError(f"a record names {key} {record.get(key)!r}, "
                                         f"expected {ids[apos]}")
                    store.append(ids[apos], record)
                waiting[apos] = record
            if arrivals and store:
                store.flush()
            progress.update(len(arrivals))
        yield waiting.pop(pos)
        pos += 1


_stoppers: list[_Stopper] = []


def stopping() -> bool:
    """Whether Ctrl-C has asked a run in this process to stop: a long ``fn`` solving in this
    process (``jobs=1``) may poll it and raise ``KeyboardInterrupt`` to end at once (the run
    then stops as on Ctrl-C between deals).  Always False in a worker process (the driver stops
    those)."""
    return any(stopper.stop for stopper in _stoppers)


class _Stopper:
    """Turns Ctrl-C into a flag checked at safe points (a second Ctrl-C stops at once)."""

    def __init__(self) -> None:
        self.stop = False
        self.installed = False
        self.previous = None

    def __enter__(self) -> "_Stopper":
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._handle)
            self.installed = True
        _stoppers.append(self)
        return self

    def _handle(self, signum, frame) -> None:
        if self.stop:
            os.write(2, b"\ninterrupted again: stopping at once\n")
            os._exit(130)
        self.stop = True

    def check(self) -> None:
        if self.stop:
            raise KeyboardInterrupt

    def __exit__(self, *exc) -> None:
        _stoppers.remove(self)
        if self.installed:
            signal.signal(signal.SIGINT, self.previous)


def _solve_batch(fn: Callable, specs: list, setup: Callable | None) -> tuple[list[dict], float]:
    """Worker side: the records of a batch and the seconds they took (setup excluded)."""
    _setup_once(setup)
    started = time.perf_counter()
    records = [fn(spec) for spec in specs]
    return records, time.perf_counter() - started


_ready: set[str] = set()


def _setup_once(setup: Callable | None) -> None:
    """Run ``setup`` unless this process ran it already (a function, or a partial of one with
    the same arguments)."""
    if setup is None:
        return
    func = getattr(setup, "func", setup)
    name = repr((func.__module__, func.__qualname__, getattr(setup, "args", ()),
                 sorted(getattr(setup, "keywords", {}).items())))
    if name not in _ready:
        setup()
        _ready.add(name)


class _Local:
    """Solves in this process, one spec at a time, in order (``todo``: position and spec)."""

    def __init__(self, fn, todo, setup) -> None:
        self.fn, self.todo = fn, todo
        self.arrived = 0
        self.finished = False
        _setup_once(setup)

    def arrivals(self) -> list[tuple[int, Any]]:
        item = next(self.todo, None)
        if item is None:
            self.finished = True
            return []
        pos, spec = item
        record = self.fn(spec)
        self.arrived += 1
        return [(pos, record)]

    def close(self) -> None:
        pass


class _Dask:
    """Solves on Dask workers: a local cluster of ``jobs`` processes, or ``scheduler``'s.

    ``todo`` yields the position and spec of each deal to solve, ``count`` of them (None: a
    stream, read only when there is room for more work).  Specs travel in batches sized to
    about ``BATCH_SECONDS`` of work each, two batches per worker in flight; results come back
    through a queue fed by the futures' callbacks, so the driver stays responsive to Ctrl-C.
    """

    def __init__(self, fn, todo, count, setup, jobs, scheduler) -> None:
        from distributed import Client
        self.fn, self.todo, self.left, self.setup = fn, todo, count, setup
        self.ahead: tuple[int, Any] | None = None   # read from todo, not sent yet
        self.exhausted = False                      # todo has no more
        self.arrived = 0
        self.cluster = self.client = None
        self.scheduler = scheduler
        _quiet_dask()   # its errors reach us as such
        if scheduler:
            failure = None
            try:
                self.client = Client(scheduler, timeout="10s")
            except (OSError, TimeoutError, ValueError) as exc:
                failure = f"cannot reach the Dask scheduler at {scheduler}: {exc}"
            if failure:
                # The half-made Client lives on in a reference cycle; closed by a later
                # collection inside another Client's start, it deadlocks on Dask's loop lock.
                gc.collect()
                raise BadInput(failure)
        else:
            self.cluster = _local_cluster(jobs)
            self.client = Client(self.cluster)
        self.done: queue.Queue = queue.Queue()
        self.pending: dict[Any, list[int]] = {}
        self.per_spec: float | None = None  # seconds per spec, measured
        self.workers = 0
        self.workers_checked = 0.0
        self.idle_since: float | None = None   # since when no worker could run tasks

    @property
    def finished(self) -> bool:
        return self.exhausted and not self.pending

    def _look_at_workers(self) -> None:
        """Count the worker threads every few seconds, and refuse to wait forever on a cluster
        where no worker runs tasks (none left, or all paused by Dask's memory manager) while
        work is pending."""
        if time.monotonic() - self.workers_checked < 5:
            return
        self.workers_checked = time.monotonic()
        workers = list(self.client.scheduler_info()["workers"].values())
        self.workers = sum(w["nthreads"] for w in workers)
        if any(w.get("status") == "running" for w in workers):
            self.idle_since = None
        elif self.idle_since is None:
            self.idle_since = self.workers_checked
        elif self.pending and self.workers_checked - self.idle_since > STALL_SECONDS:
            states = ", ".join(sorted({str(w.get("status")) for w in workers})) or "none left"
            raise ClusterLost(f"no Dask worker has run a task for {STALL_SECONDS} s (workers: "
                              f"{len(workers)}, {states})")

    def _next(self) -> tuple[int, Any] | None:
        """The next position and spec to send (read from ``todo`` only now), None at the end."""
        if self.ahead is None and not self.exhausted:
            self.ahead = next(self.todo, None)
            self.exhausted = self.ahead is None
        return self.ahead

    def _batch_size(self) -> int:
        if self.per_spec is None:
            return 1
        size = max(1, min(int(BATCH_SECONDS / max(self.per_spec, 1e-6)), 10_000))
        if self.left is not None:   # smaller batches as the run ends, to share its last deals
            size = min(size, self.left // (2 * max(self.workers, 1)) or 1)
        return size

    def _fill(self) -> None:
        self._look_at_workers()
        oldest = min((batch[0] for batch in self.pending.values()), default=None)
        while len(self.pending) < 2 * max(self.workers, 1) and self._next() is not None:
            if oldest is not None and self.ahead[0] - oldest > LOOKAHEAD:
                break
            batch, specs = [], []
            for _ in range(self._batch_size()):
                if self._next() is None:
                    break
                batch.append(self.ahead[0])
                specs.append(self.ahead[1])
                self.ahead = None
            if self.left is not None:
                self.left -= len(batch)
            future = self.client.submit(_solve_batch, self.fn, specs, self.setup, pure=False)
            self.pending[future] = batch
            future.add_done_callback(self.done.put)
            oldest = batch[0] if oldest is None else oldest

    def arrivals(self) -> list[tuple[int, Any]]:
        self._fill()
        if not self.pending:
            return []
        try:
            futures = [self.done.get(timeout=0.2)]
        except queue.Empty:
            return []
        while not self.done.empty():
            futures.append(self.done.get_nowait())
        out = []
        for future in futures:
            batch = self.pending.pop(future)
            try:
                records, seconds = future.result()
            except CancelledError:  # Dask cancels every future when the scheduler is lost
                self.pending.clear()
                raise ClusterLost(f"lost the Dask scheduler"
                                  f"{' at ' + self.scheduler if self.scheduler else ''}") \
                    from None
            future.release()
            each = seconds / len(batch)
            self.per_spec = each if self.per_spec is None else 0.7 * self.per_spec + 0.3 * each
            out.extend(zip(batch, records))
        self.arrived += len(out)
        return out

    def close(self) -> None:
        """Cancel what is pending and stop the local workers (a remote cluster's workers finish
        the batch they hold: a running solve cannot be stopped from outside)."""
        _quiet_dask()
        try:
            if self.pending:
                self.client.cancel(list(self.pending), force=True)
            self.client.close(timeout=5)
        except (OSError, TimeoutError, CancelledError):
            pass    # a scheduler already gone: nothing left to tell it
        finally:
            if self.cluster is not None:
                self.cluster.close(timeout=10)


def _quiet_dask() -> None:
    """Silence Dask's loggers (Dask's own configuration sets some levels of its own)."""
    for name in ["distributed", *logging.root.manager.loggerDict]:
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL)


def _local_cluster(jobs: int):
    """``jobs`` single-threaded worker processes on this machine that ignore Ctrl-C (the driver
    stops them): they start while SIGINT is ignored, which new processes inherit; it is blocked
    meanwhile, so a Ctrl-C then still reaches the driver once they run."""
    import dask
    from distributed import LocalCluster
    main = threading.current_thread() is threading.main_thread()
    if main:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with dask.config.set(WORKER_CONFIG):
            return LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                dashboard_address=":0", silence_logs=logging.CRITICAL,
                                memory_limit=0)
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class _PerDealFile:
    """The per-deal JSON-lines file of a run: a header line, then one record a line.

    Made in two steps: checking (the folder, and an earlier run's lines when resuming) before
    any work starts, then :meth:`open` once the workers are up; a run that cannot start leaves
    no new file behind.  The file is locked (``flock``) from the first step to :meth:`close`, so
    a second run on it stops at once with one line instead of mixing its lines in.
    """

    def __init__(self, path, fingerprint: dict, key: str, specs: dict[str, Any], resume: bool,
                 check: Callable[[Any, dict], None] | None) -> None:
        self.path = Path(path)
        self.ids = list(specs)
        self.header = {"run": json.loads(json.dumps(fingerprint)), "key": key}
        self.done: dict[str, int] = {}          # deal -> offset of its line
        self.order: list[str] = []              # deals in the order of the file's lines
        self.end = 0                            # where the complete lines end
        self.reader = None
        check_writable(self.path)
        check_regular(self.path)
        self.created = not self.path.exists()
        self.fh = open(self.path, "ab")         # appends at the end, whatever the offset
        try:
            try:
                fcntl.flock(self.fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise BadInput(f"{path} is being written by another run: wait for it to end, "
                               "or give another file") from None
            self.exists = os.fstat(self.fh.fileno()).st_size > 0
            if not self.created and not resume:
                raise BadInput(f"{path} exists: give --resume to continue its run, or remove it")
            if self.exists:
                self._load(specs, check)
        except BaseException:
            self.close()
            raise

    def _load(self, specs: dict[str, Any], check: Callable[[Any, dict], None] | None) -> None:
        """Index the complete lines of an earlier run, checking that they belong to this one:
        its header, then every record (its deal one of this run's, and ``check``'s vetting)."""
        with open(self.path, "rb") as fh:
            try:
                header = json.loads(fh.readline())
            except ValueError:
                header = None
            if not isinstance(header, dict) or set(header) != {"run", "key"}:
                raise BadInput(f"{self.path} is not the per-deal file of a run (its first line "
                               "should name the run)")
            if header != self.header:
                raise BadInput(f"{self.path} belongs to another run: "
                               f"{_difference(header, self.header)}")
            self.end = fh.tell()
            for number, line in enumerate(iter(fh.readline, b""), 2):
                if not line.endswith(b"\n"):
                    break                            # cut short by a kill: solved again
                where = f"{self.path}, line {number}"
                try:
                    record = json.loads(line)
                    ident = _canonical(record[self.header["key"]])
                except (ValueError, KeyError, TypeError):
                    raise BadInput(f"{where}: not a record of this run") from None
                if ident not in specs:
                    raise BadInput(f"{where}: {self.header['key']} {ident[:40]} is not one of "
                                   "this run's deals")
                if check is not None:
                    try:
                        check(specs[ident], record)
                    except (BadInput, ValueError, KeyError, TypeError) as exc:
                        raise BadInput(f"{where}: not a record of this run ({exc})") from None
                if ident not in self.done:
                    self.done[ident] = self.end
                    self.order.append(ident)
                self.end += len(line)

    def open(self) -> None:
        """Start writing: a new file gets its header, an old one loses a line cut short."""
        if self.exists:
            self.fh.truncate(self.end)
        else:
            header = _line(self.header)
            self.fh.write(header)
            self.fh.flush()
            self.end = len(header)
        self.reader = open(self.path, "rb")

    def read(self, ident: str) -> dict:
        return json.loads(self._raw(ident))

    def append(self, ident: str, record: dict) -> None:
        line = _line(record)
        self.done[ident] = self.end
        self.order.append(ident)
        self.fh.write(line)
        self.end += len(line)

    def flush(self) -> None:
        self.fh.flush()

    def finish(self) -> None:
        """Leave the file in spec order (workers finish deals in any order)."""
        self.fh.flush()
        if self.order != self.ids:
            write_atomic(self.path, (self._raw(ident).decode() for ident in [None] + self.ids))

    def _raw(self, ident: str | None) -> bytes:
        if ident is None:
            return _line(self.header)
        self.reader.seek(self.done[ident])
        return self.reader.readline()

    def close(self) -> None:
        """Close the file (and let go of its lock); remove it if this run made it and wrote
        nothing."""
        if self.created and self.fh is not None and os.fstat(self.fh.fileno()).st_size == 0:
            self.path.unlink(missing_ok=True)
        for fh in (self.fh, self.reader):
            if fh is not None:
                fh.close()


def check_fields(record: dict, fields: dict[str, Any], optional: dict[str, Any] = {}) -> None:
    """``ValueError`` unless ``record`` (a run's record, for a ``check``) has every one of
    ``fields``, no field outside them and ``optional``, and each value of its kind: a type
    (``int`` is never a bool; ``float`` takes any finite number), a ``range``, one allowed value
    (a string, ``None``, ``True``, ``False``), a tuple of kinds (any of them), ``[kind]`` for a
    list of such values, or a dict of the fields of an inner record."""
    if not isinstance(record, dict):
        raise ValueError("not a JSON object")
    missing = sorted(set(fields) - set(record))
    extra = sorted(set(record) - set(fields) - set(optional))
    if missing or extra:
        raise ValueError(f"field {(missing or extra)[0]} is {'missing' if missing else 'unknown'}")
    for name, value in record.items():
        kind = fields.get(name, optional.get(name))
        if isinstance(kind, dict):
            check_fields(value, kind)
        elif not _is(value, kind):
            raise ValueError(f"field {name} holds {json.dumps(value)[:30]}")


def _is(value: Any, kind: Any) -> bool:
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool) \
            and math.isfinite(value)
    if isinstance(kind, type):
        return isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if isinstance(kind, range):
        return _is(value, int) and value in kind
    if isinstance(kind, list):
        return isinstance(value, list) and all(_is(item, kind[0]) for item in value)
    if isinstance(kind, tuple):
        return any(_is(value, one) for one in kind)
    return value is kind if kind is None or isinstance(kind, bool) else value == kind


def read_records(path: str | os.PathLike) -> Iterator[dict]:
    """The records of a per-deal file, in the file's order (its run header skipped; files written
    before runs had headers have none)."""
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if line.strip():
                record = json.loads(line)
                if number > 1 or set(record) != {"run", "key"}:
                    yield record


def _line(obj: dict) -> bytes:
    return (json.dumps(obj) + "\n").encode()


def _difference(old: dict, new: dict) -> str:
    """Which settings differ between a file's run and this one, for the error message."""
    a, b = old.get("run", {}), new["run"]
    keys = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    if old.get("key") != new.get("key"):
        keys.append("key")
    return "; ".join(f"{k} {json.dumps(a.get(k))} there, {json.dumps(b.get(k))} here"
                     for k in keys[:4])
