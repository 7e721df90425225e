"""What every command shares: error handling, JSON output, progress bars, worker processes.

DESIGN.md contract: errors go to stderr as one sentence with exit status 2 (no traceback);
``--json`` prints one JSON object (or JSON lines) on stdout; long work shows a progress bar on
stderr when stderr is a terminal.
"""
from __future__ import annotations

import json
import multiprocessing
import sys
from typing import Any, Callable, Iterable, Iterator, TypeVar

import click

from solvers.errors import BadInput

T = TypeVar("T")
R = TypeVar("R")


def fail(message: str) -> "click.exceptions.Exit":
    """Print ``error: message`` on stderr and return the exit-2 exception to raise."""
    click.echo(f"error: {message}", err=True)
    return click.exceptions.Exit(2)


class _OneLineErrors:
    """Turns bad input (``BadInput``, an unusable file) into one sentence and exit status 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BadInput as exc:
            raise fail(str(exc)) from None
        except OSError as exc:
            where = f" {exc.filename}" if getattr(exc, "filename", None) else ""
            raise fail(f"cannot use{where}: {exc.strerror or exc}") from None


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


def emit_json(obj: Any) -> None:
    """Print one JSON object on stdout (one line, so JSON-lines output is the same call)."""
    click.echo(json.dumps(obj, separators=(",", ":")))


def progress(iterable: Iterable[T], total: int | None = None, desc: str = "") -> Iterator[T]:
    """A tqdm progress bar on stderr when stderr is a terminal; the bare iterable otherwise."""
    if not sys.stderr.isatty():
        return iter(iterable)
    from tqdm import tqdm
    return iter(tqdm(iterable, total=total, desc=desc, file=sys.stderr, leave=False))


def map_jobs(fn: Callable[[T], R], items: Iterable[T], jobs: int = 1,
             chunksize: int = 8) -> Iterator[R]:
    """``map(fn, items)`` in order, across ``jobs`` worker processes when ``jobs > 1``.

    ``fn`` must be a module-level function.  Workers are forked, so numba's on-disk cache
    compiled by the parent is reused rather than recompiled.
    """
    if jobs <= 1:
        yield from map(fn, items)
        return
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with ctx.Pool(jobs) as pool:
        yield from pool.imap(fn, items, chunksize=chunksize)


def parse_seed_range(text: str) -> range:
    """``"A..B"`` (inclusive) as a range of seeds; :class:`BadInput` if malformed or empty."""
    parts = text.split("..")
    try:
        if len(parts) != 2:
            raise ValueError
        first, last = int(parts[0]), int(parts[1])
    except ValueError:
        raise BadInput(f"malformed seed range {text!r}: expected A..B, e.g. 0..99") from None
    if first < 0 or last < first:
        raise BadInput(f"empty or negative seed range {text!r}: need 0 <= A <= B")
    return range(first, last + 1)


jobs_option = click.option("--jobs", "-j", type=click.IntRange(1), default=1, show_default=True,
                           help="Worker processes.")
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON on stdout.")
