"""The capacity formulas and the exchange rule, checked by exact search on pure boards.

    nice -n 10 python benchmarks/spider_rules.py

Pure boards: single-card units alternating spades and hearts, ranks chosen so that no card can
go anywhere but the empty stacks and its intended destination.  For each n the oracle finds the
largest k it can move (stopping at the first failure or when the 13 ranks run out), and for
each pair (a, b) the fewest empty stacks that exchange them.  Prints markdown tables.
"""
from __future__ import annotations

import argparse
import time

from solvers.spider import ask, calc, oracle, parse_board

RANKS = "A23456789TJQK"


def chain(top: int, k: int, first_suit: int = 0) -> str:
    return " ".join(RANKS[top - 1 - i] + "SH"[(i + first_suit) % 2] for i in range(k))


def board_for(kind: str, k: int, n: int, whole: bool):
    base = "" if whole else "## "
    if kind == "onto":
        text = base + chain(11, k) + " | ## QD" + " | " * n
    else:
        text = base + chain(12, k) + " | " * n
    board = parse_board(text)
    return board, ask(board, 0, k, None if kind == "off" else 1)


def capacities() -> None:
    print("| question | source | n | formula | largest k moved by search | states | seconds |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for kind in ("off", "onto", "into"):
        for whole in (False, True):
            for n in range(0 if kind != "into" else 1, 5):
                t0, states, best, k = time.perf_counter(), 0, 0, 1
                while k <= (11 if kind == "onto" else 12):
                    board, q = board_for(kind, k, n, whole)
                    result = oracle.answer(board, q)
                    states += result.nodes
                    if not result.solved:
                        break
                    best, k = k, k + 1
                capped = "" if k <= (11 if kind == "onto" else 12) else " (ranks ran out)"
                cap = calc.capacity(kind, n, whole and kind == "into")
                print(f"| {kind} | {'whole stack' if whole else 'on ##'} | {n} | {cap} | "
                      f"{best}{capped} | {states} | {time.perf_counter() - t0:.2f} |")


BASES = {"both on cards": (True, True), "B whole stack": (True, False),
         "both whole stacks": (False, False)}


def exchanges() -> None:
    print("\n| bases | a \\ b | " + " | ".join(str(b) for b in range(1, 11)) + " |")
    print("|---|---|" + "---:|" * 10)
    wrong = 0
    for name, (on_a, on_b) in BASES.items():
        for a in range(1, 11):
            row = []
            for b in range(1, 11):
                if a + b > 11 or (not on_a and a + b > 9):
                    row.append("")
                    continue
                x0 = 11 - b
                a0 = "## KD " if on_a else ""
                b0 = f"## {RANKS[x0]}C " if on_b else ""
                board = parse_board(f"{a0}{chain(x0, a)} | {b0}{chain(12, b, 1)}")
                q = ask(board, 0, a, 1, b)
                exact = oracle.needed_empty_stacks(board, q).value
                rule = calc.exchange_needed(a, b, whole=not (on_a or on_b))
                wrong += exact != rule
                row.append(str(exact) if exact == rule else f"{exact} (rule {rule})")
            print(f"| {name} | {a} | " + " | ".join(row) + " |")
    print(f"\nexchange rule disagreements: {wrong}")


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    capacities()
    exchanges()
