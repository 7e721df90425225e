"""The puzzle server's database (SQLite): the served puzzles, every accepted attempt, and the
Glicko-2 ratings of puzzles and players (docs/server.md has the schema and what counts).

One connection, used under a lock: each attempt is stored with its rating updates in one
transaction, committed (WAL, ``synchronous=FULL``: the commit is on disk) before the server
answers, so an acknowledged attempt survives a killed server and a power cut.
"""
from __future__ import annotations

import json
import sqlite3
import statistics
import threading
from dataclasses import dataclass
from pathlib import Path

from puzzlegen import glicko2
from solvers.errors import BadInput

#: The schema's version, kept in ``PRAGMA user_version``.
VERSION = 1
SCHEMA = """
CREATE TABLE puzzles (
    code TEXT PRIMARY KEY, game TEXT NOT NULL, rules TEXT NOT NULL, pack TEXT NOT NULL,
    puzzle TEXT NOT NULL, level TEXT NOT NULL, percentile REAL, hardness REAL);
CREATE TABLE attempts (
    id INTEGER PRIMARY KEY, received TEXT NOT NULL, player TEXT NOT NULL,
    code TEXT NOT NULL REFERENCES puzzles(code), started TEXT NOT NULL,
    seconds REAL NOT NULL, result TEXT NOT NULL CHECK (result IN ('solved', 'shown', 'unfinished')),
    moves TEXT NOT NULL, moves_made INTEGER NOT NULL, undos INTEGER NOT NULL,
    restarts INTEGER NOT NULL, hints INTEGER NOT NULL, solution_views INTEGER NOT NULL,
    score REAL, counted TEXT NOT NULL CHECK (counted IN ('rated', 'replay', 'no move')),
    UNIQUE (player, code, started));
CREATE INDEX attempts_by_code ON attempts (code);
CREATE TABLE ratings (
    kind TEXT NOT NULL CHECK (kind IN ('puzzle', 'player')), key TEXT NOT NULL,
    rating REAL NOT NULL, rd REAL NOT NULL, sigma REAL NOT NULL, games INTEGER NOT NULL,
    PRIMARY KEY (kind, key));
"""
COUNTS = ("moves_made", "undos", "restarts", "hints", "solution_views")


@dataclass(frozen=True)
class Puzzle:
    """A served puzzle as the database keeps it."""
    code: str
    game: str
    rules: str
    pack: str
    puzzle: str
    level: str
    percentile: float | None
    hardness: float | None


def counted(result: str, moves_made: int, hints: int, earlier: bool) -> tuple[float | None, str]:
    """The player's score of an attempt (None: not rated) and how it counted: a replay (the
    player had an attempt at the puzzle before) and an attempt without a move of the player's
    own never count; else solved scores 1 / (1 + hints), shown and unfinished 0."""
    if earlier:
        return None, "replay"
    if moves_made == 0:
        return None, "no move"
    return (1 / (1 + hints) if result == "solved" else 0.0), "rated"


class AttemptsDB:
    """The database file at ``path``, created with the current schema when new (unless not
    ``create``); :class:`BadInput` when it is not a puzzle server's database of this version."""

    def __init__(self, path: str | Path, create: bool = True):
        self.path = str(path)
        if not create and not Path(path).is_file():
            raise BadInput(f"{path}: no such database")
        self.lock = threading.Lock()
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA busy_timeout = 10000")
            self._migrate(create)
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = FULL")
            self.db.execute("PRAGMA foreign_keys = ON")
        except sqlite3.DatabaseError as exc:
            raise BadInput(f"{path}: not a usable SQLite database ({exc})") from None

    def _migrate(self, create: bool) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version == VERSION:
            return
        if version == 0 and not create:
            raise BadInput(f"{self.path}: not a puzzle server's database")
        if version > VERSION:
            raise BadInput(f"{self.path}: database schema version {version} is newer than this "
                           f"puzzlegen's ({VERSION})")
        if self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise BadInput(f"{self.path}: an SQLite database that is not a puzzle server's")
        self.db.executescript(f"BEGIN IMMEDIATE;\n{SCHEMA}\nPRAGMA user_version = {VERSION};\n"
                              "COMMIT;")

    def close(self) -> None:
        with self.lock:
            self.db.close()

    def register(self, puzzles: list[Puzzle]) -> None:
        """Store (or renew) what the database knows of the served puzzles."""
        with self.lock, self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany(
                "INSERT INTO puzzles VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (code) DO "
                "UPDATE SET game = excluded.game, rules = excluded.rules, pack = excluded.pack,"
                " puzzle = excluded.puzzle, level = excluded.level, "
                "percentile = excluded.percentile, hardness = excluded.hardness",
                [(p.code, p.game, p.rules, p.pack, p.puzzle, p.level, p.percentile,
                  p.hardness) for p in puzzles])

    def _rating(self, kind: str, key: str) -> tuple[glicko2.Rating, int]:
        row = self.db.execute("SELECT rating, rd, sigma, games FROM ratings WHERE kind = ? AND "
                              "key = ?", (kind, key)).fetchone()
        return (glicko2.Rating(*row[:3]), row[3]) if row else (glicko2.Rating(), 0)

    def _set_rating(self, kind: str, key: str, rating: glicko2.Rating, games: int) -> None:
        self.db.execute("INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?, ?)",
                        (kind, key, rating.rating, rating.rd, rating.sigma, games))

    def record(self, attempt: dict, player: str, received: str) -> dict:
        """Store a checked attempt by ``player`` and rate it (one transaction); the same
        attempt again (player, code and start) is stored once.  Returns its id, whether it was
        new, how it counted and the puzzle's and player's ratings after it."""
        code = attempt["code"]
        with self.lock, self.db:
            self.db.execute("BEGIN IMMEDIATE")
            same = self.db.execute("SELECT id, counted, score FROM attempts WHERE player = ? "
                                   "AND code = ? AND started = ?",
                                   (player, code, attempt["started"])).fetchone()
            if same:
                return self._answer(same[0], False, same[1], same[2], code, player)
            earlier = self.db.execute("SELECT 1 FROM attempts WHERE player = ? AND code = ? "
                                      "LIMIT 1", (player, code)).fetchone() is not None
            score, how = counted(attempt["result"], attempt["moves_made"], attempt["hints"],
                                 earlier)
            row = self.db.execute(
                "INSERT INTO attempts (received, player, code, started, seconds, result, moves, "
                f"{', '.join(COUNTS)}, score, counted) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (received, player, code, attempt["started"], attempt["seconds"],
                 attempt["result"], json.dumps(attempt["moves"]),
                 *(attempt[name] for name in COUNTS), score, how))
            if score is not None:
                puzzle, puzzle_games = self._rating("puzzle", code)
                person, person_games = self._rating("player", player)
                self._set_rating("puzzle", code, glicko2.update(puzzle, [(person, 1 - score)]),
                                 puzzle_games + 1)
                self._set_rating("player", player, glicko2.update(person, [(puzzle, score)]),
                                 person_games + 1)
            return self._answer(row.lastrowid, True, how, score, code, player)

    def _answer(self, row: int, new: bool, how: str, score: float | None, code: str,
                player: str) -> dict:
        return {"id": row, "new": new, "counted": how, "score": score,
                "puzzle_rating": self._rating_json("puzzle", code),
                "player_rating": self._rating_json("player", player)}

    def _rating_json(self, kind: str, key: str) -> dict:
        rating, games = self._rating(kind, key)
        return {"rating": round(rating.rating, 1), "rd": round(rating.rd, 1),
                "sigma": round(rating.sigma, 6), "games": games}

    def puzzle_stats(self, code: str) -> dict:
        """Plays, players, solves, solve rate, the median time of a solve, and the rating."""
        with self.lock:
            plays, players, solved, rated = self.db.execute(
                "SELECT count(*), count(DISTINCT player), count(*) FILTER (WHERE result = "
                "'solved'), count(score) FROM attempts WHERE code = ?", (code,)).fetchone()
            times = [row[0] for row in self.db.execute(
                "SELECT seconds FROM attempts WHERE code = ? AND result = 'solved'", (code,))]
            rating = self._rating_json("puzzle", code)
        return {"plays": plays, "players": players, "solved": solved, "rated": rated,
                "solve_rate": round(solved / plays, 4) if plays else None,
                "median_seconds": round(statistics.median(times), 1) if times else None,
                "rating": rating}

    def first_attempt(self, player: str, code: str) -> dict | None:
        """The player's first attempt at the puzzle (result, seconds, hints), if any."""
        with self.lock:
            row = self.db.execute("SELECT result, seconds, hints FROM attempts WHERE player = ? "
                                  "AND code = ? ORDER BY id LIMIT 1", (player, code)).fetchone()
        return None if row is None else {"result": row[0], "seconds": row[1], "hints": row[2]}

    def count(self) -> int:
        with self.lock:
            return self.db.execute("SELECT count(*) FROM attempts").fetchone()[0]

    def puzzle_ratings(self) -> list[dict]:
        """Every rated puzzle: its code, pack, id, level, percentile, hardness and rating."""
        with self.lock:
            rows = self.db.execute(
                "SELECT p.code, p.game, p.rules, p.pack, p.puzzle, p.level, p.percentile, "
                "p.hardness, r.rating, r.rd, r.games FROM ratings r JOIN puzzles p ON "
                "p.code = r.key WHERE r.kind = 'puzzle' ORDER BY r.rating").fetchall()
        names = ("code", "game", "rules", "pack", "puzzle", "level", "percentile", "hardness",
                 "rating", "rd", "games")
        return [dict(zip(names, row)) for row in rows]

    def backup(self, target: str | Path) -> None:
        """A consistent copy of the database at ``target`` (SQLite's online backup), taken
        while the server may be writing."""
        copy = sqlite3.connect(str(target))
        try:
            with self.lock:
                self.db.backup(copy)
        finally:
            copy.close()
