"""Stack Management as a puzzle: the game contract (:class:`solvers.game.Designable`).

Rules ``NxC-kK``: N stacks of C face-up cards dealt from a deck of N suits, K of which hold a
single card; the other N - K suits share the remaining cards as evenly as possible.  With fewer
suits than stacks every line wins and with more none does, so the deck has exactly N suits; and
with no single-card suit no deal is ever won (a suit's second-highest card can only go once its
highest card shows, so no suit can be the source of the checker's path), so K >= 1.  A card is
a ``(value, suit)`` pair of positive integers; only the order of values within a suit matters.

Deal text: the stacks bottom to top, separated by ``|``, each card ``value,suit``, e.g.
``3,2 1,1 7,4 2,2 | ...``.  Moves are printed by the rules module: ``remove (7,2) from 3`` or
``move (7,2) from 3 to 1`` (stacks numbered from 1).

Hardness is ``-log10`` of the exact chance that a careful player wins: one who removes every
beaten card first and then moves the top card of a random stack of two or more onto an empty
stack (:mod:`solvers.stackmgmt.players`).  Every figure is computed on the canonical deal.
"""
from __future__ import annotations

import random
import re
import time
import zlib
from dataclasses import dataclass

from solvers.errors import BadInput
from solvers.game import Designable, Figures, Pool, Replayed, Sheet, harder_than, odds
from solvers.result import Chance, Limits, SolveResult, Status
from solvers.stackmgmt import players
from solvers.stackmgmt.checker import decide
from solvers.stackmgmt.contest import MAX_CARD, Case
from solvers.stackmgmt.rules import Move, Remove, parse_move, replay
from solvers.stackmgmt.strategy import winning_line

Deal = tuple[tuple[tuple[int, int], ...], ...]

#: Largest rules offered: the exact players' chances stay well under a second.
MAX_STACKS, MAX_HEIGHT = 12, 6
#: Positions a player's exact chance may store before :class:`LimitReached`.
MAX_POSITIONS = 200_000
#: Lines drawn for the random player's chance.
PARTICLES = 24

_RULES_RE = re.compile(r"\s*([0-9]+)x([0-9]+)-k([0-9]+)\s*$")


@dataclass(frozen=True)
class Rules:
    """``n`` stacks of ``c`` cards; ``k`` of the ``n`` suits hold a single card."""

    n: int
    c: int
    k: int

    @property
    def name(self) -> str:
        return f"{self.n}x{self.c}-k{self.k}"

    def deck(self) -> list[tuple[int, int]]:
        """The deck's cards suit by suit from suit 1, values from 1."""
        return [(v, s) for s, size in enumerate(self.suit_sizes(), 1) for v in range(1, size + 1)]

    def suit_sizes(self) -> list[int]:
        """Cards per suit, suit 1 first: k single cards, then the rest as even as can be."""
        rest, big = divmod(self.n * self.c - self.k, self.n - self.k)
        return [1] * self.k + [rest + 1] * big + [rest] * (self.n - self.k - big)


def _key(card: tuple[int, int]) -> int:
    return card[1] << players.SHIFT | card[0]


def _keys(deal: Deal) -> list[list[int]]:
    return [[_key(card) for card in stack] for stack in deal]


def _ranked(deal: Deal) -> Deal:
    """Values renumbered 1, 2, ... within each suit, in their order."""
    by_suit: dict[int, list[int]] = {}
    for stack in deal:
        for v, s in stack:
            by_suit.setdefault(s, []).append(v)
    rank = {(v, s): r for s, vs in by_suit.items() for r, v in enumerate(sorted(vs), 1)}
    return tuple(tuple((rank[card], card[1]) for card in stack) for stack in deal)


def _least(stacks: Deal) -> Deal:
    """The least deal (as a tuple of stacks) over every order of the stacks, suits numbered
    from 1 in order of first appearance.  Greedy on the next stack, branching only on ties."""
    best: list[Deal | None] = [None]

    def extend(prefix: tuple, labels: dict[int, int], rest: list) -> None:
        if best[0] is not None and prefix > best[0][:len(prefix)]:
            return
        if not rest:
            best[0] = prefix
            return
        options = []
        for j, stack in enumerate(rest):
            lab = dict(labels)
            text = tuple((v, lab.setdefault(s, len(lab) + 1)) for v, s in stack)
            options.append((text, j, lab))
        least = min(o[0] for o in options)
        for text, j, lab in options:
            if text == least:
                extend(prefix + (text,), lab, rest[:j] + rest[j + 1:])

    extend((), {}, list(stacks))
    return best[0]


class StackManagement(Designable):
    """Stack Management (Code Jam 2017 World Finals) as a solitaire puzzle."""

    name = "stackmgmt"
    code_name = "k"
    title = "Code Jam 2017 Stack Management"
    default_rules = "8x4-k4"
    check_figure = "random_chance"
    goal = ("Each column is a stack, its top card lowest; a card is a value and a suit. Remove "
            "the top card of a stack when a higher card of its suit is on top of another stack, "
            "or move a top card onto an empty stack. Leave at most one card in each stack.")
    notation = ("remove (4,8) from 1: the top of stack 1, value 4 of suit 8, is removed; move "
                "(7,7) from 2 to 1: the top of stack 2 goes onto the empty stack 1.")
    page_script = "page.js"

    # -- rules and deals -------------------------------------------------------------------

    def variants(self) -> list[str]:
        return ["6x4-k3", "8x4-k4", "10x4-k5"]

    def parse_rules(self, text: str) -> Rules:
        m = _RULES_RE.match(text)
        if not m:
            raise BadInput(f"unknown rules {text!r}: write NxC-kK (N stacks of C cards, K "
                           f"single-card suits), e.g. {', '.join(self.variants())}")
        n, c, k = map(int, m.groups())
        if not (2 <= n <= MAX_STACKS and 2 <= c <= MAX_HEIGHT and 1 <= k < n):
            raise BadInput(f"rules {text.strip()!r}: need 2 to {MAX_STACKS} stacks of 2 to "
                           f"{MAX_HEIGHT} cards and 1 to N - 1 single-card suits")
        return Rules(n, c, k)

    def format_rules(self, rules: Rules) -> str:
        return rules.name

    def format_deal(self, deal: Deal) -> str:
        return " | ".join(" ".join(f"{v},{s}" for v, s in stack) for stack in deal)

    def parse_deal(self, text: str, rules: Rules) -> Deal:
        stacks = [part.split() for part in text.split("|")]
        if len(stacks) != rules.n or any(len(s) != rules.c for s in stacks):
            raise BadInput(f"rules {rules.name} need {rules.n} stacks of {rules.c} cards "
                           f"separated by '|', found stacks of {[len(s) for s in stacks]} cards")
        deal = tuple(tuple(_parse_card(card) for card in stack) for stack in stacks)
        _check_deck(deal, rules)
        return deal

    def deal_from_seed(self, seed: int, rules: Rules) -> Deal:
        """``random.Random(seed)`` shuffles the deck (suit by suit from suit 1, values from 1;
        see :meth:`Rules.suit_sizes`) and deals it in order, C cards a stack, bottom to top."""
        deck = rules.deck()
        random.Random(seed).shuffle(deck)
        c = rules.c
        return tuple(tuple(deck[i * c:(i + 1) * c]) for i in range(rules.n))

    # -- moves, replay, solve --------------------------------------------------------------

    def code_pool(self, rules: Rules) -> Pool:
        """The stacks in turn, bottom to top, drawn from the deck of ``deal_from_seed`` (suit
        by suit from suit 1, values from 1); a deal of other values or suits is coded as
        text."""
        return Pool.distinct(rules.n * rules.c, rules.n * rules.c)

    def code_symbols(self, deal: Deal, rules: Rules) -> list[int] | None:
        place = {card: i for i, card in enumerate(rules.deck())}
        symbols = [place.get(card) for stack in deal for card in stack]
        return None if None in symbols else symbols

    def code_deal(self, symbols: list[int], rules: Rules) -> Deal:
        deck, c = rules.deck(), rules.c
        return tuple(tuple(deck[s] for s in symbols[i:i + c]) for i in range(0, len(symbols), c))

    move_separator = "; "

    def parse_move(self, text: str) -> Remove | Move:
        return parse_move(text)

    def replay(self, deal: Deal, rules: Rules, moves: list) -> Replayed:
        """Won when every stack holds at most one card; ``value`` counts the cards removed."""
        board = replay(deal, moves)
        return Replayed(board.won(), rules.n * rules.c - sum(map(len, board.stacks)))

    def solve(self, deal: Deal, rules: Rules, limits: Limits) -> SolveResult:
        """The analysis' checker and its winning line.  It is linear in the cards and cannot
        stop half-way, so it answers ``limit`` before any work when ``limits`` allow fewer
        nodes than cards, fewer states than the one position it keeps, or no time."""
        cards = rules.n * rules.c
        if (limits.nodes is not None and limits.nodes < cards) or \
                (limits.states is not None and limits.states < 1) or \
                (limits.seconds is not None and limits.seconds <= 0):
            return SolveResult(Status.LIMIT)
        start = time.perf_counter()
        verdict = decide(Case.from_stacks([list(s) for s in deal]))
        moves = winning_line([list(s) for s in deal], verdict) if verdict.possible else []
        return SolveResult(Status.SOLVED if verdict.possible else Status.UNSOLVABLE, moves,
                           nodes=cards, seconds=time.perf_counter() - start,
                           details={"reason": verdict.reason,
                                    "path": [a + 1 for a in verdict.path]})

    # -- design ----------------------------------------------------------------------------

    def canonical(self, deal: Deal, rules: Rules) -> Deal:
        """Values ranked within each suit, then the least deal over stack orders with suits
        numbered by first appearance."""
        return _least(_ranked(deal))

    def symmetric_copy(self, deal: Deal, rules: Rules, rng: random.Random) -> Deal:
        """Stacks shuffled, suits relabelled and values spread out (order kept in each suit)."""
        suits = sorted({s for stack in deal for _, s in stack})
        label = dict(zip(suits, rng.sample(range(1, MAX_CARD + 1), len(suits))))
        by_suit: dict[int, list[int]] = {}
        for stack in deal:
            for v, s in stack:
                by_suit.setdefault(s, []).append(v)
        value = {}
        for s, vs in by_suit.items():
            for v, new in zip(sorted(vs), sorted(rng.sample(range(1, MAX_CARD + 1), len(vs)))):
                value[v, s] = new
        stacks = [tuple((value[card], label[card[1]]) for card in stack) for stack in deal]
        rng.shuffle(stacks)
        return tuple(stacks)

    def neighbour(self, deal: Deal, rules: Rules, rng: random.Random) -> Deal:
        """Two cards in different places swapped (the deck is unchanged)."""
        a, b = rng.sample(range(rules.n * rules.c), 2)
        stacks = [list(s) for s in deal]
        (i, x), (j, y) = divmod(a, rules.c), divmod(b, rules.c)
        stacks[i][x], stacks[j][y] = stacks[j][y], stacks[i][x]
        return tuple(map(tuple, stacks))

    def hardness(self, deal: Deal, rules: Rules, quick: bool = False,
                 repeat: int = 0) -> float | None:
        """``-log10`` of the careful player's exact chance, None if the deal cannot be won;
        exact and cheap, so ``quick`` and ``repeat`` change nothing."""
        stacks = _keys(self.canonical(deal, rules))
        if not players.winnable(stacks):
            return None
        return _hardness(players.Chances(False, MAX_POSITIONS).chance(stacks))

    def figures(self, deal: Deal, rules: Rules) -> Figures:
        """The players' chances, the checker's ace path, the first choice's options and the
        length of the winning line, all of the canonical deal; the solution is the deal's own."""
        canon = self.canonical(deal, rules)
        stacks = _keys(canon)
        result = self.solve(deal, rules, Limits())
        if not result.solved:
            return Figures(False, {"reason": result.details["reason"]})
        model = self.solve(canon, rules, Limits())
        careful = players.Chances(False, MAX_POSITIONS).chance(stacks)
        eager = players.Chances(True, MAX_POSITIONS).chance(stacks)
        rng = random.Random(zlib.crc32(f"{self.format_deal(canon)} random".encode()))
        first = players.choices(players.settle(stacks))
        metrics = {
            "hardness": _hardness(careful),
            "hardness_interval": [_hardness(careful)] * 2,   # an exact chance: no spread
            "careful_chance": round(careful.win, 12),
            "random_chance": round(players.random_chance(stacks, PARTICLES, rng).win, 12),
            "eager_chance": round(eager.win, 12),
            "ace_path": len(model.details["path"]),
            "first_choices": len(first),
            "first_safe": sum(map(players.winnable, first)),
            "moves": len(model.moves),
        }
        return Figures(True, metrics, result.moves)

    def sheet(self, deal: Deal, rules: Rules) -> Sheet:
        return Sheet.columns(deal)

    def reached(self, entry: dict) -> str:
        return f"at most one card a stack, {len(entry['solution'])} moves"

    def page_puzzle(self, deal: Deal, rules: Rules, entry: dict) -> dict:
        """The board; the page's hints need no data: it decides any position with the contest
        analysis' criterion, exact and linear in the cards."""
        return {"rows": rules.c, "cols": rules.n}

    def explain(self, level: str, percentile: float, metrics: dict, rules: Rules) -> str:
        if level == "unsolvable":
            return f"unsolvable: {metrics.get('reason', 'no line of play clears the stacks')}."
        path = metrics.get("ace_path", 0)
        how = (f"the winning line digs through {path} ace stack{'s' * (path != 1)}" if path
               else "removals alone clear the stacks")
        careful, random_, eager = (odds(metrics[f"{who}_chance"], "no game")
                                   for who in ("careful", "random", "eager"))
        return (f"{level}: a careful player who removes every beaten card first and then moves "
                f"a random top card to the empty stack wins {careful} (harder than "
                f"{harder_than(percentile)} of random winnable {rules.name} deals); a player who "
                f"plays any move at random wins {random_}, and one who always prefers a move "
                f"that sets off a removal wins {eager}; {how}.")


def _hardness(chance: Chance) -> float:
    return round(-chance.log10, 9) + 0.0


def _parse_card(text: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
        raise BadInput(f"card {text!r} is not 'value,suit' (two whole numbers)")
    v, s = int(parts[0]), int(parts[1])
    if not (1 <= v <= MAX_CARD and 1 <= s <= MAX_CARD):
        raise BadInput(f"card {text!r}: values and suits run from 1 to {MAX_CARD}")
    return v, s


def _check_deck(deal: Deal, rules: Rules) -> None:
    """:class:`BadInput` unless the cards are distinct and the suits have the deck's sizes."""
    cards = [card for stack in deal for card in stack]
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise BadInput(f"card {twice[0]},{twice[1]} occurs twice")
    sizes: dict[int, int] = {}
    for _, s in cards:
        sizes[s] = sizes.get(s, 0) + 1
    if sorted(sizes.values()) != sorted(rules.suit_sizes()):
        raise BadInput(f"rules {rules.name} need {rules.n} suits of "
                       f"{sorted(rules.suit_sizes())} cards, found "
                       f"{len(sizes)} suits of {sorted(sizes.values())} cards")


GAME = StackManagement()
