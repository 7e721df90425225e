"""``puzzlegen agnes solve``: an Agnes Sorel deal solved from its start or a position reached, with
the verdict of every legal move (docs/agnes.md); the other commands are every game's."""
from __future__ import annotations

import click

from puzzlegen import clitools, codes
from puzzlegen.commands.design import add_game_commands
from puzzlegen.commands.solving import (code_option, from_code, limit_options, make_limits,
                                        split_tuning, tuning_options)
from solvers import stats
from solvers.agnes.game import GAME, MAX_SKIP
from solvers.errors import BadInput

rules_option = click.option("--rules", "rules_name", default=None,
                            help="Rule variant <Up|Down>-<Suit|Color>-<None|Any1|AnyRun|High1|"
                                 "HighRun>[-NoSplit], case-insensitive, e.g. Up-Suit-None.  "
                                 "Required unless --code names them.")


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
@code_option
@click.option("--moves", "moves_text", default=None,
              help="Moves already played, separated by ';' as the solver prints them, e.g. "
                   "'KD from pile 6 to foundation; deal': solve the position they reach.")
@click.option("--choices", is_flag=True,
              help="Also decide every legal move of the position: which keep the deal winnable.")
@limit_options(GAME)
@tuning_options(GAME)
@click.option("--max-score", "maximize", is_flag=True,
              help="Search every state for the highest score, even on a lost deal.")
@clitools.json_option
def solve(rules_name, seed, index, deck_file, code, moves_text, choices, max_states, max_nodes,
          max_seconds, maximize, as_json, **kwargs):
    """Solve one deal (--seed, --deck or --code) exactly, from its start or after --moves, and
    print the winning line of play (replayed by the rule book)."""
    from solvers import agnes
    if sum(x is not None for x in (seed, deck_file, code)) != 1:
        raise BadInput("give exactly one of --seed S (with --index K), --deck FILE or --code "
                       "CODE")
    rules = None if rules_name is None else agnes.parse_rules(rules_name)
    if code is not None:
        deal, rules = from_code(GAME, rules, code)
    elif rules is None:
        raise BadInput("give --rules (or a --code, which names them)")
    else:
        deal = agnes.read_deck(deck_file) if deck_file else agnes.deal_from_seed(seed, index)
    tuning = split_tuning(kwargs)
    limits = make_limits(GAME, rules, max_states, max_nodes, max_seconds, tuning)
    board, before = played(deal, rules, moves_text)
    result = GAME.solve(deal, rules, limits, maximize=maximize, start=board, **tuning)
    end = agnes.replay(deal, rules, before + result.moves)
    assert end.score == result.details["max_score"], "the solver's line does not replay"
    out = {"rules": rules.name, "deal": agnes.format_deal(deal),
           "code": codes.encode(GAME, rules, deal), "moves_played": len(before),
           "result": stats.OUTCOME[result.status], **result.to_json()}
    if choices:
        out["choices"] = stats.choices(agnes.move_verdicts(board, limits))
    if as_json:
        clitools.emit_json(out)
        return
    click.echo(f"rules {rules.name}; deck {out['deal']}"
               + (f"; after {len(before)} moves" if before else ""))
    click.echo(f"code: {out['code']}")
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
