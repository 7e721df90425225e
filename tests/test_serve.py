"""The puzzle server, for real: ``puzzlegen serve`` in a subprocess on 127.0.0.1 with its database
in tmp_path.  A served page played by clicks in headless Chromium posts its attempt, which is
stored and moves the puzzle's rating; bad posts (unknown puzzle, illegal moves, a forged win,
an oversized body, malformed JSON, wrong types, markup and SQL in every text field) are refused
with 4xx and store nothing; what counts for ratings; the daily puzzle; escaping; the commands'
edges."""
from __future__ import annotations

import datetime
import json
import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest

from puzzlegen import codes, daily
from served import SMALL, Server, attempt, post, puzzles, rows
from solvers.stacksquared import Deal, Position
from solvers.stacksquared.game import GAME, Grid

from test_web_attempts import click_move

ROOT = SMALL.parent.parent
HOSTILE_ID = '<img src=x onerror="window.hacked=1">\'; DROP TABLE attempts; --'


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The small 3x4 pack and a Montana pack whose puzzle ids are markup, served."""
    folder = tmp_path_factory.mktemp("serve")
    hostile = json.loads((ROOT / "puzzles/montana-8.json").read_text())
    hostile["puzzles"] = hostile["puzzles"][:2]
    hostile["puzzles"][0]["id"] = HOSTILE_ID
    (folder / "hostile.json").write_text(json.dumps(hostile))
    running = Server([SMALL, folder / "hostile.json"], folder / "attempts.db")
    yield running
    running.stop()


def test_a_served_page_played_by_clicks_posts_its_attempt_which_moves_the_rating(
        server, browser_page):
    entry = puzzles()[0]
    requests = []
    browser_page.context.on("request", lambda request: requests.append(request.url))
    page = browser_page
    page.goto(f"{server.url}/p/stacksquared-3x4-hard/#{entry['id']}")
    assert page.get_attribute("#board", "data-puzzle-id") == entry["id"]
    assert "sent, with an anonymous player id" in page.text_content("#privacy")
    policy = page.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content")
    assert policy.endswith("; connect-src 'self'")
    assert server.get_json(f"/api/puzzles/{entry['code']}")["rating"]["games"] == 0
    position = Position.start(Deal.parse(entry["deal"], 3, 4))
    *first, last = entry["solution"]
    for move in first:
        position = click_move(page, position, move)
    with page.expect_response(lambda r: r.url.endswith("/api/attempts")) as response:
        click_move(page, position, last)
    assert response.value.status == 201
    assert page.get_attribute("#board", "data-status") == "solved"
    player = page.evaluate("window.localStorage.getItem('puzzlegen:player')")
    [(code, _, result, counted)] = [row[1:] for row in rows(server.db) if row[0] == player]
    assert (code, result, counted) == (entry["code"], "solved", "rated")
    with closing(sqlite3.connect(server.db)) as conn:
        moves, made = conn.execute("SELECT moves, moves_made FROM attempts WHERE player = ?",
                                   (player,)).fetchone()
    assert json.loads(moves) == entry["solution"] and made == len(entry["solution"])
    stats = server.get_json(f"/api/puzzles/{entry['code']}")
    assert (stats["plays"], stats["solved"], stats["solve_rate"]) == (1, 1, 1.0)
    assert stats["rating"]["games"] == 1 and stats["rating"]["rating"] < 1500  # solved: easier
    assert stats["rating"]["rd"] < 350
    assert requests and all(url.startswith(server.url + "/") for url in requests), requests


def test_bad_posts_are_refused_and_store_nothing(server):
    entry, other = puzzles()[1:3]
    good = attempt(entry, "badposts-player", "2026-01-01T10:00:00.000Z")
    solution = entry["solution"]
    unknown = codes.encode(GAME, Grid(3, 4), Deal.from_seed(7, 3, 4))
    cases = {
        "unknown puzzle": (dict(good, code=unknown), 404),
        "no code": (dict(good, code="1s.3x4.nonsense"), 404),
        "a code of another puzzle": (dict(good, code=other["code"]), 422),
        "illegal move": (dict(good, moves=[solution[1], solution[0], *solution[2:]]), 422),
        "unreadable move": (dict(good, moves=["KS to QS"]), 422),
        "forged win": (dict(good, moves=solution[:-1]), 422),
        "forged solution view": (dict(good, result="shown", moves=solution[:-1],
                                      solution_views=3), 422),
        "a win claimed unfinished": (dict(good, result="unfinished"), 422),
        "solved with the solution": (dict(good, solution_views=1), 422),
        "shown without it": (dict(good, result="shown"), 422),
        "moves nobody made": (dict(good, moves_made=2), 422),
        "seconds as text": (dict(good, seconds="95"), 422),
        "seconds NaN": (json.dumps(good).replace("95.5", "NaN").encode(), 400),
        "seconds negative": (dict(good, seconds=-1), 422),
        "moves as text": (dict(good, moves=" ".join(solution)), 422),
        "a move as number": (dict(good, moves=[1]), 422),
        "hints negative": (dict(good, hints=-1), 422),
        "hints true": (dict(good, hints=True), 422),
        "hints fractional": (dict(good, hints=1.5), 422),
        "bad start": (dict(good, started="yesterday"), 422),
        "start without zone": (dict(good, started="2026-01-01T10:00:00"), 422),
        "unknown result": (dict(good, result="won"), 422),
        "short player": (dict(good, player="abc"), 422),
        "extra field": (dict(good, admin=True), 422),
        "missing field": ({k: v for k, v in good.items() if k != "undos"}, 422),
        "malformed JSON": (b'{"puzzle": ', 400),
        "not an object": (b"[1, 2]", 400),
        "deep nesting": (b"[" * 30000 + b"]" * 30000, 400),
        "not UTF-8": (b'{"puzzle": "\xff"}', 400),
        "oversized": (dict(good, moves=solution * 800), 413),
    }
    for field in ("puzzle", "code", "started", "result", "player"):
        for text in ("<script>alert(1)</script>", "x'); DROP TABLE attempts; --"):
            cases[f"{text[:8]} in {field}"] = (dict(good, **{field: text}), (404, 422))
    cases["markup move"] = (dict(good, moves=["<b>KS-QS</b>"]), 422)
    cases["SQL move"] = (dict(good, moves=["'; DELETE FROM attempts; --"]), 422)
    before = rows(server.db)
    conn = server.connection()
    for name, (body, expected) in cases.items():
        status, answer = post(conn, body)
        assert status in (expected if isinstance(expected, tuple) else (expected,)), \
            (name, status, answer)
        assert set(answer) == {"error"} and answer["error"], name
        if status == 413:
            conn.close()
            conn = server.connection()
    status, _ = post(conn, json.dumps(good).encode(), "text/plain")
    assert status == 415
    assert rows(server.db) == before
    with closing(sqlite3.connect(server.db)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert post(conn, good)[0] == 201       # the same attempt, well formed, is taken
    assert rows(server.db)[len(before):] == [("badposts-player", entry["code"],
                                              good["started"], "solved", "rated")]


def test_what_counts_for_ratings(server):
    entry = puzzles()[3]
    conn = server.connection()
    path = f"/api/puzzles/{entry['code']}"
    # A first solve with 3 hints counts a quarter win; the same attempt posted again is
    # stored once; a replay never counts.
    status, first = post(conn, attempt(entry, "counting-1", "2026-01-01T10:00:00Z", hints=3))
    assert status == 201 and (first["counted"], first["score"]) == ("rated", 0.25)
    status, again = post(conn, attempt(entry, "counting-1", "2026-01-01T10:00:00Z", hints=3))
    assert status == 200 and not again["new"] and again["id"] == first["id"]
    status, replay = post(conn, attempt(entry, "counting-1", "2026-01-01T11:00:00Z"))
    assert status == 201 and (replay["counted"], replay["score"]) == ("replay", None)
    assert replay["puzzle_rating"] == first["puzzle_rating"]
    # A solution view after moves of one's own is a loss; without any, it is no game, but it
    # spends the player's first try.
    status, shown = post(conn, attempt(entry, "counting-2", "2026-01-01T10:00:00Z", "shown",
                                       moves_made=2, solution_views=9))
    assert (shown["counted"], shown["score"]) == ("rated", 0.0)
    assert shown["puzzle_rating"]["rating"] > first["puzzle_rating"]["rating"]
    status, looked = post(conn, attempt(entry, "counting-3", "2026-01-01T10:00:00Z", "shown",
                                        moves_made=0, solution_views=12))
    assert (looked["counted"], looked["score"]) == ("no move", None)
    status, later = post(conn, attempt(entry, "counting-3", "2026-01-02T10:00:00Z"))
    assert later["counted"] == "replay"
    # An abandoned attempt (unfinished) is a loss.
    status, gave_up = post(conn, attempt(entry, "counting-4", "2026-01-01T10:00:00Z",
                                         "unfinished"))
    assert status == 201 and (gave_up["counted"], gave_up["score"]) == ("rated", 0.0)
    stats = server.get_json(path)
    assert (stats["plays"], stats["players"], stats["solved"], stats["rated"]) == (6, 4, 3, 3)
    assert stats["solve_rate"] == 0.5 and stats["median_seconds"] == 95.5
    assert stats["rating"]["games"] == 3


def test_the_daily_puzzle(server):
    served = [p["code"] for p in puzzles() + puzzles(server_pack(server))]
    year = [daily.pick(served, datetime.date(2026, 1, 1) + datetime.timedelta(days=d))
            for d in range(365)]
    n = len(served)
    assert set(year[:n]) == set(served) and year[n:2 * n] == year[:n]  # each once, then again
    assert daily.order(served, 2026) != daily.order(served, 2027)
    assert daily.order(served[::-1], 2026) == daily.order(served, 2026)
    day = server.get_json("/api/daily?date=2026-12-06")
    assert day["code"] == daily.pick(served, datetime.date(2026, 12, 6))
    assert day["share"] == (f"puzzlegen daily 2026-12-06 \u00b7 {day['title']} {day['rules']} "
                            f"{day['level']}") and day["attempt"] is None
    entry = next(p for p in puzzles() + puzzles(server_pack(server)) if p["code"] == day["code"])
    played = attempt(entry, "daily-player", "2026-12-06T08:00:00Z", seconds=192.4, hints=2)
    assert post(server.connection(), played)[0] == 201
    mine = server.get_json("/api/daily?date=2026-12-06&player=daily-player")
    assert mine["share"].endswith("\u00b7 solved in 3:12, 2 hints")
    assert not any(move in mine["share"] for move in entry["solution"])
    for bad in ("2026-13-01", "today", "2026-12-06&player=%3Cb%3E"):
        assert server.get(f"/api/daily?date={bad}")[0] == 400
    status, page, headers = server.get("/daily")
    assert status == 200 and "content-security-policy" in headers
    assert b"puzzlegen daily " in page


def server_pack(server):
    return server.db.parent / "hostile.json"


def test_every_field_shown_in_html_is_escaped(server, browser_page):
    entry = puzzles(server_pack(server))[0]
    assert entry["id"] == HOSTILE_ID
    status, page, headers = server.get(f"/puzzles/{entry['code']}")
    assert status == 200 and headers["x-content-type-options"] == "nosniff"
    assert b"<img" not in page and b"&lt;img src=x" in page
    browser_page.goto(f"{server.url}/puzzles/{entry['code']}")
    browser_page.goto(f"{server.url}/p/hostile/#{entry['code']}")
    assert browser_page.get_attribute("#board", "data-puzzle-id") == HOSTILE_ID
    assert browser_page.evaluate("window.hacked") is None
    for path in ("/api/puzzles/%3Cscript%3E", "/puzzles/%3Cscript%3E", "/p/nope/"):
        status, body, headers = server.get(path)
        assert status == 404 and b"<script" not in body


def run(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlegen", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_the_commands_edges(server, tmp_path):
    taken = run("serve", str(SMALL), "--db", "x.db", "--port", str(server.port), cwd=tmp_path)
    assert taken.returncode == 2 and taken.stderr.startswith("error: cannot listen")
    assert not (tmp_path / "x.db").exists()
    (tmp_path / "other.db").write_bytes(b"not a database" * 100)
    for args, words in [(["serve", "--db", "x.db"], "at least one pack"),
                        (["ratings", "--db", "missing.db"], "no such database"),
                        (["ratings", "--db", "other.db"], "not a usable SQLite database"),
                        (["serve", "--db", "missing.db", "--backup", "c.db"],
                         "no such database")]:
        result = run(*args, cwd=tmp_path)
        assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
        assert words in result.stderr
    copied = run("serve", "--db", str(server.db), "--backup", "copy.db", cwd=tmp_path)
    assert copied.returncode == 0, copied.stderr
    assert rows(tmp_path / "copy.db") == rows(server.db)
    with closing(sqlite3.connect(tmp_path / "copy.db")) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (1,)
    again = run("serve", "--db", str(server.db), "--backup", "copy.db", cwd=tmp_path)
    assert again.returncode == 2 and "already exists" in again.stderr
