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
from solvers.montana import bounds, kernel
from solvers.montana.moves import MAX_MOVES
from solvers.montana.rules import (ROWS, Cell, Move, Rules, check_layout, deal_from_seed,
                                   format_deal, format_grid, locked_count, parse_deal, redeal,
                                   redeal_rng, replay)
from solvers.montana.search import (DEFAULT_MAX_STATES, FORGET_MAX_NODES, FORGET_MAX_STATES,
                                    HOP_BITS, Search)
from solvers.result import Limits, SolveResult, Status

MAX_DEPTH = 1 << 20  # a line of play longer than this ends the search with LIMIT
# The kernel's per-depth arrays, allocated once (the pages of deep rows only when first used):
# best line (src, dst, arrangement), moves of each depth (src, dst, arrangement), asleep,
# count, next, path (src, dst, arrangement), saved first column.
_WORK = (*(np.empty(MAX_DEPTH, np.int64) for _ in range(3)),
         *(np.empty((MAX_DEPTH, MAX_MOVES), np.int64) for _ in range(3)),
         np.empty((MAX_DEPTH, MAX_MOVES), np.bool_),
         *(np.empty(MAX_DEPTH, np.int64) for _ in range(6)))


_NONE = dict(columns=False, bound=False, safe=False, hop_budgets=())
# The movable-Twos searches the checks and benchmarks compare: no reduction, each alone, all.
SEARCHES = {"plain": Search(**_NONE),
            "columns": Search(**{**_NONE, "columns": True}),
            "bound": Search(**{**_NONE, "bound": True, "reach": False}),
            "reach": Search(**{**_NONE, "bound": True}),
            "safe": Search(**{**_NONE, "safe": True}),
            "passes": Search(**{**_NONE, "hop_budgets": Search.hop_budgets}),
            "all": Search()}

__all__ = ["DEFAULT_MAX_STATES", "FORGET_MAX_NODES", "FORGET_MAX_STATES", "Move", "Round",
           "Rules", "Search", "deal_from_seed", "format_deal", "format_grid", "game_json",
           "parse_deal", "solve", "solve_round"]

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
    if shift > 48:  # fewer than 12 bits left for hops and stamp: give them a word of their own
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


def table_states(rules: Rules, max_states: int, search: Search) -> int:
    """Layouts the table of a round is sized for: with movable Twos and hop passes, the larger
    of ``max_states`` and a pass's cap."""
    return max(max_states, search.pass_states) if rules.movable_twos and search.hop_budgets \
        else max_states


def stamps(shift: int) -> int:
    """Generation stamps before the table is cleared: the last word's bits above the cells'
    digits and the hop count."""
    return 2 ** min(32, 64 - shift - HOP_BITS)


def _table(max_states: int, words: int, shift: int) -> tuple[np.ndarray, int]:
    """The process's transposition table (one at a time, reused) and a fresh generation stamp.
    It is cleared when its stamps run out or its keys are packed otherwise (``shift``: another
    number of ranks), so that every row in it is free or holds a stamp no later than this one
    (``hashtable.used`` reads a stamp at ``shift``)."""
    size = _table_shape(max_states, words)
    if size not in _tables:
        _tables.clear()
        _tables[size] = [_huge_zeros(size), 0, shift]
    entry = _tables[size]
    entry[1] += 1
    if entry[1] == stamps(shift) or entry[2] != shift:
        entry[0][:] = 0
        entry[1], entry[2] = 1, shift
    return entry[0], entry[1]


def _encode(cells: Sequence[Cell], n: int) -> np.ndarray:
    return np.array([0 if c is None else c.suit * n + c.rank - 1 for c in cells], np.int64)


def _positions(board: np.ndarray) -> np.ndarray:
    """Each card code's cell in the kernel's ``board`` (-1 for codes not dealt)."""
    pos = np.full(board.shape[0], -1, np.int64)
    for cell, code in enumerate(board):
        if code:
            pos[code] = cell
    return pos


def reach_bound(cells: Sequence[Cell], n: int, free: int = 0,
                movable_twos: bool = True) -> tuple[int, np.ndarray]:
    """The reach bound of a layout whose rows in the mask ``free`` hold their first cells in
    any order (``bounds.reach_bound``), and each card code's mask of the cells it can reach."""
    board = _encode(cells, n)
    reach = np.zeros(4 * n, np.int64)
    bound = bounds.reach_bound(board, _positions(board), n, movable_twos, free, reach,
                               np.zeros(64 + 4 * n, np.int64), np.zeros((4, 4), np.int64))
    return int(bound), reach


def _decode_card(code: int, n: int) -> Card:
    return Card(code % n + 1, code // n)


def _line(board: np.ndarray, n: int, count: int, final_arr: int) -> list[Move]:
    """The kernel's line of play as legal moves.

    An arranged move in an open first column is preceded by the hops that set the column to its
    arrangement.  While the column is closed, the kernel keeps the Twos of its free rows in any
    order and sets a Two in front of the Three it plays (see the kernel's docstring); the
    column's order is really chosen when it closed, so the Two that closes it goes where the
    kernel's column has it at the end of that closed stretch, after hops that set the others
    there too, and the closed stretch's own rearrangements are dropped.  The best order of the
    end (``final_arr``) is set likewise.
    """
    src, dst, arr = _WORK[:3]

    def is_open(layout: np.ndarray) -> bool:
        return any(layout[row * n] == 0 for row in range(ROWS))

    def column(layout: np.ndarray) -> list[int]:
        return [int(layout[row * n]) for row in range(ROWS)]

    def set_column(layout: np.ndarray, packed: int) -> None:
        for row in range(ROWS):
            layout[row * n] = (packed >> (6 * row)) & 63

    # the kernel's own board, to find each closing move and the column at its stretch's end
    kernel_board = board.copy()
    closing, ends = None, {}
    for k in range(count):
        was_open = is_open(kernel_board)
        if arr[k] >= 0:
            set_column(kernel_board, int(arr[k]))
        if closing is not None:  # only rearrangements change a closed column
            ends[closing] = column(kernel_board)
        s, t = int(src[k]), int(dst[k])
        kernel_board[t], kernel_board[s] = kernel_board[s], 0
        if was_open and not is_open(kernel_board):
            closing = k
            ends[k] = column(kernel_board)
        elif not was_open and is_open(kernel_board):
            closing = None
    if closing is not None and final_arr >= 0:
        ends[closing] = [(final_arr >> (6 * row)) & 63 for row in range(ROWS)]

    moves: list[Move] = []

    def play(s: int, t: int) -> None:
        moves.append(Move(_decode_card(int(board[s]), n), divmod(t, n)))
        board[t], board[s] = board[s], 0

    def arrange(target: list[int]) -> None:
        while (now := column(board)) != target:
            hole = next((r for r in range(ROWS) if now[r] == 0 and target[r]), None)
            if hole is not None:  # bring the Two that belongs in this gap
                play(now.index(target[hole]) * n, hole * n)
            else:  # the gaps are where they belong: move a misplaced Two into one
                wrong = next(r for r in range(ROWS) if now[r] != target[r])
                play(wrong * n, now.index(0) * n)

    for k in range(count):
        s, t = int(src[k]), int(dst[k])
        if k in ends:  # the closing Two goes where the stretch's column has it
            target = ends[k]
            t = target.index(int(board[s])) * n
            arrange([0 if r * n == t else v for r, v in enumerate(target)])
        elif arr[k] >= 0 and is_open(board):
            arrange([(int(arr[k]) >> (6 * row)) & 63 for row in range(ROWS)])
        play(s, t)
    if final_arr >= 0 and is_open(board):
        arrange([(final_arr >> (6 * row)) & 63 for row in range(ROWS)])
    return moves


def search_pass(board: np.ndarray, rules: Rules, budget: int, cap: int, size: int,
                search: Search = Search(), *, table: bool = True, prune: bool = False,
                forget: bool = False, known: int = -1, node_cap: int = -1,
                second_cap: float = -1.0) -> tuple[tuple, float]:
    """One kernel search of a round from the encoded ``board``: the pass of hop budget
    ``budget`` (-1: the whole round) storing at most ``cap`` layouts, in the process's table
    sized for ``size``; the kernel's answer (``kernel.search``) and its seconds."""
    n = rules.ranks
    word, mul, words, shift = _packing(n)
    keys, gen = _table(size, words, shift) if table else (np.zeros((1, words), np.uint64), 1)
    start = time.perf_counter()
    answer = kernel.search(
        board, n, rules.movable_twos, budget, search.columns, table, prune, search.bound,
        search.reach, search.safe and table, forget and table, known, node_cap, second_cap, cap,
        keys, word, mul, np.uint64(shift), np.uint64(gen), *_WORK)
    return answer, time.perf_counter() - start


def solve_round(cells: Sequence[Cell], limits: Limits = Limits(), rules: Rules = Rules(),
                max_states: int = DEFAULT_MAX_STATES, *, table: bool = True,
                prune: bool = False, search: Search = Search(), forget: bool = False
                ) -> SolveResult:
    """Most locked cards reachable from ``cells`` in one round, and a line of play to them.

    ``SOLVED``: the round is won; ``UNSOLVABLE``: ``value`` is the exact maximum short of a win;
    ``LIMIT``: ``value`` is the best found.  ``prune`` skips layouts whose bound from stuck
    cards is no better than the best seen (sound, but it costs more time than it saves; see
    docs/montana.md).  ``table=False`` is the plain depth-first search kept as the baseline.
    With movable Twos, ``search`` sets the hop-budget passes and column classes; ``details``
    then has ``pass``: the hop budget of the pass that decided the round (one that won, or
    never had to refuse a hop), None for the whole round; ``table``: the layouts that pass
    stored; ``states``, ``nodes`` and ``seconds`` count every pass.  The whole-round search
    starts from the most locked cards a pass reached (its bound prunes against them), and the
    line of play is the pass's unless the whole round reaches more.  ``forget``: when the
    table of the whole round is full, forget layouts that cannot recur (every layout with
    fixed Twos; with movable Twos those with no gap in the first column) rather than
    stop: they are searched again if met again, so the answer and line are those of an
    unbounded table and only ``limits`` (nodes, seconds) end the round early; ``details``
    then counts ``forgotten`` layouts (``states`` counts a layout stored again each time).
    A ``LIMIT`` round names the limit that stopped it in ``details["stopped_by"]``:
    ``{"limit": "states" | "nodes" | "seconds" | "depth", "value": ...}`` (``states``: the
    table held ``max_states`` layouts; ``depth``: a line of :data:`MAX_DEPTH` moves).
    """
    check_layout(cells, rules)
    if max_states < 1:
        raise BadInput(f"--max-states must be at least 1, got {max_states}")
    n = rules.ranks
    board = _encode(cells, n)
    budgets = search.hop_budgets if rules.movable_twos and table else ()
    size = table_states(rules, max_states, search)
    nodes = states = forgotten = 0
    seconds = 0.0
    known, line = -1, []  # the most locked cards a pass reached, and its line of play
    for budget in [*budgets, -1]:
        cap = max_states if budget < 0 else search.pass_states
        node_cap = -1 if limits.nodes is None else limits.nodes - nodes
        second_cap = -1.0 if limits.seconds is None else max(limits.seconds - seconds, 0.0)
        (status, best, count, final_arr, made, stored, budget_hit, lost), spent = search_pass(
            board, rules, budget, cap, size, search, table=table, prune=prune,
            forget=forget and budget < 0, known=known, node_cap=node_cap, second_cap=second_cap)
        seconds += spent
        nodes += int(made)
        states += int(stored)
        forgotten += int(lost)
        if count >= 0:
            known, line = int(best), _line(board.copy(), n, int(count), int(final_arr))
        if budget < 0 or status == kernel.WON or (status == kernel.EXHAUSTED and not budget_hit):
            break
        if status == kernel.LIMIT and stored < cap:  # stopped by nodes, seconds or depth
            break
    outcome = {kernel.WON: Status.SOLVED, kernel.EXHAUSTED: Status.UNSOLVABLE,
               kernel.LIMIT: Status.LIMIT}[status]
    details = {"states": states, "pass": budget if budget >= 0 else None,
               "table": int(stored) - int(lost), "forgotten": forgotten}
    if outcome is Status.LIMIT:  # the last pass's limit: a pass whose table filled gave way
        details["stopped_by"] = (
            {"limit": "states", "value": cap} if table and int(stored) - int(lost) >= cap else
            {"limit": "nodes", "value": limits.nodes} if 0 <= node_cap <= int(made) else
            {"limit": "seconds", "value": limits.seconds} if 0 <= second_cap <= spent else
            {"limit": "depth", "value": MAX_DEPTH})
    return SolveResult(outcome, line, nodes, seconds, int(best), details)


@dataclass
class Round:
    """One deal of a game: the layout, the line of play, the locked cards it reaches."""

    deal: tuple[Cell, ...]
    result: SolveResult

    def to_json(self) -> dict:
        stop = self.result.details.get("stopped_by")
        return {"deal": format_deal(self.deal), "moves": [m.to_json() for m in self.result.moves],
                "locked": self.result.value, "status": self.result.status.value,
                **({"stopped_by": stop} if stop else {}),
                "states": self.result.details["states"], "nodes": self.result.nodes,
                "pass": self.result.details["pass"]}


def solve(cells: Sequence[Cell], limits: Limits = Limits(), rules: Rules = Rules(),
          redeals: int = 2, redeal_seed: int = 0, max_states: int = DEFAULT_MAX_STATES,
          prune: bool = False, search: Search = Search(), forget: bool = False) -> SolveResult:
    """Play a game: each round solved exactly for the most locked cards, then a seeded redeal.

    ``SOLVED`` when a round is won, ``UNSOLVABLE`` when every round was searched to the end
    without a win, ``LIMIT`` when a round hit a limit (the game stops there).  The rounds share
    ``limits.nodes`` and ``limits.seconds``; ``max_states`` bounds each round's table (see
    :func:`solve_round` for ``forget``).  ``details``: ``won``, ``rounds`` (a list of
    :class:`Round`), ``states``, and for ``LIMIT`` ``stopped_by`` (as :func:`solve_round`'s,
    the value the game's limit); ``moves`` is every round's moves in order.
    Each round's line is replayed by the rule book (``rules.replay``), which must reach the
    locked cards the search claims (else ``AssertionError``: a solver bug, never a result).
    """
    if redeals < 0:
        raise BadInput(f"--redeals must be at least 0, got {redeals}")
    rng = redeal_rng(redeal_seed)
    layout = tuple(cells)
    rounds: list[Round] = []
    nodes, seconds = 0, 0.0
    while True:
        left = limits.after(nodes, seconds)
        if left.nodes == 0 or left.seconds == 0.0:  # the shared budget is spent: no search
            by = "nodes" if left.nodes == 0 else "seconds"
            result = SolveResult(Status.LIMIT, [], 0, 0.0, locked_count(layout, rules.ranks),
                                 {"states": 0, "pass": None, "table": 0, "forgotten": 0,
                                  "stopped_by": {"limit": by, "value": None}})
        else:
            result = solve_round(layout, left, rules, max_states, prune=prune, search=search,
                                 forget=forget)
        stop = result.details.get("stopped_by")
        if stop and stop["limit"] in ("nodes", "seconds"):  # the game's, shared by its rounds
            stop["value"] = getattr(limits, stop["limit"])
        nodes, seconds = nodes + result.nodes, seconds + result.seconds
        rounds.append(Round(layout, result))
        reached = replay(layout, result.moves, rules)  # the rule book checks every line
        if locked_count(reached, rules.ranks) != result.value:
            raise AssertionError(f"round {len(rounds)}'s line of play locks "
                                 f"{locked_count(reached, rules.ranks)} cards, not the "
                                 f"{result.value} its search claims")
        if result.status is not Status.UNSOLVABLE or len(rounds) > redeals:
            break
        layout = redeal(reached, rules, rng)
    last = rounds[-1].result
    details = {"won": last.status is Status.SOLVED, "rounds": rounds,
               "states": sum(r.result.details["states"] for r in rounds)}
    if "stopped_by" in last.details:
        details["stopped_by"] = last.details["stopped_by"]
    return SolveResult(last.status, [m for r in rounds for m in r.result.moves],
                       sum(r.result.nodes for r in rounds), sum(r.result.seconds for r in rounds),
                       last.value, details)


def game_json(result: SolveResult) -> dict:
    """JSON fields of a game: status (and for ``limit`` ``stopped_by``), won, locked, rounds,
    states, nodes, seconds."""
    stop = result.details.get("stopped_by")
    return {"status": result.status.value, **({"stopped_by": stop} if stop else {}),
            "won": result.details["won"], "locked": result.value,
            "rounds": [r.to_json() for r in result.details["rounds"]],
            "states": result.details["states"], "nodes": result.nodes,
            "seconds": round(result.seconds, 6)}

