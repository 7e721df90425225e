"""Public surface of the Agnes solver: deals, rules and ``solve``."""
from __future__ import annotations

import time
from functools import lru_cache

import numpy as np

from solvers.agnes import codes
from solvers.agnes.rules import (Board, Deal, Move, Rules, deal_from_seed, deals_from_seed,
                                 format_deck, parse_deck, parse_move, parse_rules, replay)
from solvers.errors import BadInput
from solvers.result import Limits, SolveResult, Status

__all__ = ["MAX_LINE", "Board", "Deal", "Move", "Rules", "deal_from_seed", "deals_from_seed",
           "format_deal", "limit_text", "move_verdicts", "parse_deal", "parse_move", "parse_rules",
           "read_deck", "replay", "solve"]

_EMPTY = {"None": codes.NONE, "Any1": codes.ANY1, "AnyRun": codes.ANYRUN,
          "High1": codes.HIGH1, "HighRun": codes.HIGHRUN}
_STATUS = {codes.WON: Status.SOLVED, codes.LOST: Status.UNSOLVABLE,
           codes.NODE_LIMIT: Status.LIMIT, codes.DEPTH_LIMIT: Status.LIMIT,
           codes.TIME_LIMIT: Status.LIMIT}
#: The moves a line of play may have; a longer one stops the search with ``limit``.
MAX_LINE = codes.MAX_DEPTH - 2
DEFAULT_TABLE_BITS = 21   # 2**21 entries of 64 bytes: 128 MiB


class _Workspace:
    """The losing-state table and the search's per-depth arrays, kept per process and reused by
    every solve (the table with a fresh epoch each, which no result depends on: see the
    kernel)."""

    def __init__(self, table_bits: int) -> None:
        self.keys = np.zeros(1 << table_bits, np.uint64)
        self.encs = np.zeros((1 << table_bits, codes.WORDS), np.uint64)
        self.epoch = 0
        self.frames = np.empty((codes.FRAMES, codes.MAX_DEPTH + 1), np.int64)
        self.hashes = np.empty(codes.MAX_DEPTH, np.uint64)
        self.path = np.empty((codes.MAX_DEPTH, codes.WORDS), np.uint64)
        self.line = np.empty(codes.MAX_DEPTH, np.int64)

    def next_epoch(self) -> int:
        if self.epoch == 2**31 - 1:   # entries of the last cycle of epochs must count as free
            self.keys[:] = 0
            self.epoch = 0
        self.epoch += 1
        return self.epoch


_workspaces: dict[int, _Workspace] = {}


@lru_cache(maxsize=None)
def search_kernel():
    """``kernel.search``: compiled ahead of time when built for these sources, else numba's JIT
    (numba is imported only then)."""
    compiled = codes.SEARCH.load()
    if compiled is not None:
        return compiled.search
    from solvers.agnes.kernel import search
    return search


def parse_deal(text: str) -> Deal:
    """A deck in card notation or quagnes's ``(rank, suit)`` lines; base card first."""
    return parse_deck(text)


def format_deal(deal: Deal) -> str:
    """The deck in card notation, base card first."""
    return format_deck(deal)


def read_deck(path: str) -> Deal:
    """Read a deck file (either format); :class:`BadInput` if it is not a valid deck."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"cannot read deck file {path}: {getattr(exc, 'strerror', None) or exc}")
    return parse_deck(text)


def _decode(deal: Deal, board: Board, code: int) -> Move:
    kind, src = code & 3, (code >> 2) & 7
    if kind == 0:
        return Move("deal")
    pile = board.piles[src]
    if kind == 1:
        return Move("found", src + 1, card=pile[-1])
    count = code >> 8
    return Move("tableau", src + 1, ((code >> 5) & 7) + 1, count, pile[-count])


def _kernel_position(board: Board) -> tuple:
    """The kernel's view of ``board``: the deck, piles, pile lengths, hidden counts and
    foundations as card codes (relative rank * 4 + suit), and the stock size."""
    deal = board.deal
    code = lambda card: deal.rel(card) * 4 + card.suit   # noqa: E731
    piles = np.zeros((7, 64), np.int64)
    for p, pile in enumerate(board.piles):
        piles[p, :len(pile)] = [code(c) for c in pile]
    return (np.array([code(c) for c in deal.cards], np.int64), piles,
            np.array([len(pile) for pile in board.piles], np.int64),
            np.array(board.hidden, np.int64), np.array(board.foundation, np.int64), board.stock)


def solve(deal: Deal, rules: Rules, limits: Limits = Limits(), maximize: bool = False,
          prune: int = codes.ALL, table_bits: int = DEFAULT_TABLE_BITS,
          with_moves: bool = True, start: Board | None = None) -> SolveResult:
    """Solve ``deal`` under ``rules`` exactly, from its start or from ``start`` (a position of
    it reached by play): ``solved`` (with the winning moves),
    ``unsolvable`` or ``limit``; a ``limit`` result names the limit that stopped the search in
    ``details["stopped_by"]``: ``{"limit": "nodes" | "depth" | "seconds", "value": ...}`` (the
    depth limit is :data:`MAX_LINE` moves in one line of play).  ``limits.nodes`` caps the
    positions examined (the moves played; ``nodes`` counts them) and ``limits.seconds`` the
    time; the memory is the losing-state table's alone (``table_bits``), so ``limits.states``
    is not read here (``solvers.agnes.game`` turns it into a node cap and a table size).

    ``maximize`` searches every reachable state for the highest score (cards on the
    foundations) instead of stopping early on a dead deal; ``value`` is that score, exact unless
    the status is ``limit`` (otherwise it is the best score the search met).  ``details`` holds
    ``max_score``.  ``prune`` selects the kernel's prunings (``codes.ALL``; 0 for the plain
    search); ``table_bits`` sizes the losing-state table (2**bits entries of 64 bytes);
    ``with_moves=False`` skips building the move list (for win-rate runs).
    """
    if not 4 <= table_bits <= 30:
        raise BadInput(f"table bits must be 4..30, not {table_bits}")
    first = start or Board.start(deal, rules)
    work = _workspaces.get(table_bits) or _workspaces.setdefault(table_bits, _Workspace(table_bits))
    started = time.perf_counter()
    status, nodes, best, length = search_kernel()(
        *_kernel_position(first), rules.same_suit, _EMPTY[rules.empty], rules.split, prune,
        maximize, limits.node_cap, limits.second_cap, work.keys, work.encs, work.next_epoch(),
        work.frames, work.hashes, work.path, work.line)
    seconds = time.perf_counter() - started
    moves = []
    board = first.copy() if with_moves else None
    for code in work.line[:length] if with_moves else ():
        move = _decode(deal, board, int(code))
        board.apply(move, check=False)   # the tests replay every line with the checks on
        moves.append(move)
    exact = maximize and _STATUS[status] is not Status.LIMIT or status == codes.WON
    details = {"rules": rules.name, "max_score": int(best), "max_score_exact": bool(exact)}
    if _STATUS[status] is Status.LIMIT:
        details["stopped_by"] = {codes.NODE_LIMIT: {"limit": "nodes", "value": limits.nodes},
                                 codes.DEPTH_LIMIT: {"limit": "depth", "value": MAX_LINE},
                                 codes.TIME_LIMIT: {"limit": "seconds",
                                                     "value": limits.seconds}}[status]
    return SolveResult(_STATUS[status], moves, int(nodes), seconds, value=int(best),
                       details=details)


def move_verdicts(board: Board, limits: Limits = Limits()) -> list[tuple[Move, Status]]:
    """Every legal move of ``board`` with the status of the position it leads to: ``solved``
    (the move keeps the deal winnable), ``unsolvable`` or ``limit``; in the rule book's order."""
    out = []
    for move in board.legal_moves():
        after = board.copy()
        after.apply(move, check=False)
        out.append((move, solve(board.deal, board.rules, limits, start=after,
                                with_moves=False).status))
    return out


def limit_text(result: SolveResult) -> str:
    """The limit that stopped a search, for people: "the limit of 20,000,000 nodes"."""
    stop = result.details["stopped_by"]
    return {"nodes": f"the limit of {stop['value']:,} nodes",
            "states": f"the limit of {stop['value']:,} states",
            "depth": f"the depth limit of {stop['value']:,} moves in one line of play",
            "seconds": f"the time limit of {stop['value']:g} s"}[stop["limit"]]
