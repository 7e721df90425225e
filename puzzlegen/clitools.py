"""What every command shares: error handling, JSON output, progress, the options of a run,
and the option types and checks that validate every option before any work starts.

The command-line contract (README): errors go to stderr as one line with exit status 2 (no
traceback); ``--json`` prints one JSON object (or JSON lines) on stdout; long work shows a
progress bar on stderr when stderr is a terminal (and a progress line every 30 seconds when it
is not); Ctrl-C stops with one line on stderr and exit status 130.  A renamed option keeps its
former spelling for one version (:func:`option`), which says so on stderr once the command has
succeeded.
"""
from __future__ import annotations

import argparse
import functools
import json
import math
import os
import re
import sys
import time
from typing import Any, Callable, Iterable, Iterator, TypeVar

import click
from click.core import ParameterSource

from solvers.cards import FREECELL_SEEDS
from solvers.errors import BadInput

T = TypeVar("T")


#: A group given no command (click >= 8.2 raises it; older versions print the help themselves).
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())
#: Longest error line printed; a longer message is cut (its start says what went wrong).
MAX_ERROR = 200
#: Lines for stderr once the command has succeeded (a deprecated option's): see :func:`option`.
_NOTES: list[str] = []


def inert(text: str) -> str:
    """``text`` safe to print on a terminal: every character other than a line break that is
    not printable (escape sequences, carriage returns, bidirectional overrides) shown as its
    Python escape, so that text from a file (a pack's ids) can neither move the cursor nor
    hide or fake a line."""
    return "\n".join(line if line.isprintable() else
                     "".join(c if c.isprintable() else repr(c)[1:-1] for c in line)
                     for line in text.split("\n"))


def fail(message: str) -> "click.exceptions.Exit":
    """Print ``error: message`` on stderr, as one line of at most :data:`MAX_ERROR` characters
    (:func:`inert`), and return the exit-2 exception to raise."""
    line = "error: " + inert(" ".join(str(message).split()))
    if len(line) > MAX_ERROR:
        line = line[:MAX_ERROR - 3] + "..."
    click.echo(line, err=True)
    return click.exceptions.Exit(2)


class _OneLineErrors:
    """Every way a command can end, in one line: bad input (``BadInput``, an unusable file, a
    usage error, too little memory) prints one ``error:`` line and exits 2; a closed output
    pipe (``| head``) ends quietly with status 141; Ctrl-C exits 130."""

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        _NOTES.clear()
        try:
            try:
                code = super().main(args, prog_name, complete_var, False, **extra)
            except _NO_ARGS_IS_HELP as exc:  # a bare group: its help
                click.echo(exc.ctx.get_help())
                code = 0
            sys.stdout.flush()
            if code in (0, None):  # a command that failed prints its error line only
                for note in dict.fromkeys(_NOTES):
                    click.echo(note, err=True)
        except click.ClickException as exc:
            message = exc.format_message().rstrip(".")
            where = f" (see '{exc.ctx.command_path} --help')" if getattr(exc, "ctx", None) else ""
            fits = len(f"error: {message}{where}") <= MAX_ERROR
            code = fail(message + where if fits else message).exit_code
        except click.exceptions.Abort:
            click.echo("interrupted", err=True)
            code = 130
        except MemoryError:
            code = fail(f"out of memory ({_size(available_memory())} free now): lower the "
                        f"limits (--max-states, --table-bits) or the input's size").exit_code
        except BrokenPipeError:
            code = _closed_pipe()
        except OSError as exc:  # stdout cannot be written: a full disk, /dev/full
            _drop_stdout()
            code = fail(f"cannot write the output: {exc.strerror or exc}").exit_code
        except Exception as exc:  # Ctrl-C inside a numba call comes back as a SystemError
            if not _caused_by_interrupt(exc):
                raise
            click.echo("\ninterrupted", err=True)
            code = 130
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BadInput as exc:
            raise fail(str(exc)) from None
        except BrokenPipeError:
            raise click.exceptions.Exit(_closed_pipe()) from None
        except OSError as exc:
            if getattr(exc, "filename", None):
                raise fail(f"cannot use {exc.filename}: {exc.strerror or exc}") from None
            _drop_stdout()      # a file has a name: what has none is the output
            raise fail(f"cannot write the output: {exc.strerror or exc}") from None
        except UnicodeDecodeError as exc:
            raise fail(f"an input is not UTF-8 text (byte {exc.object[exc.start]:#04x} at "
                       f"offset {exc.start})") from None
        except ValueError as exc:
            if str(exc) != "embedded null byte":  # what the operating system calls refuse
                raise
            raise fail("a file name holds a NUL character") from None
        except KeyboardInterrupt as exc:   # a run's Interrupted says how far it got
            click.echo(inert(str(exc) or "\ninterrupted"), err=True)
            raise click.exceptions.Exit(130) from None


def _caused_by_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` arose while a KeyboardInterrupt (Ctrl-C) was being raised."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def _closed_pipe() -> int:
    """Stdout's reader has gone (``| head``): drop what is still buffered, exit 141 quietly."""
    _drop_stdout()
    return 128 + 13  # as a shell reports a process ended by SIGPIPE


def _drop_stdout() -> None:
    """Point stdout at the null device, so that what is still buffered cannot fail again when
    Python exits."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file descriptor (a test's runner)
        pass


class Command(_OneLineErrors, click.Command):
    """A stand-alone command (``python -m ...``) with the shared error handling."""


class Group(_OneLineErrors, click.Group):
    """A click group whose commands turn bad input into one sentence and exit status 2.

    Subcommands listed in ``lazy`` (name -> ("module:attribute", short help)) are imported only
    when used, so one game's numba kernels never slow down another game's command.
    """

    def __init__(self, *args: Any, lazy: dict[str, tuple[str, str]] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy:
            module_name, attr = self.lazy[name][0].split(":")
            module = __import__(module_name, fromlist=[attr])
            return getattr(module, attr)
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = {name: cmd.get_short_help_str(formatter.width - 20)
                for name, cmd in self.commands.items() if not cmd.hidden}
        rows.update((name, short) for name, (_, short) in self.lazy.items())
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(sorted(rows.items()))


def group(name: str, help: str, **kwargs: Any) -> Group:
    """A command group with the shared error handling: ``cli = group("agnes", help=...)``."""
    return Group(name=name, help=help, **kwargs)


def echo_choices(choices: dict, what: str) -> None:
    """Print :func:`solvers.stats.choices`: how many legal moves keep ``what`` winnable, then
    each move with its verdict."""
    legal, open_ = sum(map(len, choices.values())), len(choices["limit"])
    click.echo(f"choices: {len(choices['won'])} of {legal} legal moves keep {what} winnable"
               + (f", {open_} undecided (the limit stopped their search)" if open_ else ""))
    for outcome, word in (("won", "keeps"), ("lost", "loses"), ("limit", "limit")):
        for move in choices[outcome]:
            click.echo(f"  {word:5s} {move}")


def emit_json(obj: Any) -> None:
    """Print one JSON object on stdout (one line, so JSON-lines output is the same call)."""
    click.echo(json.dumps(obj, separators=(",", ":")))


class Progress:
    """Progress of ``total`` items on stderr: a tqdm bar on a terminal; otherwise (a log, a batch
    job) a line every ``every`` seconds with done/total, the rate and the time left."""

    def __init__(self, total: int | None, done: int = 0, desc: str = "",
                 every: float | None = 30.0) -> None:
        self.total, self.done, self.desc, self.every = total, done, desc, every
        self.started = self.last = time.monotonic()
        self.first = done
        self.lines = 0
        self.bar = None
        if every is not None and sys.stderr.isatty():
            from tqdm import tqdm
            self.bar = tqdm(total=total, initial=done, desc=desc, file=sys.stderr, leave=False)

    def update(self, n: int = 1) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        elif self.every is not None and time.monotonic() - self.last >= self.every:
            self._line()

    def _line(self) -> None:
        now = self.last = time.monotonic()
        rate = (self.done - self.first) / max(now - self.started, 1e-9)
        if self.total:
            left = (self.total - self.done) / rate if rate > 0 else None
            count = f"{self.done:,}/{self.total:,} ({100 * self.done / self.total:.1f}%)"
            eta = f", {_duration(left)} left" if left is not None else ""
        else:
            count, eta = f"{self.done:,}", ""
        click.echo(f"{self.desc}: {count}, {rate_text(rate)}{eta}", err=True)
        self.lines += 1

    def close(self) -> None:
        """Remove the bar; in a log, end with a last line if any was written."""
        if self.bar is not None:
            self.bar.close()
        elif self.lines:
            self._line()


def rate_text(per_second: float) -> str:
    """A rate people can read: per second, or per hour below one a second (a run of deals that
    take minutes each would otherwise say 0.0/s)."""
    return f"{per_second:,.1f}/s" if per_second >= 1 else f"{per_second * 3600:,.1f}/h"


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds // 60 % 60:02d}m"


def progress(iterable: Iterable[T], total: int | None = None, desc: str = "") -> Iterator[T]:
    """``iterable`` with its :class:`Progress` on stderr."""
    bar = Progress(total, desc=desc)
    for item in iterable:
        yield item
        bar.update()
    bar.close()


def parse_seed_range(text: str, seeds: range = FREECELL_SEEDS) -> range:
    """``"A..B"`` (inclusive) as a range of seeds; :class:`BadInput` if malformed, empty, or
    outside ``seeds`` (by default the FreeCell deal numbers)."""
    parts = text.split("..")
    try:
        if len(parts) != 2:
            raise ValueError
        first, last = plain_int(parts[0]), plain_int(parts[1])
    except ValueError:
        raise BadInput(f"malformed seed range {text[:40]!r}: expected A..B, e.g. 0..99") from None
    if first < 0 or last < first:
        raise BadInput(f"empty or negative seed range {text!r}: need 0 <= A <= B")
    check_seeds(first, last - first + 1, seeds)
    return range(first, last + 1)


def check_seeds(first: int, count: int, seeds: range = FREECELL_SEEDS) -> None:
    """:class:`BadInput` unless seeds ``first .. first + count - 1`` all lie in ``seeds``."""
    if first not in seeds or first + count - 1 not in seeds:
        raise BadInput(f"seeds {first}..{first + count - 1} leave {seeds.start}.."
                       f"{seeds[-1]}: larger seeds would repeat smaller ones' deals")


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON on stdout.")


def option(name: str, *, deprecated: str | None = None, **kwargs: Any) -> Callable:
    """``click.option(name, **kwargs)``; with ``deprecated="--old"``, also the option's former
    spelling, for one version: hidden from the help, the same type and checks (an error names
    the spelling given), the same effect, and once the command has succeeded one line on
    stderr, ``puzzlegen: --old is deprecated; use --new`` (a command that fails prints only its
    one ``error:`` line).  Both spellings at once are refused.

    ``option("--max-nodes", deprecated="--max-states", type=COUNT, help=...)``: the command
    receives ``max_nodes`` whichever spelling was given."""
    dest = name.lstrip("-").replace("-", "_")
    if deprecated is None:
        return click.option(name, dest, **kwargs)
    alias = "_deprecated_" + deprecated.lstrip("-").replace("-", "_")

    def decorate(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def wrapper(*args: Any, **values: Any) -> Any:
            value = values.pop(alias)
            if value is not None:
                ctx = click.get_current_context()
                if ctx.get_parameter_source(dest) is not ParameterSource.DEFAULT:
                    raise click.UsageError(f"give {name} only ({deprecated} is its deprecated "
                                           f"spelling)", ctx)
                values[dest] = value
                _NOTES.append(f"puzzlegen: {deprecated} is deprecated; use {name}")
            return fn(*args, **values)

        wrapper = click.option(deprecated, alias, type=kwargs.get("type"), default=None,
                               callback=kwargs.get("callback"), hidden=True)(wrapper)
        return click.option(name, dest, **kwargs)(wrapper)
    return decorate


# Option types and checks: every option is validated before any work starts.

#: Numbers as people write them: ASCII digits only (Python's int() and float() also take
#: "1_0" and other scripts' digits, so "--seed 1_0" would quietly be seed 10).
_INTEGER = re.compile(r"[+-]?[0-9]+")
_REAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|[+-]?(inf|nan)",
                   re.IGNORECASE)


def plain_int(text: str) -> int:
    """``text`` as an integer written in the digits 0-9; ``ValueError`` otherwise."""
    if not _INTEGER.fullmatch(text.strip()):
        raise ValueError(f"{text[:40]!r} is not an integer written in the digits 0-9")
    return int(text)


#: The largest count a kernel's 64-bit integers hold.
LARGEST = 2 ** 63 - 1


class _Bounds:
    """Help for a range with bounds optional: without any, the plain type's name and no range
    (click would print ``INTEGER RANGE`` and ``[x<=None]``); an upper bound that only says "fits
    in 64 bits" (:data:`LARGEST`) reads ``x<2^63``."""

    min: Any
    max: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.min is None and self.max is None:
            self.name = self.name.replace(" range", "")

    def _describe_range(self) -> str:
        if self.max == LARGEST:
            return f"{self.min}<=x<2^63"
        return "" if self.min is None and self.max is None else super()._describe_range()


class IntRange(_Bounds, click.IntRange):
    """click's ``IntRange`` (bounds optional) reading only :func:`plain_int` text."""

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        if isinstance(value, str):
            try:
                plain_int(value)
            except ValueError as exc:
                self.fail(str(exc), param, ctx)
        return super().convert(value, param, ctx)


class FloatRange(_Bounds, click.FloatRange):
    """click's ``FloatRange`` (bounds optional) reading only numbers written in 0-9."""

    def convert(self, value: Any, param: Any, ctx: Any) -> float:
        if isinstance(value, str) and not _REAL.fullmatch(value.strip()):
            self.fail(f"{value[:40]!r} is not a number written in the digits 0-9", param, ctx)
        return super().convert(value, param, ctx)


INT, FLOAT = IntRange(), FloatRange()

def cores() -> int:
    """The processor cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


class Jobs(click.ParamType):
    """A worker count from 1 to the machine's cores (more only share the cores and the memory)."""

    name = "integer"

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        jobs = INT.convert(value, param, ctx)
        if not 1 <= jobs <= cores():
            self.fail(f"{jobs} is not a worker count from 1 to this machine's {cores()} cores",
                      param, ctx)
        return jobs


def jobs_argument(text: str) -> int:
    """``--jobs`` of the argparse scripts in benchmarks/ and examples/: :class:`Jobs`'s check."""
    try:
        return Jobs().convert(text, None, None)
    except click.BadParameter as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


class DealNumber(click.ParamType):
    """A deal number among ``seeds`` (a game's ``seeds``: StacksSquared's FreeCell shuffle reads
    31 bits, so larger numbers would silently repeat smaller ones and are refused)."""

    name = "integer"

    def __init__(self, seeds: range) -> None:
        self.seeds = seeds

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        number = INT.convert(value, param, ctx)
        if number not in self.seeds:
            self.fail(f"{number} is not a deal number, {self.seeds.start} to {self.seeds[-1]}",
                      param, ctx)
        return number


class Positive(click.ParamType):
    """A finite number above zero (``nan``, ``inf``, zero and negatives are refused)."""

    name = "number"

    def convert(self, value: Any, param: Any, ctx: Any) -> float:
        number = FLOAT.convert(value, param, ctx)
        if not (math.isfinite(number) and number > 0):
            self.fail(f"{value} is not a finite number above 0", param, ctx)
        return number


JOBS = Jobs()
POSITIVE = Positive()
#: A count that a numba kernel takes as a 64-bit integer (a node or state limit).
COUNT = IntRange(1, LARGEST)

jobs_option = click.option("--jobs", "-j", type=JOBS, default=1, show_default=True,
                           help="Worker processes, at most the machine's cores (more than 1: "
                                "a local Dask cluster).")


def _address(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--scheduler``: a Dask address is never empty (an empty one would quietly run here)."""
    if value is not None and not value.strip():
        raise click.BadParameter("an empty address: give the scheduler's, e.g. "
                                 "tcp://10.0.0.5:8786, or leave --scheduler out", ctx, param)
    return value


scheduler_option = click.option(
    "--scheduler", metavar="ADDRESS", default=None, callback=_address,
    help="Run on an existing Dask cluster, e.g. tcp://10.0.0.5:8786 (see docs/runs.md); --jobs "
         "is then ignored.")


def run_options(fn: Callable) -> Callable:
    """The options of a run of many deals (docs/runs.md): ``--jobs``, ``--scheduler``,
    ``--per-deal``, ``--resume``; the command receives them as ``run`` (a dict of
    :func:`puzzlegen.runs.run` keywords)."""
    options = [
        jobs_option,
        scheduler_option,
        click.option("--per-deal", "per_deal", type=click.Path(dir_okay=False), default=None,
                     help="Append one JSON line per deal to this file as deals finish."),
        click.option("--resume", is_flag=True,
                     help="Continue the run recorded in --per-deal FILE (same command, rules, "
                          "seed and limits); solve only the deals it lacks."),
    ]

    def wrapper(*args: Any, jobs: int, scheduler: str | None, per_deal: str | None,
                resume: bool, **kwargs: Any) -> Any:
        return fn(*args, run={"jobs": jobs, "scheduler": scheduler, "per_deal": per_deal,
                              "resume": resume}, **kwargs)

    wrapper = functools.update_wrapper(wrapper, fn)
    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper


def available_memory() -> int:
    """Bytes of memory a new allocation can have now: Linux's MemAvailable (less under a
    cgroup limit), else the physical memory."""
    free = None
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            free = next(int(line.split()[1]) * 1024 for line in fh
                        if line.startswith("MemAvailable:"))
    except (OSError, StopIteration, ValueError):
        pass
    if free is None:
        free = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as fh:
            cap = fh.read().strip()
        with open("/sys/fs/cgroup/memory.current", encoding="ascii") as fh:
            used = int(fh.read())
        if cap != "max":
            free = min(free, int(cap) - used)
    except (OSError, ValueError):
        pass
    return max(free, 0)


def _size(nbytes: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB", "TB", "PB"):
        if nbytes < 1000 or unit == "PB":
            return f"{nbytes:.0f} {unit}" if unit == "bytes" else f"{nbytes:.1f} {unit}"
        nbytes /= 1000
    raise AssertionError("unreachable")


def check_memory(what: str, needed: float) -> None:
    """:class:`BadInput` unless ``needed`` bytes fit in the memory free now; ``what`` says what
    would need them, e.g. ``"--table-bits 30"``."""
    free = available_memory()
    if needed > free:
        raise BadInput(f"{what} would need {_size(needed)} of memory, more than the "
                       f"{_size(free)} free on this machine")


def memory_check(bytes_for: Callable[[Any], float]) -> Callable:
    """A click option callback refusing a value given on the command line that needs more
    memory than is free (defaults are sized to fit):
    ``click.option("--table-bits", ..., callback=memory_check(lambda bits: 64 << bits))``."""
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        given = ctx.get_parameter_source(param.name) is not ParameterSource.DEFAULT
        if value is not None and given:
            try:
                check_memory(str(value), bytes_for(value))
            except BadInput as exc:
                raise click.BadParameter(str(exc), ctx, param) from None
        return value
    return callback


def out_option(help: str, required: bool = True) -> Callable:
    """``--out FILE`` and ``--force``: an existing FILE is refused unless ``--force``, and a
    FILE that cannot be written fails at once, before any work; the command gets ``out``."""
    from puzzlegen.fileio import check_output

    def decorate(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def wrapper(*args: Any, out: str | None, force: bool, **kwargs: Any) -> Any:
            if out is not None:
                check_output(out, force)
            return fn(*args, out=out, **kwargs)
        wrapper = click.option("--force", is_flag=True,
                               help="Replace --out if it exists (otherwise refused).")(wrapper)
        return click.option("--out", type=click.Path(dir_okay=False), required=required,
                            help=help)(wrapper)
    return decorate
