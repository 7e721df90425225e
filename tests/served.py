"""Helpers of the puzzle server tests: a real ``puzzlegen serve`` in a subprocess on a free port
of 127.0.0.1, attempts built from a pack, and posts over HTTP."""
from __future__ import annotations

import http.client
import json
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from contextlib import closing
from pathlib import Path

from puzzlegen import codes, packs
from solvers import game as games

ROOT = Path(__file__).resolve().parent.parent
SMALL = ROOT / "puzzles/stacksquared-3x4-hard.json"


class Server:
    """``puzzlegen serve PACKS --db DB --port 0`` running until :meth:`stop` or :meth:`kill`."""

    def __init__(self, pack_paths: list[Path], db: Path):
        self.db = db
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "puzzlegen", "serve", *map(str, pack_paths), "--db", str(db),
             "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = []
        reader = threading.Thread(target=lambda: line.append(self.proc.stdout.readline()))
        reader.start()
        reader.join(120)
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line[0] if line else "")
        if not found:
            self.kill()
            raise RuntimeError(f"the server did not start: {self.proc.stderr.read()}")
        self.port = int(found[1])
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(30)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def get(self, path: str) -> tuple[int, bytes, dict]:
        conn = self.connection()
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            headers = {name.lower(): value for name, value in response.getheaders()}
            return response.status, response.read(), headers
        finally:
            conn.close()

    def get_json(self, path: str):
        status, body, _ = self.get(path)
        assert status == 200, (path, status, body)
        return json.loads(body)


def post(conn: http.client.HTTPConnection, body: bytes | dict,
         content_type: str = "application/json") -> tuple[int, dict]:
    """POST ``body`` (bytes, or an object sent as JSON) to /api/attempts on ``conn``."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    conn.request("POST", "/api/attempts", body=data, headers={"Content-Type": content_type})
    response = conn.getresponse()
    return response.status, json.loads(response.read() or b"null")


def puzzles(path: Path = SMALL) -> list[dict]:
    """The pack's puzzles, each with its ``code``."""
    pack = packs.load(path)
    game = games.get(pack["game"])
    out = []
    for entry in pack["puzzles"]:
        deal, rules = packs.read_entry(game, entry)
        out.append(dict(entry, code=codes.encode(game, rules, deal)))
    return out


def attempt(entry: dict, player: str, started: str, result: str = "solved",
            **fields) -> dict:
    """An attempt at ``entry`` in the page's shape: a solve along its stored solution, or an
    unfinished attempt of one move of the player's own (``moves`` empty)."""
    won = result != "unfinished"
    body = {"puzzle": entry["id"], "code": entry["code"], "started": started, "seconds": 95.5,
            "result": result, "moves": entry["solution"] if won else [],
            "moves_made": len(entry["solution"]) if won else 1, "undos": 0, "restarts": 0,
            "hints": 0, "solution_views": 1 if result == "shown" else 0, "player": player}
    body.update(fields)
    return body


def rows(db: Path) -> list[tuple]:
    """Every stored attempt: (player, code, started, result, counted)."""
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT player, code, started, result, counted FROM attempts "
                            "ORDER BY id").fetchall()
