"""``puzzlegen agnes``: solve an Agnes Sorel deal, measure win rates (docs/agnes.md)."""
from __future__ import annotations

import math
import time
from functools import partial

import click

from puzzlegen import clitools, runs, stats
from puzzlegen.commands.design import add_design_commands
from solvers.errors import BadInput
from solvers.result import Limits


rules_option = click.option("--rules", "rules_name", required=True,
                            help="Rule variant <Up|Down>-<Suit|Color>-<None|Any1|AnyRun|High1|"
                                 "HighRun>[-NoSplit], case-insensitive, e.g. Up-Suit-None.")
#: Positions a search examines by default (moves played: about a minute); deals a seed skips
#: at most (reaching deal K replays K shuffles, about 30 seconds a million).
DEFAULT_MAX_NODES, MAX_SKIP = 20_000_000, 1_000_000
#: Memory a deal of a ``winrate`` run takes (its task and its record, measured: about 4 kB).
RECORD_BYTES = 5000
#: The run settings' former names: a per-deal file begun with ``--max-states`` is resumed.
RENAMED = {"max_states": "max_nodes"}


def limit_options(fn):
    """``--max-nodes`` (positions examined: the moves a search plays; formerly ``--max-states``)
    and ``--max-seconds``, of a deal's search; reaching either makes its result 'limit'.  The
    search's memory is its losing-state table (``--table-bits``)."""
    fn = clitools.option("--max-seconds", type=clitools.POSITIVE, default=None,
                         help="Stop a deal's search after this many seconds: result 'limit' "
                              "[default: none].")(fn)
    return clitools.option("--max-nodes", deprecated="--max-states", type=clitools.COUNT,
                           default=DEFAULT_MAX_NODES, show_default=True,
                           help="Stop a deal's search after examining this many positions "
                                "(moves played): result 'limit'.")(fn)
table_option = click.option("--table-bits", type=clitools.IntRange(10, 30), default=21,
                            show_default=True,
                            help="Losing-state table of 2**BITS entries (64 bytes each).")


def check_table(table_bits: int, jobs: int = 1) -> None:
    """The losing-state tables of ``jobs`` processes must fit in the memory free."""
    clitools.check_memory(f"--table-bits {table_bits}" + (f" with {jobs} jobs" if jobs > 1 else ""),
                          jobs * (64 << table_bits))


cli = clitools.group("agnes", help="Agnes Sorel solitaire (every quagnes 1.1.0 rule variant): "
                                   "exact solver and win rates.")


def played(deal, rules, text: str | None):
    """The position after the moves of ``text`` (separated by ';' or new lines, as the solver
    prints them), replayed by the rule book; the moves too."""
    from solvers import agnes
    parts = [part.strip() for part in (text or "").replace("\n", ";").split(";")]
    try:
        moves = [agnes.parse_move(part) for part in parts if part]
        return agnes.replay(deal, rules, moves), moves
    except BadInput as exc:
        raise BadInput(f"--moves: {exc}") from None


@cli.command()
@rules_option
@click.option("--seed", type=clitools.IntRange(0), default=None,
              help="Deal from this seed (quagnes's decks).")
@click.option("--index", type=clitools.IntRange(0, MAX_SKIP), default=0, show_default=True,
              help="Deal number K of the seed (the (K+1)-th quagnes Agnes()).")
@click.option("--deck", "deck_file", type=str, default=None,
              help="Deck file: 52 cards in notation (base card first) or quagnes's "
                   "'(rank, suit)' lines.")
@click.option("--moves", "moves_text", default=None,
              help="Moves already played, separated by ';' as the solver prints them, e.g. "
                   "'KD from pile 6 to foundation; deal': solve the position they reach.")
@click.option("--choices", is_flag=True,
              help="Also decide every legal move of the position: which keep the deal winnable.")
@limit_options
@click.option("--max-score", "maximize", is_flag=True,
              help="Search every state for the highest score, even on a lost deal.")
@table_option
@clitools.json_option
def solve(rules_name, seed, index, deck_file, moves_text, choices, max_nodes, max_seconds,
          maximize, table_bits, as_json):
    """Solve one deal exactly, from its start or after --moves, and print the winning line of
    play (replayed by the rule book)."""
    from solvers import agnes
    rules = agnes.parse_rules(rules_name)
    check_table(table_bits)
    if (seed is None) == (deck_file is None):
        raise BadInput("give exactly one of --seed S (with --index K) or --deck FILE")
    deal = agnes.read_deck(deck_file) if deck_file else agnes.deal_from_seed(seed, index)
    board, before = played(deal, rules, moves_text)
    limits = Limits(nodes=max_nodes, seconds=max_seconds)
    result = agnes.solve(deal, rules, limits, maximize=maximize, table_bits=table_bits,
                         start=board)
    end = agnes.replay(deal, rules, before + result.moves)
    assert end.score == result.details["max_score"], "the solver's line does not replay"
    out = {"rules": rules.name, "deal": agnes.format_deal(deal), "moves_played": len(before),
           "result": stats.OUTCOME[result.status], "states": result.nodes, **result.to_json()}
    if choices:
        out["choices"] = stats.choices(agnes.move_verdicts(board, limits))
    if as_json:
        clitools.emit_json(out)
        return
    click.echo(f"rules {rules.name}; deck {out['deal']}"
               + (f"; after {len(before)} moves" if before else ""))
    click.echo(str(board))
    verdict = {"won": "won", "lost": "lost (no line of play wins)"}.get(out["result"]) or \
        f"unknown: the search stopped at {agnes.limit_text(result)}"
    click.echo(f"result: {verdict}; {result.nodes} nodes, {result.seconds:.3f} s; "
               f"max score {result.details['max_score']}"
               + ("" if result.details["max_score_exact"] else " (best found)"))
    if choices:
        clitools.echo_choices(out["choices"], "the deal")
    if result.moves:
        click.echo("winning line:" if result.solved else "line of play reaching the max score:")
        for number, move in enumerate(result.moves, len(before) + 1):
            click.echo(f"{number:4d}. {move}")


def solve_deal(spec: tuple, rules, max_nodes: int | None, table_bits: int,
               max_seconds: float | None = None) -> dict:
    """A win-rate run's function: ``(index, deal)`` -> its per-deal line (the fields of
    docs/runs.md, ``seconds``, and on a ``limit`` line ``stopped_by``: the limit that stopped
    it, ``nodes``, ``depth`` or ``seconds``; ``states`` counts the positions examined)."""
    from solvers import agnes
    index, deal = spec
    result = agnes.solve(deal, rules, Limits(nodes=max_nodes, seconds=max_seconds),
                         table_bits=table_bits, with_moves=False)
    record = {"index": index, "result": stats.OUTCOME[result.status], "states": result.nodes,
              "max_score": result.details["max_score"], "seconds": round(result.seconds, 6)}
    if "stopped_by" in result.details:
        record["stopped_by"] = result.details["stopped_by"]["limit"]
    return record


def check_solved(spec: tuple, record: dict) -> None:
    """The fields of a resumed :func:`solve_deal` record and their ranges (a run's
    ``check``)."""
    runs.check_fields(record, {"index": int, "result": tuple(stats.OUTCOME.values()),
                               "states": range(2 ** 63), "max_score": range(53),
                               "seconds": float}, optional={"stopped_by": str})


def warm_up(table_bits: int) -> None:
    """Load the search kernel and make the table (a run's setup, so no deal's time is theirs)."""
    from solvers import agnes
    agnes.solve(agnes.deal_from_seed(0), agnes.parse_rules("Up-Suit-None"), Limits(nodes=1),
                table_bits=table_bits, with_moves=False)


def summarize(records: list[dict], settings: dict) -> dict:
    """The ``winrate --json`` object: the win figures every game shares
    (:func:`puzzlegen.stats.win_summary`), states over decided deals, solve seconds."""
    decided = [rec["states"] for rec in records if rec["result"] != "limit"]
    mean = sum(decided) / len(decided) if decided else 0.0
    sd = math.sqrt(sum((v - mean) ** 2 for v in decided) / (len(decided) - 1)) \
        if len(decided) > 1 else 0.0
    return {**settings, **stats.tally(records),
            "states": {"mean": mean, "sd": sd, "max": max(decided, default=0)},
            "seconds": stats.seconds_summary([r["seconds"] for r in records if "seconds" in r])}


@cli.command()
@rules_option
@click.option("--deals", type=clitools.IntRange(1), required=True, help="Number of deals.",
              callback=clitools.memory_check(lambda deals: deals * RECORD_BYTES))
@click.option("--seed", type=clitools.IntRange(0), default=0, show_default=True,
              help="Deals 0..N-1 of this seed (quagnes's decks after random.seed(S)).")
@click.option("--start", type=clitools.IntRange(0, MAX_SKIP), default=0, show_default=True,
              help="First deal index (to split a long run).")
@limit_options
@table_option
@clitools.run_options
@clitools.json_option
def winrate(rules_name, deals, seed, start, max_nodes, max_seconds, table_bits, run, as_json):
    """Win rate over many deals: won/lost/limit counts, the rate of decided deals with a Wilson
    95% interval, and its band with the limits counted lost and won."""
    from solvers import agnes
    rules = agnes.parse_rules(rules_name)
    check_table(table_bits, 1 if run["scheduler"] else run["jobs"])
    specs = list(enumerate(agnes.deals_from_seed(seed, start, deals), start))
    settings = {"rules": rules.name, "seed": seed, "max_nodes": max_nodes,
                **({"max_seconds": max_seconds} if max_seconds is not None else {}),
                "table_bits": table_bits}
    started = time.perf_counter()
    records = list(runs.run(partial(solve_deal, rules=rules, max_nodes=max_nodes,
                                    table_bits=table_bits, max_seconds=max_seconds), specs,
                            key="index", spec_key=lambda spec: spec[0],
                            fingerprint={"command": "agnes winrate", **settings},
                            renamed=RENAMED,
                            check=check_solved,
                            setup=partial(warm_up, table_bits), desc=rules.name, **run))
    summary = {**summarize(records, {**settings, "start": start}),
               "wall_seconds": round(time.perf_counter() - started, 3)}
    if as_json:
        clitools.emit_json(summary)
        return
    click.echo(stats.format_win_summary(f"{rules.name}, deals {start}..{start + deals - 1} of "
                                        f"seed {seed}", summary))
    s = summary["states"]
    click.echo(f"  nodes per decided deal: mean {s['mean']:.1f}, sd {s['sd']:.1f}, "
               f"max {s['max']}; solver time {summary['seconds']['total']:.1f} s")


add_design_commands(cli, "agnes")
