"""The puzzle server (``puzzlegen serve``, docs/server.md): each pack's page, a daily puzzle,
attempts posted by the pages (every move list replayed by the game's rules before it is
stored), per-puzzle statistics and Glicko-2 ratings, on Starlette.
"""
from __future__ import annotations

import datetime
import html
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from puzzlegen import codes, daily, packs, web
from puzzlegen.attemptsdb import COUNTS, AttemptsDB, Puzzle
from solvers import game as games
from solvers.errors import BadInput

#: Largest request body taken (an attempt of a thousand moves is about 10 KB).
MAX_BODY = 64 * 1024
ATTEMPTS_URL = "/api/attempts"
PLAYER = re.compile(r"[A-Za-z0-9_-]{8,64}")
RESULTS = ("solved", "shown", "unfinished")
#: Bounds of an attempt's fields: longest texts, most moves, largest time and count.
MAX_TEXT, MAX_MOVES, MAX_SECONDS, MAX_COUNT = 200, 10_000, 10 ** 7, 10 ** 6
#: The policy of the server's own pages (the packs' pages carry theirs, web.POLICY).
POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
          "connect-src 'self'")
#: The daily page's script: the share line of this browser's player once it has an attempt.
DAILY_SCRIPT = """(function () {
  var id = null, share = document.getElementById("share");
  try { id = window.localStorage.getItem("puzzlegen:player"); } catch (e) { return; }
  if (!id) return;
  fetch("/api/daily?date=" + share.dataset.date + "&player=" + encodeURIComponent(id))
    .then(function (r) { return r.json(); })
    .then(function (d) { if (d.attempt) share.textContent = d.share; });
})();"""
HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "X-Frame-Options": "DENY"}


class Refused(Exception):
    """A request the server refuses: its HTTP status and one sentence."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


@dataclass
class Served:
    """A served puzzle: what the database keeps, the game, rules and deal its code names, and
    the ids the packs give it (one deal may be in two packs)."""
    info: Puzzle
    game: games.Game
    rules: object
    deal: object
    ids: set[str] = field(default_factory=set)


class Catalogue:
    """The served packs (each checked by ``packs.load_checked``): each one's page at
    ``/p/<name>/`` (the file name without ``.json``) and every puzzle by its code."""

    def __init__(self, paths: list[str]):
        self.pages: dict[str, str] = {}
        self.puzzles: dict[str, Served] = {}
        for path in paths:
            name = Path(path).name.removesuffix(".json")
            if not re.fullmatch(r"[A-Za-z0-9._-]+", name):
                raise BadInput(f"{path}: a served pack's file name is its address: letters, "
                               f"digits, '.', '_' and '-' only")
            if name in self.pages:
                raise BadInput(f"two packs named {name}: each needs a file name of its own")
            pack = packs.load_checked(path)
            self.pages[name] = web.page(pack, packs.title(pack), attempts_url=ATTEMPTS_URL)
            game = games.get(pack["game"])
            for entry in pack["puzzles"]:
                deal, rules = packs.read_entry(game, entry)
                code = codes.encode(game, rules, deal)
                if code not in self.puzzles:
                    info = Puzzle(code, game.name, game.format_rules(rules), name, entry["id"],
                                  entry["level"], entry["percentile"],
                                  entry["metrics"].get("hardness"))
                    self.puzzles[code] = Served(info, game, rules, deal)
                self.puzzles[code].ids.add(entry["id"])

    def url(self, code: str) -> str:
        return f"/p/{self.puzzles[code].info.pack}/#{code}"


def parsed(body: bytes) -> dict:
    """The JSON object of a body; :class:`Refused` (400) for anything else."""
    def no_constant(name: str):
        raise ValueError(f"{name} is not a JSON number")
    try:
        data = json.loads(body, parse_constant=no_constant)
    except (ValueError, RecursionError):
        raise Refused(400, "the body is not JSON") from None
    if not isinstance(data, dict):
        raise Refused(400, "the body is not a JSON object")
    return data


def _text(data: dict, name: str, longest: int = MAX_TEXT) -> str:
    value = data[name]
    if not isinstance(value, str) or not 0 < len(value) <= longest:
        raise Refused(422, f"{name} must be a text of 1 to {longest} characters")
    return value


def _count(data: dict, name: str) -> int:
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise Refused(422, f"{name} must be a whole number from 0 to {MAX_COUNT:,}")
    return value


def checked(data: dict, catalogue: Catalogue) -> tuple[dict, str]:
    """The attempt, the player and the puzzle of a posted attempt whose every field has the
    page's type and whose moves replay by the game's rules to what ``result`` claims;
    :class:`Refused` (404 for a puzzle no served pack holds, else 422) otherwise."""
    names = {"puzzle", "code", "started", "seconds", "result", "moves", *COUNTS, "player"}
    if set(data) != names:
        missing, extra = sorted(names - set(data)), sorted(set(data) - names)
        raise Refused(422, "an attempt has exactly the fields " + ", ".join(sorted(names)) +
                      (f"; missing: {', '.join(missing)}" if missing else "") +
                      (f"; unknown: {len(extra)} field(s)" if extra else ""))
    attempt = {name: _count(data, name) for name in COUNTS}
    attempt["code"] = _text(data, "code", codes.MAX_LENGTH)
    attempt["puzzle"] = _text(data, "puzzle")
    attempt["started"] = _text(data, "started", 40)
    try:
        started = datetime.datetime.fromisoformat(attempt["started"])
    except ValueError:
        started = None
    if started is None or started.tzinfo is None:
        raise Refused(422, "started must be a UTC time in ISO 8601 (2026-05-01T09:12:03.120Z)")
    seconds = data["seconds"]
    if (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
            or not math.isfinite(seconds) or not 0 <= seconds <= MAX_SECONDS):
        raise Refused(422, f"seconds must be a number from 0 to {MAX_SECONDS:,}")
    attempt["seconds"] = float(seconds)
    attempt["result"] = data["result"]
    if attempt["result"] not in RESULTS:
        raise Refused(422, "result must be solved, shown or unfinished")
    moves = data["moves"]
    if (not isinstance(moves, list) or len(moves) > MAX_MOVES
            or not all(isinstance(m, str) and 0 < len(m) <= MAX_TEXT for m in moves)):
        raise Refused(422, f"moves must be a list of at most {MAX_MOVES:,} move texts")
    attempt["moves"] = moves
    player = _text(data, "player")
    if not PLAYER.fullmatch(player):
        raise Refused(422, "player must be 8 to 64 letters, digits, '_' or '-'")
    served = catalogue.puzzles.get(attempt["code"])
    if served is None:
        raise Refused(404, "no served pack holds the puzzle of that code")
    if attempt["puzzle"] not in served.ids:
        raise Refused(422, "puzzle is not the id the served packs give that code")
    if attempt["result"] == "solved" and attempt["solution_views"]:
        raise Refused(422, "an attempt that viewed the solution is shown, not solved")
    if attempt["result"] == "shown" and not attempt["solution_views"]:
        raise Refused(422, "a shown attempt viewed the solution at least once")
    if attempt["result"] == "solved" and attempt["moves_made"] < len(moves):
        raise Refused(422, "a solved attempt made every move on its board itself")
    problem = served.game.line_problem(served.deal, served.rules, moves,
                                       attempt["result"] != "unfinished")
    if problem:
        raise Refused(422, f"the moves do not replay to the result: {problem}")
    return attempt, player


async def body_of(request: Request) -> bytes:
    """The request's body, at most :data:`MAX_BODY` bytes (:class:`Refused`, 413, past that)."""
    length = request.headers.get("content-length", "0")
    if not length.isdigit() or int(length) > MAX_BODY:
        raise Refused(413, f"an attempt is at most {MAX_BODY:,} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise Refused(413, f"an attempt is at most {MAX_BODY:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def page(title: str, body: str) -> HTMLResponse:
    """One of the server's own pages; ``title`` is escaped here, ``body`` must be already."""
    return HTMLResponse(
        f'<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>body{{font-family:system-ui,sans-serif;"
        f"max-width:50rem;margin:1rem auto;padding:0 1rem}}td,th{{padding:.2rem .6rem;"
        f"text-align:left}}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n",
        headers={"Content-Security-Policy": POLICY, **HEADERS})


def create_app(catalogue: Catalogue, db: AttemptsDB) -> Starlette:
    """The ASGI app serving ``catalogue`` and storing attempts in ``db``."""
    db.register([served.info for served in catalogue.puzzles.values()])
    esc = html.escape

    def the_day(text: str | None) -> datetime.date:
        if text is None:
            return datetime.datetime.now(datetime.timezone.utc).date()
        try:
            return datetime.date.fromisoformat(text)
        except ValueError:
            raise Refused(400, "date must be YYYY-MM-DD") from None

    def daily_json(day: datetime.date, player: str | None) -> dict:
        code = daily.pick(list(catalogue.puzzles), day)
        served = catalogue.puzzles[code]
        info = served.info
        attempt = None
        if player is not None:
            if not PLAYER.fullmatch(player):
                raise Refused(400, "player must be 8 to 64 letters, digits, '_' or '-'")
            attempt = db.first_attempt(player, code)
        return {"date": day.isoformat(), "code": code, "pack": info.pack, "puzzle": info.puzzle,
                "game": info.game, "title": served.game.title, "rules": info.rules,
                "level": info.level,
                "url": catalogue.url(code), "attempt": attempt,
                "share": daily.share(day, served.game.title, info.rules, info.level, attempt)}

    async def index(request: Request) -> Response:
        items = "".join(f'<li><a href="/p/{esc(name)}/">{esc(name)}</a></li>'
                        for name in catalogue.pages)
        return page("puzzlegen", f"<h1>Puzzles</h1>\n<p><a href=\"/daily\">Today's puzzle</a>"
                                 f"</p>\n<ul>{items}</ul>")

    async def pack_page(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in catalogue.pages:
            raise Refused(404, "no such pack")
        return HTMLResponse(catalogue.pages[name], headers=HEADERS)

    async def pack_redirect(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in catalogue.pages:
            raise Refused(404, "no such pack")
        return RedirectResponse(f"/p/{name}/", status_code=301)

    async def daily_page(request: Request) -> Response:
        data = daily_json(the_day(None), None)
        return page(f"puzzlegen daily {data['date']}",
                    f"<h1>Puzzle of {esc(data['date'])}</h1>\n"
                    f"<p>{esc(data['title'])} {esc(data['rules'])}, {esc(data['level'])}: "
                    f"<a href=\"{esc(data['url'])}\">{esc(data['puzzle'])}</a></p>\n"
                    f"<p>Share: <output id=\"share\" data-date=\"{esc(data['date'])}\">"
                    f"{esc(data['share'])}</output></p>\n"
                    f"<p><a href=\"/puzzles/{esc(data['code'])}\">How others did</a></p>\n"
                    f"<script>{DAILY_SCRIPT}</script>")

    async def daily_api(request: Request) -> Response:
        day = the_day(request.query_params.get("date"))
        return JSONResponse(daily_json(day, request.query_params.get("player")))

    def stats_of(code: str) -> dict:
        served = catalogue.puzzles.get(code)
        if served is None:
            raise Refused(404, "no served pack holds the puzzle of that code")
        info = served.info
        return {"code": code, "game": info.game, "rules": info.rules, "pack": info.pack,
                "puzzle": info.puzzle, "level": info.level, "percentile": info.percentile,
                "url": catalogue.url(code), **db.puzzle_stats(code)}

    async def puzzle_api(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(stats_of, request.path_params["code"]))

    async def puzzle_page(request: Request) -> Response:
        s = await run_in_threadpool(stats_of, request.path_params["code"])
        rating = s["rating"]
        rows = [("puzzle", f'<a href="{esc(s["url"])}">{esc(s["puzzle"])}</a> '
                           f'({esc(s["pack"])})'),
                ("level", esc(f"{s['level']} (percentile {s['percentile']})")),
                ("plays", f"{s['plays']:,} by {s['players']:,} players"),
                ("solve rate", "none yet" if s["solve_rate"] is None
                 else f"{s['solve_rate']:.0%}"),
                ("median time of a solve", "none yet" if s["median_seconds"] is None
                 else daily.clock(s["median_seconds"])),
                ("rating", f"{rating['rating']:.0f} \u00b1 {2 * rating['rd']:.0f} "
                           f"({rating['games']:,} rated attempts)")]
        table = "".join(f"<tr><th>{name}</th><td>{value}</td></tr>" for name, value in rows)
        return page(f"puzzle {s['puzzle']}",
                    f"<h1>{esc(s['puzzle'])}</h1>\n<p>{esc(s['code'])}</p>\n"
                    f"<table>{table}</table>")

    def accept(body: bytes) -> dict:
        attempt, player = checked(parsed(body), catalogue)
        received = datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="milliseconds")
        return db.record(attempt, player, received)

    async def post_attempt(request: Request) -> Response:
        media = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if media != "application/json":
            raise Refused(415, "an attempt is sent as application/json")
        body = await body_of(request)
        # On the event loop: an attempt's work (its replay and one commit, about half a
        # millisecond) is shorter than a hand-off to a thread, and attempts are written one at
        # a time anyway (50 clients at once: 1,200-1,300 posts a second against 850).
        answer = accept(body)
        return JSONResponse(answer, status_code=201 if answer["new"] else 200)

    async def refused(request: Request, exc: Refused) -> Response:
        return JSONResponse({"error": str(exc)}, status_code=exc.status, headers=HEADERS)

    return Starlette(routes=[
        Route("/", index), Route("/p/{name}", pack_redirect), Route("/p/{name}/", pack_page),
        Route("/daily", daily_page), Route("/api/daily", daily_api),
        Route("/puzzles/{code}", puzzle_page), Route("/api/puzzles/{code}", puzzle_api),
        Route(ATTEMPTS_URL, post_attempt, methods=["POST"]),
    ], exception_handlers={Refused: refused})
