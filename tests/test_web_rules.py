"""The page's rules and hint search agree with Python's, run in a real headless Chromium.

Random move sequences on random deals are replayed by the page's game script and by
``solvers.stacksquared`` (same verdicts, same reasons, same final tops); the page's exact
single-stack search agrees with ``solvers.stacksquared.difficulty.Decider`` on positions of random play, and
with the safe moves the page data stores along each stored solution.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

from solvers.stacksquared.difficulty import Decider, tops
from solvers.stacksquared import Deal, Position
from solvers.stacksquared.rules import Move

import pages


ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / "puzzles/stacksquared-3x4-hard.json"   # the page of the module's `game`
GRIDS = [(3, 3), (3, 4), (4, 4), (4, 5), (5, 5), (4, 13)]


def why_cells(position: Position, a: int, b: int) -> str | None:
    """The Python verdict on moving cell a's stack onto cell b's (the page's wording for empty
    cells)."""
    if position.tops[a] is None:
        return "that cell is empty: pick a stack"
    if position.tops[b] is None:
        return "a stack moves onto another stack, not into an empty cell"
    return position.why_illegal(Move(position.tops[a], position.tops[b]))


REPLAY_BY_CELLS = """(cases) => {
  const g = window.puzzlegen.games.stacksquared;
  return cases.map(([puzzle, moves]) => {
    let p = g.start(puzzle);
    const verdicts = moves.map(([a, b]) => {
      const reason = g.check(p, a, b);
      if (!reason) p = g.play(p, a, b);
      return reason;
    });
    return {verdicts, tops: p.tops.map((c) => c < 0 ? null : g.cardName(c)), sizes: p.sizes,
            status: g.status(p, puzzle)};
  });
}"""

REPLAY_BY_NAMES = """(cases) => {
  const g = window.puzzlegen.games.stacksquared;
  return cases.map(([puzzle, names]) => {
    let p = g.start(puzzle);
    for (let i = 0; i < names.length; i++) {
      const cells = g.moveCells(p, names[i]);
      if (cells.reason) return {illegal: i, reason: cells.reason};
      p = g.play(p, cells.from, cells.to);
    }
    return {illegal: null, tops: p.tops.map((c) => c < 0 ? null : g.cardName(c))};
  });
}"""


def random_cases(rng: random.Random, count: int):
    """(puzzle, cell moves, Python verdicts, final position): legal moves mixed with random
    cell pairs (empty cells, the same cell, no shared line, incompatible tops)."""
    cases = []
    for _ in range(count):
        rows, cols = rng.choice(GRIDS)
        deal = Deal.from_seed(rng.randrange(2 ** 31), rows, cols)
        position, moves, verdicts = Position.start(deal), [], []
        for _ in range(rng.randrange(1, 3 * deal.size)):
            legal = list(position.legal_moves())
            if legal and rng.random() < 0.6:
                m = rng.choice(legal)
                a, b = position.cell_of(m.mover), position.cell_of(m.dest)
            else:
                a, b = rng.randrange(deal.size), rng.randrange(deal.size)
            reason = why_cells(position, a, b)
            moves.append([a, b])
            verdicts.append(reason)
            if reason is None:
                position = position.play(Move(position.tops[a], position.tops[b]))
        puzzle = {"deal": str(deal), "rows": rows, "cols": cols, "max_score": deal.size ** 2}
        cases.append((puzzle, moves, verdicts, position))
    return cases


def test_random_cell_moves_get_the_same_verdicts_and_tops(game):
    cases = random_cases(random.Random(2024), 300)
    answers = game.evaluate(REPLAY_BY_CELLS, [[c[0], c[1]] for c in cases])
    illegal = 0
    for (puzzle, moves, verdicts, position), answer in zip(cases, answers):
        assert answer["verdicts"] == verdicts, puzzle["deal"]
        assert answer["tops"] == [None if t is None else str(t) for t in position.tops]
        assert answer["sizes"] == list(position.sizes)
        has_moves = bool(list(position.legal_moves()))
        expected = "solved" if position.stacks() == 1 else ("playing" if has_moves else "stuck")
        assert answer["status"] == expected
        illegal += sum(v is not None for v in verdicts)
    assert illegal > 1000     # the refusals were exercised, not only legal play


def test_replay_by_move_names_matches_the_rules_replay(game):
    rng = random.Random(7)
    cases, expected = [], []
    for _ in range(200):
        rows, cols = rng.choice(GRIDS)
        deal = Deal.from_seed(rng.randrange(2 ** 31), rows, cols)
        position, names = Position.start(deal), []
        for _ in range(rng.randrange(1, deal.size)):
            legal = list(position.legal_moves())
            if legal and rng.random() < 0.85:
                move = rng.choice(legal)
            else:   # any two cards of the deal: often not tops, or not in line
                move = Move(*rng.sample(deal.cards, 2))
            names.append(str(move))
            reason = position.why_illegal(move)
            if reason:
                expected.append({"illegal": len(names) - 1, "reason": reason})
                break
            position = position.play(move)
        else:
            expected.append({"illegal": None,
                             "tops": [None if t is None else str(t) for t in position.tops]})
        cases.append([{"deal": str(deal), "rows": rows, "cols": cols}, names])
    assert game.evaluate(REPLAY_BY_NAMES, cases) == expected
    assert sum(e["illegal"] is not None for e in expected) > 20


DECIDE = """(cases) => {
  const g = window.puzzlegen.games.stacksquared;
  return cases.map(([rows, cols, tops]) => {
    const searcher = new g.Searcher(rows, cols);
    const p = {rows, cols, tops, sizes: tops.map((t) => t < 0 ? 0 : 1)};
    return searcher.decide(p);
  });
}"""


def test_page_search_agrees_with_the_python_decider(game):
    """Positions of random play on random 3x4 and 4x4 deals and on shipped 4x4 puzzles."""
    rng = random.Random(11)
    deals = [Deal.from_seed(rng.randrange(2 ** 31), *rng.choice([(3, 4), (4, 4)]))
             for _ in range(40)]
    for name in ("easy", "expert"):
        pack = json.loads((ROOT / f"puzzles/stacksquared-4x4-{name}.json").read_text())
        deals += [Deal.parse(e["deal"], 4, 4) for e in pack["puzzles"][:10]]
    cases, positions = [], []
    for deal in deals:
        for _ in range(4):
            position = Position.start(deal)
            for _ in range(rng.randrange(0, deal.size - 1)):
                legal = list(position.legal_moves())
                if not legal:
                    break
                position = position.play(rng.choice(legal))
            positions.append((deal, position))
            cases.append([deal.rows, deal.cols, [-1 if t is None else t.index
                                                 for t in position.tops]])
    answers = game.evaluate(DECIDE, cases)
    verdicts = {"wins": 0, "loses": 0}
    for (deal, position), answer in zip(positions, answers):
        wins = Decider(deal).decide(tops(position))[0]
        assert answer["verdict"] == ("wins" if wins else "loses"), str(position.tops)
        verdicts[answer["verdict"]] += 1
        if wins and position.stacks() > 1:
            a, b = answer["move"]
            child = position.play(Move(position.tops[a], position.tops[b]))
            assert Decider(deal).decide(tops(child))[0]
    assert verdicts["wins"] > 20 and verdicts["loses"] > 20, verdicts


def test_a_decision_does_not_depend_on_the_ones_before(game):
    """With a limit that stops some searches, one searcher deciding many positions in either
    order answers each as a new one would, "limit" included."""
    rng = random.Random(29)
    positions = []
    for _ in range(40):
        deal = Deal.from_seed(rng.randrange(2 ** 31), 4, 5)
        position = Position.start(deal)
        for _ in range(rng.randrange(0, 16)):
            legal = list(position.legal_moves())
            if not legal:
                break
            position = position.play(rng.choice(legal))
        positions.append({"rows": 4, "cols": 5, "tops": [-1 if t is None else t.index
                                                          for t in position.tops],
                          "sizes": list(position.sizes)})
    verdicts = pages.decisions_alone_and_after_others(game, "stacksquared", [4, 5, 40], positions)
    assert {"wins", "loses", "limit"} <= set(verdicts), verdicts


STORED_LINE = """() => {
  const g = window.puzzlegen.games.stacksquared;
  return window.puzzlegen.app.pack.puzzles.map((puzzle) => {
    let p = g.start(puzzle);
    const searcher = new g.Searcher(puzzle.rows, puzzle.cols);
    return puzzle.solution.map((name) => {
      const safe = g.legalMoves(p).filter(([a, b]) =>
        searcher.decide(g.play(p, a, b)).verdict === "wins").map(([a, b]) => g.moveName(p, a, b));
      const cells = g.moveCells(p, name);
      p = g.play(p, cells.from, cells.to);
      return safe;
    });
  });
}"""


def test_stored_safe_moves_agree_with_the_page_search(game):
    """The Python-built hint data of every puzzle of the page equals the page's own verdicts."""
    stored = game.evaluate("() => window.puzzlegen.app.pack.puzzles.map((p) => p.safe)")
    assert game.evaluate(STORED_LINE) == stored
    assert sum(len(step) for puzzle in stored for step in puzzle) > 100
