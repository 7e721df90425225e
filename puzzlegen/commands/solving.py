"""``solve`` and ``winrate`` for any game, built from the game contract: one command shape, one
meaning for each option (docs/architecture.md, "The command line")."""
from __future__ import annotations

import sys
from functools import partial

import click
from click.core import ParameterSource

from puzzlegen import clitools, codes, runs, winrate
from solvers import game as games, stats
from solvers.errors import BadInput
from solvers.result import Limits

#: Memory a deal of a ``winrate`` run takes (its task and its record, measured: about 1 kB).
RECORD_BYTES = 1500


#: ``--code CODE`` of every command that takes a deal.
code_option = click.option("--code", metavar="CODE",
                           help="The deal of a puzzle code (docs/codes.md), under its rules.")


def read_deal(game: games.Game, rules, deal: str | None, seed: int | None,
              code: str | None = None) -> tuple:
    """``(deal, rules)`` of exactly one of DEAL, --seed N and --code CODE: the rules of
    --rules, or those of the code (:func:`from_code`)."""
    if sum(x is not None for x in (deal, seed, code)) != 1:
        raise BadInput("give exactly one of a DEAL, --seed N or --code CODE")
    if code is not None:
        return from_code(game, rules, code)
    return (game.parse_deal(deal, rules) if deal is not None else
            game.deal_from_seed(seed, rules)), rules


def from_code(game: games.Game, rules, code: str) -> tuple:
    """``(deal, rules)`` of a puzzle code of ``game``; :class:`BadInput` for a code that is
    not one, another game's, or one of other rules than a ``--rules`` the command line gave."""
    owner, coded, deal = codes.decode(code)
    if owner is not game:
        raise BadInput(f"--code {codes.shown(code)} is a {owner.title} puzzle: give it to "
                       f"puzzlegen {owner.name}")
    if rules is not None and coded != rules and rules_given():
        raise BadInput(f"--code {codes.shown(code)} is a puzzle of the rules "
                       f"{game.format_rules(coded)}, not --rules {game.format_rules(rules)}")
    return deal, coded


def rules_given() -> bool:
    """Whether the running command's ``--rules`` was given (not its default)."""
    ctx = click.get_current_context(silent=True)
    param = ctx and next((p for p in ctx.command.params if "--rules" in p.opts), None)
    return bool(param) and ctx.get_parameter_source(param.name) not in (
        None, ParameterSource.DEFAULT)


def rules_option(game: games.Game):
    """``--rules`` of a command of ``game``: its default rules, its variants named."""
    return click.option("--rules", "rules_text", default=game.default_rules, show_default=True,
                        help=f"The rules, e.g. {', '.join(game.variants()[:4])}.")


def limit_options(game: games.Game):
    """``--max-states`` (positions stored), ``--max-nodes`` (positions examined) and
    ``--max-seconds`` of each search, defaulting to the game's ``default_limits``
    (:func:`make_limits` makes them one :class:`~solvers.result.Limits`)."""
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
    """``puzzlegen GAME solve``: the exact solve of one deal, from its start or after some
    moves, its line replayed by the game's rules before it is printed."""

    @click.command("solve")
    @click.argument("deal", nargs=-1)
    @click.option("--seed", type=clitools.DealNumber(game.seeds),
                  help="Deal the game's deal number N.")
    @clitools.option("--start", deprecated="--index", type=clitools.IntRange(0), default=None,
                     help="With --seed N: the deal a run of seed N numbers K (as winrate "
                          "--seed N --start K deals it first).")
    @code_option
    @clitools.option("--deal-file", deprecated="--deck", metavar="FILE", default=None,
                     help="The deal in FILE ('-' for stdin), the whole file one deal.")
    @click.option("--seeds", "seed_range", metavar="A..B",
                  help="Solve the deals of seeds A..B (inclusive) as a run; prints JSON lines.")
    @click.option("--input", "input_file", metavar="FILE",
                  help="Solve the deals in FILE ('-' for stdin), one a line, as a run; prints "
                       "JSON lines.")
    @rules_option(game)
    @click.option("--moves", "moves_text", metavar="LINE",
                  help="Moves already played, as solve prints a line: solve the position they "
                       "reach, and print the line that continues it.")
    @click.option("--choices", is_flag=True,
                  help="Also solve the position after each legal move (same rules and "
                       "limits): which keep it winnable.")
    @limit_options(game)
    @tuning_options(game)
    @clitools.jobs_option
    @clitools.scheduler_option
    @clitools.json_option
    def solve(deal, seed, start, code, deal_file, seed_range, input_file, rules_text,
              moves_text, choices, max_states, max_nodes, max_seconds, jobs, scheduler, as_json,
              **kwargs):
        """Solve DEAL (or --seed N, --code CODE, --deal-file FILE) exactly: 'solved' with a
        winning line, 'unsolvable', or 'limit' when a limit stopped the search (never a
        guess).  With --seeds or --input the deals are solved as a run (--jobs, --scheduler;
        docs/runs.md) and printed in order as JSON lines, each with its seed or deal."""
        tuning = split_tuning(kwargs)
        rules = game.parse_rules(rules_text)
        deal_text = " ".join(deal) if deal else None
        if sum(x is not None for x in (deal_text, seed, code, deal_file, seed_range,
                                       input_file)) != 1:
            raise BadInput("give exactly one of a DEAL, --seed N, --code CODE, --deal-file "
                           "FILE, --seeds A..B or --input FILE")
        if start is not None and seed is None:
            raise BadInput("--start K takes --seed N (deal K of a run of seed N)")
        if code is not None:
            the_deal, rules = from_code(game, rules, code)
            rules_text = game.format_rules(rules)
        limits = make_limits(game, rules, max_states, max_nodes, max_seconds, tuning,
                             1 if scheduler else jobs)
        if seed_range is not None or input_file is not None:
            if choices or moves_text is not None:
                raise BadInput(f"{'--choices' if choices else '--moves'} takes one deal, not "
                               "--seeds or --input")
            run_deals(game, rules_text, limits, tuning, seed_range, input_file, jobs, scheduler)
            return
        number = seed
        if deal_file is not None:
            the_deal = game.parse_deal(read_source(deal_file), rules)
        elif seed is not None:
            number = game.run_numbers(seed, start or 0, 1)[0]
            the_deal = game.numbered_deal(seed, number, rules)
        elif code is None:
            the_deal = game.parse_deal(deal_text, rules)
        winrate.warm_up(game.format_deal(the_deal), game_name=game.name, rules_text=rules_text,
                        limits=limits, tuning=tuning)  # the loading is not the solve's time
        played, at = [], None
        try:
            played = game.parse_line(moves_text or "")
            if played:
                at = game.start_after(the_deal, rules, played)
        except BadInput as exc:
            raise BadInput(f"--moves: {exc}") from None
        firsts = game.first_moves(the_deal, rules, at) if choices else []
        if firsts is None:
            raise BadInput(f"--choices: the {game.title} solver cannot start mid-game")

        def solved(before, position):
            return winrate.solved(game, number, the_deal, rules, limits, tuning, before, position)
        result = solved(played, at)
        out = {**as_record(game, result), "deal": game.format_deal(the_deal),
               "code": codes.encode(game, rules, the_deal)}
        if moves_text is not None:
            out["moves_played"] = len(played)
        if choices:
            out["choices"] = stats.choices([(game.format_move(move),
                                             solved([*played, move], after).status)
                                            for move, after in firsts])
        if as_json:
            clitools.emit_json(out)
            return
        click.echo(game.show_deal(the_deal))
        click.echo(f"code: {out['code']}")
        if played:
            click.echo(f"after {len(played)} moves:")
            click.echo(game.show_start(at))
        for line in game.result_lines(the_deal, rules, result):
            click.echo(line)
        click.echo(f"nodes: {result.nodes:,}  seconds: {result.seconds:.4f}")
        if out["moves"]:
            click.echo(("solution" if result.solved else "line") +
                       (f" from move {len(played) + 1}" if played else "") + ": " +
                       game.move_separator.join(out["moves"]))
        if choices:
            clitools.echo_choices(out["choices"], "the position" if played else "the deal")

    return with_note(solve, game)


def run_deals(game: games.Game, rules_text: str, limits: Limits, tuning: dict,
              seed_range: str | None, input_file: str | None, jobs: int, scheduler) -> None:
    """``solve --seeds A..B`` or ``--input FILE``: the deals solved as a run, printed in order
    as JSON lines."""
    rules = game.parse_rules(rules_text)
    # Seeds stay a range (a billion of them take no memory); deals are their texts.
    specs = (clitools.parse_seed_range(seed_range, game.seeds)
             if seed_range is not None else read_deal_lines(game, rules, input_file))
    first = specs[0] if isinstance(specs[0], str) else \
        game.format_deal(game.deal_from_seed(specs[0], rules))
    keys = dict(game_name=game.name, rules_text=rules_text, limits=limits, tuning=tuning)
    for out in runs.run(partial(solve_spec, **keys), specs, jobs=jobs, scheduler=scheduler,
                        setup=partial(winrate.warm_up, first, **keys),
                        desc=f"{game.name} deals"):
        clitools.emit_json(out)


def read_deal_lines(game: games.Game, rules, source: str) -> list[str]:
    """Deals from FILE or ``-`` (stdin), one a line, checked and in the game's notation; blank
    lines and ``#`` comments skipped."""
    deals = []
    for number, line in enumerate(read_source(source).splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if text:
            try:
                deals.append(game.format_deal(game.parse_deal(text, rules)))
            except BadInput as exc:
                raise BadInput(f"{source}, line {number}: {exc}") from None
    if not deals:
        raise BadInput(f"{'stdin' if source == '-' else source} holds no deal (one a line)")
    return deals


def read_source(source: str) -> str:
    """The text of FILE, or of stdin for ``-``; :class:`BadInput` for text that is not UTF-8
    (an unreadable file is the command line's one ``cannot use`` line)."""
    try:
        if source == "-":
            return sys.stdin.read()
        with open(source, encoding="utf-8") as fh:
            return fh.read()
    except UnicodeDecodeError:
        raise BadInput(f"{'stdin' if source == '-' else source} is not UTF-8 text") from None


def as_record(game: games.Game, result) -> dict:
    """A solve as JSON: the result's fields with the moves in the game's notation."""
    return {**result.to_json(), "moves": [game.format_move(m) for m in result.moves]}


def solve_spec(spec: int | str, game_name: str, rules_text: str, limits: Limits,
               tuning: dict) -> dict:
    """A run's function: a seed, or a deal's text -> the solve's record with its ``seed`` or
    ``deal``, its line replayed by the rules first."""
    game = games.get(game_name)
    rules = game.parse_rules(rules_text)
    seed = None if isinstance(spec, str) else spec
    deal = game.parse_deal(spec, rules) if seed is None else game.deal_from_seed(seed, rules)
    return {"deal" if seed is None else "seed": spec,
            **as_record(game, winrate.solved(game, seed, deal, rules, limits, tuning))}


def with_note(command: click.Command, game: games.Game) -> click.Command:
    """``command`` with the game's note on its default limits at the end of its help."""
    if game.limits_note:
        command.help = f"{command.help}\n\n{game.limits_note}"
    return command


def winrate_command(game: games.Game) -> click.Command:
    """``puzzlegen GAME winrate``: the deals of a seed solved exactly, their win rate."""
    numbers = "deals START.. of the seed" if game.deal_key != "seed" else "seeds SEED+START.."

    @click.command("winrate")
    @rules_option(game)
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
