"""A headless Chromium for the page's tests, screenshots and timings, driven by Playwright (the
``test`` extra): /usr/bin/chromium, another on the path, or the one ``PUZZLEGEN_CHROMIUM`` names.
"""
from __future__ import annotations

import os
import shutil
import tempfile
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
def headless(width: int = 1000, height: int = 800) -> Iterator:
    """A Playwright browser context of a headless Chromium with a fresh profile, removed after;
    :class:`Unavailable` when Playwright or Chromium is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise Unavailable("Playwright is not installed (pip install '.[test]')") from None
    executable = chromium_path()
    if executable is None:
        raise Unavailable("no Chromium found (apt-get install chromium, or set "
                          "PUZZLEGEN_CHROMIUM)")
    profile = tempfile.mkdtemp(prefix="puzzlegen-chromium-")
    try:
        with sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(
                profile, executable_path=executable, headless=True, args=FLAGS,
                viewport={"width": width, "height": height})
            try:
                yield context
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
