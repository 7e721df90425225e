"""Calculator vs exact oracle on random small Spider positions, and the seed's two algorithms.

    nice -n 10 python benchmarks/spider_agreement.py --positions 10000

For each position (seed 0..N-1): the most empty stacks by reversible moves, one random move
question (possible? fewest empty stacks needed?) and one ``off`` question for the seed
algorithms, answered by the calculator and by the oracle; every oracle line of moves is
replayed by the rules module.  Prints markdown tables.
"""
from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from solvers.result import Limits, Status
from solvers.spider import (ask, calc, format_board, oracle, parse_board, random_board,
                            random_question)
from solvers.spider import seed_algorithms
from solvers.spider.question import goal_fn, group_start
from solvers.spider.rules import FACE_DOWN, empty_count, follows, replay, unit_starts


def helper_rich(rng: random.Random):
    """A long run on a face-down card, other stacks whose tops may take some of its cards."""
    top = rng.randint(6, 13)
    run = [f"{'A23456789TJQK'[top - 1 - i]}{rng.choice('HS')}" for i in range(rng.randint(3, 6))]
    others = []
    for _ in range(rng.randint(2, 3)):
        r = rng.randint(max(1, top - 6), min(13, top + 1))
        extra = (f" {'A23456789TJQK'[r - 2]}{rng.choice('HS')}"
                 if r > 1 and rng.random() < 0.3 else "")
        others.append(f"## {'A23456789TJQK'[r - 1]}{rng.choice('CD')}{extra}")
    board = parse_board(" | ".join(["## " + " ".join(run)] + others + [""] * rng.randint(0, 2)))
    return board, ask(board, 0, rng.randint(1, len(unit_starts(board[0]))))


def timed(fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--max-states", type=int, default=200_000)
    args = parser.parse_args()
    limits = Limits(nodes=args.max_states)
    counts: Counter = Counter()
    seconds = Counter()
    disagree = []
    seed_rows: Counter = Counter()
    examples: dict = {}

    def seed_check(board, q, family):
        exact = oracle.answer(board, q, limits)
        if exact.status is Status.LIMIT:
            counts["seed limit"] += 1
            return
        need = oracle.needed_empty_stacks(board, q, limits)
        group = board[q.src][group_start(board[q.src], q.units, q.src + 1):]
        helped = any(follows(c, s[-1]) for c in group for i, s in enumerate(board)
                     if i != q.src and s and s[-1] != FACE_DOWN)
        for rule in seed_algorithms.RULES:
            says = seed_algorithms.decide(board, q, rule)
            n = seed_algorithms.needed(board, q, rule)
            why = "right" if says == exact.solved else (
                "wrong: a stack can be freed" if calc.max_empty_stacks(board).value
                > empty_count(board) else "wrong: helpers exposed or runs regrouped")
            seed_rows[(family, rule, helped, why)] += 1
            seed_rows[(family, rule, "needed", n == need.value)] += 1
            if says != exact.solved and len(examples.setdefault((rule, why), [])) < 3:
                examples[(rule, why)].append((format_board(board), q.src + 1, q.units,
                                              [str(m) for m in exact.moves]))

    for seed in range(args.positions):
        rng = random.Random(seed)
        board = random_board(rng, stacks=rng.randint(3, 5), ranks=rng.choice((5, 6, 9, 13)))
        fast, tc = timed(calc.max_empty_stacks, board, limits)
        slow, to = timed(oracle.max_empty_stacks, board, limits)
        seconds["calc"] += tc
        seconds["oracle"] += to
        counts["positions"] += 1
        if Status.LIMIT in (fast.status, slow.status):
            counts["dof limit"] += 1
        else:
            counts[f"dof {fast.details['method']}"] += 1
            replay(board, slow.moves, reversible=True)
            if fast.value != slow.value:
                disagree.append(("dof", format_board(board), fast.value, slow.value))
        q = random_question(rng, board)
        if q is not None:
            (fa, fn), tc = timed(lambda: (calc.answer(board, q, limits),
                                          calc.needed_empty_stacks(board, q, limits)))
            (sa, sn), to = timed(lambda: (oracle.answer(board, q, limits),
                                          oracle.needed_empty_stacks(board, q, limits)))
            seconds["calc"] += tc
            seconds["oracle"] += to
            if Status.LIMIT in (fa.status, fn.status, sa.status, sn.status):
                counts["question limit"] += 1
            else:
                counts[f"{q.kind}: possible? by {fa.details['method']}"] += 1
                counts[f"{q.kind}: needed? by {fn.details['method']}"] += 1
                small, rq, _, pure = calc.reduce(board, q)
                if not pure and fn.details["method"] != "already there":
                    counts[f"{q.kind}: not pure"] += 1
                    counts[f"{q.kind}: not pure, helpers save empty stacks"] += (
                        sn.value < calc.needed(small, rq))
                if sa.solved:
                    assert goal_fn(board, q)(replay(board, sa.moves))
                if fa.status is not sa.status or fn.value != sn.value:
                    disagree.append((q.kind, format_board(board), fa.status, sa.status,
                                     fn.value, sn.value))
        off_sources = [i for i in range(len(board)) if unit_starts(board[i])]
        if off_sources:
            src = rng.choice(off_sources)
            seed_check(board, ask(board, src, rng.randint(1, len(unit_starts(board[src])))),
                       "random")
        seed_check(*helper_rich(rng), "helper-rich")

    print(f"positions: {counts['positions']}, disagreements: {len(disagree)}")
    for d in disagree[:10]:
        print("DISAGREE", d)
    print("\n| answered by | count |\n|---|---:|")
    for key in sorted(k for k in counts if k != "positions"):
        print(f"| {key} | {counts[key]} |")
    print(f"\ncalculator {seconds['calc']:.1f} s, oracle {seconds['oracle']:.1f} s, "
          f"ratio {seconds['oracle'] / seconds['calc']:.1f}")
    print("\n| family | rule | a helper fits | verdict | count |\n|---|---|---|---|---:|")
    for key in sorted(seed_rows, key=str):
        print(f"| {' | '.join(map(str, key))} | {seed_rows[key]} |")
    for (rule, why), rows in sorted(examples.items()):
        for board, src, units, moves in rows:
            print(f"\n{rule} {why}: `{board}`, {units} unit(s) off stack {src}; oracle: "
                  f"{', '.join(moves)}")


if __name__ == "__main__":
    main()
