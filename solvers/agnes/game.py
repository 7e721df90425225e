"""Agnes Sorel as puzzlegen sees it: the game contract (:mod:`solvers.game`) over the rules
module and the exact solver.

Rules are quagnes's variant names (``Up-Suit-AnyRun``, case-insensitive); a deal is the deck in
card notation, base card first (``7S KD ...``); a move prints as the rules module prints it
(``QC from pile 1 to foundation``, ``4C from pile 4 to pile 3``, ``3 cards from 9H from pile 6
to pile 2``, ``deal``).

Symmetries: only a card's rank counted from the base card's rank matters, and only which suit
shares a colour with which, so shifting every rank by the same amount and relabelling the suits
while keeping the two colour pairs (swap the black suits, the red suits, or the colours: eight
relabellings) give the same game under every variant.  The canonical deal is the one whose base
card is an Ace with the least text among the eight relabellings.

Hardness is ``-log10`` of the bold player's chance to win (:mod:`solvers.agnes.players`),
estimated with 1,000 games over levels of progress, then 10,000 and 100,000, then (while every
game dies) 1,000 games split move by move with the exact solver as their filter; a winnable deal
that none of these wins has no measured hardness (its figures say ``beyond``, ``hardness`` raises
:class:`BeyondMeasure`), never an extrapolation.  The careful and the hasty player's
chances are figures the grade does not use; the check figure is the hasty player's.
"""
from __future__ import annotations

import random
import zlib

import numpy as np

from solvers.agnes import api
from solvers.agnes import rules as R
from solvers.cards import Card
from solvers.errors import BadInput, BeyondMeasure, LimitReached
from solvers.game import (Designable, Figures, Pool, Replayed, Sheet, Tuning, harder_than,
                          odds)
from solvers.result import Chance, Limits, SolveResult, Status

#: Suit relabellings keeping the colour pairs (C,S black; D,H red: suits 0..3 = C D H S).
SUIT_MAPS = ((0, 1, 2, 3), (3, 1, 2, 0), (0, 2, 1, 3), (3, 2, 1, 0),
             (1, 0, 3, 2), (2, 0, 3, 1), (1, 3, 0, 2), (2, 3, 0, 1))
BOLD_GAMES = (1000, 10_000, 100_000)   # the bold player's games, the next while every game dies
FILTERED_GAMES = 1000   # then its games split move by move, each move checked exactly
CHECK_NODES = 1000      # positions of that check's search (players.filtered_chance)
QUICK_GAMES = 250         # the bold player's games in a quick hardness (no escalation)
PARTICLES = 1000          # games of the careful player's estimate
HASTY_PARTICLES = 2000    # games of the hasty player's (noisier: it often never wins)
FIGURE_LIMITS = Limits(nodes=5_000_000)   # the exact solve inside figures and hardness
_EMPTY = {"None": 0, "Any1": 1, "AnyRun": 2, "High1": 3, "HighRun": 4}



def relabel(deal: R.Deal, shift: int, suits: tuple[int, ...]) -> R.Deal:
    """The deal with every rank moved up ``shift`` (wrapping) and suit ``s`` named ``suits[s]``."""
    return R.Deal(tuple(_card(c, shift, suits) for c in deal.cards))


def _card(card: Card, shift: int, suits: tuple[int, ...]) -> Card:
    return Card((card.rank - 1 + shift) % 13 + 1, suits[card.suit])


def _to_canonical(deal: R.Deal) -> tuple[R.Deal, int, tuple[int, ...]]:
    """The canonical deal and the relabelling (shift, suits) taking ``deal`` to it."""
    shift = (1 - deal.base.rank) % 13
    return min(((relabel(deal, shift, m), shift, m) for m in SUIT_MAPS),
               key=lambda t: R.format_deck(t[0]))


def _seed(deal: R.Deal, rules: R.Rules, player: str) -> int:
    return zlib.crc32(f"{R.format_deck(deal)}|{rules.name}|{player}".encode())


def _deck(deal: R.Deal) -> np.ndarray:
    return np.array([deal.rel(c) * 4 + c.suit for c in deal.cards], np.int64)


def chance(deal: R.Deal, rules: R.Rules, player: int, particles: int,
           repeat: int = 0, check_nodes: int = 0) -> Chance:
    """``player``'s chance to win estimated from ``particles`` games (measured as its log10, no
    interval), on the deal as given, seeded by its text: split over levels of progress, or
    with ``check_nodes`` move by move with the exact filter.  When every game lost,
    ``reached`` is the cards home at best and the estimate up to there (that step counted as
    0.5 in ``particles``) is extrapolated to the whole deal: multiplied by 52 / the cards home,
    as if every card still to go home were as hard as those before.  ``repeat`` > 0 draws
    another stream."""
    from solvers.agnes.players import filtered_chance, win_chance
    args = (_deck(deal), rules.face_up, rules.same_suit, _EMPTY[rules.empty], rules.split,
            player, particles, _seed(deal, rules, f"{player}:{repeat}" if repeat else str(player)))
    log_p, reached = filtered_chance(*args, check_nodes) if check_nodes else win_chance(*args)
    reached = int(reached)
    return Chance.from_log10(float(log_p) * 52 / reached, games=particles,
                             reached=None if reached == 52 else reached)


def bold_chance(deal: R.Deal, rules: R.Rules, repeat: int = 0) -> tuple[Chance, bool]:
    """The bold player's chance to win, and whether the exact filter measured it: 1,000 games
    over levels of progress, then 10,000 and 100,000, then 1,000 split move by move with the
    filter, while every game dies; when no game of the last wins (``reached`` set) it is beyond the
    measure."""
    from solvers.agnes.players import BOLD
    for games in BOLD_GAMES:
        found = chance(deal, rules, BOLD, games, repeat)
        if found.reached is None:
            return found, False
    return chance(deal, rules, BOLD, FILTERED_GAMES, repeat, CHECK_NODES), True


def cards_home(found: Chance) -> int:
    """The cards home at best in the games behind ``found`` (52: some game won)."""
    return 52 if found.reached is None else found.reached


#: The page's board rows at the start: the foundations and the stock, pile 7's cards and room
#: for its last card; ``rowsOf`` in page.js adds rows as piles grow.
PAGE_ROWS = 1 + 7 + 3


def page_rules(rules: R.Rules) -> dict:
    """The rules as the page's script reads them (parsed once, here)."""
    return {"name": rules.name, "sameSuit": rules.same_suit, "empty": rules.empty,
            "emptyTakes": R.EMPTY_TAKES[rules.empty], "split": rules.split}


#: The furthest deal of a seed a run or a solve starts at.
MAX_SKIP = 1_000_000


def _after(board: R.Board, move: R.Move) -> R.Board:
    """The position ``move`` (legal) leads to from ``board``."""
    after = board.copy()
    after.apply(move, check=False)
    return after


def _table_bits(limits: Limits, table_bits: int) -> int:
    """The losing-state table's size: ``table_bits``, smaller where ``limits.states`` is."""
    if limits.states is None:
        return table_bits
    return max(4, min(table_bits, int(limits.states).bit_length() - 1))


class AgnesGame(Designable):
    """Agnes Sorel under quagnes's rule variants."""

    name = "agnes"
    code_name = "a"
    title = "Agnes Sorel"
    default_rules = "Up-Suit-AnyRun"
    #: About a minute of moves; the memory is the losing-state table (``--table-bits``).
    default_limits = Limits(nodes=20_000_000)
    tuning = (Tuning("table_bits", int, api.DEFAULT_TABLE_BITS,
                     "Losing-state table of 2**BITS entries (64 bytes each); --max-states "
                     "caps it too.", low=4, high=30),
              Tuning("max_score", bool, False, "Search every state for the highest score "
                     "(cards home), even on a lost deal."))
    deal_key = "index"
    _stream: list | None = None
    check_figure = "hasty_log10"
    goal = ("Agnes Sorel: build the four foundations up by suit from the base card's rank. In "
            "the seven piles (columns, the top card lowest) a card goes onto a card one rank "
            "higher of the same colour. The rules, the base card and the stock are below the "
            "piles.")
    notation = ("9D from pile 3 to pile 6: the top card 9D moves; 2 cards from 3C: the run from "
                "3C down; to foundation: home; deal: the next cards of the stock.")
    page_script = "page.js"

    def variants(self) -> list[str]:
        return [R.Rules(up, suit, empty, split).name for up in (True, False)
                for suit in (True, False) for empty in R.EMPTY_RULES for split in (True, False)]

    def parse_rules(self, text: str) -> R.Rules:
        return R.parse_rules(text)

    def format_rules(self, rules: R.Rules) -> str:
        return rules.name

    def parse_deal(self, text: str, rules: R.Rules) -> R.Deal:
        return R.parse_deck(text)

    def format_deal(self, deal: R.Deal) -> str:
        return R.format_deck(deal)

    def deal_from_seed(self, seed: int, rules: R.Rules) -> R.Deal:
        return R.deal_from_seed(seed, 0)

    def code_pool(self, rules: R.Rules) -> Pool:
        """The deck in dealing order: the 52 cards (``Card.index``)."""
        return Pool.distinct(52, 52)

    def code_symbols(self, deal: R.Deal, rules: R.Rules) -> list[int]:
        return [card.index for card in deal.cards]

    def code_deal(self, symbols: list[int], rules: R.Rules) -> R.Deal:
        return R.Deal(tuple(map(Card.from_index, symbols)))

    def parse_move(self, text: str) -> R.Move:
        return R.parse_move(text)

    def replay(self, deal: R.Deal, rules: R.Rules, moves: list) -> Replayed:
        board = R.replay(deal, rules, moves)
        return Replayed(board.score == 52, board.score)

    move_separator = "; "

    def start_after(self, deal: R.Deal, rules: R.Rules, moves: list) -> R.Board:
        return R.replay(deal, rules, moves)

    def first_moves(self, deal: R.Deal, rules: R.Rules,
                    start: R.Board | None = None) -> list[tuple[R.Move, R.Board]]:
        board = R.Board.start(deal, rules) if start is None else start
        return [(move, _after(board, move)) for move in board.legal_moves()]

    def show_start(self, start: R.Board) -> str:
        return str(start)

    def result_lines(self, deal: R.Deal, rules: R.Rules, result: SolveResult) -> list[str]:
        verdict = {Status.SOLVED: "won", Status.UNSOLVABLE: "lost (no line of play wins)"}.get(
            result.status) or f"not decided: the search stopped at {api.limit_text(result)}"
        best = result.details["max_score"]
        return [f"{verdict}; max score {best}"
                + ("" if result.details["max_score_exact"] else " (best found)")]

    def run_numbers(self, seed: int, start: int, count: int) -> range:
        """A run's deals are deals ``start ..`` of ``seed``, as quagnes deals them; a start
        beyond :data:`MAX_SKIP` is refused (reaching deal K replays K shuffles)."""
        if start > MAX_SKIP:
            raise BadInput(f"--start {start:,}: a run starts at deal {MAX_SKIP:,} of a seed at "
                           f"most (reaching deal K replays K shuffles, about 30 s a million)")
        return range(start, start + count)

    def numbered_deal(self, seed: int, number: int, rules: R.Rules) -> R.Deal:
        """Deal ``number`` of ``seed``: consecutive numbers continue one stream of shuffles
        (reaching deal K replays K shuffles)."""
        if self._stream is None or self._stream[0] != seed or self._stream[1] > number:
            self._stream = [seed, 0, R.deals_from_seed(seed, 0, 2 ** 62)]
        for _ in range(number - self._stream[1]):
            next(self._stream[2])
        self._stream[1] = number + 1
        return next(self._stream[2])

    def record(self, deal: R.Deal, rules: R.Rules, result: SolveResult) -> dict:
        return {"max_score": result.details["max_score"]}

    def record_fields(self, rules: R.Rules) -> dict:
        return {"max_score": range(53)}

    def summary(self, records: list[dict], rules: R.Rules) -> dict:
        """Positions examined per decided deal: mean, standard deviation, most."""
        decided = [r["nodes"] for r in records if r["result"] != "limit"]
        mean = sum(decided) / len(decided) if decided else 0.0
        sd = (sum((v - mean) ** 2 for v in decided) / (len(decided) - 1)) ** 0.5 \
            if len(decided) > 1 else 0.0
        return {"nodes_decided": {"mean": mean, "sd": sd, "max": max(decided, default=0)}}

    def summary_lines(self, summary: dict) -> list[str]:
        n = summary["nodes_decided"]
        return [f"nodes per decided deal: mean {n['mean']:,.1f}, sd {n['sd']:,.1f}, "
                f"max {n['max']:,}"]

    def memory(self, rules: R.Rules, limits: Limits, table_bits: int = api.DEFAULT_TABLE_BITS,
               max_score: bool = False) -> tuple[int, str]:
        bits = _table_bits(limits, table_bits)
        return 64 << bits, f"--table-bits {bits}"

    def solve(self, deal: R.Deal, rules: R.Rules, limits: Limits,
              table_bits: int = api.DEFAULT_TABLE_BITS, max_score: bool = False,
              start: R.Board | None = None) -> SolveResult:
        """The exact solver; ``nodes`` caps the moves it plays, ``seconds`` its time, and
        ``states`` both the size of its losing-state table (the largest power of two not above
        it, at least 16 entries) and, since every stored state was examined first, the moves it
        plays: so it never stores more than ``states`` positions (plus those of its current
        line).  ``max_score`` (the api's ``maximize``) and ``start`` (a position of the deal
        reached by play) as :func:`solvers.agnes.api.solve` takes them."""
        cap, by = limits.nodes, "nodes"
        if limits.states is not None and (cap is None or limits.states <= cap):
            cap, by = limits.states, "states"
        result = api.solve(deal, rules, Limits(nodes=cap, seconds=limits.seconds),
                           maximize=max_score, table_bits=_table_bits(limits, table_bits),
                           start=start)
        stop = result.details.get("stopped_by")
        if stop and stop["limit"] == "nodes":
            result.details["stopped_by"] = {"limit": by, "value": cap}
        return result

    def canonical(self, deal: R.Deal, rules: R.Rules) -> R.Deal:
        return _to_canonical(deal)[0]

    def symmetric_copy(self, deal: R.Deal, rules: R.Rules, rng: random.Random) -> R.Deal:
        return relabel(deal, rng.randrange(13), rng.choice(SUIT_MAPS))

    def neighbour(self, deal: R.Deal, rules: R.Rules, rng: random.Random) -> R.Deal:
        """The deal with two cards of the deck swapped (the base card too)."""
        i, j = rng.sample(range(52), 2)
        cards = list(deal.cards)
        cards[i], cards[j] = cards[j], cards[i]
        return R.Deal(tuple(cards))

    def hardness(self, deal: R.Deal, rules: R.Rules, quick: bool = False,
                 repeat: int = 0) -> float | None:
        """Full: as ``figures`` (the exact solve, then :func:`bold_chance`).  Quick, annealing's
        first look: the bold player's 250 games, extrapolated when every game died (a guess
        that only steers), and an exact solve only when no game won."""
        from solvers.agnes.players import BOLD
        canon = self.canonical(deal, rules)
        if not quick:
            if not self._exact(canon, rules).solved:
                return None
            bold, _ = bold_chance(canon, rules, repeat)
            if bold.reached is not None:
                raise BeyondMeasure(f"the bold player never won this {rules.name} deal in "
                                    f"{_games(bold.games, True)} (at best "
                                    f"{_home(bold.reached)}): its hardness is beyond what the "
                                    f"grade measures")
            return round(-bold.log10, 9)
        bold = chance(canon, rules, BOLD, QUICK_GAMES, repeat)
        if bold.reached is not None and not self._exact(canon, rules).solved:
            return None
        return round(-bold.log10, 9)

    def figures(self, deal: R.Deal, rules: R.Rules) -> Figures:
        canon, shift, suits = _to_canonical(deal)
        result = self._exact(canon, rules)
        metrics = {"solver_nodes": result.nodes}
        if not result.solved:
            return Figures(False, metrics)
        from solvers.agnes.players import CAREFUL, HASTY
        bold, filtered = bold_chance(canon, rules)
        careful = chance(canon, rules, CAREFUL, PARTICLES)
        hasty = chance(canon, rules, HASTY, HASTY_PARTICLES)
        beyond = bold.reached is not None
        metrics.update(hardness=None if beyond else round(-bold.log10, 9), bold_games=bold.games,
                       bold_filtered=filtered,
                       careful_log10=round(careful.log10, 9), careful_reached=cards_home(careful),
                       hasty_log10=round(hasty.log10, 9), hasty_reached=cards_home(hasty),
                       solution_moves=len(result.moves))
        if beyond:
            metrics.update(beyond=True, bold_reached=bold.reached)
        back = tuple(suits.index(s) for s in range(4))
        moves = [R.Move(m.kind, m.src, m.dst, m.count,
                        m.card and _card(m.card, -shift, back)) for m in result.moves]
        return Figures(True, metrics, moves)

    def _exact(self, deal: R.Deal, rules: R.Rules) -> SolveResult:
        result = self.solve(deal, rules, FIGURE_LIMITS)
        if result.status is Status.LIMIT:
            raise LimitReached(f"the exact solve of this {rules.name} deal stopped at its "
                               f"limit of {FIGURE_LIMITS.nodes:,} nodes")
        return result

    def sheet(self, deal: R.Deal, rules: R.Rules) -> Sheet:
        if not rules.face_up:
            raise BadInput(f"a printed Agnes puzzle is dealt face up: the rules {rules.name} hide "
                           f"cards that a page would show")
        board = R.Board.start(deal, rules)
        runs = f"a run moves together when it is all one {'suit' if rules.same_suit else 'colour'}"
        return Sheet.columns(board.piles, [
            f"Rules {rules.name}: {runs}{'' if rules.split else ', and only whole'}; between "
            f"deals an empty pile takes {R.EMPTY_TAKES[rules.empty]}.",
            f"Base card {deal.base}: the foundations build up by suit from its rank, King to Ace "
            f"when they wrap.",
            "Stock, dealt when you choose, one card on each pile 1 to 7, three times, then on "
            "piles 1 and 2: " + " ".join(str(c) for c in deal.cards[board.dealt:]) + "."])

    def reached(self, entry: dict) -> str:
        return f"every card home, {len(entry['solution'])} moves"

    def page_puzzle(self, deal: R.Deal, rules: R.Rules, entry: dict) -> dict:
        """The board's first rows (the page adds rows as piles grow) and the rules as the
        page's script reads them."""
        if not rules.face_up:
            raise BadInput(f"the page plays face-up rules only, not {rules.name} (its hidden "
                           f"cards would show)")
        return {"rows": PAGE_ROWS, "cols": 7, "rules": page_rules(rules)}

    def explain(self, level: str, percentile: float, metrics: dict, rules: R.Rules) -> str:
        if level == "unsolvable":
            return f"unsolvable: no line of play wins this deal under {rules.name}."
        if metrics["hardness"] is None:
            bold = (_wins(None, metrics["bold_reached"], metrics["bold_games"],
                          metrics.get("bold_filtered", False))
                    + ", so its hardness is beyond what the grade measures and no level is "
                      "claimed")
        else:
            bold = ("wins " + odds(10.0 ** -metrics["hardness"])
                    + f" (harder than {harder_than(percentile)} of random winnable "
                      f"{rules.name} deals)")
        careful = _wins(metrics["careful_log10"], metrics["careful_reached"], PARTICLES)
        hasty = _wins(metrics["hasty_log10"], metrics["hasty_reached"], HASTY_PARTICLES)
        return (f"{level}: a player who plays to the foundations first, never goes round in "
                f"circles and deals only when stuck, but one move in five tries anything, {bold}; "
                f"one who never tries anything {careful}; one who otherwise moves at random "
                f"{hasty}.")


def _wins(log_p: float | None, reached: int, games: int, filtered: bool = False) -> str:
    if reached == 52:
        return "wins " + odds(10.0 ** log_p)
    return f"never won in {_games(games, filtered)} (at best {_home(reached)})"


def _games(games: int, filtered: bool) -> str:
    return f"{games:,} simulated games" + (" whose every move the exact solver checked"
                                           if filtered else "")


def _home(cards: int) -> str:
    return f"{cards} card{'' if cards == 1 else 's'} home"


GAME = AgnesGame()
