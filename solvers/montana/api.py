"""Montana's public surface: parse and make deals, solve one round, play a game with redeals."""
from __future__ import annotations

import ctypes
import sys
import time
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from solvers.cards import Card
from solvers.errors import BadInput
from solvers.montana import kernel
from solvers.montana.rules import (ROWS, Cell, Move, Rules, check_layout, deal_from_seed,
                                   format_deal, format_grid, parse_deal, redeal, redeal_rng,
                                   replay)
from solvers.result import Limits, SolveResult, Status

DEFAULT_MAX_STATES = 10_000_000
MAX_DEPTH = 1 << 20  # a line of play longer than this ends the search with LIMIT
# The kernel's per-depth arrays, allocated once (the pages of deep rows only when first used):
# best line (src, dst), moves of each depth (src, dst), asleep, count, next, path (src, dst).
_WORK = (np.empty(MAX_DEPTH, np.int64), np.empty(MAX_DEPTH, np.int64),
         np.empty((MAX_DEPTH, kernel.MAX_MOVES), np.int64),
         np.empty((MAX_DEPTH, kernel.MAX_MOVES), np.int64),
         np.empty((MAX_DEPTH, kernel.MAX_MOVES), np.bool_),
         *(np.empty(MAX_DEPTH, np.int64) for _ in range(4)))

__all__ = ["DEFAULT_MAX_STATES", "Move", "Round", "Rules", "deal_from_seed", "format_deal",
           "format_grid", "game_json", "parse_deal", "solve", "solve_round"]

_tables: dict[tuple[int, int], list] = {}


def _packing(n: int) -> tuple[np.ndarray, np.ndarray, int, int]:
    """The table's key for ``n`` ranks (see kernel): each cell's word and multiplier, the number
    of words, and the bit where the generation stamp starts in the last word."""
    base = ROWS * (n - 1) + 1
    per = 1
    while base ** (per + 1) < 2 ** 64:
        per += 1
    cells = ROWS * n
    words = (cells + per - 1) // per
    shift = (base ** (cells - per * (words - 1)) - 1).bit_length()
    if shift > 48:  # fewer than 16 bits left for the stamp: give it a word of its own
        words, shift = words + 1, 0
    return (np.array([i // per for i in range(cells)], np.int64),
            np.array([base ** (i % per) for i in range(cells)], np.uint64), words, shift)


def _huge_zeros(shape: tuple[int, int]) -> np.ndarray:
    """Zeroed uint64 array on 2 MB-aligned memory marked for transparent huge pages (Linux;
    elsewhere a plain array): a table of gigabytes is probed at random, so 4 kB pages cost a
    TLB miss a probe."""
    huge = 1 << 21
    raw = np.zeros(shape[0] * shape[1] * 8 + huge, np.uint8)
    start = -raw.ctypes.data % huge
    buf = raw[start:start + shape[0] * shape[1] * 8]
    if sys.platform.startswith("linux"):  # 14: MADV_HUGEPAGE; a refusal only costs speed
        ctypes.CDLL(None).madvise(ctypes.c_void_p(buf.ctypes.data), ctypes.c_size_t(buf.nbytes),
                                  14)
    return buf.view(np.uint64).reshape(shape)


def _table_shape(max_states: int, words: int) -> tuple[int, int]:
    return 1 << max(10, (max_states * 3 // 2).bit_length()), words


def table_bytes(max_states: int, ranks: int) -> int:
    """Memory of the transposition table that holds ``max_states`` layouts of ``ranks`` ranks."""
    rows, words = _table_shape(max_states, _packing(ranks)[2])
    return rows * words * 8


def _table(max_states: int, words: int, shift: int) -> tuple[np.ndarray, int]:
    """The process's transposition table (one at a time, reused) and a fresh generation stamp."""
    size = _table_shape(max_states, words)
    if size not in _tables:
        _tables.clear()
        _tables[size] = [_huge_zeros(size), 0]
    entry = _tables[size]
    entry[1] += 1
    if entry[1] == 2 ** min(32, 64 - shift):
        entry[0][:] = 0
        entry[1] = 1
    return entry[0], entry[1]


def _encode(cells: Sequence[Cell], n: int) -> np.ndarray:
    return np.array([0 if c is None else c.suit * n + c.rank - 1 for c in cells], np.int64)


def _decode_card(code: int, n: int) -> Card:
    return Card(code % n + 1, code // n)


def solve_round(cells: Sequence[Cell], limits: Limits = Limits(), rules: Rules = Rules(),
                max_states: int = DEFAULT_MAX_STATES, *, table: bool = True,
                prune: bool = False) -> SolveResult:
    """Most locked cards reachable from ``cells`` in one round, and a line of play to them.

    ``SOLVED``: the round is won; ``UNSOLVABLE``: ``value`` is the exact maximum short of a win;
    ``LIMIT``: ``value`` is the best found.  ``prune`` skips layouts whose bound from stuck
    cards is no better than the best seen (sound, but it costs more time than it saves; see
    docs/montana.md).  ``table=False`` is the plain depth-first search kept as the baseline.
    """
    check_layout(cells, rules)
    if max_states < 1:
        raise BadInput(f"--max-states must be at least 1, got {max_states}")
    n = rules.ranks
    board = _encode(cells, n)
    word, mul, words, shift = _packing(n)
    keys, gen = _table(max_states, words, shift) if table else (np.zeros((1, words), np.uint64), 1)
    best_src, best_dst = _WORK[:2]
    start = time.perf_counter()
    status, best, count, nodes, states = kernel.search(
        board, n, rules.movable_twos, table, prune, limits.node_cap, limits.second_cap,
        max_states, keys, word, mul, np.uint64(shift), np.uint64(gen), *_WORK)
    seconds = time.perf_counter() - start
    moves = []
    for s, t in zip(best_src[:count], best_dst[:count]):
        card = _decode_card(int(board[s]), n)
        board[t], board[s] = board[s], 0
        moves.append(Move(card, divmod(int(t), n)))
    outcome = {kernel.WON: Status.SOLVED, kernel.EXHAUSTED: Status.UNSOLVABLE,
               kernel.LIMIT: Status.LIMIT}[status]
    return SolveResult(outcome, moves, int(nodes), seconds, int(best), {"states": int(states)})


@dataclass
class Round:
    """One deal of a game: the layout, the line of play, the locked cards it reaches."""

    deal: tuple[Cell, ...]
    result: SolveResult

    def to_json(self) -> dict:
        return {"deal": format_deal(self.deal), "moves": [m.to_json() for m in self.result.moves],
                "locked": self.result.value, "status": self.result.status.value,
                "states": self.result.details["states"], "nodes": self.result.nodes}


def solve(cells: Sequence[Cell], limits: Limits = Limits(), rules: Rules = Rules(),
          redeals: int = 2, redeal_seed: int = 0, max_states: int = DEFAULT_MAX_STATES,
          prune: bool = False) -> SolveResult:
    """Play a game: each round solved exactly for the most locked cards, then a seeded redeal.

    ``SOLVED`` when a round is won, ``UNSOLVABLE`` when every round was searched to the end
    without a win, ``LIMIT`` when a round hit a limit (the game stops there).  ``details``:
    ``won`` and ``rounds`` (a list of :class:`Round`); ``moves`` is every round's moves in order.
    """
    if redeals < 0:
        raise BadInput(f"--redeals must be at least 0, got {redeals}")
    rng = redeal_rng(redeal_seed)
    layout = tuple(cells)
    rounds: list[Round] = []
    while True:
        result = solve_round(layout, limits, rules, max_states, prune=prune)
        rounds.append(Round(layout, result))
        if result.status is not Status.UNSOLVABLE or len(rounds) > redeals:
            break
        layout = redeal(replay(layout, result.moves, rules), rules, rng)
    last = rounds[-1].result
    return SolveResult(last.status, [m for r in rounds for m in r.result.moves],
                       sum(r.result.nodes for r in rounds), sum(r.result.seconds for r in rounds),
                       last.value, {"won": last.status is Status.SOLVED, "rounds": rounds,
                                    "states": sum(r.result.details["states"] for r in rounds)})


def game_json(result: SolveResult) -> dict:
    """JSON fields of a game: status, won, locked, rounds, states, nodes, seconds."""
    return {"status": result.status.value, "won": result.details["won"], "locked": result.value,
            "rounds": [r.to_json() for r in result.details["rounds"]],
            "states": result.details["states"], "nodes": result.nodes,
            "seconds": round(result.seconds, 6)}

