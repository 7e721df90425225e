"""``puzzlegen pack``: validate a puzzle pack, or show it for people."""
from __future__ import annotations

import click

from puzzlegen import clitools, packs

cli = clitools.group("pack", help="Puzzle packs: validate and show.")


@cli.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--sample", type=click.IntRange(0), default=None,
              help="Re-grade only this many puzzles (chosen by --sample-seed); every puzzle is "
                   "still replayed.  Default: re-grade all.")
@click.option("--sample-seed", type=int, default=0, show_default=True,
              help="Seed choosing the puzzles --sample re-grades.")
@clitools.json_option
def validate(path, sample, sample_seed, as_json):
    """Check PATH: schema, replays, exact re-grades.  Exit 0 valid, 1 wrong claims, 2 broken."""
    pack = packs.load(path)
    problems = packs.validate(pack, sample, sample_seed)
    if as_json:
        clitools.emit_json({"valid": not problems, "puzzles": len(pack["puzzles"]),
                            "problems": problems})
    for problem in problems:
        click.echo(f"error: {problem}", err=True)
    if problems:
        raise click.exceptions.Exit(1)
    if not as_json:
        click.echo(f"{path}: valid ({len(pack['puzzles'])} puzzles)")


@cli.command()
@click.argument("path", type=click.Path(dir_okay=False))
def show(path):
    """Print the pack PATH for people: grids, levels, scores, solutions."""
    click.echo(packs.show(packs.load(path)))
