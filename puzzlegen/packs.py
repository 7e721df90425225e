"""Puzzle packs of any game (the format in docs/packs.md): build, load, validate, show.

Validation is in three steps: the JSON Schema; every stored solution replayed by the game's rules
module (``Game.replay``: a win, and the claimed ``max_score`` where the pack states one); and
every puzzle re-graded, its ``level``, ``percentile``, ``explanation`` and ``metrics`` compared with
the pack's.  The game is looked up by the pack's ``game``.
"""
from __future__ import annotations

import json
import math
import random
import re
from functools import partial
from importlib import resources
from pathlib import Path

import jsonschema

from puzzlegen import __version__, codes, runs
from puzzlegen.clitools import check_memory
from puzzlegen.grading import LEVELS, grade
from solvers import game as games
from solvers.errors import BadInput

FORMAT, VERSION = "puzzlegen-pack", 2
#: Caps on a pack file: bytes (a puzzle takes about 1.5 kB), nesting of arrays and objects (a
#: pack needs 5) and digits of an integer (a pack's largest is a 31-bit seed), so a hostile file
#: fails in one line instead of exhausting memory, the stack or the time.
MAX_BYTES, MAX_DEPTH, MAX_DIGITS = 32_000_000, 64, 19
#: Bytes of memory that reading a byte of pack may take at most (an array of empty objects,
#: the costliest JSON per byte, takes about 30); a file is refused before it is parsed unless
#: that much memory is free.
MEMORY_PER_BYTE = 40


def schema() -> dict:
    return json.loads((resources.files("puzzlegen") / "schema" / "pack.schema.json").read_text())


def puzzle_entry(game: games.Game, pid: str, deal, rules, grade) -> dict:
    """One pack entry for ``deal`` and its :class:`puzzlegen.grading.Grade`."""
    return {"id": pid, "deal": game.format_deal(deal), **game.puzzle_fields(deal, rules),
            "level": grade.level, "percentile": grade.percentile, "explanation": grade.explanation,
            "metrics": grade.metrics, "solution": grade.solution}


def build(game: games.Game, puzzles: list[dict], method: str, seed: int | None,
          parameters: dict) -> dict:
    return {"format": FORMAT, "version": VERSION, "game": game.name,
            "created_with": {"tool": f"puzzlegen {__version__}", "method": method, "seed": seed,
                             "parameters": parameters},
            "puzzles": puzzles}


def title(pack: dict) -> str:
    """A pack's title for people: its rules, its levels and its size ("4x4, easy to hard: 25
    puzzles")."""
    game = games.get(pack["game"])
    rules = list(dict.fromkeys(game.format_rules(game.entry_rules(e)) for e in pack["puzzles"]))
    order = [*LEVELS, "unsolvable"]
    levels = sorted({e["level"] for e in pack["puzzles"]}, key=order.index)
    span = levels[0] if len(levels) == 1 else f"{levels[0]} to {levels[-1]}"
    count = len(pack["puzzles"])
    return f"{', '.join(rules)}, {span}: {count} puzzle{'s' * (count != 1)}"


def dumps(pack: dict) -> str:
    return json.dumps(pack, indent=1) + "\n"


def load(path: str | Path) -> dict:
    """Read a pack and check it against the schema and the registry of games;
    :class:`BadInput` naming the field."""
    with open(path, "rb") as fh:
        data = fh.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise BadInput(f"{path} is larger than a pack may be ({MAX_BYTES // 1_000_000} MB)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"{path} is not a UTF-8 text file") from None
    if not text.strip():
        raise BadInput(f"{path} is empty: a pack is a JSON object")
    check_memory(f"reading {path}", MEMORY_PER_BYTE * len(data))
    deep = BadInput(f"{path} nests arrays and objects more than {MAX_DEPTH} deep: not a pack")
    try:
        pack = json.loads(text, parse_int=partial(_integer, path), parse_float=partial(_real, path),
                          parse_constant=partial(_constant, path))
    except json.JSONDecodeError as exc:
        raise BadInput(f"{path} is not JSON: {exc.msg.removesuffix(' at')} at line "
                       f"{exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise deep from None
    if nesting(pack) > MAX_DEPTH:
        raise deep
    upgrade(pack)
    name = pack.get("game") if isinstance(pack, dict) else None
    if isinstance(name, str) and not isinstance(games.get(name), games.Designable):
        raise BadInput(f"{path} is a {name} pack, but {name} has no puzzles to grade")
    errors = sorted(jsonschema.Draft202012Validator(schema()).iter_errors(pack),
                    key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        parts = list(first.absolute_path)
        where = "/".join(str(p) for p in parts) or "(top level)"
        if len(parts) >= 2 and parts[0] == "puzzles" and isinstance(parts[1], int):
            entry = pack["puzzles"][parts[1]]
            pid = entry.get("id") if isinstance(entry, dict) else None
            pid = pid if isinstance(pid, str) and len(pid) <= 40 else f"#{parts[1]}"
            field = "/".join(str(p) for p in parts[2:])
            where = f"puzzle {pid}" + (f": {field}" if field else "")
        raise BadInput(f"{path} does not match the pack schema at {where}: "
                       f"{_schema_message(first)}")
    return pack


def upgrade(pack) -> None:
    """A pack of format version 1 read as version 2, in place: a puzzle's ``score`` (the
    percentile) is named ``percentile``.  Anything else is left to the schema to judge."""
    if not (isinstance(pack, dict) and pack.get("version") == 1
            and isinstance(pack.get("puzzles"), list)):
        return
    pack["version"] = 2
    for i, entry in enumerate(pack["puzzles"]):
        if isinstance(entry, dict) and "score" in entry and "percentile" not in entry:
            pack["puzzles"][i] = {("percentile" if key == "score" else key): value
                                  for key, value in entry.items()}


def load_checked(path: str | Path) -> dict:
    """:func:`load`, then what every reader of a pack for people relies on: unique ids, and each
    stored solution replaying to what the pack claims (:func:`check_puzzle` without
    re-grading); :class:`BadInput` naming the first problem."""
    pack = load(path)
    game = games.get(pack["game"])
    ids = set()
    for entry in pack["puzzles"]:
        if entry["id"] in ids:
            raise BadInput(f"puzzle {entry['id']}: field id: used by two puzzles")
        ids.add(entry["id"])
        problems = check_puzzle(game, entry, regrade=False)
        if problems:
            raise BadInput(problems[0])
    return pack


def _integer(path, digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise BadInput(f"{path} holds an integer of {len(digits.lstrip('-')):,} digits: no figure "
                       f"of a pack has more than {MAX_DIGITS}")
    return int(digits)


def _real(path, text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise BadInput(f"{path} holds the number {text[:20]}, too large for a pack's figures")
    return number


def _constant(path, name: str):
    raise BadInput(f"{path} holds {name}, which is not a number in JSON (nor in a pack)")


def nesting(value) -> int:
    """How deep arrays and objects nest in the parsed JSON ``value`` (a scalar: 0), level by
    level without recursion, stopping past :data:`MAX_DEPTH`."""
    depth, level = 0, [value]
    while depth <= MAX_DEPTH:
        containers = [item for item in level if isinstance(item, (list, dict))]
        if not containers:
            return depth
        depth += 1
        level = [inner for outer in containers
                 for inner in (outer.values() if isinstance(outer, dict) else outer)]
    return depth


def _schema_message(error: jsonschema.ValidationError) -> str:
    """The schema's complaint, with a long value summarised (an array of 25 items); a string
    that does not fit its pattern: :func:`_pattern_message`."""
    if error.validator == "pattern" and isinstance(error.instance, str):
        return _pattern_message(error)
    value = repr(error.instance)
    if len(value) <= 40 or value not in error.message:
        return error.message
    kind = {dict: "an object", list: "an array", str: "a string"}.get(type(error.instance),
                                                                      "a value")
    size = f" of {len(error.instance)} items" if isinstance(error.instance, (dict, list)) else ""
    return error.message.replace(value, kind + size)


def _pattern_message(error: jsonschema.ValidationError) -> str:
    """The first word of a string that does not fit its pattern (a pattern ``^W( W)*$`` is words
    ``W`` separated by one space; any other pattern's word is the whole string), and what the
    schema's ``description`` says it should be."""
    text, words = error.instance, re.fullmatch(r"\^(.+)\( \1\)\*\$", error.validator_value)
    bad = text if words is None else next(
        (word for word in text.split(" ") if not re.fullmatch(words.group(1), word)), text)
    shown = repr(bad if len(bad) <= 20 else bad[:20] + "...")
    return f"{shown} is not {error.schema.get('description', 'of the form the format gives')}"


def same(a, b) -> bool:
    """Equal figures (floats to 1e-9 relative, inside lists and objects too)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return a == b


def read_entry(game: games.Game, entry: dict):
    """The deal and rules of a pack entry; :class:`BadInput` naming the field."""
    try:
        rules = game.entry_rules(entry)
    except BadInput as exc:
        raise BadInput(f"field rules: {exc}") from None
    try:
        return game.parse_deal(entry["deal"], rules), rules
    except BadInput as exc:
        raise BadInput(f"field deal: {exc}") from None


def check_puzzle(game: games.Game, entry: dict, regrade: bool) -> list[str]:
    """The problems of one puzzle (empty when it is what the pack claims)."""
    pid = entry["id"]
    try:
        deal, rules = read_entry(game, entry)
    except BadInput as exc:
        return [f"puzzle {pid}: {exc}"]
    problem = game.line_problem(deal, rules, entry["solution"], entry["level"] != "unsolvable",
                                entry["metrics"].get("max_score"))
    problems = [f"puzzle {pid}: field solution: {problem}"] if problem else []
    if regrade:
        fresh = grade(game, deal, rules)
        if fresh.level == "limit":
            return problems + [f"puzzle {pid}: cannot be re-graded: {fresh.explanation}"]
        for field in ("level", "percentile", "explanation"):
            if not same(entry.get(field), getattr(fresh, field)):
                problems.append(f"puzzle {pid}: field {field}: the pack says {entry.get(field)!r}, "
                                f"re-grading gives {getattr(fresh, field)!r}")
        for name in sorted(set(entry["metrics"]) | set(fresh.metrics)):
            mine, theirs = entry["metrics"].get(name), fresh.metrics.get(name)
            if not same(mine, theirs):
                problems.append(f"puzzle {pid}: field metrics.{name}: the pack says {mine!r}, "
                                f"re-grading gives {theirs!r}")
    return problems


def _check(spec: tuple[dict, bool], game_name: str) -> list[str]:
    """:func:`check_puzzle` of one ``(entry, regrade)``, the game named (for worker processes)."""
    return check_puzzle(games.get(game_name), *spec)


def validate(pack: dict, sample: int | None = None, seed: int = 0, jobs: int = 1) -> list[str]:
    """Every problem of a schema-valid ``pack``: duplicate ids or deals, replays, re-grades,
    puzzle by puzzle in the pack's order.

    With ``sample``, only that many puzzles (chosen by ``seed``) are re-graded; every puzzle is
    still parsed, replayed and checked for duplicates.  ``jobs`` worker processes share the
    puzzles' checks (a local Dask cluster, as every run of many deals).
    """
    game = games.get(pack["game"])
    puzzles = pack["puzzles"]
    chosen = set(range(len(puzzles)))
    if sample is not None and sample < len(puzzles):
        chosen = set(random.Random(seed).sample(range(len(puzzles)), sample))
    duplicates, ids, forms = [], {}, {}
    for i, entry in enumerate(puzzles):
        pid = entry["id"]
        found = []
        if pid in ids:
            found.append(f"puzzle {pid}: field id: also used by puzzle #{ids[pid]}")
        ids.setdefault(pid, i)
        try:
            deal, rules = read_entry(game, entry)
            form = (game.format_rules(rules), game.format_deal(game.canonical(deal, rules)))
            if form in forms:
                found.append(f"puzzle {pid}: field deal: the same deal up to symmetry as "
                             f"puzzle {forms[form]}")
            forms.setdefault(form, pid)
        except BadInput:
            pass  # reported by check_puzzle
        duplicates.append(found)
    checks = runs.run(partial(_check, game_name=pack["game"]),
                      [(entry, i in chosen) for i, entry in enumerate(puzzles)], jobs=jobs,
                      desc="puzzles", unit="puzzles")
    return [problem for found, checked in zip(duplicates, checks) for problem in found + checked]


def _regrade(entry: dict, game_name: str) -> dict:
    """The pack entry of ``entry``'s deal graded afresh (worker function); :class:`BadInput`
    when its grade is ``limit``."""
    game = games.get(game_name)
    deal, rules = read_entry(game, entry)
    fresh = grade(game, deal, rules)
    if fresh.level == "limit":
        raise BadInput(f"puzzle {entry['id']} cannot be re-graded: {fresh.explanation}")
    return puzzle_entry(game, entry["id"], deal, rules, fresh)


def regrade(pack: dict, jobs: int = 1) -> tuple[dict, list[str]]:
    """``pack`` with every puzzle graded afresh by this version (the same ids and deals, in
    the same order), and a line for each puzzle whose level changed."""
    fresh = list(runs.run(partial(_regrade, game_name=pack["game"]), pack["puzzles"],
                          jobs=jobs, desc="puzzles", unit="puzzles"))
    changed = [f"puzzle {old['id']}: {old['level']} -> {new['level']}"
               for old, new in zip(pack["puzzles"], fresh) if old["level"] != new["level"]]
    return dict(pack, puzzles=fresh), changed


def select(pack: dict, pid: str | None = None, solutions: bool = True) -> dict:
    """``pack`` cut down to the puzzle ``pid`` (all when None), without solutions unless asked;
    :class:`BadInput` for an unknown id."""
    puzzles = pack["puzzles"]
    if pid is not None:
        puzzles = [entry for entry in puzzles if entry["id"] == pid]
        if not puzzles:
            raise BadInput(f"no puzzle with id {pid!r} in the pack")
    if not solutions:
        puzzles = [{k: v for k, v in entry.items() if k != "solution"} for entry in puzzles]
    return dict(pack, puzzles=puzzles)


def show(pack: dict) -> str:
    """The pack for people: a header, then each puzzle's deal, code, level, percentile and (when
    the pack holds them) its explanation and solution."""
    game = games.get(pack["game"])
    made = pack["created_with"]
    lines = [f"{len(pack['puzzles'])} {pack['game']} puzzles ({made['tool']}, method "
             f"{made['method']}, seed {made['seed']})"]
    for entry in pack["puzzles"]:
        deal, rules = read_entry(game, entry)
        percentile = "-" if entry["percentile"] is None else f"{entry['percentile']:.1f}"
        best = entry["metrics"].get("max_score")
        lines += ["", f"{entry['id']}  {game.format_rules(rules)}  level {entry['level']}  "
                      f"percentile {percentile}" + ("" if best is None else f"  max score {best}"),
                  *("  " + row for row in game.show_deal(deal).splitlines()),
                  f"  code: {codes.encode(game, rules, deal)}"]
        if entry.get("explanation"):
            lines.append("  " + entry["explanation"])
        if "solution" in entry:
            lines.append("  solution: " + " ".join(entry["solution"]))
    return "\n".join(lines)
