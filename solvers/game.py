"""The game contract every game fills, and the registry of games.

In the spirit of Simon Tatham's ``struct game``: each game package exports one object, ``GAME``
in its ``game`` module, and puzzlegen drives every game through it alone.

:class:`Game` is the playing part: rules (named variants), deals, moves, an independent
``replay`` and an exact ``solve`` honouring :class:`~solvers.result.Limits` (``states`` bounds
memory, ``nodes`` work, ``seconds`` time, with the same meaning in every game).
:class:`Designable` adds what the design pipeline needs (``puzzlegen.grading``,
``puzzlegen.calibration``, ``puzzlegen.anneal``, ``puzzlegen.packs``): a canonical form over the
game's symmetries, a neighbour move over deals, the hardness a level rests on and the figures
that explain it.

A designable game also says how people see it (in the spirit of Tatham's ``redraw`` and
``print``): its ``title``, its ``goal`` and move ``notation`` in words, the :class:`Sheet` a
printed page draws, what a solution ``reached``, and the puzzle page's script (a file beside its
``game`` module) with the data that script needs of a puzzle.  Adding a game is one package with
a ``game`` module plus one line in :data:`REGISTRY` (docs/architecture.md walks the contract).
"""
from __future__ import annotations

import importlib
import math
import random
import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solvers.errors import BadInput
from solvers.result import Limits, SolveResult

#: Game name -> module holding its ``GAME`` object (imported on first use).
REGISTRY = {
    "stacksquared": "solvers.stacksquared.game",
    "agnes": "solvers.agnes.game",
    "montana": "solvers.montana.game",
    "stackmgmt": "solvers.stackmgmt.game",
    "spider": "solvers.spider.game",
}


@dataclass(frozen=True)
class Replayed:
    """What an independent replay of a line of play reached: ``won`` and the game's ``value``
    of the end position (cards home, locked, the score...)."""

    won: bool
    value: int


@dataclass(frozen=True)
class Gap:
    """An empty place of a layout that a card may move into (a printed page draws its outline)."""


#: The one :class:`Gap`.
GAP = Gap()


@dataclass(frozen=True)
class Sheet:
    """A deal as a printed page lays it out: ``rows`` x ``cols`` cells, row-major, each a
    :class:`~solvers.cards.Card`, a ``(value, suit)`` pair of numbers, :data:`GAP` or None
    (nothing); the labels beside the rows and above the columns, as moves name them; ``notes``:
    what the grid cannot show, in sentences."""

    rows: int
    cols: int
    cells: list
    row_labels: list[str] = field(default_factory=list)
    col_labels: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @classmethod
    def columns(cls, stacks, notes: list[str] | None = None) -> Sheet:
        """Stacks or piles as columns numbered from 1 (as moves name them), bottom card first,
        as tall as the highest (None below a shorter one)."""
        rows = max(len(stack) for stack in stacks)
        cells = [stack[r] if r < len(stack) else None for r in range(rows) for stack in stacks]
        return cls(rows, len(stacks), cells, [], [str(c + 1) for c in range(len(stacks))],
                   notes or [])


@dataclass(frozen=True)
class Tuning:
    """A setting of a game's solver beyond the shared limits: the option ``--NAME`` (dashes for
    underscores) of the game's ``solve`` and ``winrate``, and the keyword ``name`` of
    :meth:`Game.solve`.  ``kind`` is ``bool`` (a ``--x/--no-x`` pair), ``int`` (from ``low``
    to ``high``) or ``str``; ``default`` is the solver's own."""

    name: str
    kind: type
    default: Any
    help: str
    low: int | None = None
    high: int | None = None

    @property
    def option(self) -> str:
        return "--" + self.name.replace("_", "-")


@dataclass(frozen=True)
class Pool:
    """What every deal of some rules is drawn from, for its puzzle code (docs/codes.md):
    ``length`` symbols drawn without replacement from a pool holding ``counts[s]`` copies of
    symbol ``s`` (``0 <= s < len(counts)``)."""

    length: int
    counts: tuple[int, ...]

    @classmethod
    def distinct(cls, length: int, symbols: int) -> Pool:
        """``length`` of ``symbols`` distinct symbols (e.g. cards of a 52-card deck)."""
        return cls(length, (1,) * symbols)


@dataclass
class Figures:
    """A deal's difficulty: ``metrics`` (JSON-ready, with ``hardness``: higher is harder,
    identical for every symmetric copy), a winning ``solution`` in the deal's own terms, and
    ``won`` (False: no win exists; the level is then ``unsolvable``)."""

    won: bool
    metrics: dict[str, Any]
    solution: list = field(default_factory=list)


class Game(ABC):
    """A game as puzzlegen sees it.  ``rules`` objects are the game's own (hashable); deals and
    moves are the game's own objects; text forms round-trip."""

    #: Registry key, CLI group and the pack's ``game``.
    name: str = ""
    #: The game's name for people.
    title: str = ""
    #: The rules used when none are named.
    default_rules: str = ""
    #: The limits of a solve whose user names none: an answer within a minute (or within the
    #: budget the game's help states, where deciding most deals needs more).
    default_limits: Limits = Limits(seconds=60.0)
    #: What the default limits decide and cost, for the help (when they are not a minute).
    limits_note: str = ""
    #: The solver's settings beyond the limits (:class:`Tuning`), keywords of :meth:`solve`.
    tuning: tuple[Tuning, ...] = ()
    #: The game's name in puzzle codes (docs/codes.md): a few letters and digits; empty (this
    #: default): :attr:`name`.  Never changed once codes are out.
    code_name: str = ""
    #: What a run's records name a numbered deal by (``seed``; Agnes: ``index`` of a seed).
    deal_key: str = "seed"
    #: The deal numbers ``deal_from_seed`` tells apart.
    seeds: range = range(2 ** 63)

    @abstractmethod
    def variants(self) -> list[str]:
        """Rule names a user may give (every one parses); a game with open-ended parameters
        lists its usual ones."""

    @abstractmethod
    def parse_rules(self, text: str) -> Any:
        """The rules named ``text``; :class:`BadInput` naming the choices otherwise."""

    @abstractmethod
    def format_rules(self, rules: Any) -> str:
        """The name of ``rules``: ``parse_rules(format_rules(r)) == r``."""

    @abstractmethod
    def parse_deal(self, text: str, rules: Any) -> Any:
        """A deal from its text; :class:`BadInput` (one sentence) for a bad one."""

    @abstractmethod
    def format_deal(self, deal: Any) -> str:
        """The deal's text: ``parse_deal(format_deal(d), rules) == d``."""

    @abstractmethod
    def deal_from_seed(self, seed: int, rules: Any) -> Any:
        """The deal numbered ``seed`` (the game's documented shuffle)."""

    def random_deal(self, rng: random.Random, rules: Any) -> Any:
        """A uniformly random deal (by default the deal of a random seed)."""
        return self.deal_from_seed(rng.randrange(2 ** 31), rules)

    @abstractmethod
    def parse_move(self, text: str) -> Any:
        """A move from the text ``format_move`` prints; :class:`BadInput` otherwise."""

    def format_move(self, move: Any) -> str:
        return str(move)

    #: What separates the moves of a line in text (``"; "`` where a move's text has spaces).
    move_separator: str = " "

    def parse_line(self, text: str) -> list:
        """The moves of a line's text (:attr:`move_separator` or new lines between moves)."""
        cut = self.move_separator.strip()
        parts = text.replace(cut, "\n").splitlines() if cut else text.split()
        return [self.parse_move(part.strip()) for part in parts if part.strip()]

    @abstractmethod
    def replay(self, deal: Any, rules: Any, moves: list) -> Replayed:
        """Play ``moves`` from the deal by the rules module; :class:`BadInput` naming the first
        illegal move."""

    @abstractmethod
    def solve(self, deal: Any, rules: Any, limits: Limits, **tuning) -> SolveResult:
        """Exact: ``solved`` with a winning line, ``unsolvable``, or ``limit`` (naming the limit
        in ``details["stopped_by"]``); ``tuning``: values of the game's :attr:`tuning`, and
        ``start``, a position of :meth:`start_after`, where the game has one (the line then
        continues from it)."""

    def run_numbers(self, seed: int, start: int, count: int) -> range:
        """The numbers (:attr:`deal_key`) of a run's deals ``start .. start + count - 1`` of
        ``seed``: by default the seeds ``seed + start`` on, within :attr:`seeds`
        (:class:`BadInput` beyond)."""
        first = seed + start
        if first + count - 1 not in self.seeds:
            raise BadInput(f"seeds {first}..{first + count - 1} leave {self.seeds.start}.."
                           f"{self.seeds[-1]}: larger seeds would repeat smaller ones' deals")
        return range(first, first + count)

    def numbered_deal(self, seed: int, number: int, rules: Any) -> Any:
        """The deal a run of ``seed`` numbers ``number``: by default the deal of seed
        ``number``."""
        return self.deal_from_seed(number, rules)

    def solve_numbered(self, number: int, deal: Any, rules: Any, limits: Limits,
                       **tuning) -> SolveResult:
        """:meth:`solve` of the deal a run numbers ``number`` (a game whose chance is drawn
        from the deal's number overrides it)."""
        return self.solve(deal, rules, limits, **tuning)

    def start_after(self, deal: Any, rules: Any, moves: list) -> Any:
        """The position ``moves`` reach from the deal (checked by the rules), as :meth:`solve`
        takes it in its ``start`` keyword (a solve's ``--moves``); :class:`BadInput` naming an
        illegal move, or (this default) saying that the solver starts only from a deal."""
        raise BadInput(f"the {self.title} solver starts from a deal, not after moves")

    def first_moves(self, deal: Any, rules: Any,
                    start: Any = None) -> list[tuple[Any, Any]] | None:
        """Each legal move of ``start`` (of the deal's start when None) with the position it
        leads to, as :meth:`solve` takes it in ``start`` (a solve's ``--choices``); None (this
        default): the solver cannot start mid-game."""
        return None

    def show_start(self, start: Any) -> str:
        """A position of :meth:`start_after` for people."""
        return self.show_deal(start)

    def record(self, deal: Any, rules: Any, result: SolveResult) -> dict:
        """The fields a run's per-deal record keeps of ``result`` beyond its outcome, value,
        nodes and seconds (JSON-ready; checked on resume by :meth:`record_fields`)."""
        return {}

    def record_fields(self, rules: Any) -> dict:
        """The types or ranges of :meth:`record`'s fields (``puzzlegen.runs.check_fields``)."""
        return {}

    def summary(self, records: list[dict], rules: Any) -> dict:
        """The figures a win-rate run adds to the shared ones, from its per-deal records."""
        return {}

    def summary_lines(self, summary: dict) -> list[str]:
        """:meth:`summary`'s figures for people, a line each."""
        return []

    def memory(self, rules: Any, limits: Limits, **tuning) -> tuple[int, str]:
        """Bytes one :meth:`solve` with these limits may take at most (its tables), checked
        against the memory free before any work, and the option that sizes them
        (``"--max-states 4000000"``); 0 bytes: small or unknown."""
        return 0, ""

    def result_lines(self, deal: Any, rules: Any, result: SolveResult) -> list[str]:
        """What ``solve`` prints of ``result`` for people, before its count of positions and
        time and its moves."""
        return [result.status.value + ("" if result.value is None else
                                       f", value {result.value:,}")]

    def puzzle_fields(self, deal: Any, rules: Any) -> dict:
        """The fields of a pack entry that name the rules (``entry_rules`` reads them back)."""
        return {"rules": self.format_rules(rules)}

    def entry_rules(self, entry: dict) -> Any:
        """The rules of a pack entry."""
        return self.parse_rules(entry["rules"])

    def show_deal(self, deal: Any) -> str:
        """The deal for people (may span lines)."""
        return self.format_deal(deal)

    def code_pool(self, rules: Any) -> Pool | None:
        """What every deal of ``rules`` is drawn from, for codes that carry a deal as the rank
        of its symbols (docs/codes.md); None (this default): codes carry the deal's text."""
        return None

    def code_symbols(self, deal: Any, rules: Any) -> list[int] | None:
        """The deal as symbols drawn from :meth:`code_pool` (never changed once codes are
        out); None when it is not drawn from the pool (its code carries its text)."""
        return None

    def code_deal(self, symbols: list[int], rules: Any) -> Any:
        """The deal whose :meth:`code_symbols` are ``symbols``; :class:`BadInput` when no
        deal has them."""
        raise BadInput(f"{self.title} codes carry deals as text")

    def replay_text(self, deal: Any, rules: Any, moves: list[str]) -> Replayed:
        """``replay`` of moves given as text; :class:`BadInput` naming a bad one."""
        return self.replay(deal, rules, [self.parse_move(m) for m in moves])

    def line_problem(self, deal: Any, rules: Any, moves: list, won: bool,
                     value: int | None = None) -> str | None:
        """What is wrong with a line that claims to win (``won``) or not, and to reach
        ``value`` (unless None): None when ``moves`` (the game's moves or their text) replay
        by the rules to exactly that, else a sentence.  The one check of every line a solver,
        a grade or a pack states."""
        try:
            end = (self.replay_text(deal, rules, moves) if all(isinstance(m, str) for m in moves)
                   else self.replay(deal, rules, moves))
        except BadInput as exc:
            return str(exc)
        if end.won != won:
            return "does not win" if won else "wins, though it claims no win"
        if value is not None and end.value != value:
            return f"reaches {end.value:,}, not the {value:,} it claims"
        return None


class Designable(Game):
    """A game the design pipeline can grade, calibrate, generate and pack."""

    #: The figure of ``metrics`` that no level is built on, for the separation check (e.g. a
    #: simple player's chance to win; a dotted path into nested metrics): higher means easier.
    check_figure: str = ""

    @abstractmethod
    def canonical(self, deal: Any, rules: Any) -> Any:
        """The representative of the deal's symmetry class: equal for every symmetric copy."""

    @abstractmethod
    def symmetric_copy(self, deal: Any, rules: Any, rng: random.Random) -> Any:
        """A random symmetric copy of ``deal`` (the same puzzle), for invariance tests."""

    @abstractmethod
    def neighbour(self, deal: Any, rules: Any, rng: random.Random) -> Any:
        """A deal one small change away (annealing's move), valid under ``rules``."""

    @abstractmethod
    def hardness(self, deal: Any, rules: Any, quick: bool = False,
                 repeat: int = 0) -> float | None:
        """The figure levels rest on (None when the deal cannot be won); ``quick`` may trade
        accuracy for time (annealing's first look); the full value equals
        ``figures(...).metrics["hardness"]``.  ``repeat`` > 0: an independent estimate of the
        same figure (another random stream, the same for every symmetric copy); an exact figure
        is the same for every ``repeat``.  :class:`LimitReached` when a search inside hits its
        limit (from ``figures`` too), :class:`BeyondMeasure` when the deal is winnable but its
        figure is beyond what the game can measure (``figures`` then says ``hardness`` None and
        ``beyond`` True)."""

    def rough_hardness(self, deal: Any, rules: Any) -> float | None:
        """A guess at the hardness from the deal's structure alone (higher: harder), cheap
        enough for every candidate move: annealing steers its moves and starts with it, and at
        expert and master anneals on it alone (``anneal.GUESSED``).  None (this default): the
        game has no such guess, moves are drawn blind."""
        return None

    @abstractmethod
    def figures(self, deal: Any, rules: Any, **options) -> Figures:
        """Every difficulty figure of ``deal``, computed so that symmetric copies agree
        (``options``: the game's own, e.g. StacksSquared's ``tree_states``)."""

    @abstractmethod
    def explain(self, level: str, percentile: float, metrics: dict, rules: Any) -> str:
        """One sentence for people: why this level."""

    #: The aim and the moves in a few sentences, for people (a book's pages).
    goal: str = ""
    #: How to read a move of a solution, with an example (a book's solutions).
    notation: str = ""
    #: The puzzle page's script, a file beside the game's module (docs/packs.md, "Adding a game").
    page_script: str = ""

    @abstractmethod
    def sheet(self, deal: Any, rules: Any) -> Sheet:
        """The deal as a printed page lays it out; :class:`BadInput` when paper cannot follow
        these rules."""

    @abstractmethod
    def reached(self, entry: dict) -> str:
        """What a pack puzzle's stored solution reaches, in words ("one stack")."""

    @abstractmethod
    def page_puzzle(self, deal: Any, rules: Any, entry: dict) -> dict:
        """What the page's script needs of a pack puzzle whose stored solution replays to what
        the pack claims, beside its id, level, percentile, deal, solution and explanation: at least
        the board's ``rows`` and ``cols``; :class:`BadInput` when the page cannot play it."""

    def page_script_text(self) -> str:
        """The text of :attr:`page_script`."""
        return self.beside(self.page_script).read_text(encoding="utf-8")

    def beside(self, name: str) -> Path:
        """The file ``name`` in the folder of the game's module (its script, its calibrations)."""
        return Path(sys.modules[type(self).__module__].__file__).parent / name

    def skill_words(self, metrics: dict) -> str | None:
        """How much skill matters on a deal with these ``metrics``, in a sentence for people (the
        grade's text, the puzzle page, the book); None (this default) when the game does not
        measure it."""
        return None

    def check_graded(self, rules: Any) -> None:
        """:class:`BadInput` when deals of ``rules`` cannot be graded (by default all can)."""

    def calibration_key(self, rules: Any) -> str:
        """The name of the rules' calibration table (``calibration-KEY.json`` beside the game's
        module): ``<game>-<rules>`` unless the game shares tables between rules."""
        return f"{self.name}-{self.format_rules(rules)}"


_games: dict[str, Game] = {}


def get(name: str) -> Game:
    """The registered game ``name``; :class:`BadInput` naming the games otherwise."""
    if name not in REGISTRY:
        raise BadInput(f"unknown game {name!r}: choose one of {', '.join(REGISTRY)}")
    if name not in _games:
        _games[name] = importlib.import_module(REGISTRY[name]).GAME
    return _games[name]


def names() -> list[str]:
    return list(REGISTRY)


def designable() -> list[str]:
    """The registered games the design pipeline serves."""
    return [n for n in REGISTRY if isinstance(get(n), Designable)]


def parse_size(text: str, what: str, example: str) -> tuple[int, int]:
    """Rules named by two sizes, ``"4x6"``; :class:`BadInput` naming ``what`` (e.g.
    ``"ROWSxCOLS"``) otherwise."""
    first, sep, second = text.strip().lower().partition("x")
    if not (sep and all(part.isascii() and part.isdigit() for part in (first, second))):
        raise BadInput(f"bad rules {text!r}: expected {what}, e.g. {example}")
    return int(first), int(second)


def odds(p: float, zero: str = "never in the games simulated") -> str:
    """A chance for people: "every game", "about 42% of games", "about 1 game in 3,400" (two
    significant digits), "about 1 game in 10^38"; ``zero`` for a chance of 0."""
    if p <= 0:
        return zero
    if p >= 1:
        return "every game"
    if p >= 0.1:
        return f"about {100 * p:.0f}% of games"
    n = float(f"{1 / p:.2g}")
    if n >= 1e12:
        return f"about 1 game in 10^{math.log10(1 / p):.0f}"
    return f"about 1 game in {n:,.0f}"


def harder_than(percentile: float) -> str:
    """A grade's percentile (0-100) for "harder than X of random deals": rounded down,
    so that it stays true and each level reads apart from the next; whole percents below 99
    ("93%"), tenths from 99 ("99.8%" is expert, "99.9%" master, "100%" beyond every deal)."""
    if percentile < 99:
        return f"{math.floor(percentile + 1e-9)}%"
    return f"{math.floor(percentile * 10 + 1e-6) / 10:g}%"
