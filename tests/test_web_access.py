"""Every game's page at a glance and for everyone, in a real headless Chromium: the game and the
pack named, the rules shown, the buttons in reach on a phone, every card's suit shown, a
four-colour deck, reduced motion, and no serious accessibility violation (axe-core)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import pages
from solvers import game as games

ROOT = Path(__file__).resolve().parent.parent
PACKS = ["stacksquared-4x4-expert", "montana-8", "stackmgmt-8x4-k4", "agnes-up-suit-anyrun-nosplit"]
PHONE = {"width": 390, "height": 844}


def axe_problems(page) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it stands."""
    from axe_playwright_python.sync_playwright import Axe
    found = Axe().run(page).response["violations"]
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])})" for v in found
            if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("name", PACKS)
def test_a_phone_sees_the_game_the_rules_and_its_buttons(name, tmp_path, browser_context):
    """On a 390 px phone at first load: the header names the game and the pack (its rules,
    levels and size, not its file name), the rules are on the page, not folded away, and Undo,
    Hint and the message are in the window without scrolling, after a move too."""
    pack = json.loads((ROOT / f"puzzles/{name}.json").read_text())
    game = games.get(pack["game"])
    page = browser_context.new_page()
    try:
        page.set_viewport_size(PHONE)
        page = pages.fresh(page, pages.built(ROOT / f"puzzles/{name}.json", tmp_path))
        header = page.text_content("header h1")
        assert header.startswith(game.title + " \u00b7 ") and name not in header
        assert f"{len(pack['puzzles'])} puzzles" in header
        assert page.is_visible("#rules") and len(page.text_content("#rules")) > 40
        first = pack["puzzles"][0]["solution"][0]
        for moved in (False, True):
            if moved:
                assert page.text_content("#message").startswith("Moved ")
            for selector in ('[data-action="undo"]', '[data-action="hint"]', "#message"):
                box = page.locator(selector).bounding_box()
                assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], selector
            if moved:
                break
            page.evaluate("(name) => { const app = window.puzzlegen.app; const s = app.state();"
                          " const game = window.puzzlegen.games[app.pack.game];"
                          " const c = game.moveCells(s.history[s.history.length - 1], name);"
                          " document.querySelectorAll('#board .cell')[c.from].click();"
                          " document.querySelectorAll('#board .cell')[c.to].click(); }", first)
    finally:
        page.close()


def test_covered_cards_of_a_pile_show_their_suit(tmp_path, browser_context):
    """Agnes's piles overlap: each card's corner, rank and suit both, lies in the strip of it
    that shows (moves depend on the suit, not only the colour)."""
    path = pages.built(ROOT / "puzzles/agnes-up-suit-anyrun-nosplit.json", tmp_path)
    page = browser_context.new_page()
    try:
        page = pages.fresh(page, path)
        shown = page.evaluate("""() => [...document.querySelectorAll('#board .cell')]
            .filter((cell) => cell.dataset.card && +cell.dataset.row > 0)
            .map((cell) => {
              const box = cell.getBoundingClientRect();
              const pip = cell.querySelector('svg.card use').getBoundingClientRect();
              return [cell.dataset.card, pip.top >= box.top && pip.bottom <= box.bottom + 0.5,
                      cell.querySelector('svg.card').classList.contains(
                        'suit-' + cell.dataset.card.slice(-1))];
            })""")
        assert len(shown) > 20 and all(inside and suited for _, inside, suited in shown), shown
    finally:
        page.close()


def test_a_four_colour_deck_is_a_choice_kept_by_the_browser(tmp_path, browser_context):
    path = pages.built(ROOT / "puzzles/stacksquared-4x4-expert.json", tmp_path)
    page = browser_context.new_page()

    def fills():
        return page.evaluate("""() => Object.fromEntries([...'CDHS'].map((s) => {
            const card = document.querySelector('#board svg.card.suit-' + s);
            return [s, card && getComputedStyle(card).fill];
          }).filter(([, fill]) => fill))""")
    try:
        page = pages.fresh(page, path)
        two = fills()
        assert len(set(two.values())) == 2 and len(two) >= 3
        page.check("#four-colour")
        four = fills()
        assert len(set(four.values())) == len(four)
        page = pages.reloaded(page)
        assert page.is_checked("#four-colour") and fills() == four
        page.uncheck("#four-colour")
        assert fills() == two
    finally:
        page.close()


def test_reduced_motion_keeps_a_picked_card_in_place(tmp_path, browser_context):
    path = pages.built(ROOT / "puzzles/stacksquared-4x4-expert.json", tmp_path)
    page = browser_context.new_page()
    try:
        page = pages.fresh(page, path)
        page.click('#board .cell[data-row="0"][data-col="0"]')
        picked = '#board .cell.selected'
        assert page.evaluate(f"getComputedStyle(document.querySelector('{picked}')).transform") \
            != "none"
        page.emulate_media(reduced_motion="reduce")
        assert page.evaluate(f"getComputedStyle(document.querySelector('{picked}')).transform") \
            == "none"
    finally:
        page.close()


@pytest.mark.parametrize("name", PACKS)
def test_no_serious_accessibility_violation(name, tmp_path, browser_context):
    """axe-core on the page at first load, with a card picked and the help open, on a phone and
    a desktop; moves and results are announced (#message is a polite live status)."""
    path = pages.built(ROOT / f"puzzles/{name}.json", tmp_path)
    page = browser_context.new_page()
    try:
        for size in (PHONE, {"width": 1000, "height": 800}):
            page.set_viewport_size(size)
            page = pages.fresh(page, path)
            assert axe_problems(page) == []
            page.focus('#board .cell[tabindex="0"]')
            page.keyboard.press("Enter")
            page.click("details summary")
            assert axe_problems(page) == []
        assert page.get_attribute("#message", "role") == "status"
        assert page.get_attribute("#message", "aria-live") == "polite"
    finally:
        page.close()
