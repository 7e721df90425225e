"""Shared fixtures: a real headless Chromium for the puzzle page tests.

The browser tests need Playwright (the ``test`` extra) and a Chromium (``/usr/bin/chromium``, or
the path in ``PUZZLEGEN_CHROMIUM``).  Where either is missing they skip, except under CI (the
``CI`` variable set to anything but empty/0/false), where they fail: CI must run them.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import settings

import pages
from puzzlegen.web import browser

# Tests share the cores with each other (pytest-xdist), with Dask workers and with Chromium, so
# an example's time says nothing: no hypothesis deadline anywhere.
settings.register_profile("shared-cores", deadline=None)
settings.load_profile("shared-cores")


def under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def unavailable(reason: str):
    if under_ci():
        pytest.fail(f"browser tests must run under CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium for the whole session, closed at the end."""
    try:
        with browser.chromium() as launched:
            yield launched
    except browser.Unavailable as exc:
        unavailable(str(exc))


@pytest.fixture
def browser_context(chromium):
    """A window of the test's own: its storage starts empty, so no page of the test reads (and
    stores back) progress an earlier test left."""
    context = browser.window(chromium)
    yield context
    context.close()


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
    return pages.built(request.module.PACK, tmp_path_factory.mktemp("page"))


@pytest.fixture(scope="module")
def game(pack_page, chromium):
    """A tab with the module's page loaded, in a window of its own, for calls into its scripts."""
    context = browser.window(chromium)
    yield from pages.opened(context, pack_page)
    context.close()
