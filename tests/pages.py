"""Helpers of the puzzle page tests: build a pack's page, open it in the session's Chromium."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from puzzlegen.cli import cli


def built(pack: Path, folder: Path, name: str = "page") -> Path:
    """``puzzlegen pack html`` of the pack file ``pack``, written as ``folder/name.html``."""
    out = folder / f"{name}.html"
    result = CliRunner().invoke(cli, ["pack", "html", str(pack), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def opened(browser_context, path: Path):
    """A tab with the page at ``path`` loaded, for calls into its scripts (a fixture's body:
    ``yield from``); closed after."""
    page = browser_context.new_page()
    page.goto(path.as_uri())
    yield page
    page.close()


def fresh(page, path: Path, puzzle: str | None = None):
    """The page at ``path`` opened with no saved progress, at ``puzzle`` if given."""
    page.goto(path.as_uri())
    page.evaluate("window.localStorage.clear()")
    page.goto(path.as_uri() + (f"#{puzzle}" if puzzle else ""))
    page.reload()
    return page
