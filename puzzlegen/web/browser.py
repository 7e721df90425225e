"""A headless Chromium for the page's tests, screenshots and timings, driven by Playwright (the
``test`` extra): /usr/bin/chromium, another on the path, or the one ``PUZZLEGEN_CHROMIUM`` names.
"""
from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from typing import Iterator

#: Flags for Chromium as root on a machine without a network or a screen.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]


class Unavailable(RuntimeError):
    """Playwright or Chromium is missing (the message says which and how to get it)."""


def chromium_path() -> str | None:
    for candidate in (os.environ.get("PUZZLEGEN_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


@contextmanager
def chromium() -> Iterator:
    """A headless Chromium (Playwright's ``Browser``), closed after; :class:`Unavailable` when
    Playwright or Chromium is missing.  Each of its windows (:func:`window`) has storage of its
    own, kept in memory and empty at the start, like a private window's."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise Unavailable("Playwright is not installed (pip install '.[test]')") from None
    executable = chromium_path()
    if executable is None:
        raise Unavailable("no Chromium found (apt-get install chromium, or set "
                          "PUZZLEGEN_CHROMIUM)")
    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=executable, headless=True, args=FLAGS)
        try:
            yield launched
        finally:
            launched.close()


def window(launched, width: int = 1000, height: int = 800):
    """A new browser context of ``launched``: its tabs share a storage no other window sees."""
    return launched.new_context(viewport={"width": width, "height": height})


@contextmanager
def headless(width: int = 1000, height: int = 800) -> Iterator:
    """A window of a headless Chromium (a Playwright browser context), closed after."""
    with chromium() as launched:
        context = window(launched, width, height)
        try:
            yield context
        finally:
            context.close()


def hints_off_the_line(per_hint: str) -> str:
    """A script for ``page.evaluate``: for every puzzle of the page's pack, ``per_hint``
    (a JavaScript expression of ``g``, ``history`` and ``puzzle``) for each history of one
    move from the start off the stored line, and for the start itself."""
    return """() => {
  const app = window.puzzlegen.app, g = window.puzzlegen.games[app.pack.game];
  return app.pack.puzzles.map((puzzle) => {
    const first = g.start(puzzle);
    const stored = g.moveCells(first, puzzle.solution[0]);
    const histories = [[first]].concat(g.legalMoves(first)
      .filter(([a, b]) => a !== stored.from || b !== stored.to)
      .map(([a, b]) => [first, g.play(first, a, b)]));
    return histories.map((history) => (%s));
  });
}""" % per_hint
