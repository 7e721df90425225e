"""Puzzle codes: a short, stable, URL-safe text naming a game, its rules and one deal
(docs/codes.md has the format, version 1).

``1s.4x4.<rank><check>``: the version, the game's ``code_name``, the rules' name, and the deal
either as the rank of its symbols among every deal of the rules (``.``, when the game gives a
:class:`~solvers.game.Pool`) or as its text (``~``), then two check characters.  Built over the
game contract alone, so every game has codes; :func:`decode` refuses anything that is not
exactly the code :func:`encode` gives, with one :class:`BadInput` sentence.
"""
from __future__ import annotations

import base64
import binascii
import re
from collections import Counter
from functools import lru_cache
from math import comb, factorial, perm

from solvers import game as games
from solvers.errors import BadInput
from solvers.game import Pool

VERSION = "1"
#: The digits of ranks and check characters: base64url (RFC 4648, section 5), 'A' = 0.
DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
#: The check is a position-weighted sum of the characters modulo this prime (below 64 ** 2).
MODULUS = 4093
RANK, TEXT = ".", "~"
#: Characters a game's code name or a rules name keeps as they are; any other is ``_XX``.
PLAIN = re.compile(r"[A-Za-z0-9-]")
#: Longest text :func:`decode` reads (a 52-card deal's text, 155 characters, makes a code of
#: about 220).
MAX_LENGTH = 2000


def encode(game: games.Game, rules, deal) -> str:
    """The code of ``deal`` under ``rules`` of ``game``."""
    head = (VERSION + escape(game.code_name or game.name) + "." +
            escape(game.format_rules(rules)))
    pool = game.code_pool(rules)
    symbols = None if pool is None else game.code_symbols(deal, rules)
    if symbols is None:
        text = base64.urlsafe_b64encode(game.format_deal(deal).encode()).decode().rstrip("=")
        body = TEXT + text
    else:
        body = RANK + digits(rank(symbols, pool), width(pool))
    return head + body + check(head + body)


def decode(code: str) -> tuple[games.Game, object, object]:
    """``(game, rules, deal)`` of ``code``; :class:`BadInput` ("not a puzzle code: ...")
    unless ``code`` is exactly the code :func:`encode` gives them."""
    def refuse(why: str) -> BadInput:
        return BadInput(f"not a puzzle code: {shown(code)} {why}")

    if not isinstance(code, str) or not 5 <= len(code) <= MAX_LENGTH:
        raise refuse("is not 5 to 2,000 characters long")
    if code[0] != VERSION:
        raise refuse(f"starts with {code[0]!r}: codes of version {VERSION} start with "
                     f"{VERSION!r}")
    found = re.fullmatch(r"1([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)([.~])([A-Za-z0-9_-]*)", code[:-2])
    if not found:
        raise refuse("is not VERSION GAME.RULES.DEAL CHECK (docs/codes.md)")
    if code[-2:] != check(code[:-2]):
        raise refuse("fails its check (a character mistyped or left out?)")
    game = by_code_name(unescape(found[1]))
    if game is None:
        raise refuse(f"names no game of this puzzlegen ({shown(found[1])})")
    try:
        rules = game.parse_rules(unescape(found[2]))
        if found[3] == TEXT:
            deal = game.parse_deal(from_base64(found[4]), rules)
        else:
            pool = game.code_pool(rules)
            if pool is None:
                raise BadInput(f"{game.title} codes carry deals as text")
            deal = game.code_deal(unrank(from_digits(found[4], pool), pool), rules)
    except BadInput as exc:
        raise refuse(f"holds no {game.name} puzzle: {exc}") from None
    if encode(game, rules, deal) != code:
        raise refuse(f"is not written as its puzzle's code is: {encode(game, rules, deal)}")
    return game, rules, deal


def shown(text) -> str:
    """Text from a user quoted and cut to 60 characters, for a message."""
    text = str(text)
    return repr(text if len(text) <= 60 else text[:57] + "...")


def by_code_name(name: str) -> games.Game | None:
    """The registered game with this code name (its ``code_name``, else its registry name)."""
    for game in map(games.get, games.names()):
        if (game.code_name or game.name) == name:
            return game
    return None


def check(text: str) -> str:
    """The two check characters of ``text``: sum over its characters of (position + 1) times
    the character's code point, modulo :data:`MODULUS`, in two digits."""
    total = sum((i + 1) * ord(c) for i, c in enumerate(text)) % MODULUS
    return DIGITS[total // 64] + DIGITS[total % 64]


def escape(name: str) -> str:
    """``name`` with every character other than ASCII letters, digits and ``-`` written as
    ``_`` and two upper-case hex digits per UTF-8 byte."""
    return "".join(c if PLAIN.fullmatch(c) else "".join(f"_{b:02X}" for b in c.encode())
                   for c in name)


def unescape(text: str) -> str:
    """:func:`escape` undone; :class:`BadInput` for a broken escape."""
    if not re.fullmatch(r"(?:[A-Za-z0-9-]|_[0-9A-F]{2})*", text):
        raise BadInput(f"broken escape in {shown(text)}")
    raw = re.sub(rb"_([0-9A-F]{2})", lambda m: bytes([int(m[1], 16)]), text.encode())
    try:
        return raw.decode()
    except UnicodeDecodeError:
        raise BadInput(f"broken escape in {shown(text)}") from None


def from_base64(text: str) -> str:
    """The UTF-8 text of unpadded base64url; :class:`BadInput` when it is not."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode()
    except (binascii.Error, ValueError):
        raise BadInput("its deal text is not base64url of UTF-8") from None


@lru_cache(maxsize=65536)
def arrangements(length: int, counts: tuple[int, ...]) -> int:
    """Sequences of ``length`` symbols drawn without replacement from a pool holding
    ``counts[s]`` copies of symbol ``s`` (order of ``counts`` immaterial):
    ``length! [x^length] prod_s sum_{k <= counts[s]} x^k / k!``."""
    if length == sum(counts):
        whole = factorial(length)
        for count in counts:
            whole //= factorial(count)
        return whole
    if all(count == 1 for count in counts):
        return perm(len(counts), length)
    ways = [1] + [0] * length
    for count in counts:
        ways = [sum(ways[j - k] * comb(j, k) for k in range(min(count, j) + 1))
                for j in range(length + 1)]
    return ways[length]


def _left(length: int, counts: list[int]) -> int:
    return arrangements(length, tuple(sorted(c for c in counts if c)))


def total(pool: Pool) -> int:
    """How many deals the pool holds."""
    return _left(pool.length, list(pool.counts))


def width(pool: Pool) -> int:
    """Digits of every rank of the pool: the fewest whose numbers reach :func:`total`."""
    n, places = total(pool), 0
    while 64 ** places < n:
        places += 1
    return places


def rank(symbols: list[int], pool: Pool) -> int:
    """The place of ``symbols`` among the pool's sequences in lexicographic order (from 0)."""
    if len(symbols) != pool.length:
        raise ValueError(f"{len(symbols)} symbols, the pool deals {pool.length}")
    counts, place = list(pool.counts), 0
    for i, symbol in enumerate(symbols):
        if not (0 <= symbol < len(counts) and counts[symbol]):
            raise ValueError(f"symbol {symbol} is not left in the pool")
        for value, many in Counter(c for c in counts[:symbol] if c).items():
            place += many * _left(pool.length - i - 1, _less(counts, value))
        counts[symbol] -= 1
    return place


def _less(counts: list[int], value: int) -> list[int]:
    """``counts`` with one copy fewer of a symbol of which ``value`` are left."""
    out = list(counts)
    out[out.index(value)] -= 1
    return out


def unrank(place: int, pool: Pool) -> list[int]:
    """The sequence of the pool at ``place`` (:func:`rank` undone); :class:`BadInput` past the
    last."""
    if not 0 <= place < total(pool):
        raise BadInput("its deal number is past the last deal of these rules")
    counts, symbols = list(pool.counts), []
    for i in range(pool.length):
        for symbol, count in enumerate(counts):
            if count:
                block = _left(pool.length - i - 1, _less(counts, count))
                if place < block:
                    break
                place -= block
        symbols.append(symbol)
        counts[symbol] -= 1
    return symbols


def digits(number: int, places: int) -> str:
    """``number`` in exactly ``places`` base64url digits, most significant first."""
    out = []
    for _ in range(places):
        number, digit = divmod(number, 64)
        out.append(DIGITS[digit])
    return "".join(reversed(out))


def from_digits(text: str, pool: Pool) -> int:
    """The rank written by :func:`digits` for ``pool``; :class:`BadInput` for another width."""
    if len(text) != width(pool):
        raise BadInput(f"its deal number has {len(text)} digits, these rules' have "
                       f"{width(pool)}")
    number = 0
    for c in text:
        number = number * 64 + DIGITS.index(c)
    return number
