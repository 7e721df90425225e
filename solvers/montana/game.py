"""Montana (Gaps) through the game contract (:mod:`solvers.game`).

Rules are named ``<ranks>[-movable-twos][-redeals<R>[-random-gaps]]``: ``8`` is a 32-cell layout
(ranks A..8, aces as gaps) played as one round with the Twos fixed once in the first column;
``13-redeals2`` the 52-card game with two reshuffles; ``8-movable-twos`` lets a Two in the first
column move to another first-column gap.  Reshuffles use ``redeal_rng(0)``, as the command line
does for a deal given as text, a numbered deal's reshuffles ``redeal_rng`` of its number, and a
line of play crosses rounds with the move ``redeal`` (``redeal/S`` for the reshuffles of game
``S``).

A deal is the layout's ``4 * ranks`` cards row-major with the gaps written as aces (``rules``
module); a move prints as ``4H->r2c4`` (the card, then the gap's row and column counted from 1).

Design (``hardness``, ``figures``) serves single-round rules with fixed Twos, puzzles winnable
on the first deal without reshuffles: there no layout recurs, so
the layouts reachable from a deal form a finite acyclic graph and :mod:`players` computes the
exact chance that a simple player wins.  The hardness is ``-log10`` of the *careful* player's
chance: it plays at random, except that a move leaving a gap right of a King not yet home (a
dead gap, the way Montana is lost) is 10 times less likely than any other.  The independent
check figure is the *random* player's chance.  ``8`` is the design deck (the whole graph of a
32-cell deal takes hundredths of a second); a 52-card deal (``13``) takes seconds and up to
tens of millions of layouts, and one whose graph outgrows ``ANALYSIS_STATES`` is played
instead (``_played``: estimated chances with intervals).
Rows are interchangeable in one round (each first column takes any Two), so the symmetries are
the 24 relabellings of the suits times the 24 orders of the rows; with reshuffles the rows are
dealt in order, so only the suits.
"""
from __future__ import annotations

import itertools
import math
import random
import re
import zlib
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from solvers.cards import Card
from solvers.errors import BadInput, LimitReached
from solvers.game import (GAP, Designable, Figures, Pool, Replayed, Sheet, Tuning, harder_than,
                          odds)
from solvers.montana.search import (DEFAULT_MAX_STATES, FORGET_MAX_NODES, FORGET_MAX_STATES,
                                    Search)
from solvers.montana.rules import (ROWS, Cell, Move, Redeal, Rules, apply_move, legal_moves,
                                   check_layout, deal_from_seed, format_deal, format_grid,
                                   locked_count, parse_deal, parse_move, redeal, redeal_rng)
from solvers.result import Chance, Limits, SolveResult
from solvers.stats import OUTCOME, format_win_summary, tally, wilson_interval

_NAME = re.compile(r"^([0-9]+)(-movable-twos)?(?:-redeals([0-9]+)(-random-gaps)?)?$")
REDEAL_SEED = 0
_BUDGETS = ",".join(map(str, Search.hop_budgets))
#: The solver's tuning (keywords of ``Montana.solve``; options of ``solve`` and ``winrate``).
TUNING = (
    Tuning("redeal_seed", int, None, "Seed of the reshuffles [default: the deal's number, 0 "
           "for a DEAL given as text].", low=0),
    Tuning("forget", bool, True,
           "When a round's table is full, forget searched layouts that cannot recur (searched "
           "again if met again) rather than stop: the answer of an unbounded table, ended only "
           "by --max-nodes or --max-seconds."),
    Tuning("prune", bool, False, "Skip layouts whose stuck cards bound them below the best "
                                 "seen (sound; slower on random deals, see docs/montana.md)."),
    Tuning("hop_budgets", str, _BUDGETS,
           "With movable Twos: first look for a win with at most this many Two moves between "
           "first-column gaps, one pass each, in turn (comma-separated; none: no such passes)."),
    Tuning("pass_states", int, Search.pass_states, "Layouts kept in each of those passes.",
           low=1),
    Tuning("columns", bool, True, "With movable Twos: search first-column classes, not "
                                  "layouts."),
    Tuning("bound", bool, True, "With movable Twos: bound the locked cards a layout can still "
                                "reach."),
    Tuning("reach", bool, True, "With movable Twos: bound from the cells each card can reach, "
                                "not only once the Twos fill the first column from the cards "
                                "that can move."),
    Tuning("safe", bool, True, "With movable Twos: once the Twos fill the first column, play a "
                               "safe move (a card onto its row's locked run) alone."),
)


def _limit_text(stop: dict | None) -> str:
    """The limit that stopped a game, for people: "the limit of 1,000 moves (--max-nodes)"."""
    value = (stop or {}).get("value") or 0
    return {"states": f"the limit of {value:,} layouts in a round's table (--max-states)",
            "nodes": f"the limit of {value:,} moves (--max-nodes)",
            "seconds": f"the time limit of {value:g} s (--max-seconds)",
            "depth": f"the depth limit of {value:,} moves in one line of play",
            }.get((stop or {}).get("limit"), "a limit")


def _search(hop_budgets: str, pass_states: int, columns: bool, bound: bool, reach: bool,
            safe: bool) -> Search:
    """The movable-Twos search of the tuning; :class:`BadInput` for bad hop budgets."""
    text = hop_budgets.strip().lower()
    parts = [] if text == "none" else [part.strip() for part in text.split(",")]
    if not all(part.isascii() and part.isdigit() and len(part) < 4 for part in parts):
        raise BadInput(f"--hop-budgets takes comma-separated numbers or none, got "
                       f"{hop_budgets[:40]!r}")
    budgets = tuple(map(int, parts))
    return Search(columns=columns, bound=bound, reach=reach, safe=safe,
                      hop_budgets=budgets, pass_states=pass_states)
#: Layouts the analysis may store: a table of 2**25 slots, at most 1.9 GB for 52 cards (56
#: bytes a slot), touched only as far as a deal needs (it grows); the largest of 4,000 random
#: 8-rank deals needs 1.5M.
ANALYSIS_STATES = 22_000_000
#: Weights of the careful and the random player for a move of each class (players.DEAD,
#: SAFE): the careful player leaves a dead gap 10 times less often than it plays another move.
_WEIGHTS = np.array([[0.1, 1.0], [1.0, 1.0]])
_SUIT_ORDERS = list(itertools.permutations(range(4)))


#: Games each player plays from a deal whose graph outgrows the analysis (``_played``).
PLAYOUTS = 100_000
#: Annealing's first look (``hardness(quick=True)``): the layouts it analyses (about half a
#: second on 52 cards), and the games the careful player plays from a deal with more.
QUICK_STATES, QUICK_PLAYOUTS = 250_000, 10_000
#: The last exact hardness computed, its canonical deal and rules and the layouts analysed:
#: annealing's full look after a quick one that was exact finds it here instead of analysing
#: the deal again (any analysis of at least those layouts gives that figure).
_last_exact: dict = {}
#: The last canonical deal and rules whose analysis stopped at its cap, and that cap: a look
#: with that cap or a lower one (which would stop too) plays the deal without analysing it
#: again (a grade's confirming repeats, a grade after annealing's full look).
_outgrown: dict = {}


def _line(board: np.ndarray, n: int, symmetry: "_Map", src, dst) -> list[Move]:
    """The moves ``src -> dst`` (cells of the canonical ``board``) as moves of the deal."""
    from solvers.montana import api
    board = board.copy()
    line = []
    for s, t in zip(src, dst):
        card = api._decode_card(int(board[s]), n)
        line.append(symmetry.move_back(Move(card, divmod(int(t), n))))
        board[t], board[s] = board[s], 0
    return line


def _played(board: np.ndarray, n: int, symmetry: "_Map", repeat: int, states: int,
            games: int, weights: np.ndarray) -> Figures:
    """The figures of a canonical deal whose graph outgrows the analysis (of ``states``
    layouts), estimated: each player of ``weights`` (rows of ``_WEIGHTS``: the careful one, and
    the random one if there) plays ``games`` games from it (seeded by the deal and ``repeat``,
    the careful player's the same games either way), the chances are the shares won with
    Wilson 95% intervals (the metric ``games`` says how many), the hardness interval follows
    the careful player's, and the line is the first game won.  A deal the careful player never
    wins so is ``limit``: its chance is out of this measure's reach."""
    from solvers.montana import players
    wins = np.zeros(len(weights), np.int64)
    src = np.empty(players.MAX_DEPTH, np.int64)
    dst = np.empty_like(src)
    seed = zlib.crc32(board.tobytes() + (f":{repeat}".encode() if repeat else b""))
    length = players.playouts(board, n, weights, games, seed, wins, src, dst)
    if wins[0] == 0:
        raise LimitReached(f"the analysis of a Montana deal stopped at its limit of "
                           f"{states:,} layouts, and the careful player won none of "
                           f"{games:,} games played from it")
    chances = dict(zip(("careful_win", "random_win"), (int(w) / games for w in wins)))
    low, high = wilson_interval(int(wins[0]), games)
    metrics = {"hardness": max(0.0, -math.log10(chances["careful_win"])), **chances,
               "games": games,
               "hardness_interval": [max(0.0, -math.log10(high)), -math.log10(low)]}
    return Figures(True, metrics, _line(board, n, symmetry, src[:length], dst[:length]))


@dataclass(frozen=True)
class Variant:
    """Montana's rules as the contract names them: the rule book's ``rules`` and the
    reshuffles allowed."""

    rules: Rules = Rules(8)
    redeals: int = 0

    @property
    def ranks(self) -> int:
        return self.rules.ranks

    @property
    def rows_free(self) -> bool:
        """Whether rows are interchangeable (one round: no reshuffle deals them in order)."""
        return self.redeals == 0


@dataclass(frozen=True)
class _Map:
    """A symmetry: ``suits[s]`` is the new suit of suit ``s``; new row ``i`` is old row
    ``rows[i]``."""

    suits: tuple[int, ...]
    rows: tuple[int, ...]

    def deal(self, cells: Sequence[Cell], n: int) -> tuple[Cell, ...]:
        return tuple(None if c is None else Card(c.rank, self.suits[c.suit])
                     for r in self.rows for c in cells[r * n:(r + 1) * n])

    def move_back(self, move: Move) -> Move:
        """A move of the mapped deal in the original deal's terms."""
        card = Card(move.card.rank, self.suits.index(move.card.suit))
        return Move(card, (self.rows[move.to[0]], move.to[1]))


def _canonical_map(cells: Sequence[Cell], variant: Variant) -> _Map:
    """The symmetry taking ``cells`` to its class's representative: the least layout as rows of
    card codes (0 a gap), over the suit relabellings and, in one round, the row orders."""
    n = variant.ranks
    best = None
    for suits in _SUIT_ORDERS:
        rows = [tuple(0 if c is None else c.rank * 4 + suits[c.suit]
                      for c in cells[r * n:(r + 1) * n]) for r in range(ROWS)]
        order = sorted(range(ROWS), key=rows.__getitem__) if variant.rows_free \
            else list(range(ROWS))
        key = [rows[r] for r in order]
        if best is None or key < best[0]:
            best = (key, _Map(suits, tuple(order)))
    return best[1]


#: Each rank in words, Ace first: the explanation names the highest card of the rules.
RANK_WORDS = ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
              "Jack", "Queen", "King")


class Montana(Designable):
    name = "montana"
    code_name = "m"
    title = "Montana (Gaps)"
    default_rules = "8"
    default_limits = Limits(states=FORGET_MAX_STATES, nodes=FORGET_MAX_NODES)
    limits_note = (f"The default limits (a forgetting table of {FORGET_MAX_STATES:,} layouts, "
                   f"about 2.7 GB for 52 cards, and {FORGET_MAX_NODES:,} moves a deal) decide "
                   f"99.9% of random 52-card deals with movable Twos: half within a second, 92% "
                   f"within a minute, the hardest in up to about 2 hours on one core.")
    tuning = TUNING
    check_figure = "random_win"
    goal = ("Build each row in one suit from the Two up, left to right, from the first column. A "
            "card may move into a gap whose left neighbour is the card one rank lower in its "
            "suit; a Two only into a gap in the first column. A gap right of the highest card is "
            "dead.")
    notation = ("6D->r3c4: 6D moves into the gap in row 3, column 4, counted from 1 at the top "
                "left.")
    page_script = "page.js"

    def variants(self) -> list[str]:
        return ["8", "6", "7", "13", "8-movable-twos", "13-movable-twos", "13-redeals2",
                "13-redeals2-random-gaps", "13-movable-twos-redeals2"]

    def parse_rules(self, text: str) -> Variant:
        match = _NAME.match(text.strip())
        if match is None:
            raise BadInput(f"unknown Montana rules {text!r}: expected RANKS[-movable-twos]"
                           f"[-redealsR[-random-gaps]], e.g. {', '.join(self.variants()[:6])}")
        if match[3] is not None and (int(match[3]) == 0 or match[3] != str(int(match[3]))):
            raise BadInput(f"Montana rules {text!r}: write -redealsR with R >= 1 without "
                           f"leading zeros (no reshuffle: leave it out)")
        rules = Rules(int(match[1]), movable_twos=bool(match[2]), random_gaps=bool(match[4]))
        return Variant(rules, int(match[3] or 0))

    def format_rules(self, rules: Variant) -> str:
        name = f"{rules.ranks}" + ("-movable-twos" if rules.rules.movable_twos else "")
        if rules.redeals:
            name += f"-redeals{rules.redeals}" + ("-random-gaps" if rules.rules.random_gaps
                                                  else "")
        return name

    def parse_deal(self, text: str, rules: Variant) -> tuple[Cell, ...]:
        return parse_deal(text, rules.ranks)

    def format_deal(self, deal: Sequence[Cell]) -> str:
        return format_deal(deal)

    def deal_from_seed(self, seed: int, rules: Variant) -> tuple[Cell, ...]:
        return deal_from_seed(seed, rules.ranks)

    def code_pool(self, rules: Variant) -> Pool:
        """The layout row-major: symbol 0 for each of the four gaps, ``Card.index - 3`` for the
        cards Two and up."""
        return Pool(ROWS * rules.ranks, (ROWS,) + (1,) * (ROWS * rules.ranks - ROWS))

    def code_symbols(self, deal: Sequence[Cell], rules: Variant) -> list[int]:
        return [0 if cell is None else cell.index - 3 for cell in deal]

    def code_deal(self, symbols: list[int], rules: Variant) -> tuple[Cell, ...]:
        cells = tuple(None if s == 0 else Card.from_index(s + 3) for s in symbols)
        check_layout(cells, rules.rules)
        return cells

    def parse_move(self, text: str) -> Move | Redeal:
        return parse_move(text)

    def show_deal(self, deal: Sequence[Cell]) -> str:
        return format_grid(deal, len(deal) // ROWS)

    def replay(self, deal: Sequence[Cell], rules: Variant, moves: list) -> Replayed:
        """The rule book's replay, with ``redeal`` reshuffling (at most ``redeals`` times, all
        from the reshuffles of one game)."""
        check_layout(deal, rules.rules)
        redeals = [move for move in moves if isinstance(move, Redeal)]
        rng = redeal_rng(redeals[0].seed if redeals else REDEAL_SEED)
        layout, used = tuple(deal), 0
        for number, move in enumerate(moves, 1):
            if isinstance(move, Redeal):
                if used == rules.redeals:
                    raise BadInput(f"move {number} (redeal): the rules "
                                   f"{self.format_rules(rules)} allow {rules.redeals} reshuffles")
                if move != redeals[0]:
                    raise BadInput(f"move {number} ({move}): a line draws every reshuffle "
                                   f"from one game's, here {redeals[0]}")
                used += 1
                layout = redeal(layout, rules.rules, rng)
            else:
                try:
                    layout = apply_move(layout, move, rules.rules)
                except BadInput as error:
                    raise BadInput(f"{error} (move {number} of the line)") from None
        locked = locked_count(layout, rules.ranks)
        return Replayed(locked == rules.rules.target, locked)

    def solve(self, deal: Sequence[Cell], rules: Variant, limits: Limits,
              redeal_seed: int | None = None, forget: bool = True, prune: bool = False,
              hop_budgets: str = _BUDGETS, pass_states: int = Search.pass_states,
              columns: bool = True, bound: bool = True, reach: bool = True,
              safe: bool = True, start: Sequence[Cell] | None = None) -> SolveResult:
        """The exact solver round by round (from ``start``, a layout of the first round, if
        given): ``states`` is each round's table (layouts stored),
        ``nodes`` the moves the searches make and ``seconds`` their time, over every round; the
        tuning as :data:`TUNING` says.

        With reshuffles a round that cannot be won ends at its most locked cards (the seed
        document's objective) and is redealt; ``unsolvable`` then means that this way of
        playing loses every round, not that no other end of a round could win.  ``details``:
        ``states``, ``rounds``, and ``first``, the first round's outcome and locked cards.
        """
        from solvers.montana import api
        max_states = DEFAULT_MAX_STATES if limits.states is None else limits.states
        search = _search(hop_budgets, min(pass_states, max_states), columns, bound, reach, safe)
        seed = REDEAL_SEED if redeal_seed is None else redeal_seed
        if forget and limits.nodes is None and limits.seconds is None:
            limits = Limits(states=limits.states, nodes=FORGET_MAX_NODES)
        game = api.solve(deal if start is None else start, limits, rules.rules, rules.redeals,
                         seed, max_states, prune=prune, search=search, forget=forget)
        rounds = game.details["rounds"]
        moves = [m for r in rounds for m in ([Redeal(seed)] if r is not rounds[0] else []) +
                 r.result.moves]
        first = rounds[0].result
        details = {"states": game.details["states"], "rounds": len(rounds),
                   "first": {"result": OUTCOME[first.status], "locked": first.value,
                             "states": first.details["states"]}}
        if "stopped_by" in game.details:
            details["stopped_by"] = game.details["stopped_by"]
        return SolveResult(game.status, moves, game.nodes, game.seconds, game.value, details)

    def solve_numbered(self, number: int, deal: Sequence[Cell], rules: Variant,
                       limits: Limits, redeal_seed: int | None = None,
                       **tuning) -> SolveResult:
        """A numbered deal reshuffles with its own number (unless ``redeal_seed`` says)."""
        return self.solve(deal, rules, limits, number if redeal_seed is None else redeal_seed,
                          **tuning)

    def result_lines(self, deal: Sequence[Cell], rules: Variant,
                     result: SolveResult) -> list[str]:
        d = result.details
        how = {"won": "won", "lost": "not won",
               "limit": f"stopped by {_limit_text(d.get('stopped_by'))}"}[OUTCOME[result.status]]
        return [f"{how}: {result.value} of {rules.rules.target} cards locked after "
                f"{d['rounds']} round{'s' * (d['rounds'] > 1)} ({d['states']:,} layouts "
                f"stored)"]

    def start_after(self, deal: Sequence[Cell], rules: Variant, moves: list) -> tuple:
        """The layout moves of the first round reach (the same game follows from it: the same
        reshuffles)."""
        if any(isinstance(move, Redeal) for move in moves):
            raise BadInput("a solve starts within the first round: no redeal")
        self.replay(deal, rules, moves)
        layout = tuple(deal)
        for move in moves:
            layout = apply_move(layout, move, rules.rules)
        return layout

    def first_moves(self, deal: Sequence[Cell], rules: Variant,
                    start: Sequence[Cell] | None = None) -> list:
        layout = deal if start is None else start
        return [(move, apply_move(layout, move, rules.rules))
                for move in legal_moves(layout, rules.rules)]

    def record(self, deal: Sequence[Cell], rules: Variant, result: SolveResult) -> dict:
        """The rounds played, layouts stored, and the first round's outcome (the single deal's
        game, so that one run with reshuffles also measures the game without)."""
        return {key: result.details[key] for key in ("rounds", "states", "first")}

    def record_fields(self, rules: Variant) -> dict:
        return {"rounds": range(1, rules.redeals + 2), "states": range(2 ** 63),
                "first": {"result": tuple(OUTCOME.values()),
                          "locked": range(rules.rules.target + 1), "states": range(2 ** 63)}}

    def summary(self, records: list[dict], rules: Variant) -> dict:
        """The mean locked cards, and the first round's win figures (``first_round``)."""
        first = [r["first"] for r in records]
        return {"mean_locked": sum(r["value"] for r in records) / len(records),
                "first_round": {**tally(first),
                                "mean_locked": sum(r["locked"] for r in first) / len(first)}}

    def summary_lines(self, summary: dict) -> list[str]:
        lines = [f"mean locked cards {summary['mean_locked']:.2f}"]
        if self.parse_rules(summary["rules"]).redeals:
            first = summary["first_round"]
            lines.append(format_win_summary("first deal alone", first)
                         + f"; mean locked {first['mean_locked']:.2f}")
        return lines

    def memory(self, rules: Variant, limits: Limits, **tuning) -> tuple[int, str]:
        """The round's table: ``states`` layouts (the passes' tables are no larger)."""
        from solvers.montana import api
        states = DEFAULT_MAX_STATES if limits.states is None else limits.states
        return api.table_bytes(states, rules.ranks), f"--max-states {states}"

    def canonical(self, deal: Sequence[Cell], rules: Variant) -> tuple[Cell, ...]:
        return _canonical_map(deal, rules).deal(deal, rules.ranks)

    def symmetric_copy(self, deal: Sequence[Cell], rules: Variant,
                       rng: random.Random) -> tuple[Cell, ...]:
        suits = tuple(rng.sample(range(4), 4))
        rows = tuple(rng.sample(range(ROWS), ROWS)) if rules.rows_free else tuple(range(ROWS))
        return _Map(suits, rows).deal(deal, rules.ranks)

    def neighbour(self, deal: Sequence[Cell], rules: Variant,
                  rng: random.Random) -> tuple[Cell, ...]:
        """Two cells swapped (cards or gaps, not two gaps)."""
        cells = list(deal)
        while True:
            i, j = rng.sample(range(len(cells)), 2)
            if cells[i] is not None or cells[j] is not None:
                cells[i], cells[j] = cells[j], cells[i]
                return tuple(cells)

    def hardness(self, deal: Sequence[Cell], rules: Variant, quick: bool = False,
                 repeat: int = 0) -> float | None:
        """``-log10`` of the careful player's chance; ``repeat`` gives the same figure where
        it is exact (a played deal's games are drawn afresh).  ``quick`` analyses at most
        ``QUICK_STATES`` layouts, and the careful player alone plays ``QUICK_PLAYOUTS`` games
        from a deal with more (a deal it never wins in them: the least hardness their interval
        allows); a quick figure that is exact is the full one."""
        states, games = (QUICK_STATES, QUICK_PLAYOUTS) if quick else (ANALYSIS_STATES, PLAYOUTS)
        key = (self.canonical(deal, rules), rules)
        if _last_exact.get("key") == key and _last_exact["layouts"] <= states:
            return _last_exact["hardness"]
        try:
            metrics = self._figures(deal, rules, False, repeat, states, games,
                                    _WEIGHTS[:1] if quick else _WEIGHTS).metrics
        except LimitReached:
            if not quick:
                raise
            return -math.log10(wilson_interval(0, games)[1])
        if "layouts" in metrics:
            _last_exact.update(key=key, hardness=metrics["hardness"], layouts=metrics["layouts"])
        return metrics["hardness"]

    def check_graded(self, rules: Variant) -> None:
        name = self.format_rules(rules)
        if rules.redeals:
            raise BadInput(f"Montana rules {name}: a reshuffle is chance, not a puzzle (each "
                           f"one deals a new layout); a puzzle is one round, graded under "
                           f"rules without reshuffles (e.g. 8 or 13)")
        if rules.rules.movable_twos:
            raise BadInput(f"Montana rules {name}: grading serves one round with fixed Twos "
                           f"(e.g. 8 or 13), whose layouts never recur (with movable Twos they "
                           f"do, and the players' exact chances are not defined that way)")

    def figures(self, deal: Sequence[Cell], rules: Variant, solution: bool = True,
                repeat: int = 0) -> Figures:
        """The figures of ``_figures`` from an analysis of at most ``ANALYSIS_STATES``
        layouts, ``PLAYOUTS`` games a player past it."""
        return self._figures(deal, rules, solution, repeat, ANALYSIS_STATES, PLAYOUTS, _WEIGHTS)

    def _figures(self, deal: Sequence[Cell], rules: Variant, solution: bool, repeat: int,
                 states: int, games: int, played: np.ndarray) -> Figures:
        """Exact chances of the careful and the random player (``careful_win``,
        ``random_win``), ``hardness`` = ``-log10 careful_win`` (None if no line wins), the legal
        and winning first moves, the layouts of the round analysed (``layouts``, see
        :mod:`players`), and a winning line: at each step the winning move after which the
        careful player wins most often.  A deal whose graph outgrows ``states`` layouts is
        played instead by the players of ``played``, ``games`` games each (``_played``;
        ``repeat`` > 0 plays other games).  Computed on the canonical deal, so every symmetric
        copy has the same."""
        from solvers.montana import api, players
        self.check_graded(rules)
        check_layout(deal, rules.rules)
        n = rules.ranks
        symmetry = _canonical_map(deal, rules)
        board = api._encode(symmetry.deal(deal, n), n)
        key = (board.tobytes(), rules)
        if _outgrown.get("key") == key and states <= _outgrown["states"]:
            return _played(board, n, symmetry, repeat, states, games, played)
        word, mul, words, shift = api._packing(n)
        table = players._table(ANALYSIS_STATES, words, shift, len(_WEIGHTS))
        out = np.zeros(len(_WEIGHTS))
        status, first, winning, layouts, size = players.evaluate(
            board, n, word, mul, *table, states, True, _WEIGHTS,
            *players._scratch(len(_WEIGHTS)), out)
        if status == players.LIMIT:
            _outgrown.update(key=key, states=states)
            return _played(board, n, symmetry, repeat, states, games, played)
        won = bool(out[0] > 0)
        careful, random_ = (Chance.exactly(float(win)) for win in out)
        metrics = {"hardness": max(0.0, -careful.log10) if won else None,
                   "careful_win": careful.win, "random_win": random_.win,
                   "first_moves": int(first), "winning_first_moves": int(winning),
                   "layouts": int(layouts)}
        if won:   # an exact chance: the interval is one value
            metrics["hardness_interval"] = [metrics["hardness"]] * 2
        src = np.empty(players.MAX_DEPTH + 1, np.int64)
        dst = np.empty_like(src)
        length = players.best_line(board, n, word, mul, *table, size, 0, src, dst) \
            if won and solution else 0
        return Figures(won, metrics, _line(board, n, symmetry, src[:length], dst[:length]))

    def sheet(self, deal: Sequence[Cell], rules: Variant) -> Sheet:
        """The layout, aces as gaps; one round only (a reshuffle cannot be followed on paper)."""
        if rules.redeals:
            raise BadInput(f"a printed Montana puzzle is one round: rules with reshuffles "
                           f"({rules.redeals}) cannot be followed on paper")
        return Sheet(ROWS, rules.ranks, [GAP if card is None else card for card in deal],
                     [str(r + 1) for r in range(ROWS)],
                     [str(c + 1) for c in range(rules.ranks)])

    def reached(self, entry: dict) -> str:
        return "no win exists" if entry["level"] == "unsolvable" else \
            f"every row in suit order, {len(entry['solution'])} moves"

    def page_puzzle(self, deal: Sequence[Cell], rules: Variant, entry: dict) -> dict:
        """The board; the page plays one round with the Twos fixed (the rules Montana's puzzles
        are graded under), its hints from its own exact search (a round's layouts never recur,
        and an 8-rank deal has at most about a million and a half of them)."""
        if rules.redeals or rules.rules.movable_twos:
            raise BadInput(f"the page plays one round with fixed Twos, not the rules "
                           f"{self.format_rules(rules)}")
        return {"rows": ROWS, "cols": rules.ranks}

    def explain(self, level: str, percentile: float, metrics: dict, rules: Variant) -> str:
        if not metrics.get("careful_win"):
            return f"{level}: no line of play wins this deal."
        highest = RANK_WORDS[rules.ranks - 1]
        article = "an" if highest[0] in "AEIOU" else "a"
        return (f"{level}: a careful player, who avoids leaving a gap behind {article} {highest} "
                f"(the highest card), wins "
                f"{odds(metrics['careful_win'], 'no game')} "
                f"(harder than {harder_than(percentile)} of random winnable "
                f"{self.format_rules(rules)}-rank deals); a player who moves at random wins "
                f"{odds(metrics['random_win'], 'no game')}"
                + (f" (both measured over {metrics['games']:,} games: this deal has too "
                   f"many layouts to count exactly)." if "games" in metrics else "."))


GAME = Montana()
