"""Shared fixtures: a real headless Chromium for the puzzle page tests.

The browser tests need Playwright (the ``test`` extra) and a Chromium (``/usr/bin/chromium``, or
the path in ``PUZZLEGEN_CHROMIUM``).  Where either is missing they skip, except under CI (the
``CI`` variable set to anything but empty/0/false), where they fail: CI must run them.
"""
from __future__ import annotations

import os
import shutil
import tempfile

import pytest

#: Flags for Chromium as root on a machine without a network or a screen.
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--disable-dev-shm-usage"]


def under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def chromium_path() -> str | None:
    for candidate in (os.environ.get("PUZZLEGEN_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def unavailable(reason: str):
    if under_ci():
        pytest.fail(f"browser tests must run under CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser_context():
    """One headless Chromium (a fresh profile) for the whole session, closed at the end."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Playwright is not installed (pip install '.[test]')")
    executable = chromium_path()
    if executable is None:
        unavailable("no Chromium found (apt-get install chromium, or set PUZZLEGEN_CHROMIUM)")
    profile = tempfile.mkdtemp(prefix="puzzlegen-chromium-")
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=executable, headless=True, args=CHROMIUM_FLAGS,
            viewport={"width": 1000, "height": 800})
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def browser_page(browser_context):
    """A new tab whose script errors fail the test."""
    page = browser_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    page.close()
    assert not errors, errors


@pytest.fixture(scope="module")
def pack_page(request, tmp_path_factory):
    """The page of the test module's ``PACK`` (``pack html``), built once for the module."""
    import pages
    return pages.built(request.module.PACK, tmp_path_factory.mktemp("page"))


@pytest.fixture(scope="module")
def game(pack_page, browser_context):
    """A tab with the module's page loaded, for calls into its scripts."""
    import pages
    yield from pages.opened(browser_context, pack_page)
