"""``puzzlegen pack``: validate a puzzle pack, show it, turn it into a web page or a printed book."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import click

from puzzlegen import clitools, packs
from puzzlegen.fileio import check_output, write_atomic
from solvers.errors import BadInput

cli = clitools.group("pack", help="Puzzle packs: validate, re-grade, show, play in a browser, "
                                  "print.")

force_option = click.option("--force", is_flag=True, help="Replace --out if it exists.")


@cli.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--sample", type=clitools.IntRange(0), default=None,
              help="Re-grade only this many puzzles (chosen by --sample-seed); every puzzle is "
                   "still replayed.  Default: re-grade all.")
@click.option("--sample-seed", type=clitools.INT, default=0, show_default=True,
              help="Seed choosing the puzzles --sample re-grades.")
@clitools.jobs_option
@clitools.json_option
def validate(path, sample, sample_seed, jobs, as_json):
    """Check PATH: schema, replays, re-grades (the same figures again).  Exit 0 valid, 1 wrong
    claims, 2 broken."""
    pack = packs.load(path)
    problems = packs.validate(pack, sample, sample_seed, jobs)
    if as_json:
        clitools.emit_json({"valid": not problems, "puzzles": len(pack["puzzles"]),
                            "problems": problems})
    for problem in problems:
        click.echo(clitools.inert(f"error: {problem}"), err=True)
    count = len(pack["puzzles"])
    if problems:
        click.echo(clitools.inert(f"{path}: not valid: {len(problems):,} "
                                  f"{'problem' if len(problems) == 1 else 'problems'} in "
                                  f"{count:,} puzzles"), err=True)
        raise click.exceptions.Exit(1)
    if not as_json:
        click.echo(clitools.inert(f"{path}: valid ({count:,} puzzles)"))


@cli.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--out", required=True, metavar="FILE.json", help="The re-graded pack to write.")
@force_option
@clitools.jobs_option
def regrade(path, out, force, jobs):
    """Grade every puzzle of PATH afresh with this version (after a change of the figures or
    the calibration) and write the pack to --out: the same ids and deals, new levels,
    percentiles, explanations, figures and solutions.  Each puzzle whose level changed is
    listed."""
    check_output(out, force)
    pack, changed = packs.regrade(packs.load_checked(path), jobs)
    write_atomic(out, packs.dumps(pack))
    for line in changed:
        click.echo(clitools.inert(line))
    click.echo(f"{out}: {len(pack['puzzles'])} puzzles re-graded, {len(changed)} changed "
               f"level")


@cli.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--id", "pid", metavar="ID", help="Only the puzzle with this id.")
@click.option("--no-solution", is_flag=True, help="Leave the solutions out (to hand puzzles out).")
@clitools.json_option
def show(path, pid, no_solution, as_json):
    """Print the pack PATH for people: grids, levels, scores, solutions.

    With --json: the pack as one JSON object, cut down to --id and without solutions under
    --no-solution."""
    shown = packs.select(packs.load_checked(path), pid, solutions=not no_solution)
    if as_json:
        clitools.emit_json(shown)
    else:
        click.echo(clitools.inert(packs.show(shown)))


@cli.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--out", required=True, metavar="FILE.html", help="The page to write.")
@click.option("--title", help="The page's title.  Default: the pack's rules, levels and size.")
@force_option
def html(path, out, title, force):
    """Write one self-contained page (no network) that plays every puzzle of the pack PATH
    (any game; Montana as one round with fixed Twos, Agnes dealt face up).

    Open it in any browser: pick a puzzle, click a stack (a card) then its target; undo,
    restart, exact hints, the solution step by step; progress is kept in the browser.
    docs/packs.md has the page's DOM contract."""
    from puzzlegen import web

    check_output(out, force)
    pack = packs.load_checked(path)
    write_atomic(out, web.page(pack, title or packs.title(pack)))
    count = len(pack["puzzles"])
    click.echo(f"wrote {clitools.inert(out)}: a page playing {count:,} "
               f"puzzle{'s' * (count != 1)}")


@cli.command(name="print")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--out", required=True, metavar="FILE.pdf|FOLDER",
              help="The PDF to write; with --format svg, the folder to create.")
@click.option("--format", "fmt", type=click.Choice(["pdf", "svg"]), default="pdf",
              show_default=True, help="One PDF, or one SVG file a page in a folder.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--title", help="The book's title.  Default: the pack's rules, levels and size.")
@force_option
def print_(path, out, fmt, paper, title, force):
    """Print the pack PATH as a puzzle book: contents, one puzzle a page (id, level, the cards
    as dealt), then the solutions.  SVG pages are named contents, the puzzle ids and
    solutions-N."""
    from puzzlegen import printing

    check_output(out, force, folder_ok=fmt == "svg")
    if fmt == "svg" and os.path.lexists(out):
        _check_book_folder(out)
    pack = packs.load_checked(path)
    title = title or packs.title(pack)
    book = printing.pages(pack, title, paper)
    count = len(pack["puzzles"])
    wrote = (f"wrote {clitools.inert(out)}: {len(book):,} pages (contents, {count:,} "
             f"puzzle{'s' * (count != 1)}, solutions)")
    if fmt == "pdf":
        write_atomic(out, printing.pdf(book, title))
        click.echo(wrote)
        return
    if len({page.name for page in book}) != len(book):
        raise BadInput("two pages get the same file name (puzzle ids that differ only in "
                       "characters a file name cannot hold, or named contents or solutions-N); "
                       "print as PDF instead")
    files = {f"{page.name}.svg": printing.svg(page) for page in book}
    staging = tempfile.mkdtemp(prefix=f".{Path(out).name}.", dir=Path(out).parent)
    old = None
    try:
        for name, data in files.items():
            Path(staging, name).write_bytes(data)
        os.chmod(staging, 0o777 & ~_umask())
        if os.path.isdir(out):      # --force: the old book goes once the new one is complete
            old = tempfile.mkdtemp(prefix=f".{Path(out).name}.old.", dir=Path(out).parent)
            os.replace(out, old)
        os.replace(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if old is not None and not os.path.lexists(out):
            os.replace(old, out)
        raise
    if old is not None:
        shutil.rmtree(old)
    click.echo(wrote)


def _check_book_folder(path: str) -> None:
    """:class:`BadInput` unless the folder ``path`` holds only an earlier book's SVG pages (so
    that --force never deletes anything else)."""
    if not os.path.isdir(path):
        raise BadInput(f"{path} is a file, not a folder: --format svg writes one file a page")
    others = [entry.name for entry in os.scandir(path)
              if not (entry.is_file(follow_symlinks=False) and entry.name.endswith(".svg"))]
    if others:
        raise BadInput(f"{path} holds more than a book's SVG pages (such as "
                       f"{sorted(others)[0]!r}): give a new folder or a book's own")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
