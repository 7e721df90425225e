"""Puzzle codes (docs/codes.md) for every registered game and for the test game of
tests/test_new_game.py, which gives nothing for them: deal -> code -> deal keeps the game, the
rules and the deal; codes are URL-safe, stable (pinned below) and as short as the format says;
a mistyped or corrupted code is refused with one :class:`BadInput`, never a traceback; and
every command that takes a deal takes ``--code``."""
from __future__ import annotations

import base64
import itertools
import math
import random
import re
import urllib.parse

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from puzzlegen import codes
from puzzlegen.cli import cli
from solvers import game as games
from solvers.errors import BadInput
from solvers.game import Pool

#: Every registered game and the test game (registered by the fixture below).
GAMES = [*games.names(), "swaps"]
URL_SAFE = re.compile(r"[A-Za-z0-9._~-]+")
#: Codes pinned forever: (game, rules, seed, code).
PINNED = [
    ("stacksquared", "4x4", 367297990, "1s.4x4.EQ7QsgbWArLX-CL4S"),
    ("stacksquared", "3x3", 1, "1s.3x3.Dv_lup-zR_H"),
    ("agnes", "Up-Suit-AnyRun", 3, "1a.Up-Suit-AnyRun.DYy_PRtKOKlSlvYrxc3s3XIiBQU0gQ1OL_btbFGL"),
    ("montana", "8", 5, "1m.8.En3JA7PZxpSMretapnb4f"),
    ("stackmgmt", "8x4-k4", 4, "1k.8x4-k4.DPRoAjh_CyCBy-WN7D3qCY"),
    ("spider", "4x6", 2,
     "1p.4x6~IHwgIyMgM0ggMkggfCAjIyA0UyAzUyAySCB8ICMjIDRIIDNIIDJIIEFIaC"),
    ("swaps", "6", 1, "1swaps.6~M1MgNFMgNlMgQVMgNVMgMlMMZ"),
]


@pytest.fixture(scope="module", autouse=True)
def swaps():
    """The test game registered as tests/test_new_game.py registers it: one line."""
    patch = pytest.MonkeyPatch()
    patch.setitem(games.REGISTRY, "swaps", "swaps.game")
    games._games.pop("swaps", None)
    yield
    patch.undo()
    games._games.pop("swaps", None)


@st.composite
def deals(draw, names=tuple(GAMES)):
    game = games.get(draw(st.sampled_from(names)))
    rules = game.parse_rules(draw(st.sampled_from(game.variants())))
    deal = game.random_deal(random.Random(draw(st.integers(0, 2 ** 32))), rules)
    return game, rules, deal


@settings(max_examples=150)
@given(deals())
def test_a_code_carries_game_rules_and_deal_and_is_url_safe(case):
    game, rules, deal = case
    code = codes.encode(game, rules, deal)
    assert URL_SAFE.fullmatch(code) and urllib.parse.quote(code, safe="") == code
    back, coded, again = codes.decode(code)
    assert back is game and game.format_rules(coded) == game.format_rules(rules)
    assert coded == rules and again == deal
    assert codes.encode(game, coded, again) == code


@settings(max_examples=100)
@given(deals(), st.data())
def test_a_mistyped_character_or_a_swap_is_always_refused(case, data):
    code = codes.encode(*case)
    i = data.draw(st.integers(0, len(code) - 1))
    typo = data.draw(st.characters().filter(lambda c: c != code[i]))
    with pytest.raises(BadInput, match="^not a puzzle code: "):
        codes.decode(code[:i] + typo + code[i + 1:])
    a, b = sorted(data.draw(st.lists(st.integers(0, len(code) - 3), min_size=2, max_size=2,
                                     unique=True)))
    if code[a] != code[b]:
        swapped = code[:a] + code[b] + code[a + 1:b] + code[a] + code[b + 1:]
        with pytest.raises(BadInput, match="^not a puzzle code: "):
            codes.decode(swapped)


@settings(max_examples=200)
@given(deals(), st.data())
def test_any_text_is_a_code_exactly_or_refused_in_one_sentence(case, data):
    """Cut, extended, edited or arbitrary text: refused with one BadInput, or (by the chance
    of the check) exactly the code of what it decodes to."""
    code = codes.encode(*case)
    cut = data.draw(st.integers(0, len(code)))
    text = data.draw(st.one_of(
        st.text(max_size=80), st.just(code[:cut]),
        st.text(alphabet=codes.DIGITS + ".~", max_size=40).map(lambda t: code[:cut] + t),
        st.text(alphabet=codes.DIGITS + ".~_", min_size=1, max_size=3).map(
            lambda t: code[:cut] + t + code[cut + 1:])))
    try:
        decoded = codes.decode(text)
    except BadInput as exc:
        assert str(exc).startswith("not a puzzle code: ") and "\n" not in str(exc)
    else:
        assert codes.encode(*decoded) == text


@pytest.mark.parametrize("game_name, rules_name, seed, pinned", PINNED)
def test_codes_are_pinned_and_as_short_as_the_format_says(game_name, rules_name, seed, pinned):
    game = games.get(game_name)
    rules = game.parse_rules(rules_name)
    code = codes.encode(game, rules, game.deal_from_seed(seed, rules))
    assert code == pinned
    pool = game.code_pool(rules)
    head = f"1{game.code_name or game.name}.{game.format_rules(rules)}"
    if pool is None:
        assert code.startswith(head + "~")
    else:
        assert code.startswith(head + ".") and len(code) == len(head) + 1 + codes.width(pool) + 2


def test_a_whole_deck_takes_as_few_digits_as_its_permutations_need():
    assert codes.width(Pool.distinct(52, 52)) == 38          # 52! < 64 ** 38
    assert codes.total(Pool.distinct(52, 52)) == math.factorial(52)
    assert codes.width(Pool.distinct(16, 52)) == 15          # a 4x4 grid: 1 + 1 + 3 + 1 + 15 + 2
    assert len(PINNED[0][3]) == 24
    assert codes.width(games.get("montana").code_pool(games.get("montana").parse_rules("13"))) \
        == 37                                                 # 52! / 4! (the gaps alike)


@pytest.mark.parametrize("pool", [Pool(3, (2, 1, 1)), Pool(4, (2, 2)), Pool(2, (1, 1, 1, 1)),
                                  Pool(3, (2, 2, 1)), Pool(4, (1, 3, 2)),
                                  Pool(5, (3, 1, 1)), Pool(0, (1,))])
def test_ranks_number_every_draw_of_the_pool_in_order(pool):
    symbols = [s for s, count in enumerate(pool.counts) for _ in range(count)]
    draws = sorted(set(itertools.permutations(symbols, pool.length)))
    assert codes.total(pool) == len(draws)
    assert [codes.rank(list(d), pool) for d in draws] == list(range(len(draws)))
    assert [tuple(codes.unrank(k, pool)) for k in range(len(draws))] == draws
    with pytest.raises(BadInput, match="past the last deal"):
        codes.unrank(len(draws), pool)


def test_a_deal_off_the_pool_is_coded_as_its_text_and_one_on_it_by_its_rank_alone():
    """A Stack Management deal of other values than the deck's (any values make a deal)."""
    game = games.get("stackmgmt")
    rules = game.parse_rules("6x4-k3")
    on_pool = game.deal_from_seed(1, rules)
    deal = tuple(tuple((v * 10, s) for v, s in stack) for stack in on_pool)
    code = codes.encode(game, rules, deal)
    assert code.startswith("1k.6x4-k3~") and codes.decode(code)[2] == deal
    text = "1k.6x4-k3~" + base64.urlsafe_b64encode(
        game.format_deal(on_pool).encode()).decode().rstrip("=")
    with pytest.raises(BadInput, match="is not written as its puzzle's code is: 1k.6x4-k3[.]"):
        codes.decode(text + codes.check(text))


def test_names_are_escaped_and_code_names_are_one_each():
    assert codes.escape("a b.c_d-\u00e9") == "a_20b_2Ec_5Fd-_C3_A9"
    assert codes.unescape(codes.escape("a b.c_d-\u00e9")) == "a b.c_d-\u00e9"
    for broken in ("a_2", "a_zz", "_C3"):
        with pytest.raises(BadInput, match="broken escape"):
            codes.unescape(broken)
    names = [games.get(n).code_name or n for n in GAMES]
    assert len(set(names)) == len(names) and all(re.fullmatch(r"[a-z0-9]+", n) for n in names)


def puzzlegen(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_every_command_that_takes_a_deal_takes_a_code():
    stacks = games.get("stacksquared")
    four = stacks.parse_rules("4x4")
    code = codes.encode(stacks, four, stacks.deal_from_seed(367297990, four))
    by_seed = puzzlegen("stacksquared", "solve", "--seed", "367297990")
    by_code = puzzlegen("stacksquared", "solve", "--code", code)
    assert by_code.exit_code == 0 and by_code.output.splitlines()[:4] == \
        by_seed.output.splitlines()[:4] and f"code: {code}" in by_code.output
    hint = puzzlegen("stacksquared", "hint", "--code", code, "--moves", "6H-7D", "--json")
    assert hint.exit_code == 0 and hint.output == puzzlegen(
        "stacksquared", "hint", "--seed", "367297990", "--moves", "6H-7D", "--json").output
    swaps = codes.encode(games.get("swaps"), 6, (2, 1, 3, 5, 4, 6))
    assert '"status":"solved"' in puzzlegen("swaps", "solve", "--code", swaps, "--json").output


@pytest.mark.parametrize("command", [
    ["stacksquared", "solve"], ["stacksquared", "grade"], ["stacksquared", "hint"],
    ["agnes", "solve"], ["montana", "grade"], ["stackmgmt", "grade"], ["spider", "solve"],
    ["montana", "solve"]])
def test_a_bad_code_is_one_error_line(command):
    stacks = games.get("stacksquared")
    three = stacks.parse_rules("3x3")
    other_game = codes.encode(stacks, three, stacks.deal_from_seed(1, three))
    for code, fragment in (("1s.4x4.EQ7QsgbWArLX-CL4X", "fails its check"),
                           ("1<script>", "is not VERSION GAME.RULES"),
                           ("2s.4x4.EQ7QsgbWArLX-CL4S", "codes of version 1 start with '1'"),
                           (other_game, "is a StacksSquared (Birds of a Feather) puzzle" if
                            command[0] != "stacksquared" else "--rules 4x4")):
        extra = ["--rules", "4x4"] if fragment == "--rules 4x4" else []
        result = puzzlegen(*command, "--code", code, *extra)
        assert result.exit_code == 2, (command, code, result.output)
        assert result.output.startswith("error: ") and len(result.output.splitlines()) == 1
        assert fragment in result.output, result.output
    both = puzzlegen(*command, "--code", other_game, "--seed", "1")
    assert both.exit_code == 2 and "exactly one of" in both.output
