"""``puzzlegen agnes solve``: an Agnes Sorel deal solved from its start or a position reached, with
the verdict of every legal move (docs/agnes.md); the other commands are every game's."""
from __future__ import annotations

import click

from puzzlegen import clitools
from puzzlegen.commands.design import add_game_commands
from solvers import stats
from solvers.errors import BadInput
from solvers.result import Limits


rules_option = click.option("--rules", "rules_name", required=True,
                            help="Rule variant <Up|Down>-<Suit|Color>-<None|Any1|AnyRun|High1|"
                                 "HighRun>[-NoSplit], case-insensitive, e.g. Up-Suit-None.")
#: Positions a search examines by default (moves played: about a minute); deals a seed skips
#: at most (reaching deal K replays K shuffles, about 30 seconds a million).
DEFAULT_MAX_NODES, MAX_SKIP = 20_000_000, 1_000_000


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


add_game_commands(cli, "agnes")
