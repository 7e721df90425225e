"""Win rates of any game: a seed's deals solved exactly on the run engine, one record a deal.

A record (docs/runs.md) names its deal by the game's ``deal_key`` and holds ``result`` (won,
lost or limit), ``value`` (the game's value of the position the solve reached: cards home, the
score...), ``nodes``, ``seconds``, ``stopped_by`` on a limit, and the game's own fields
(``Game.record``).  Every winning line is replayed by the game's rules before it is recorded,
and a resumed record's line too when it keeps one.
"""
from __future__ import annotations

import time
from functools import partial

from puzzlegen import runs
from solvers import game as games, stats
from solvers.result import Limits, SolveResult, Status


def checked(game: games.Game, deal, rules, result: SolveResult,
            played: list = ()) -> SolveResult:
    """``result`` once its line, after the moves ``played`` before its start, replays from
    ``deal`` by the game's rules to the win and the value it claims (else ``AssertionError``:
    a solver bug, never a result)."""
    if result.solved or result.moves:
        problem = game.line_problem(deal, rules, [*played, *result.moves], result.solved,
                                    result.value)
        if problem:
            raise AssertionError(f"the {game.name} solver's line {problem}")
    return result


def solved(game: games.Game, number: int | None, deal, rules, limits: Limits,
           tuning: dict, played: list = (), start=None) -> SolveResult:
    """The solve of ``deal`` (numbered ``number``, or None for a deal given as text), from
    ``start``, the position the moves ``played`` reach (``Game.start_after``), if given; its
    line replayed by the rules."""
    tuning = tuning if start is None else {**tuning, "start": start}
    result = (game.solve(deal, rules, limits, **tuning) if number is None else
              game.solve_numbered(number, deal, rules, limits, **tuning))
    return checked(game, deal, rules, result, played)


def play(number: int, game_name: str, rules_text: str, seed: int, limits: Limits,
         tuning: dict) -> dict:
    """The record of the deal a run of ``seed`` numbers ``number`` (a run's function)."""
    game = games.get(game_name)
    rules = game.parse_rules(rules_text)
    deal = game.numbered_deal(seed, number, rules)
    result = solved(game, number, deal, rules, limits, tuning)
    record = {game.deal_key: number, "result": stats.OUTCOME[result.status],
              "value": result.value, "nodes": result.nodes,
              "seconds": round(result.seconds, 6)}
    if result.status is Status.LIMIT:
        record["stopped_by"] = result.details.get("stopped_by", {}).get("limit", "unknown")
    return {**record, **game.record(deal, rules, result)}


def check(number: int, record: dict, game_name: str, rules_text: str, seed: int) -> None:
    """A resumed :func:`play` record (a run's ``check``): its fields, and a line it keeps
    replayed on its deal to the win and value it claims; ``ValueError`` naming what is wrong."""
    game = games.get(game_name)
    rules = game.parse_rules(rules_text)
    runs.check_fields(record, {game.deal_key: number,
                               "result": tuple(stats.OUTCOME.values()),
                               "value": (None, range(-2 ** 63, 2 ** 63)),
                               "nodes": range(2 ** 63), "seconds": float,
                               **game.record_fields(rules)},
                      optional={"stopped_by": str})
    if record.get("moves"):
        problem = game.line_problem(game.numbered_deal(seed, number, rules), rules,
                                    record["moves"], record["result"] == "won", record["value"])
        if problem:
            raise ValueError(f"its line {problem}")


def summarize(game: games.Game, rules, records: list[dict]) -> dict:
    """The win figures every game shares (:func:`solvers.stats.tally`), solve seconds per
    deal, and the game's own figures (``Game.summary``)."""
    return {**stats.tally(records),
            "seconds": stats.seconds_summary([r["seconds"] for r in records]),
            **game.summary(records, rules)}


def warm_up(deal_text: str, game_name: str, rules_text: str, limits: Limits,
            tuning: dict) -> None:
    """Load the game's kernels (a run's setup, or before a solve, so that no deal's time is
    the loading's): ``deal_text`` solved with a limit of one node."""
    game = games.get(game_name)
    rules = game.parse_rules(rules_text)
    game.solve(game.parse_deal(deal_text, rules), rules, Limits(nodes=1, states=limits.states),
               **tuning)


def win_rate(game: games.Game, rules, seed: int, start: int, deals: int, limits: Limits,
             tuning: dict, run: dict) -> dict:
    """Solve deals ``start .. start + deals - 1`` of ``seed`` on the run engine (``run``: its
    ``jobs``, ``scheduler``, ``per_deal``, ``resume``) and summarise them."""
    text = game.format_rules(rules)
    settings = {"rules": text, "seed": seed, "max_nodes": limits.nodes,
                "max_states": limits.states, "max_seconds": limits.seconds, **tuning}
    started = time.perf_counter()
    numbers = game.run_numbers(seed, start, deals)
    keys = dict(game_name=game.name, rules_text=text, seed=seed)
    solved = runs.run(partial(play, **keys, limits=limits, tuning=tuning), numbers,
                      key=game.deal_key,
                      fingerprint={"command": f"{game.name} winrate", **settings},
                      check=partial(check, **keys),
                      setup=partial(warm_up, game.format_deal(game.numbered_deal(
                          seed, numbers[0], rules)), game.name, text, limits, tuning),
                      desc=f"{game.name} {text}", **run)
    # The summary keeps the records without their lines: a million deals stay small.
    records = [{k: v for k, v in record.items() if k != "moves"} for record in solved]
    return {**settings, "start": start, **summarize(game, rules, records),
            "wall_seconds": round(time.perf_counter() - started, 3)}
