"""``puzzlegen agnes``: solve an Agnes Sorel deal, measure win rates (DESIGN.md contract)."""
from __future__ import annotations

import json
import math

import click

from puzzlegen import clitools
from puzzlegen.fileio import check_output, write_atomic
from puzzlegen.stats import proportion_summary
from solvers.errors import BadInput
from solvers.result import Limits, Status

RESULT = {Status.SOLVED: "won", Status.UNSOLVABLE: "lost", Status.LIMIT: "limit"}

rules_option = click.option("--rules", "rules_name", required=True,
                            help="Rule variant <Up|Down>-<Suit|Color>-<None|Any1|AnyRun|High1|"
                                 "HighRun>[-NoSplit], case-insensitive, e.g. Up-Suit-None.")
#: States a search examines by default (about a minute); deals a seed skips at most (reaching
#: deal K replays K shuffles, about 30 seconds a million).
DEFAULT_MAX_STATES, MAX_SKIP = 20_000_000, 1_000_000
#: Memory a deal of a ``winrate`` run takes (its task and its record, measured: about 4 kB).
RECORD_BYTES = 5000

max_states_option = click.option("--max-states", type=clitools.COUNT,
                                 default=DEFAULT_MAX_STATES, show_default=True,
                                 help="Stop a search after this many states: result 'limit'.")
table_option = click.option("--table-bits", type=click.IntRange(10, 30), default=21,
                            show_default=True,
                            help="Losing-state table of 2**BITS entries (64 bytes each).")


def check_table(table_bits: int, jobs: int = 1) -> None:
    """The losing-state tables of ``jobs`` processes must fit in the memory free."""
    clitools.check_memory(f"--table-bits {table_bits}" + (f" with {jobs} jobs" if jobs > 1 else ""),
                          jobs * (64 << table_bits))


cli = clitools.group("agnes", help="Agnes Sorel solitaire (every quagnes 1.1.0 rule variant): "
                                   "exact solver and win rates.")


@cli.command()
@rules_option
@click.option("--seed", type=click.IntRange(0), default=None,
              help="Deal from this seed (quagnes's decks).")
@click.option("--index", type=click.IntRange(0, MAX_SKIP), default=0, show_default=True,
              help="Deal number K of the seed (the (K+1)-th quagnes Agnes()).")
@click.option("--deck", "deck_file", type=str, default=None,
              help="Deck file: 52 cards in notation (base card first) or quagnes's "
                   "'(rank, suit)' lines.")
@max_states_option
@click.option("--max-score", "maximize", is_flag=True,
              help="Search every state for the highest score, even on a lost deal.")
@table_option
@clitools.json_option
def solve(rules_name, seed, index, deck_file, max_states, maximize, table_bits, as_json):
    """Solve one deal exactly and print the winning line of play."""
    from solvers import agnes
    rules = agnes.parse_rules(rules_name)
    check_table(table_bits)
    if (seed is None) == (deck_file is None):
        raise BadInput("give exactly one of --seed S (with --index K) or --deck FILE")
    deal = agnes.read_deck(deck_file) if deck_file else agnes.deal_from_seed(seed, index)
    result = agnes.solve(deal, rules, Limits(nodes=max_states), maximize=maximize,
                         table_bits=table_bits)
    out = {"rules": rules.name, "deal": agnes.format_deal(deal), "result": RESULT[result.status],
           "states": result.nodes, **result.to_json()}
    if as_json:
        clitools.emit_json(out)
        return
    click.echo(f"rules {rules.name}; deck {out['deal']}")
    click.echo(str(agnes.Board.start(deal, rules)))
    verdict = {"won": "won", "lost": "lost (no line of play wins)",
               "limit": "unknown: stopped by " + ("--max-states" if result.nodes >= max_states
                                                  else "the search's depth cap")}[out["result"]]
    click.echo(f"result: {verdict}; {result.nodes} states, {result.seconds:.3f} s; "
               f"max score {result.details['max_score']}"
               + ("" if result.details["max_score_exact"] else " (best found)"))
    if result.moves:
        click.echo("winning line:" if result.solved else "line of play reaching the max score:")
        for number, move in enumerate(result.moves, 1):
            click.echo(f"{number:4d}. {move}")


def _solve_one(task):
    """Worker: (index, deal, rules, max_states, table_bits) -> per-deal record."""
    from solvers import agnes
    index, deal, rules, max_states, table_bits = task
    result = agnes.solve(deal, rules, Limits(nodes=max_states), table_bits=table_bits,
                         with_moves=False)
    return {"index": index, "result": RESULT[result.status], "states": result.nodes,
            "max_score": result.details["max_score"], "seconds": round(result.seconds, 6)}


def _mean_sd(values: list[int]) -> tuple[float, float]:
    if not values:
        return 0.0, 0.0
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / (len(values) - 1) if len(values) > 1 else 0.0
    return mean, math.sqrt(var)


@cli.command()
@rules_option
@click.option("--deals", type=click.IntRange(1), required=True, help="Number of deals.",
              callback=clitools.memory_check(lambda deals: deals * RECORD_BYTES))
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True,
              help="Deals 0..N-1 of this seed (quagnes's decks after random.seed(S)).")
@click.option("--start", type=click.IntRange(0, MAX_SKIP), default=0, show_default=True,
              help="First deal index (to split a long run).")
@clitools.jobs_option
@max_states_option
@click.option("--per-deal", "per_deal", type=click.Path(dir_okay=False), default=None,
              help="Write one JSON line per deal to this file.")
@table_option
@clitools.json_option
def winrate(rules_name, deals, seed, start, jobs, max_states, per_deal, table_bits, as_json):
    """Win rate over many deals with a Wilson 95% interval; 'limit' results counted apart."""
    from solvers import agnes
    rules = agnes.parse_rules(rules_name)
    check_table(table_bits, jobs)
    if per_deal:
        check_output(per_deal, remedy="remove it or choose another --per-deal file")
    tasks = ((start + k, deal, rules, max_states, table_bits)
             for k, deal in enumerate(agnes.deals_from_seed(seed, start, deals)))
    records = list(clitools.progress(clitools.map_jobs(_solve_one, tasks, jobs, chunksize=4),
                                     total=deals, desc=rules.name))
    counts = {r: sum(1 for rec in records if rec["result"] == r) for r in RESULT.values()}
    done = [rec["states"] for rec in records if rec["result"] != "limit"]
    mean, sd = _mean_sd(done)
    summary = {"rules": rules.name, "seed": seed, "start": start, "deals": deals,
               "won": counts["won"], "lost": counts["lost"], "limit": counts["limit"],
               "win_rate": proportion_summary(counts["won"], deals),
               "win_rate_limits_won": proportion_summary(counts["won"] + counts["limit"], deals),
               "states_mean": mean, "states_sd": sd, "states_max": max(done, default=0),
               "seconds": round(sum(rec["seconds"] for rec in records), 3)}
    if per_deal:
        write_atomic(per_deal, "".join(
            json.dumps({k: rec[k] for k in ("index", "result", "states", "max_score")}) + "\n"
            for rec in records))
    if as_json:
        clitools.emit_json(summary)
        return
    lo, hi = summary["win_rate"]["wilson95"]
    click.echo(f"{rules.name}: {counts['won']} won of {deals} deals "
               f"({100 * counts['won'] / deals:.2f}%, Wilson 95% [{100 * lo:.2f}%, {100 * hi:.2f}%]);"
               f" {counts['lost']} lost, {counts['limit']} limit")
    if counts["limit"]:
        lo2, hi2 = summary["win_rate_limits_won"]["wilson95"]
        click.echo(f"  counting limits as wins: {counts['won'] + counts['limit']} "
                   f"[{100 * lo2:.2f}%, {100 * hi2:.2f}%]")
    click.echo(f"  states per finished deal: mean {mean:.1f}, sd {sd:.1f}, "
               f"max {summary['states_max']}; solver time {summary['seconds']:.1f} s")
