"""The StacksSquared research data set: one row per seeded deal, every figure the grade computes
and the deal's structure, as compressed CSV and (with pyarrow) Parquet.

    python examples/stacksquared_dataset.py --rules 4x4 --deals 100000 --jobs 2 \\
        --per-deal 4x4.jsonl --out 4x4.csv.gz [--parquet 4x4.parquet]
    python examples/stacksquared_dataset.py --rules 4x4 --deals 100000 --jobs 2 \\
        --per-deal 4x4.jsonl --resume --out 4x4.csv.gz      # go on after a stop
    python examples/stacksquared_dataset.py --rules 4x4 --deals 100000 --jobs 2 \\
        --structure-only --per-deal 4x4s.jsonl --out 4x4s.csv.gz   # no difficulty figures

The deals are the game's seeded deals (FreeCell deal numbers ``--seed``, ``--seed`` + 1, ...), so
anyone can rebuild the set; each is graded as ``puzzlegen stacksquared grade`` grades it
(``difficulty.figures``: exact where the game tree allows, else estimated) on the run engine,
whose per-deal file a later run continues (``--resume``).  ``--structure-only`` leaves the
grade out: the solver's single stack and maximum score and the deal's structure, about a
millisecond a 4x4 deal, with the difficulty columns empty.  The columns are in docs/research.md
(``COLUMNS`` below).
"""
from __future__ import annotations

import argparse
import csv
import gzip
import io
import time
from functools import partial

from puzzlegen import runs
from puzzlegen.clitools import jobs_argument
from puzzlegen.fileio import write_atomic
from puzzlegen.grading import level_of, load, percentile_of
from solvers import game as games
from solvers.errors import BadInput, LimitReached
from solvers.stacksquared.api import solve
from solvers.stacksquared.difficulty import PLAYERS, components, figures, graph_figures
from solvers.stacksquared.rules import Position, compatible

GAME = games.get("stacksquared")
#: The columns, in order; a deal without a single stack leaves the difficulty columns empty.
COLUMNS = ["seed", "rows", "cols", "cards", "solvable", "max_score", "limit",
           *(f"{name}{part}" for name in PLAYERS for part in ("", "_exact")),
           "halfway", "halfway_exact", "hardness", "hardness_exact", "percentile", "level",
           "skill", "first_moves", "winning_first_share",
           "compat_edges", "line_edges", "odd_cards", "flocks", "min_degree", "max_degree",
           "pendant_cards", "line_components", "largest_suit", "distinct_ranks", "seconds"]


def structure(deal) -> dict:
    """Attributes of the deal beyond the grade's graph figures: the compatibility degrees (the
    fewest and most partners of a card), the cards with exactly one partner, the components of
    the graph of compatible cards sharing a line, the most cards of one suit and the ranks
    dealt."""
    cards, n = deal.cards, deal.size
    position = Position.start(deal)
    partners = [[b for b in range(n) if b != a and compatible(cards[a], cards[b])]
                for a in range(n)]
    in_line = [(a, b) for a in range(n) for b in partners[a] if position.same_line(a, b)]
    degrees = [len(p) for p in partners]
    suits = [sum(card.suit == s for card in cards) for s in {card.suit for card in cards}]
    return {"min_degree": min(degrees), "max_degree": max(degrees),
            "pendant_cards": degrees.count(1), "line_components": components(n, in_line),
            "largest_suit": max(suits), "distinct_ranks": len({card.rank for card in cards})}


def row(seed: int, rules_text: str, structure_only: bool = False) -> dict:
    """The data set's row of the deal of ``seed`` (a run's function); with ``structure_only``
    the solver's answers and the structure, without the grade."""
    rules = GAME.parse_rules(rules_text)
    deal = GAME.deal_from_seed(seed, rules)
    start = time.perf_counter()
    out = {"seed": seed, "rows": rules.rows, "cols": rules.cols, "cards": GAME.format_deal(deal),
           **structure(deal)}
    if structure_only:
        details = solve(deal).details
        limit = details["single_stack"] is None or details["max_score"] is None
        out.update(graph_figures(deal), limit=limit,
                   solvable=details["single_stack"], max_score=details["max_score"],
                   seconds=round(time.perf_counter() - start, 4))
        return out
    try:
        metrics, _ = figures(deal)
    except LimitReached:
        return {**out, "limit": True, "seconds": round(time.perf_counter() - start, 4)}
    out.update({key: metrics[key] for key in ("max_score", "compat_edges", "line_edges",
                                              "odd_cards", "flocks")},
               solvable=metrics["single_stack"], limit=False)
    if metrics["single_stack"]:
        for name, chance in metrics["players"].items():
            out[name], out[f"{name}_exact"] = chance["win"], chance["exact"]
        half = metrics["halfway"]
        out["halfway"], out["halfway_exact"] = half["ratio"], half["exact"]
        out["hardness"] = metrics["hardness"]
        out["hardness_exact"] = metrics["players"]["look3"]["exact"]
        percentile = percentile_of(load(GAME, rules), metrics["hardness"])
        out.update(percentile=round(percentile, 2), level=level_of(percentile),
                   skill=metrics["skill"], first_moves=metrics["first_moves"],
                   winning_first_share=round(metrics["winning_first_share"], 6))
    out["seconds"] = round(time.perf_counter() - start, 4)
    return out


def check_row(seed: int, record: dict) -> None:
    """``ValueError`` unless ``record`` is a row of :func:`row` (a resumed record)."""
    runs.check_fields(record, {"seed": int, "cards": str, "limit": (True, False)},
                      optional={name: object for name in COLUMNS})


def csv_text(rows: list[dict]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="4x4", help="the grid, e.g. 4x4 (it needs a calibration)")
    ap.add_argument("--deals", type=int, default=1000, help="deals (default 1,000)")
    ap.add_argument("--seed", type=int, default=1, help="the first seed (default 1)")
    ap.add_argument("--jobs", type=jobs_argument, default=1, help="worker processes")
    ap.add_argument("--per-deal", required=True, help="the run's per-deal file (JSON lines)")
    ap.add_argument("--resume", action="store_true", help="continue the run of --per-deal")
    ap.add_argument("--out", required=True, help="the data set as CSV (.csv.gz: gzipped)")
    ap.add_argument("--parquet", help="also write it as Parquet here (needs pyarrow)")
    ap.add_argument("--structure-only", action="store_true",
                    help="no grade: single stack, maximum score and structure only")
    args = ap.parse_args()
    try:
        if args.deals < 1 or args.seed < 0:
            raise BadInput("--deals must be 1 or more and --seed 0 or more")
        rules = GAME.parse_rules(args.rules)
        load(GAME, rules)   # a grid without a calibration is refused before any work
        text = GAME.format_rules(rules)
        seeds = GAME.run_numbers(args.seed, 0, args.deals)
        if args.parquet:
            import pyarrow  # noqa: F401  (refused before the run, not after it)
        fingerprint = {"command": "stacksquared_dataset", "rules": text}
        if args.structure_only:
            fingerprint["structure_only"] = True
        rows = list(runs.run(partial(row, rules_text=text, structure_only=args.structure_only),
                             seeds, key="seed", jobs=args.jobs, per_deal=args.per_deal,
                             resume=args.resume, check=check_row, desc="deals",
                             fingerprint=fingerprint))
    except ImportError:
        ap.exit(2, "error: --parquet needs pyarrow (pip install pyarrow)\n")
    except (BadInput, OSError) as exc:
        ap.exit(2, f"error: {exc}\n")
    body = csv_text(rows).encode()
    write_atomic(args.out, gzip.compress(body, mtime=0) if args.out.endswith(".gz") else body)
    if args.parquet:
        import pyarrow as pa
        import pyarrow.parquet as pq
        table = pa.Table.from_pylist([{c: r.get(c) for c in COLUMNS} for r in rows])
        sink = io.BytesIO()
        pq.write_table(table, sink)
        write_atomic(args.parquet, sink.getvalue())
    print(f"wrote {args.out}: {len(rows):,} deals of {text}")


if __name__ == "__main__":
    main()
