"""Running a command line of the project in a forked copy of the test process, and watching
the installed package's data folder; running the installed package in a new interpreter.

Forking is fast (the modules and compiled kernels are already loaded) and isolates the run: a
command gets real file descriptors for stdin, stdout and stderr, its own process group (so
Ctrl-C reaches its workers too, as in a terminal), an optional cap on its address space, and
can be interrupted or killed without disturbing pytest.
"""
from __future__ import annotations

import io
import os
import resource
import json
import signal
import subprocess
import sys
import time
import traceback
from contextlib import suppress
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import pytest

from puzzlegen import calibration
from puzzlegen.cli import cli

CALIBRATION = ("python", "-m", "puzzlegen.calibration")


@dataclass
class Run:
    code: int | None  # None: killed after the grace time
    out: str
    err: str
    interrupted: bool


def _child(argv: list[str], files: dict[str, Path], cwd: Path, memory: int | None) -> None:
    """In the forked child: run ``argv`` with the files as stdin/stdout/stderr, then exit."""
    code = 99
    try:
        os.setpgid(0, 0)
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.chdir(cwd)
        for fd, name, flags in ((0, "in", os.O_RDONLY),
                                (1, "out", os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                                (2, "err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
            os.dup2(os.open(files[name], flags), fd)
        sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)))
        sys.stdout, sys.stderr = (
            io.TextIOWrapper(io.BufferedWriter(io.FileIO(fd, "w", closefd=False)),
                             write_through=True) for fd in (1, 2))
        if tuple(argv[:3]) == CALIBRATION:
            calibration.main.main(argv[3:], prog_name=" ".join(CALIBRATION))
        else:
            cli.main(argv[1:], prog_name="puzzlegen")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
    except BaseException:  # an exception no handler turned into a line: print it, as Python does
        traceback.print_exc()
    finally:
        with suppress(BaseException):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def run(argv: list[str], cwd: Path, stdin: bytes = b"", patience: float = 60.0,
        grace: float = 5.0, more_memory: int | None = None) -> Run:
    """Run the command line ``argv`` (``puzzlegen ...`` or ``python -m puzzlegen.calibration
    ...``) in ``cwd``; a run past ``patience`` seconds gets Ctrl-C (SIGINT to its process group)
    and, ``grace`` seconds later, SIGKILL.  ``more_memory``: the run may map only this many
    bytes more than this process has mapped.  The stream files lie beside ``cwd``."""
    memory = None if more_memory is None else mapped() + more_memory
    files = {name: cwd.parent / f"{cwd.name}.{name}" for name in ("in", "out", "err")}
    files["in"].write_bytes(stdin)
    for name in ("out", "err"):   # there even when the child is killed before it opens them
        files[name].write_bytes(b"")
    pid = os.fork()
    if pid == 0:
        _child(argv, files, cwd, memory)
    with suppress(OSError):
        os.setpgid(pid, pid)  # also here, so that the group exists before any signal
    interrupted = killed = False
    deadline = time.monotonic() + patience
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            if not interrupted:
                os.killpg(pid, signal.SIGINT)
                interrupted, deadline = True, time.monotonic() + grace
            elif not killed:
                os.killpg(pid, signal.SIGKILL)
                killed = True
        time.sleep(0.002)
    with suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)  # a worker left behind
    out, err = (files[name].read_text(errors="replace") for name in ("out", "err"))
    return Run(None if killed else os.waitstatus_to_exitcode(status), out, err, interrupted)


def mapped() -> int:
    """Bytes of address space this process has mapped."""
    with open("/proc/self/status", encoding="ascii") as fh:
        return next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmSize:"))


class Package:
    """The installed games' calibrations (the files a command could be led to write into the
    package): a command that writes one (nothing may, by default) is seen, and they are put back
    as they were."""

    def __init__(self) -> None:
        self.folder = Path(str(resources.files("solvers")))
        self.saved = {p: p.read_bytes() for p in self.files()}

    def files(self) -> list[Path]:
        return sorted(self.folder.glob("*/calibration-*.json"))

    def changes(self) -> list[str]:
        now = {p: p.read_bytes() for p in self.files()}
        return sorted(str(p.relative_to(self.folder)) for p in now.keys() | self.saved.keys()
                      if now.get(p) != self.saved.get(p))

    def restore(self) -> None:
        for name in self.changes():
            path = self.folder / name
            if path in self.saved:
                path.write_bytes(self.saved[path])
            else:
                path.unlink()


def without_numba(cwd: Path, compiled: str, argv: list[str]) -> dict:
    """Run ``puzzlegen ARGV`` (JSON out) in a new interpreter in ``cwd``, away from the checkout
    so that the installed package runs, and return its JSON with ``numba``: whether numba got
    imported.  Skips the test when the installed package has no search compiled ahead of time
    (``compiled``, "module:name" of an object with ``load()``, loads None)."""
    module, name = compiled.split(":")
    script = (f"import sys\nfrom {module} import {name}\n"
              f"if {name}.load() is None:\n    print('no compiled search'); sys.exit()\n"
              "from puzzlegen.cli import cli\n"
              f"try:\n    cli({argv!r})\nexcept SystemExit:\n    pass\n"
              "print('numba' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", script], cwd=cwd, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    if out == ["no compiled search"]:
        pytest.skip("the installed package has no compiled search (pip install compiles it)")
    return {**json.loads(out[0]), "numba": out[-1] == "True"}
