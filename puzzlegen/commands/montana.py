"""``puzzlegen montana``: solve a game (every round's moves) and measure win rates."""
from __future__ import annotations

import time
from functools import partial

import click

from puzzlegen import clitools, runs, stats
from puzzlegen.commands.design import add_design_commands
from solvers.errors import BadInput
from solvers.montana import (FORGET_MAX_NODES, FORGET_MAX_STATES, Rules, Search,
                             deal_from_seed, format_grid, game_json, parse_deal, solve)
from solvers.montana.api import table_bytes, table_states
from solvers.montana.rules import apply_move, legal_moves
from solvers.result import Limits, Status


def rule_options(fn):
    """The options shared by ``solve`` and ``winrate``: deck, variant, redeals, limits."""
    options = [
        click.option("--ranks", type=clitools.INT, default=13, show_default=True,
                     help="Ranks A..N in four suits; four rows of N columns."),
        click.option("--redeals", type=clitools.INT, default=2, show_default=True,
                     help="Reshuffles after the first deal (0: a single deal)."),
        click.option("--gaps", type=click.Choice(["after-locked", "random"]),
                     default="after-locked", show_default=True,
                     help="Where a redeal puts the gaps: right after each row's locked cards, "
                          "or at random (the aces shuffled in and removed again)."),
        click.option("--movable-twos", is_flag=True,
                     help="A Two already in the first column may also move to another "
                          "first-column gap (Solitaire Laboratory's rule)."),
        click.option("--max-states", type=clitools.COUNT, default=FORGET_MAX_STATES,
                     show_default=True,
                     help="Layouts kept per round (the transposition table: about 2.7 GB for "
                          "52 cards at the default); a full table forgets, or with "
                          "--no-forget ends the round with 'limit'."),
        clitools.option("--max-seconds", deprecated="--seconds", type=clitools.POSITIVE,
                        default=None, help="Time limit of a deal's search, shared by its "
                                           "rounds (default none)."),
        click.option("--max-nodes", type=clitools.COUNT, default=None,
                     help="Moves a deal's search may make, shared by its rounds.  Default with "
                          f"the forgetting table and no --max-seconds: {FORGET_MAX_NODES:,}, "
                          "which decides 99.9% of random 52-card deals with movable Twos (half "
                          "within a second, 92% within a minute, the hardest in up to about 2 "
                          "hours on one core); none with --no-forget."),
        click.option("--forget/--no-forget", default=True, show_default=True,
                     help="When a round's table is full, forget searched layouts that cannot "
                          "recur (searched again if met again) rather than stop: the answer "
                          "of an unbounded table, ended only by --max-nodes or --max-seconds."),
        click.option("--prune", is_flag=True,
                     help="Skip layouts whose stuck cards bound them below the best seen "
                          "(sound; slower on random deals, see docs/montana.md)."),
        click.option("--hop-budgets", default=",".join(map(str, Search.hop_budgets)),
                     show_default=True,
                     help="With --movable-twos: first look for a win with at most this many "
                          "Two moves between first-column gaps, one pass each, in turn "
                          "(comma-separated; none: no such passes)."),
        click.option("--pass-states", type=clitools.COUNT, default=Search.pass_states,
                     show_default=True, help="Layouts kept in each of those passes."),
        click.option("--no-columns", is_flag=True,
                     help="With --movable-twos: search layouts, not first-column classes."),
        click.option("--no-bound", is_flag=True,
                     help="With --movable-twos: no bound on the locked cards a layout can "
                          "still reach."),
        click.option("--no-reach", is_flag=True,
                     help="With --movable-twos: bound from the cards that can move, once the "
                          "Twos fill the first column, not from the cells each card can reach."),
        click.option("--no-safe", is_flag=True,
                     help="With --movable-twos: once the Twos fill the first column, do not "
                          "play a safe move (a card onto its row's locked run) alone."),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


def _rules(ranks: int, gaps: str, movable_twos: bool) -> Rules:
    return Rules(ranks, movable_twos=movable_twos, random_gaps=gaps == "random")


def parse_budgets(text: str) -> tuple[int, ...]:
    """``--hop-budgets``: comma-separated hop budgets, or ``none``."""
    if text.strip().lower() == "none":
        return ()
    try:
        return tuple(clitools.plain_int(part) for part in text.split(","))
    except ValueError:
        raise BadInput(f"--hop-budgets takes comma-separated numbers or none, got {text!r}") \
            from None


def _search(budgets: str, pass_states: int, no_columns: bool, no_bound: bool,
            no_reach: bool, no_safe: bool) -> Search:
    return Search(columns=not no_columns, bound=not no_bound, reach=not no_reach,
                  safe=not no_safe, hop_budgets=parse_budgets(budgets), pass_states=pass_states)


def _limits(max_seconds: float | None, max_nodes: int | None, forget: bool, redeals: int,
            max_states: int, rules: Rules, search: Search, jobs: int = 1) -> Limits:
    """The limits of the options, checked before any work (the tables of ``jobs`` processes
    must fit in memory); a ``forget`` search given no limit gets :data:`FORGET_MAX_NODES`."""
    if redeals < 0:
        raise BadInput(f"--redeals must be at least 0, got {redeals}")
    states = table_states(rules, max_states, search)
    sized_by = f"--max-states {max_states}" if states == max_states \
        else f"--pass-states {search.pass_states}"
    clitools.check_memory(sized_by + (f" with {jobs} jobs" if jobs > 1 else ""),
                          jobs * table_bytes(states, rules.ranks))
    if forget and max_nodes is None and max_seconds is None:
        max_nodes = FORGET_MAX_NODES
    return Limits(nodes=max_nodes, seconds=max_seconds)


cli = clitools.group("montana", help="Montana (Gaps): solve a game with redeals, win rates.")


@cli.command("solve")
@click.argument("deal", nargs=-1)
@click.option("--seed", type=clitools.IntRange(0), default=None,
              help="Deal the deck shuffled by this seed.")
@click.option("--redeal-seed", type=clitools.INT, default=None,
              help="Seed of the reshuffles (default: --seed, or 0 for a DEAL).")
@click.option("--choices", is_flag=True,
              help="Also solve the game after every legal move of the first layout (same "
                   "rules, reshuffles and limits): which keep it winnable.")
@rule_options
@clitools.json_option
def solve_cmd(deal, seed, redeal_seed, choices, ranks, redeals, gaps, movable_twos, max_states,
              max_seconds, max_nodes, forget, prune, hop_budgets, pass_states, no_columns,
              no_bound, no_reach, no_safe, as_json):
    """Solve a game: each round exactly for the most locked cards, then a seeded redeal.

    DEAL lists the 4N cards row-major, aces included (they become the gaps), e.g. for
    --ranks 5: "3C AD 4S 2H 5D ..."; or give --seed S instead.
    """
    rules = _rules(ranks, gaps, movable_twos)
    search = _search(hop_budgets, pass_states, no_columns, no_bound, no_reach, no_safe)
    limits = _limits(max_seconds, max_nodes, forget, redeals, max_states, rules, search)
    if (seed is None) == (not deal):
        raise BadInput("give either a DEAL or --seed, not both and not neither")
    cells = deal_from_seed(seed, ranks) if seed is not None else parse_deal(" ".join(deal), ranks)
    game = partial(solve, limits=limits, rules=rules, redeals=redeals,
                   redeal_seed=redeal_seed if redeal_seed is not None else seed or 0,
                   max_states=max_states, prune=prune, search=search, forget=forget)
    result = game(cells)
    out = game_json(result)
    if choices:
        out["choices"] = stats.choices([(move, game(apply_move(cells, move, rules)).status)
                                        for move in legal_moves(cells, rules)])
    if as_json:
        clitools.emit_json(out)
        return
    for i, rnd in enumerate(result.details["rounds"], 1):
        r = rnd.result
        how = {Status.SOLVED: "won", Status.UNSOLVABLE: "the most possible",
               Status.LIMIT: "best found before the limit"}[r.status]
        click.echo(f"round {i}: {r.value} of {rules.target} cards locked ({how}), "
                   f"{r.details['states']} states")
        click.echo(format_grid(rnd.deal, ranks))
        click.echo("moves: " + (" ".join(str(m) for m in r.moves) or "(none)"))
    click.echo(f"{'won' if result.details['won'] else 'not won'}"
               + (f": stopped by {limit_text(result.details['stopped_by'])}"
                  if result.status is Status.LIMIT else ""))
    if choices:
        clitools.echo_choices(out["choices"], "the game")


def limit_text(stop: dict) -> str:
    """The limit that stopped a game, for people: "the limit of 1,000 moves (--max-nodes)"."""
    value = stop["value"]
    return {"states": lambda: f"the limit of {value:,} layouts in a round's table (--max-states)",
            "nodes": lambda: f"the limit of {value:,} moves (--max-nodes)",
            "seconds": lambda: f"the time limit of {value:g} s (--max-seconds)",
            "depth": lambda: f"the depth limit of {value:,} moves in one line of play",
            }[stop["limit"]]()


def play(seed: int, rules: Rules, redeals: int, limits: Limits, max_states: int,
         prune: bool, search: Search = Search(), forget: bool = False) -> dict:
    """One deal of a win-rate run (a run's function: seed -> per-deal line).

    ``first`` is the first round's outcome: the same deal and search as a run with
    ``--redeals 0``, so one run with redeals also measures the single deal.
    """
    result = solve(deal_from_seed(seed, rules.ranks), limits, rules, redeals, seed, max_states,
                   prune, search, forget)
    first = result.details["rounds"][0].result
    return {"seed": seed, "result": stats.OUTCOME[result.status], "locked": result.value,
            "rounds": len(result.details["rounds"]), "states": result.details["states"],
            "seconds": round(result.seconds, 6),
            "first": {"result": stats.OUTCOME[first.status], "locked": first.value,
                      "states": first.details["states"]}}


def check_play(seed: int, record: dict, rules: Rules, redeals: int) -> None:
    """The fields of a resumed :func:`play` record and their ranges (a run's ``check``)."""
    round_ = {"result": tuple(stats.OUTCOME.values()), "locked": range(rules.target + 1),
              "states": range(2 ** 63)}
    runs.check_fields(record, {"seed": int, **round_, "rounds": range(1, redeals + 2),
                               "seconds": float, "first": round_})


def warm_up() -> None:
    """Load the kernel (a run's setup, so no deal's time is the loading's)."""
    solve(deal_from_seed(0, 3), rules=Rules(3))


def _tally(outcomes: list[dict]) -> dict:
    """The win figures every game shares (:func:`puzzlegen.stats.win_summary`), and the mean
    locked cards."""
    return {**stats.tally(outcomes),
            "mean_locked": sum(o["locked"] for o in outcomes) / len(outcomes)}


def summarize(rows: list[dict], settings: dict) -> dict:
    """The ``winrate --json`` object of per-deal rows: the game's tally, seconds per deal, and
    ``first_round``, the tally of the first deal alone (no reshuffle)."""
    return {**settings, **_tally(rows),
            "seconds": stats.seconds_summary([r["seconds"] for r in rows]),
            "first_round": _tally([r["first"] for r in rows])}


def _print_tally(label: str, t: dict) -> None:
    click.echo(stats.format_win_summary(label, t) + f"; mean locked {t['mean_locked']:.2f}")


#: Memory a deal of a ``winrate`` run takes (its task and its record, measured: about 1 kB).
RECORD_BYTES = 1500
#: The run settings' former names: a per-deal file begun with ``--seconds`` is resumed.
RENAMED = {"seconds_limit": "max_seconds"}


@cli.command("winrate")
@click.option("--deals", type=clitools.IntRange(1), required=True, help="Number of deals.",
              callback=clitools.memory_check(lambda deals: deals * RECORD_BYTES))
@click.option("--seed", type=clitools.IntRange(0), default=0, show_default=True,
              help="Deals use seeds S, S+1, ...")
@rule_options
@clitools.run_options
@clitools.json_option
def winrate_cmd(deals, seed, ranks, redeals, gaps, movable_twos, max_states, max_seconds,
                max_nodes, forget, prune, hop_budgets, pass_states, no_columns, no_bound,
                no_reach, no_safe, run, as_json):
    """Win rate over seeded deals: won/lost/limit counts, the rate of decided deals with a
    Wilson 95% interval, and its band with the limits counted lost and won."""
    rules = _rules(ranks, gaps, movable_twos)
    search = _search(hop_budgets, pass_states, no_columns, no_bound, no_reach, no_safe)
    limits = _limits(max_seconds, max_nodes, forget, redeals, max_states, rules, search,
                     1 if run["scheduler"] else run["jobs"])
    settings = {"ranks": ranks, "redeals": redeals, "gaps": gaps, "movable_twos": movable_twos,
                "max_states": max_states, "max_seconds": max_seconds, "prune": prune,
                **({"search": vars(search)} if movable_twos else {}),
                **({"max_nodes": limits.nodes} if limits.nodes is not None else {}),
                **({"forget": True} if forget else {})}
    started = time.perf_counter()
    rows = list(runs.run(partial(play, rules=rules, redeals=redeals, limits=limits,
                                 max_states=max_states, prune=prune, search=search,
                                 forget=forget),
                         range(seed, seed + deals), key="seed",
                         fingerprint={"command": "montana winrate", **settings},
                         renamed=RENAMED,
                         check=partial(check_play, rules=rules, redeals=redeals),
                         setup=warm_up, desc="montana", **run))
    summary = {**summarize(rows, {"seed": seed, **settings}),
               "wall_seconds": round(time.perf_counter() - started, 3)}
    if as_json:
        clitools.emit_json(summary)
        return
    click.echo(f"{deals} deals (ranks {ranks}, redeals {redeals}, gaps {gaps}"
               f"{', movable twos' if movable_twos else ''}), of {rules.target} cards")
    _print_tally("game", summary)
    if redeals:
        _print_tally("first deal alone", summary["first_round"])
    click.echo(f"seconds per deal median {summary['seconds']['median']:.4f}, "
               f"p99 {summary['seconds']['p99']:.4f}")


add_design_commands(cli, "montana")
