"""The Stack Management puzzle page, in a real headless Chromium: its moves agree with
``solvers.stackmgmt.rules`` (move names reason for reason), its winnability criterion with
``players.winnable`` and the exact solver, and the page plays, refuses and hints.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

from solvers.errors import BadInput
from solvers.stackmgmt import players
from solvers.stackmgmt import rules as R

import pages

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / "puzzles/stackmgmt-8x4-k4.json"
SHIFT = 1 << players.SHIFT   # a card key: suit * SHIFT + value, as in the page


def deals() -> list[list[list[tuple[int, int]]]]:
    """The shipped puzzles' stacks, bottom to top."""
    return [[[tuple(map(int, card.split(","))) for card in part.split()]
             for part in entry["deal"].split("|")]
            for entry in json.loads(PACK.read_text())["puzzles"]]


def text(stacks) -> str:
    return " | ".join(" ".join(f"{v},{s}" for v, s in stack) for stack in stacks)


def random_position(rng: random.Random, stacks, steps: int) -> R.Board:
    board = R.Board(stacks)
    for _ in range(steps):
        legal = [R.Remove(i, s[-1]) for i, s in enumerate(board.stacks) if board.beaten(i)]
        legal += [R.Move(i, j, s[-1]) for i, s in enumerate(board.stacks) if s
                  for j, t in enumerate(board.stacks) if not t]
        if not legal:
            break
        board.play(rng.choice(legal))
    return board


def gesture(board: R.Board, a: int, b: int) -> R.Remove | R.Move | None:
    """The move a click on stack a's top and then on stack b makes, if legal: a removal when
    b's top beats it, a move when b is empty."""
    source, target = board.stacks[a], board.stacks[b]
    if a == b or not source:
        return None
    if not target:
        return R.Move(a, b, source[-1])
    top, card = target[-1], source[-1]
    return R.Remove(a, card) if top[1] == card[1] and top[0] > card[0] else None


def keys(board: R.Board) -> list[list[int]]:
    return [[suit * SHIFT + value for value, suit in stack] for stack in board.stacks]


CLICKS = """(cases) => {
  const g = window.puzzlegen.games.stackmgmt;
  return cases.map(([deal, rows, pairs]) => {
    let p = g.start({deal, rows});
    const verdicts = pairs.map(([a, b]) => {
      const from = (p.stacks[a].length - 1) * p.cols + a;
      const reason = p.stacks[a].length ? g.check(p, from, b) : "empty";
      if (reason === null) p = g.play(p, from, b);
      return reason === null;
    });
    return {verdicts, stacks: p.stacks.map((s) => s.map((k) => [k % 65536, Math.floor(k / 65536)])),
            status: g.status(p), winnable: g.winnable(p.stacks)};
  });
}"""


def test_clicked_moves_are_legal_exactly_when_the_rule_book_says(game):
    """Random positions of the shipped deals; random pairs of stacks, each applied when legal."""
    rng = random.Random(3)
    cases, expected = [], []
    for stacks in deals():
        for _ in range(4):
            board = random_position(rng, stacks, rng.randrange(0, 25))
            start = [list(s) for s in board.stacks]
            n = len(start)
            pairs = [[rng.randrange(n), rng.randrange(n)] for _ in range(30)]
            verdicts = []
            for a, b in pairs:
                move = gesture(board, a, b)
                legal = move is not None and board.why_illegal(move) is None
                verdicts.append(legal)
                if legal:
                    board.play(move)
            cases.append([text(start), 4, pairs])
            expected.append({"verdicts": verdicts,
                             "stacks": [[list(c) for c in s] for s in board.stacks],
                             "status": "solved" if board.won() else
                             "playing" if any(board.beaten(i) for i in range(n)) or
                             any(not s for s in board.stacks) else "stuck",
                             "winnable": players.winnable(keys(board))})
    answers = game.evaluate(CLICKS, cases)
    assert answers == expected
    verdicts = [v for e in expected for v in e["verdicts"]]
    assert sum(verdicts) > 100 and len(verdicts) - sum(verdicts) > 300
    assert {e["winnable"] for e in expected} == {True, False}


NAMES = """(cases) => {
  const g = window.puzzlegen.games.stackmgmt;
  return cases.map(([deal, names]) => {
    let p = g.start({deal, rows: 4});
    for (let i = 0; i < names.length; i++) {
      const cells = g.moveCells(p, names[i]);
      if (cells.reason) return {illegal: i, reason: cells.reason};
      if (g.moveName(p, cells.from, cells.to) !== names[i].trim()) return {renamed: names[i]};
      p = g.play(p, cells.from, cells.to);
    }
    return {illegal: null};
  });
}"""


def test_move_names_replay_as_the_rule_book_does(game):
    """Stored solutions cut short, then one random move name, legal or not: four a puzzle,
    and more rounds over the pack until every kind of refusal came up."""
    rng = random.Random(8)
    cases, expected = [], []
    kinds = {"malformed", "there", "the", "no", "stack"}
    puzzles = list(zip(json.loads(PACK.read_text())["puzzles"], deals()))
    while len(cases) < 4 * len(puzzles) or not kinds <= {
            e["reason"].split(" ")[0] for e in expected if e["illegal"] is not None}:
        assert len(cases) < 40 * len(puzzles), "a kind of refusal never came up"
        entry, stacks = puzzles[len(cases) % len(puzzles)]
        names = entry["solution"][:rng.randrange(len(entry["solution"]))]
        board = R.replay(stacks, [R.parse_move(m) for m in names])
        card = rng.choice([c for s in stacks for c in s])
        a, b = rng.randrange(10), rng.randrange(10)
        last = rng.choice([f"remove ({card[0]},{card[1]}) from {a}",
                           f"move ({card[0]},{card[1]}) from {a} to {b}",
                           f"remove ({card[0]},{card[1]}) from {a} to {b}"])
        try:
            move = R.parse_move(last)
            why = board.why_illegal(move)
        except BadInput as exc:
            why = str(exc)
        cases.append([entry["deal"], names + [last]])
        expected.append({"illegal": None} if why is None
                        else {"illegal": len(names), "reason": why})
    assert game.evaluate(NAMES, cases) == expected


def top(page, stacks, j: int):
    r = len(stacks[j]) - 1
    return page.locator(f'#board .cell[data-row="{r}"][data-col="{j}"]')


def test_the_stored_solution_played_by_clicks_wins(pack_page, browser_page):
    entry = json.loads(PACK.read_text())["puzzles"][-1]
    page = pages.fresh(browser_page, pack_page, entry["id"])
    board = R.Board(deals()[-1])
    for name in entry["solution"]:
        move = R.parse_move(name)
        if isinstance(move, R.Remove):
            beater = next(j for j, s in enumerate(board.stacks) if j != move.stack and s and
                          s[-1][1] == move.card[1] and s[-1][0] > move.card[0])
            top(page, board.stacks, move.stack).click()
            top(page, board.stacks, beater).click()
        else:
            top(page, board.stacks, move.source).click()
            page.locator(f'#board .cell[data-row="0"][data-col="{move.target}"]').click()
        board.play(move)
    assert page.locator("#board").get_attribute("data-status") == "solved"
    shown = page.eval_on_selector_all("#board .cell", "(cells) => cells.map((c) => c.dataset.card)")
    cols = len(board.stacks)
    assert [c for c in shown if c] == [f"({s[r][0]},{s[r][1]})" for r in range(4)
                                       for s in board.stacks if r < len(s)]
    assert len(shown) == 4 * cols


def losing_turn(entry: dict, stacks) -> tuple[int, R.Move] | None:
    """The first step of the stored solution that moves a card to an empty stack where another
    such move loses: the step's index and that losing move."""
    moves = [R.parse_move(m) for m in entry["solution"]]
    for k, move in enumerate(moves):
        if isinstance(move, R.Move):
            board = R.replay(stacks, moves[:k])
            for i, s in enumerate(board.stacks):
                other = R.Move(i, move.target, s[-1]) if len(s) > 1 else None
                if other and other != move:
                    child = board.copy()
                    child.play(other)
                    if not players.winnable(keys(child)):
                        return k, other
    return None


def test_a_refusal_and_a_hint_after_a_losing_move(pack_page, browser_page):
    """A card under another is refused; from a winnable position the hint keeps it winnable; a
    losing move is told to undo."""
    entry, stacks, (k, losing) = next(
        (e, s, turn) for e, s in zip(json.loads(PACK.read_text())["puzzles"], deals())
        if (turn := losing_turn(e, s)))
    page = pages.fresh(browser_page, pack_page, entry["id"])
    page.locator('#board .cell[data-row="0"][data-col="0"]').click()
    card = stacks[0][0]
    assert page.locator("#message").text_content() == \
        f"Refused: ({card[0]},{card[1]}) is not on top of stack 1."
    for _ in range(k):
        page.click('[data-action="solution"]')
    page.click('[data-action="hint"]')
    assert page.locator("#message").text_content().startswith("Hint: Still winnable: ")
    board = R.replay(stacks, [R.parse_move(m) for m in entry["solution"][:k]])
    top(page, board.stacks, losing.source).click()
    page.locator(f'#board .cell[data-row="0"][data-col="{losing.target}"]').click()
    page.click('[data-action="hint"]')
    assert page.locator("#message").text_content() == \
        "Hint: This position can no longer be won: undo 1 move."
