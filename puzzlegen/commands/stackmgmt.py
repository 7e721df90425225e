"""``puzzlegen stackmgmt``: decide Code Jam 2017 Stack Management cases, explain wins, and
generate hard cases.  Imports nothing heavier than numpy, so a whole contest file is decided in
about a second, interpreter start included."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from puzzlegen import clitools
from puzzlegen.commands.design import add_game_commands
from puzzlegen.fileio import write_atomic
from solvers.result import Limits
from solvers.stackmgmt import format_contest, parse_contest, solve, solve_brute, verdict_word
from solvers.stackmgmt.brute import position_bytes

#: The exhaustive oracle's defaults: as many positions a case as fit in this many bytes, and
#: this many seconds a case.
BRUTE_BYTES, BRUTE_SECONDS = 2_000_000_000, 60.0

cli = clitools.group("stackmgmt", help="Code Jam 2017 Stack Management: decide contest cases, "
                                       "explain wins, generate hard cases.")


def _read(file: str) -> str:
    data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    return data.decode("utf-8", "replace")


@cli.command("contest")
@click.argument("file", required=False, default="-")
@click.option("--brute", is_flag=True,
              help="Use the exhaustive oracle (every play) instead of the graph-path checker.")
@clitools.option("--max-states", deprecated="--max-nodes", type=clitools.COUNT, default=None,
                 help="With --brute: positions stored per case (its memory) before giving up "
                      "with LIMIT [default: as many as fit in 2 GB].")
@clitools.option("--max-seconds", deprecated="--seconds", type=clitools.POSITIVE,
                 default=BRUTE_SECONDS, show_default=True,
                 help="With --brute: time per case before giving up with LIMIT.")
@click.option("--explain", is_flag=True,
              help="After each POSSIBLE case, print a winning line, one move a line.")
@clitools.json_option
def solve_cmd(file, brute, max_states, max_seconds, explain, as_json):
    """Decide every case of a contest input FILE (default: stdin).

    Prints 'Case #x: POSSIBLE' or 'Case #x: IMPOSSIBLE' ('LIMIT' if --brute, which is meant
    for small cases, ran out of positions or time).  --explain adds the moves, indented, as
    'remove (V,S) from A' and 'move (V,S) from A to B' with stacks numbered from 1 in the
    order of the case's line.  --json prints one JSON object a case instead (JSON lines; a
    LIMIT case names its limit in stopped_by).
    """
    cases = parse_contest(_read(file))
    if brute and max_states is not None:
        clitools.check_memory(f"--max-states {max_states}",
                              max_states * position_bytes(max(case.cards for case in cases)))
    out = []
    for x, case in enumerate(cases, 1):
        if brute:
            states = max_states or max(1, BRUTE_BYTES // position_bytes(case.cards))
            result = solve_brute(case, Limits(states=states, seconds=max_seconds))
        else:
            result = solve(case, explain=explain)
        if as_json:
            clitools.emit_json({"case": x, "answer": verdict_word(result), **result.to_json()})
            continue
        out.append(f"Case #{x}: {verdict_word(result)}")
        if explain:
            out += [f"  {move}" for move in result.moves]
    if out:
        click.echo("\n".join(out))


@cli.command("cases")
@click.option("--kind", type=click.Choice(["path", "blocked"]), required=True,
              help="path: POSSIBLE only through one source-to-target path of --length suits; "
                   "blocked: IMPOSSIBLE although every stack's bottom card is its suit's "
                   "highest card (--length stacks deadlock in a cycle).")
@click.option("--count", type=clitools.IntRange(1), default=1, show_default=True,
              help="Cases in the file.")
@click.option("--stacks", "n", type=clitools.IntRange(2), default=8, show_default=True,
              help="Stacks N (and suits S = N).")
@click.option("--cards", "c", type=clitools.IntRange(2), default=6, show_default=True,
              help="Cards per stack C.")
@click.option("--length", type=clitools.IntRange(1), default=None,
              help="Path length (path) or cycle length (blocked); default the longest "
                   "that fits.")
@click.option("--seed", type=clitools.IntRange(0), default=0, show_default=True,
              help="Case k of the file is generated from seed S + k.")
@clitools.out_option(help="Contest input file to write (atomically).")
@clitools.json_option
def cases_cmd(kind, count, n, c, length, seed, out, as_json):
    """Write hard cases in the contest input format, each checked by the solver."""
    from solvers.stackmgmt.generate import bytes_needed, check_size, generate

    check_size(kind, n, c, length, count)
    clitools.check_memory(f"{count} case(s) of {n} stacks of {c} cards",
                          bytes_needed(n, c, count))
    cases = [generate(kind, n, c, length, seed + i) for i in range(count)]
    write_atomic(out, format_contest(cases))
    answers = [verdict_word(solve(case)) for case in cases]
    if as_json:
        clitools.emit_json({"out": out, "kind": kind, "cases": count, "stacks": n, "cards": c,
                            "answers": answers})
    else:
        click.echo(f"wrote {count} {kind} case{'s' * (count > 1)} ({n} stacks of {c} cards, "
                   f"{answers.count('POSSIBLE')} POSSIBLE) to {out}")



add_game_commands(cli, "stackmgmt")
