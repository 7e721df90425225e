"""``solve``, ``grade`` and ``generate`` for any game, built from the game contract."""
from __future__ import annotations

import os
import sys
import time

import click

from puzzlegen import clitools, codes, packs
from puzzlegen.commands.solving import (code_option, read_deal, rules_option, solve_command,
                                        winrate_command)
from puzzlegen.design import DEFAULT_ATTEMPTS_PER_PUZZLE, Unfinished, generate_pack
from puzzlegen.fileio import write_atomic
from puzzlegen.grading import LEVELS, grade as grade_deal, load, parse_level
from solvers import game as games
from solvers.errors import BadInput


def parse_levels(text: str) -> list[str]:
    """Levels separated by commas, each named once; :class:`BadInput` otherwise."""
    levels = [parse_level(part) for part in text.split(",")]
    if len(set(levels)) != len(levels):
        raise BadInput(f"a level is named twice in {text!r}")
    return levels


def run_generate(game: games.Designable, rules, count: int, level: str, seed: int, out: str,
                 max_attempts: int | None, jobs: int, scheduler: str | None, as_json: bool,
                 **design) -> None:
    """The body of every ``generate``: the pack, a progress bar, what an interrupt kept."""
    levels = parse_levels(level)
    load(game, rules)  # fail early without a calibration
    # A new file grows puzzle by puzzle (a killed run keeps them); an old pack (--force) is
    # replaced only by a complete one.
    fresh = not os.path.lexists(out)
    save = (lambda pack: write_atomic(out, packs.dumps(pack))) if fresh else None
    start = time.perf_counter()
    bar = None
    if sys.stderr.isatty():
        from tqdm import tqdm
        bar = tqdm(total=count * len(levels), desc="puzzles", unit="puzzle", file=sys.stderr)
    try:
        pack = generate_pack(game, rules, count, levels, seed, jobs, save, bar, max_attempts,
                             scheduler=scheduler, **design)
    except Unfinished as stop:
        found = len(stop.pack["puzzles"])
        if found and fresh:
            write_atomic(out, packs.dumps(stop.pack))
        kept = (f"the {found:,} {_puzzles(found)} found are in {out}" if found and fresh else
                f"{out} is left as it was" if not fresh else "nothing was written")
        if stop.interrupted:
            raise KeyboardInterrupt(f"\ninterrupted; {kept}") from None
        raise clitools.fail(f"{stop}; {kept}") from None
    finally:
        if bar is not None:
            bar.close()
    write_atomic(out, packs.dumps(pack))
    summary = {"out": out, "puzzles": len(pack["puzzles"]), "level": ",".join(levels),
               "seconds": round(time.perf_counter() - start, 3)}
    if as_json:
        clitools.emit_json(summary)
    else:
        click.echo(f"wrote {summary['puzzles']:,} {' and '.join(levels)} "
                   f"{_puzzles(summary['puzzles'])} to {out} in {summary['seconds']:.1f} s")


def _puzzles(count: int) -> str:
    return "puzzle" if count == 1 else "puzzles"


def generate_options(fn):
    """The options every ``generate`` has: ``--count``, ``--level``, ``--seed``, ``--out`` (and
    ``--force``), ``--max-attempts``, ``--jobs``, ``--scheduler`` and ``--json``."""
    options = [
        click.option("--count", type=clitools.IntRange(1), required=True,
                     help="Puzzles to generate (of each level)."),
        click.option("--level", required=True,
                     help=f"One of {', '.join(LEVELS)}, or several separated by commas."),
        click.option("--seed", type=clitools.IntRange(0), default=0, show_default=True,
                     help="Seed of the annealing runs: the same seed gives the same pack, "
                          "whatever --jobs or --scheduler."),
        clitools.out_option(help="Pack file to write: a new file is rewritten atomically after "
                                 "every puzzle; an existing one (--force) is replaced only by the "
                                 "complete pack."),
        click.option("--max-attempts", type=clitools.IntRange(1), default=None,
                     help=f"Give up after this many annealing runs of a level "
                          f"[default: {DEFAULT_ATTEMPTS_PER_PUZZLE} x COUNT]."),
        clitools.jobs_option,
        clitools.scheduler_option,
        clitools.json_option]
    for option in reversed(options):
        fn = option(fn)
    return fn


def in_words(value) -> str:
    """A figure for people: yes/no, "-" for none, numbers with separators or 4 digits."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):
        return ", ".join(in_words(v) for v in value)
    return str(value)


def figure_lines(metrics: dict, indent: str = "  ") -> list[str]:
    """A grade's figures, one a line, names in words, nested figures indented."""
    lines = []
    for name, value in metrics.items():
        label = name.replace("_", " ")
        if isinstance(value, dict):
            lines += [f"{indent}{label}:", *figure_lines(value, indent + "  ")]
        else:
            lines.append(f"{indent}{label:20} {in_words(value)}")
    return lines


def grade_command(game: games.Designable) -> click.Command:
    """``puzzlegen GAME grade``: level, percentile, the reason and the figures of one deal."""

    @click.command("grade")
    @click.argument("deal", required=False)
    @click.option("--seed", type=clitools.DealNumber(game.seeds),
                  help="Deal the game's deal number N.")
    @code_option
    @rules_option(game)
    @clitools.json_option
    def grade(deal, seed, code, rules_text, as_json):
        """Grade DEAL (or --seed N, or --code CODE): level, percentile (0-100), the reason, and
        the figures behind it.  Every symmetric copy of a deal gets the same grade."""
        the_deal, rules = read_deal(game, game.parse_rules(rules_text), deal, seed, code)
        load(game, rules)
        result = grade_deal(game, the_deal, rules)
        code = codes.encode(game, rules, the_deal)
        if as_json:
            clitools.emit_json({**result.to_json(), "code": code})
            return
        click.echo(game.show_deal(the_deal))
        click.echo(f"code: {code}")
        sure = result.sureness()
        percentile = "" if result.percentile is None else f", percentile {result.percentile:.2f}"
        click.echo(f"Level: {result.level}" + (f" ({sure})" if sure else "") + percentile)
        click.echo(result.explanation)
        for line in figure_lines(result.metrics):
            click.echo(line)
        if result.solution:
            click.echo("solution: " + game.move_separator.join(result.solution))

    return grade


def generate_command(game: games.Designable) -> click.Command:
    """``puzzlegen GAME generate``: a pack of puzzles at one level."""

    @click.command("generate")
    @rules_option(game)
    @generate_options
    def generate(rules_text, count, level, seed, out, max_attempts, jobs, scheduler, as_json):
        """Generate a pack of COUNT distinct puzzles at LEVEL, each verified by the exact
        solver, its level confirmed by independent estimates.  A new pack is rewritten
        atomically after every puzzle, so Ctrl-C keeps the finished ones; an old one (--force)
        is replaced only by a complete pack."""
        run_generate(game, game.parse_rules(rules_text), count, level, seed, out,
                     max_attempts, jobs, scheduler, as_json)

    return generate


def add_game_commands(group: clitools.Group, game_name: str) -> None:
    """Give a game's command group the commands every game has, where it has none of its own:
    ``solve`` and ``winrate``, and for a designable game ``grade`` and ``generate``."""
    game = games.get(game_name)
    makers = [solve_command, winrate_command]
    if isinstance(game, games.Designable):
        makers += [grade_command, generate_command]
    for make in makers:
        command = make(game)
        if command.name not in group.commands and command.name not in group.lazy:
            group.add_command(command)


def design_group(game: games.Game) -> click.Group:
    """The command group of a game without a commands module of its own."""
    designable = isinstance(game, games.Designable)
    group = clitools.group(game.name, help=f"{game.title}: solve deals, win rates" +
                           (", grades and puzzle packs." if designable else "."))
    add_game_commands(group, game.name)
    return group
