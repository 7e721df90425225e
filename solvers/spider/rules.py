"""Spider rules in readable Python: the board, runs and units, legal and reversible moves.

A board is a tuple of stacks, each a tuple of card codes from bottom to top.  A card code is
:attr:`solvers.cards.Card.index` (rank-major, ``AC`` = 0) and :data:`FACE_DOWN` (-1) is a
face-down card.  Spider plays with two or more decks, so a board may hold a card twice.

Rules: a card goes onto a card one rank higher, of any suit, or into an empty stack; only a
same-suit descending run moves as a unit, and any top part of it may move on its own.  A run of
King down to Ace of one suit is removed when it is completed.  A face-down card never moves and
nothing is placed on it; a move that uncovers one would turn it, which these models never do.

A move is *reversible* when the moved part sat on a card one rank higher or at the bottom of its
stack, uncovers no face-down card and completes no suit: the same move back is then legal.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from solvers.cards import Card
from solvers.errors import BadInput

FACE_DOWN = -1
Board = tuple[tuple[int, ...], ...]


def rank(code: int) -> int:
    """Rank 1..13 of a face-up card code."""
    return code // 4 + 1


def suit(code: int) -> int:
    """Suit 0..3 of a face-up card code."""
    return code % 4


def card_text(code: int) -> str:
    return "##" if code == FACE_DOWN else str(Card.from_index(code))


def parse_board(text: str) -> Board:
    """Parse ``"KS QH JH | ## 9D | | 5C"``: stacks split by ``|``, bottom card first."""
    if not text.strip():
        raise BadInput("the board is empty: give stacks separated by '|', e.g. 'KS QH | ## 9D | '")
    stacks = []
    for number, part in enumerate(text.split("|"), 1):
        cards: list[int] = []
        for token in part.replace(",", " ").split():
            if token == "##":
                if cards and cards[-1] != FACE_DOWN:
                    raise BadInput(f"stack {number} has a face-down card '##' above a face-up "
                                   f"card; face-down cards lie at the bottom of a stack")
                cards.append(FACE_DOWN)
            else:
                cards.append(Card.parse(token).index)
        if cards and cards[-1] == FACE_DOWN:
            raise BadInput(f"stack {number} ends with a face-down card; the top card of a "
                           f"stack is always face up")
        stacks.append(tuple(cards))
    return tuple(stacks)


def format_board(board: Board) -> str:
    """The board in the notation :func:`parse_board` reads; an empty stack prints as nothing."""
    return " | ".join(" ".join(card_text(c) for c in stack) for stack in board).replace("  ", " ")


def follows(lower: int, upper: int) -> bool:
    """True when face-up ``lower`` may lie on ``upper``: ``upper`` is one rank higher."""
    return lower != FACE_DOWN and upper != FACE_DOWN and rank(upper) == rank(lower) + 1


def tail_start(stack: tuple[int, ...]) -> int:
    """Index of the bottom card of the top descending run (any suits); len(stack) if empty."""
    i = len(stack) - 1
    if i < 0:
        return 0
    if stack[i] == FACE_DOWN:
        return len(stack)
    while i > 0 and follows(stack[i], stack[i - 1]):
        i -= 1
    return i


def unit_starts(stack: tuple[int, ...]) -> list[int]:
    """Bottom indices of the same-suit runs (units) of the top descending run, bottom first."""
    starts = []
    start = tail_start(stack)
    for i in range(start, len(stack)):
        if i == start or suit(stack[i]) != suit(stack[i - 1]):
            starts.append(i)
    return starts


def movable_start(stack: tuple[int, ...]) -> int:
    """Lowest index a reversible move can take cards from (the tail, less a root that sits on a
    card it does not follow); len(stack) when nothing moves reversibly."""
    start = tail_start(stack)
    return start if start == 0 else min(start + 1, len(stack))


@dataclass(frozen=True)
class Move:
    """Move ``cards`` (the top of stack ``src``) onto stack ``dst``; stacks are 0-based."""

    src: int
    dst: int
    cards: tuple[int, ...]

    def __str__(self) -> str:
        return f"{self.src + 1}>{self.dst + 1} " + " ".join(card_text(c) for c in self.cards)

    def to_json(self) -> dict:
        return {"from": self.src + 1, "to": self.dst + 1,
                "cards": [card_text(c) for c in self.cards]}


def parse_move(text: str) -> Move:
    """A move as ``str(Move)`` prints it, ``"1>3 9D 8D"``; :class:`BadInput` otherwise."""
    head, _, cards = text.strip().partition(" ")
    src, sep, dst = head.partition(">")
    numbers = (src + dst).isascii() and src.isdigit() and dst.isdigit()
    if not (sep and numbers and int(src) > 0 and int(dst) > 0 and cards.split()):
        raise BadInput(f"malformed move {text.strip()!r}: expected FROM>TO and the cards moved, "
                       f"e.g. '1>3 9D 8D'")
    return Move(int(src) - 1, int(dst) - 1, tuple(Card.parse(c).index for c in cards.split()))


def legal_moves(board: Board) -> Iterator[Move]:
    """Every legal move: any top part of a top same-suit run onto a card one rank higher or
    into an empty stack."""
    for s, stack in enumerate(board):
        if not stack or stack[-1] == FACE_DOWN:
            continue
        low = len(stack) - 1
        while (low > 0 and follows(stack[low], stack[low - 1])
               and suit(stack[low]) == suit(stack[low - 1])):
            low -= 1
        for b in range(low, len(stack)):
            for d, dest in enumerate(board):
                if d != s and (not dest or follows(stack[b], dest[-1])):
                    yield Move(s, d, stack[b:])


def completes_suit(board: Board, move: Move) -> bool:
    """True when the move leaves a King-to-Ace run of one suit on top of its destination."""
    pile = board[move.dst] + move.cards
    if len(pile) < 13:
        return False
    top = pile[-13:]
    return all(c != FACE_DOWN and suit(c) == suit(top[0]) and rank(c) == 13 - i
               for i, c in enumerate(top))


def source_reversible(board: Board, move: Move) -> bool:
    """True when the moved part sat at the bottom of its stack or on a card one rank higher."""
    stack = board[move.src]
    b = len(stack) - len(move.cards)
    return b == 0 or follows(stack[b], stack[b - 1])


def is_reversible(board: Board, move: Move) -> bool:
    return source_reversible(board, move) and not completes_suit(board, move)


def apply(board: Board, move: Move) -> Board:
    """The board after a legal move (a completed suit leaves the board)."""
    out = list(board)
    out[move.src] = board[move.src][:len(board[move.src]) - len(move.cards)]
    pile = board[move.dst] + move.cards
    out[move.dst] = pile[:-13] if completes_suit(board, move) else pile
    return tuple(out)


def check_move(board: Board, move: Move) -> None:
    """Raise :class:`BadInput` saying why ``move`` is not legal on ``board``."""
    if not (0 <= move.src < len(board) and 0 <= move.dst < len(board)) or move.src == move.dst:
        raise BadInput(f"move {move}: no such pair of stacks")
    if move not in set(legal_moves(board)):
        raise BadInput(f"move {move}: those cards are not a same-suit run on top of stack "
                       f"{move.src + 1} that fits stack {move.dst + 1}")


def replay(board: Board, moves: list[Move], reversible: bool = False) -> Board:
    """Play ``moves`` from ``board``; raise :class:`BadInput` naming the first illegal one
    (or, with ``reversible``, the first irreversible one)."""
    for number, move in enumerate(moves, 1):
        check_move(board, move)
        if reversible and not is_reversible(board, move):
            raise BadInput(f"move {number} ({move}) is not reversible")
        board = apply(board, move)
    return board


def empty_count(board: Board) -> int:
    return sum(1 for stack in board if not stack)
