"""The difficulty figures of a StacksSquared deal: how often simulated players win it.

A grade is a property of the puzzle: every figure is computed on the canonical deal
(``solvers.stacksquared.symmetry``: rows, columns, transposition, suits and rank reversal), and
every random stream is seeded from the canonical deal's text, so all symmetric copies of a deal
get the same figures, level and explanation.  The solution is mapped back to the deal as given.

Figures (``metrics`` in JSON):

- ``single_stack``, ``max_score``: the exact solver's answers.
- ``first_moves``, ``winning_first_share``: legal first moves and the exact share of them after
  which one stack is still reachable.
- ``players``: for each player of the ladder (``solvers.stacksquared.players``: ``random``,
  ``careful``, ``look2``, ``look3``), the chance to win (``win``) and ``exact``: true when the
  chance is exact (``chances``: the player's choices folded over every winnable position it
  can reach; where the grid and deal allow, ``Budget``), else an estimate with its 95% interval
  (``interval``; the value twice when exact), the particles used (``particles``) and, where an
  exact search was tried and stopped at its limit, the certified ``bounds`` it found (the
  estimate and interval are clipped to them).
- ``halfway``: Neller and Ziegler's halfway solvability ratio (random play until half of the
  stacks are gone, then one stack still reachable), exact or estimated as the players' chances.
  The halfway step is always checked exactly, even where the players' exact filter starts later
  (6x6).
- ``tree``: ``"exact"`` when the game tree fits ``tree_states`` stored states (by default
  ``TREE_STATES`` for grids of at most ``TREE_CELLS`` cells, else none), else ``"limit"``;
  then ``solutions`` (distinct winning move sequences) and ``min_critical`` (the fewest critical
  positions, where more than half of the moves lose, on any winning line), else ``null``.
- ``odd_cards``, ``flocks``, ``compat_edges``, ``line_edges``: the compatibility graph.
- ``skill``: how much skill matters, ``log10`` of the look3 player's chance over the random
  player's (the slope of the skill curve: the players' chances from random to look3, then the
  perfect player's 1).
- ``hardness``: ``-log10`` of the look3 player's chance to win: the figure the level rests on;
  ``hardness_interval`` its 95% interval (one value twice when exact).

The level rests on ``hardness`` (``puzzlegen.grading`` turns it into a percentile among random
solvable deals of the grid); a deal without a single-stack solution is ``"unsolvable"``.
"""
from __future__ import annotations

import math
import time
import zlib
from dataclasses import dataclass

import numpy as np

from solvers.errors import LimitReached
from solvers.game import harder_than, odds
from solvers.result import Chance
from solvers.stacksquared import Deal, replay, solve
from solvers.stacksquared.api import cells_to_moves, compat_masks, line_masks
from solvers.stacksquared.codes import DONE, GRADE, MAX_TRIES, OPEN, WINS, decision_table
from solvers.stacksquared.rules import Move, Position, compatible
from solvers.stacksquared.symmetry import canonical_with_map

#: The player ladder: name -> look-ahead (moves) and how the explanation names it.
PLAYERS = {"random": (0, "a player who moves at random"),
           "careful": (1, "a careful player who never walks into a dead position"),
           "look2": (2, "a player who looks two moves ahead"),
           "look3": (3, "a player who looks three moves ahead")}
#: The player whose chance to win sets the level.
LEVEL_PLAYER = "look3"
#: The largest game tree whose exact figures are computed, by default only for grids of at most
#: ``TREE_CELLS`` cells (a larger tree almost never fits: the attempt would only cost time).
TREE_STATES = 200_000
TREE_CELLS = 12
#: A player's chance to win below this counts as this when turned into hardness.
FLOOR = 1e-12


@dataclass(frozen=True)
class Budget:
    """Particles per player (in ``PLAYERS`` order; 0 skips the player; None: ``grid_particles``
    of the grid), the most stacks a position may have for the players' exact filter (before it
    only dead positions are removed: ``players.win_chance``), and the decision table's state
    limit.  The filter starts at 14 stacks: on 6x6, 48 look3 particles cost 0.23 s an estimate
    from 14 and 1.28 s from 16, and none of 160 estimates was at the floor.  The limit, 16
    million states (1.3 GB at most), decides every deal of the 4x5 calibration with its 512
    particles: 8 million left 1 in 700 of them undecided, all in the hard tail.

    Exact figures (``chances``) are tried on grids of at most ``EXACT_CELLS`` cells: for every
    deal of at most ``ALWAYS_EXACT_CELLS`` cells, valuing at most ``all_positions`` winnable
    positions (every 3x3 and 3x4 deal of seeds 1..10,000 fits: the largest 3x4 walk took 6 s),
    else for deals whose level player's estimate is at most ``exact_below``, valuing at most
    ``exact_positions``; ``exact_states`` decision states are stored, in a table of their own.
    All are counts, so whether a figure is exact depends on the deal and the budget alone."""

    particles: tuple[int, ...] | None = None
    exact_stacks: int = 14
    states: int = 16_000_000
    exact_positions: int = 60_000
    exact_states: int = 3_000_000
    exact_below: float = 1e-3
    all_positions: int = 2_000_000

    def player_particles(self, deal: Deal) -> tuple[int, ...]:
        return grid_particles(deal.size) if self.particles is None else self.particles

    def positions(self, deal: Deal) -> int:
        """The most winnable positions the exact walk values for ``deal``."""
        return self.all_positions if deal.size <= ALWAYS_EXACT_CELLS else self.exact_positions


#: The level player's particles by grid size (cells), where 48 are too few: with 48, one deal's
#: estimates spread (log10) by 0.36 on 4x5, 0.46 on 5x5 and 0.66 on 6x6,
#: as much as random deals differ (docs/design.md "How precise is a grade?").  A grid's entry
#: and its shipped calibration go together: change one, rebuild the other
#: (``tests/test_grading.py`` replays calibration deals).
LEVEL_PARTICLES = {20: 512, 25: 96, 36: 192}


def grid_particles(cells: int) -> tuple[int, ...]:
    """The default particles of the players on a grid of ``cells`` cells."""
    return (48, 24, 24, LEVEL_PARTICLES.get(cells, 48))


DEFAULT_BUDGET = Budget()
#: The quick estimate (annealing's first look): the look3 player alone, few particles.
QUICK = Budget((0, 0, 0, 16), states=2_000_000, exact_positions=0)
#: Grids whose figures may be exact, and those small enough to try it on every deal (``Budget``).
EXACT_CELLS = 16
ALWAYS_EXACT_CELLS = 12


class Decider:
    """Exact single-stack decisions for positions of one deal, sharing one memo table; a
    decision past ``max_states`` stored states or ``max_seconds`` from now raises
    :class:`LimitReached`."""

    def __init__(self, deal: Deal, max_states: int = DEFAULT_BUDGET.states,
                 max_seconds: float | None = None):
        self.n = deal.size
        self.max_seconds = max_seconds
        self.deadline = -1.0 if max_seconds is None else time.monotonic() + max_seconds
        self.stopped_by: str | None = None   # the limit that stopped a decision: states, seconds
        self.line = line_masks(deal.rows, deal.cols)
        self.compat = compat_masks()
        self.max_states = max_states
        self.table = decision_table((self.n + 7) // 8)
        self.count = 0
        self.path = np.zeros(self.n, dtype=np.int64)

    def decide(self, card: np.ndarray,
               reference: bool = False) -> tuple[bool, list[tuple[int, int]]]:
        """(winnable, a winning line as cell pairs) for the tops ``card``; the line is the first
        one in reference move order when ``reference``, else the quickest to find."""
        occupied = 0
        for i, c in enumerate(card):
            if c >= 0:
                occupied |= 1 << i
        if 0 <= self.deadline <= time.monotonic():
            raise self.limit_reached("seconds")
        result, self.table, self.count, length = GRADE.functions().decide(
            card, np.uint64(occupied), bin(occupied).count("1"), self.line, self.compat,
            not reference, self.table, self.count, self.max_states, self.path, self.deadline)
        if result == OPEN:
            raise self.limit_reached("seconds" if self.count < self.max_states else "states")
        return bool(result == WINS), [divmod(int(p), 64) for p in self.path[:length]]

    def limit_reached(self, by: str) -> LimitReached:
        """The error of a decision stopped by its ``states`` or ``seconds`` limit (recorded in
        ``stopped_by``)."""
        self.stopped_by = by
        return LimitReached(f"the decision searches ran for {self.max_seconds:g} seconds"
                            if by == "seconds" else
                            f"the decision search stored {self.max_states:,} states")

    def chances(self, card: np.ndarray, goal_stacks: int,
                positions: int) -> tuple[np.ndarray, np.ndarray, bool]:
        """Certified bounds (lo, hi), indexed by look-ahead, on each player's chance to reach
        ``goal_stacks`` stacks from a winnable position, and whether they are exact
        (``chances.chances``)."""
        lo, hi, exact, _, self.table, self.count = GRADE.functions().chances(
            card, len(PLAYERS), goal_stacks, positions, self.line, self.compat, self.table,
            self.count, self.max_states, self.path)
        return lo, hi, bool(exact)

    def win_chance(self, card: np.ndarray, look: int, particles: int, seed: int,
                   exact_stacks: int, also_exact: int = -1) -> tuple[np.ndarray, ...]:
        """Per-move survival shares, surviving tries and between-lineage variances of a player
        (``players.win_chance``), on this table."""
        steps, hits, self.table, self.count, lineage = GRADE.functions().win_chance(
            card, look, particles, seed, exact_stacks, also_exact, self.line, self.compat,
            self.table, self.count, self.max_states, self.path)
        if steps[0] < 0:
            raise self.limit_reached("states")
        return steps, hits, lineage


def tops(position: Position) -> np.ndarray:
    """The kernel's view of a position: card index per cell, -1 when empty."""
    return np.array([-1 if t is None else t.index for t in position.tops], dtype=np.int8)


def stream_seed(deal: Deal, *parts) -> int:
    """A seed derived from the deal's text and ``parts`` (on the canonical deal: invariant)."""
    return zlib.crc32(":".join([str(deal), *map(str, parts)]).encode()) & 0x7FFFFFFF


def estimate(steps: np.ndarray, hits: np.ndarray, lineage: np.ndarray,
             particles: int) -> Chance:
    """The product of the survival shares and its 95% interval: on the log scale, the
    variance is the binomial variance of the steps' shares, sum (1 - p_t) / hits_t, plus the
    between-lineage variance of their product (``players.win_chance``).  The second term holds
    part of the first, so the sum errs wide where the particles descend from many first moves
    and narrow where a few lineages carry the estimate (docs/design.md measures it)."""
    if np.any(hits == 0):
        # No survivor at step t: the earlier shares times a one-sided bound for that step.
        t = int(np.argmin(hits))
        upper = float(np.prod(steps[:t])) * (1.0 - 0.05 ** (1.0 / (MAX_TRIES * particles)))
        return Chance(0.0, (0.0, upper), particles)
    value = float(np.prod(steps))
    spread = 1.96 * math.sqrt(float(np.sum((1.0 - steps) / hits)) + float(lineage[-1]))
    return Chance(value, (value * math.exp(-spread), min(1.0, value * math.exp(spread))),
                  particles)


def line_cells_to_moves(deal: Deal, cells: list[tuple[int, int]]) -> list[Move]:
    """The decision search's (mover cell, destination cell) line, named by top cards."""
    froms = np.array([a for a, _ in cells], dtype=np.int64)
    tos = np.array([b for _, b in cells], dtype=np.int64)
    return cells_to_moves(Position.start(deal), froms, tos)


def safe_moves(decider: Decider, position: Position) -> list[Move]:
    """The legal moves after which one stack is still reachable, in legal-move order."""
    return [m for m in position.legal_moves() if decider.decide(tops(position.play(m)))[0]]


def player_figures(deal: Deal, decider: Decider, budget: Budget) -> dict:
    """Each player's :class:`Chance` to win (``players``) and the halfway ratio (``halfway``,
    the random player's chance to get there) (module docstring)."""
    start = tops(Position.start(deal))
    halfway = deal.size // 2
    out, half = {}, None
    for (name, (look, _)), particles in zip(PLAYERS.items(), budget.player_particles(deal)):
        if particles <= 0:
            continue
        table, also_exact = decider, -1
        exact_stacks = budget.exact_stacks
        if name == "random" and deal.size - halfway > exact_stacks:
            # The halfway step comes before the exact filter: check it exactly too, on a table
            # of its own (these decisions are many and rarely shared with the other players).
            table, also_exact = Decider(deal, budget.states), deal.size - halfway
        steps, hits, lineage = table.win_chance(start, look, particles, stream_seed(deal, name),
                                                 exact_stacks, also_exact)
        out[name] = estimate(steps, hits, lineage, particles)
        if name == "random":
            half = estimate(steps[:halfway], hits[:halfway], lineage[:halfway], particles)
    return {"players": out, "halfway": half}


def tree_figures(deal: Deal, max_states: int) -> dict:
    """Exact whole-tree figures (module docstring), ``null`` past ``max_states``."""
    out = GRADE.functions().explore(tops(Position.start(deal)), line_masks(deal.rows, deal.cols),
                       compat_masks(), max_states)
    outcome, _, win, sols, crit = out
    if outcome != DONE:
        return {"tree": "limit", "solutions": None, "min_critical": None}
    return {"tree": "exact", "solutions": int(sols[0]) if sols[0] < 2 ** 53 else float(sols[0]),
            "min_critical": int(crit[0]) if win[0] else None}


def graph_figures(deal: Deal) -> dict:
    """Compatibility-graph figures of the dealt cards (module docstring)."""
    cards, n = deal.cards, deal.size
    pos = Position.start(deal)
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n) if compatible(cards[a], cards[b])]
    line_pairs = [(a, b) for a, b in pairs if pos.same_line(a, b)]
    partnered = {x for pair in line_pairs for x in pair}
    return {"odd_cards": n - len(partnered), "flocks": components(n, pairs),
            "compat_edges": len(pairs), "line_edges": len(line_pairs)}


def components(n: int, pairs: list[tuple[int, int]]) -> int:
    """The connected components of the graph on ``0 .. n-1`` with the edges ``pairs``."""
    parent = list(range(n))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        parent[root(a)] = root(b)
    return len({root(x) for x in range(n)})


def rough_hardness(deal: Deal) -> float:
    """A guess at the hardness from the deal's structure alone: the least-squares fit of the
    hardness of the 4x4 calibration's winnable deals on their compatible pairs, odd cards and
    largest suit (docs/research.md, "Attributes of challenging deals": held-out Spearman 0.64,
    against 0.62 for minus the pairs and half of those in line; among the 5% of held-out deals
    it ranks hardest, 21 of the 28 expert and master ones, against 15)."""
    graph = graph_figures(deal)
    largest_suit = max(sum(card.suit == suit for card in deal.cards) for suit in range(4))
    return (-0.0749 * graph["compat_edges"] + 0.1489 * graph["odd_cards"]
            + 0.0581 * largest_suit)


def first_move_figures(deal: Deal, decider: Decider) -> dict:
    position = Position.start(deal)
    legal = list(position.legal_moves())
    wins = len(safe_moves(decider, position))
    return {"first_moves": len(legal), "winning_first_share": wins / len(legal) if legal else 1.0}


def to_hardness(chance: float) -> float:
    """``-log10`` of a chance to win (at least ``FLOOR``)."""
    return -math.log10(max(chance, FLOOR))


def estimated_hardness(deal: Deal, budget: Budget, repeat: int = 0) -> float | None:
    """The hardness of ``deal`` from the look3 player alone with ``budget`` (None without a
    single stack); with ``DEFAULT_BUDGET`` it equals the grade's figure.  ``repeat`` > 0 draws
    an independent estimate (another random stream), to measure the grade's precision."""
    found = level_estimate(deal, budget, repeat)
    return None if found is None else round(to_hardness(found.win), 6)


def level_estimate(deal: Deal, budget: Budget, repeat: int = 0) -> Chance | None:
    """The level player's chance (``estimate``, or exact: ``certified``) for ``deal`` with
    ``budget``, None without a single stack; ``repeat`` as in ``estimated_hardness`` (an exact
    figure is the same for every repeat; whether it is tried rests on the first stream)."""
    canon = canonical_with_map(deal)[0]
    decider = Decider(canon, budget.states)
    start = tops(Position.start(canon))
    if not decider.decide(start)[0]:
        return None
    look, _ = PLAYERS[LEVEL_PLAYER]
    particles = budget.player_particles(canon)[list(PLAYERS).index(LEVEL_PLAYER)]

    def drawn(*stream) -> Chance:
        return estimate(*decider.win_chance(start, look, particles,
                                            stream_seed(canon, LEVEL_PLAYER, *stream),
                                            budget.exact_stacks), particles)

    found = drawn()
    if not tries_exact(canon, budget, found.win):
        return drawn(repeat) if repeat else found
    lo, hi, exact = Decider(canon, budget.exact_states).chances(start, 1, budget.positions(canon))
    return certified(found if exact or not repeat else drawn(repeat), lo[look], hi[look], exact)


def tries_exact(deal: Deal, budget: Budget, level_win: float) -> bool:
    """Whether the figures of ``deal`` are tried exactly (``Budget``), given the level player's
    estimated chance ``level_win`` (of the first stream)."""
    if budget.exact_positions <= 0 or deal.size > EXACT_CELLS:
        return False
    return deal.size <= ALWAYS_EXACT_CELLS or level_win <= budget.exact_below


def certified(found: Chance, lo: float, hi: float, exact: bool) -> Chance:
    """The chance the exact search found (``exact`` true: ``lo``), else the estimate ``found``
    within the certified bounds ``lo``, ``hi`` it left where it stopped at its limit."""
    lo, hi = float(lo), float(hi)
    return Chance.exactly(lo) if exact else found.within(lo, hi)


def exact_figures(canon: Deal, budget: Budget, measured: dict) -> None:
    """The players' chances and the halfway ratio of ``player_figures`` made exact where
    ``budget`` allows (``tries_exact``; a table of their own, as in ``level_estimate``); a
    figure the search could not finish keeps its estimate, within the certified bounds found."""
    found = measured["players"]
    if LEVEL_PLAYER not in found or not tries_exact(canon, budget, found[LEVEL_PLAYER].win):
        return
    decider = Decider(canon, budget.exact_states)
    start = tops(Position.start(canon))
    lo, hi, exact = decider.chances(start, 1, budget.positions(canon))
    for name in found:
        look, _ = PLAYERS[name]
        found[name] = certified(found[name], lo[look], hi[look], exact)
    if measured["halfway"] is not None:
        lo, hi, exact = decider.chances(start, canon.size - canon.size // 2,
                                        budget.positions(canon))
        measured["halfway"] = certified(measured["halfway"], lo[0], hi[0], exact)


def canonical_figures(canon: Deal, budget: Budget = DEFAULT_BUDGET,
                      tree_states: int | None = None) -> tuple[dict, list[Move]]:
    """Every figure of the canonical deal ``canon`` and its reference solution (or, without a
    single stack, a line reaching the maximum score).  A disagreement between the decision
    search and the solver is a bug: ``AssertionError``."""
    decider = Decider(canon, budget.states)
    winnable, cells = decider.decide(tops(Position.start(canon)), reference=True)
    result = solve(canon)
    if result.details["single_stack"] is None or result.details["max_score"] is None:
        raise LimitReached("the exact solver hit its limit")
    if result.details["single_stack"] != winnable:
        raise AssertionError(f"decision search and solver disagree on {canon}")
    metrics = {"single_stack": winnable, "max_score": result.details["max_score"]}
    metrics.update(graph_figures(canon))
    if not winnable:
        return metrics, result.moves
    moves = line_cells_to_moves(canon, cells)
    if replay(canon, moves).stacks() != 1:
        raise AssertionError(f"the reference solution of {canon} does not end in one stack")
    metrics.update(first_move_figures(canon, decider))
    measured = player_figures(canon, decider, budget)
    exact_figures(canon, budget, measured)
    found, half = measured["players"], measured["halfway"]
    metrics["players"] = {name: chance.to_json() for name, chance in found.items()}
    metrics["halfway"] = None if half is None else half.to_json("ratio")
    if tree_states is None:
        tree_states = TREE_STATES if canon.size <= TREE_CELLS else 0
    exact = tree_figures(canon, tree_states)
    metrics.update(tree=exact["tree"], solutions=exact["solutions"],
                   min_critical=exact["min_critical"], effort=decider.count)
    level = found[LEVEL_PLAYER]
    metrics["skill"] = round(to_hardness(found["random"].win) - to_hardness(level.win), 3)
    metrics["hardness"] = round(to_hardness(level.win), 6)
    low, high = level.interval
    metrics["hardness_interval"] = [round(to_hardness(high), 6), round(to_hardness(low), 6)]
    return metrics, moves


def figures(deal: Deal, budget: Budget = DEFAULT_BUDGET,
            tree_states: int | None = None) -> tuple[dict, list[Move]]:
    """Every figure of ``deal`` (computed on its canonical form) and its solution, in the
    deal's own cards."""
    canon, card_map = canonical_with_map(deal)
    metrics, moves = canonical_figures(canon, budget, tree_states)
    back = {v: k for k, v in card_map.items()}
    return metrics, [Move(back[m.mover], back[m.dest]) for m in moves]


def explain(level: str, percentile: float, metrics: dict, rows: int, cols: int) -> str:
    """One sentence: why this level."""
    look3 = metrics["players"][LEVEL_PLAYER]["win"]
    random_win = metrics["players"]["random"]["win"]
    return (f"{level}: {PLAYERS[LEVEL_PLAYER][1]} wins {odds(look3)} "
            f"(harder than {harder_than(percentile)} of random solvable {rows}x{cols} deals); "
            f"{PLAYERS['random'][1]} wins {odds(random_win)}.")
