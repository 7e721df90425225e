"""``solve`` and ``winrate`` for any game, built from the game contract: one command shape, one
meaning for each option (docs/architecture.md, "The command line")."""
from __future__ import annotations

import click

from puzzlegen import clitools, winrate
from solvers import game as games, stats
from solvers.errors import BadInput
from solvers.result import Limits

#: Memory a deal of a ``winrate`` run takes (its task and its record, measured: about 1 kB).
RECORD_BYTES = 1500


def read_deal(game: games.Game, rules, deal: str | None, seed: int | None):
    if (deal is None) == (seed is None):
        raise BadInput("give exactly one of a DEAL or --seed N")
    return game.parse_deal(deal, rules) if deal is not None else game.deal_from_seed(seed, rules)


def rules_option(game_name: str):
    game = games.get(game_name)
    return click.option("--rules", "rules_text", default=game.default_rules, show_default=True,
                        help=f"The rules, e.g. {', '.join(game.variants()[:4])}.")


def limit_options(game: games.Game):
    """``--max-states`` (positions stored), ``--max-nodes`` (positions examined) and
    ``--max-seconds`` of each search, defaulting to the game's ``default_limits``; the command
    receives them as ``limits``."""
    default = game.default_limits

    def decorate(fn):
        options = [
            click.option("--max-states", type=clitools.COUNT, default=default.states,
                         show_default=default.states is not None,
                         help="Positions a search may store (its memory); reaching it: "
                              "'limit'."),
            click.option("--max-nodes", type=clitools.COUNT, default=default.nodes,
                         show_default=default.nodes is not None,
                         help="Positions a search may examine; reaching it: 'limit'."),
            clitools.option("--max-seconds", deprecated="--seconds", type=clitools.POSITIVE,
                            default=default.seconds, show_default=default.seconds is not None,
                            help="Seconds a search may run; reaching it: 'limit'.")]
        for option in reversed(options):
            fn = option(fn)
        return fn
    return decorate


def tuning_options(game: games.Game):
    """The options of the game's :class:`~solvers.game.Tuning`; the command receives them in
    ``tuning``, a dict of :meth:`~solvers.game.Game.solve` keywords."""
    def decorate(fn):
        for tune in reversed(game.tuning):
            dest = "tune_" + tune.name
            if tune.kind is bool:
                flag = tune.option[2:]
                fn = click.option(f"--{flag}/--no-{flag}", dest, default=tune.default,
                                  show_default=True, help=tune.help)(fn)
            else:
                kind = str if tune.kind is str else clitools.IntRange(
                    tune.low, clitools.LARGEST if tune.high is None else tune.high)
                fn = click.option(tune.option, dest, type=kind, default=tune.default,
                                  show_default=True, help=tune.help)(fn)
        return fn
    return decorate


def split_tuning(kwargs: dict) -> dict:
    """Take the game's tuning values out of a command's keywords."""
    return {name[5:]: kwargs.pop(name) for name in list(kwargs) if name.startswith("tune_")}


def make_limits(game: games.Game, rules, max_states, max_nodes, max_seconds, tuning: dict,
                jobs: int = 1) -> Limits:
    """The limits of the options, once the searches of ``jobs`` workers fit in memory."""
    limits = Limits(states=max_states, nodes=max_nodes, seconds=max_seconds)
    need, sized_by = game.memory(rules, limits, **tuning)
    if need:
        clitools.check_memory(sized_by + (f" with {jobs} jobs" if jobs > 1 else ""), jobs * need)
    return limits


def solve_command(game: games.Game) -> click.Command:
    """``puzzlegen GAME solve``: the exact solve of one deal, its line replayed by the game's
    rules before it is printed."""

    @click.command("solve")
    @click.argument("deal", nargs=-1)
    @click.option("--seed", type=clitools.IntRange(0), help="Deal the game's deal number N.")
    @rules_option(game.name)
    @click.option("--choices", is_flag=True,
                  help="Also solve the deal after each legal first move (same rules and "
                       "limits): which keep it winnable.")
    @limit_options(game)
    @tuning_options(game)
    @clitools.json_option
    def solve(deal, seed, rules_text, choices, max_states, max_nodes, max_seconds, as_json,
              **kwargs):
        """Solve DEAL (or --seed N) exactly: 'solved' with a winning line, 'unsolvable', or
        'limit' when a limit stopped the search (never a guess)."""
        tuning = split_tuning(kwargs)
        rules = game.parse_rules(rules_text)
        the_deal = read_deal(game, rules, " ".join(deal) if deal else None, seed)
        limits = make_limits(game, rules, max_states, max_nodes, max_seconds, tuning)
        firsts = game.first_moves(the_deal, rules) if choices else []
        if firsts is None:
            raise BadInput(f"--choices: the {game.title} solver cannot start mid-game")

        def solved(deal):
            return winrate.checked(game, deal, rules, (
                game.solve(deal, rules, limits, **tuning) if seed is None else
                game.solve_numbered(seed, deal, rules, limits, **tuning)))
        result = solved(the_deal)
        out = {**result.to_json(), "moves": [game.format_move(m) for m in result.moves]}
        if choices:
            out["choices"] = stats.choices([(game.format_move(move), solved(after).status)
                                            for move, after in firsts])
        if as_json:
            clitools.emit_json(out)
            return
        click.echo(game.show_deal(the_deal))
        for line in game.result_lines(the_deal, rules, result):
            click.echo(line)
        if out["moves"]:
            click.echo("solution: " + " ".join(out["moves"]))
        if choices:
            clitools.echo_choices(out["choices"], "the deal")

    return with_note(solve, game)


def with_note(command: click.Command, game: games.Game) -> click.Command:
    """``command`` with the game's note on its default limits at the end of its help."""
    if game.limits_note:
        command.help = f"{command.help}\n\n{game.limits_note}"
    return command


def winrate_command(game: games.Game) -> click.Command:
    """``puzzlegen GAME winrate``: the deals of a seed solved exactly, their win rate."""
    numbers = "deals START.. of the seed" if game.deal_key != "seed" else "seeds SEED+START.."

    @click.command("winrate")
    @rules_option(game.name)
    @click.option("--deals", type=clitools.IntRange(1), required=True, help="Number of deals.",
                  callback=clitools.memory_check(lambda deals: deals * RECORD_BYTES))
    @click.option("--seed", type=clitools.IntRange(0), default=0, show_default=True,
                  help=f"The run's seed: its deals are {numbers}.")
    @click.option("--start", type=clitools.IntRange(0), default=0,
                  show_default=True, help="Skip the seed's first deals (to split a long run).")
    @limit_options(game)
    @tuning_options(game)
    @clitools.run_options
    @clitools.json_option
    def command(rules_text, deals, seed, start, max_states, max_nodes, max_seconds, run,
                as_json, **kwargs):
        """Win rate over a seed's deals, each solved exactly: won/lost/limit counts, the rate
        of decided deals with a Wilson 95% interval, and its band with the limits counted lost
        and won.  --per-deal FILE keeps each deal's record (docs/runs.md); --resume continues
        a run from it."""
        tuning = split_tuning(kwargs)
        rules = game.parse_rules(rules_text)
        limits = make_limits(game, rules, max_states, max_nodes, max_seconds, tuning,
                             1 if run["scheduler"] else run["jobs"])
        first = game.run_numbers(seed, start, deals)
        summary = winrate.win_rate(game, rules, seed, start, deals, limits, tuning, run)
        if as_json:
            clitools.emit_json(summary)
            return
        click.echo(stats.format_win_summary(
            f"{game.title} {summary['rules']}, "
            f"{'seeds' if game.deal_key == 'seed' else 'deals'} {first[0]}..{first[-1]}"
            + (f" of seed {seed}" if game.deal_key != "seed" else ""), summary))
        for line in game.summary_lines(summary):
            click.echo(line)
        s = summary["seconds"]
        click.echo(f"solve seconds per deal: median {s['median']:.4f}, p99 {s['p99']:.4f}; "
                   f"wall {summary['wall_seconds']:.1f} s")

    return with_note(command, game)
