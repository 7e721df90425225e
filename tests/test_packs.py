"""Pack schema, validation (replay + exact re-grade) and the ``pack`` commands."""
from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from puzzlegen import packs
from puzzlegen.cli import cli
from puzzlegen.grading import LEVELS, grade
from puzzlegen.separation import separation
from solvers import game as games
from solvers.errors import BadInput
from solvers.stacksquared import Deal
from solvers.stacksquared.game import GAME, Grid

SHIPPED = sorted(Path(__file__).resolve().parent.parent.glob("puzzles/*.json"))


@pytest.fixture(scope="module")
def small_pack(tmp_path_factory) -> Path:
    """Three 3x3 puzzles (one unsolvable) written as a pack."""
    deals = [Deal.from_seed(s, 3, 3) for s in (1, 3, 4)]
    grid = Grid(3, 3)
    entries = [packs.puzzle_entry(GAME, f"p{i}", d, grid, grade(GAME, d, grid))
               for i, d in enumerate(deals)]
    assert any(e["level"] == "unsolvable" for e in entries)
    path = tmp_path_factory.mktemp("packs") / "small.json"
    path.write_text(packs.dumps(packs.build(GAME, entries, "curated", None, {"seeds": [1, 3, 4]})))
    return path


def run(*args):
    return CliRunner().invoke(cli, ["pack", *map(str, args)])


def test_valid_pack_validates_and_shows(small_pack):
    result = run("validate", small_pack)
    assert result.exit_code == 0, result.output
    shown = run("show", small_pack)
    assert shown.exit_code == 0 and "p0" in shown.output and "solution:" in shown.output


def test_a_version_1_pack_reads_as_version_2(small_pack, tmp_path):
    """Version 1 named the percentile ``score``: such a pack validates, and reads with the field
    renamed, in its place, and nothing else changed."""
    new = json.loads(small_pack.read_text())
    old = dict(new, version=1, puzzles=[
        {("score" if key == "percentile" else key): value for key, value in entry.items()}
        for entry in new["puzzles"]])
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(old))
    assert run("validate", path).exit_code == 0
    assert packs.load(path) == new and list(packs.load(path)["puzzles"][0]) == \
        list(new["puzzles"][0])
    old["version"] = 2
    path.write_text(json.dumps(old))
    assert "does not match the pack schema" in run("validate", path).output


def tamper(src: Path, dst: Path, change) -> Path:
    pack = json.loads(src.read_text())
    change(pack["puzzles"][1])
    dst.write_text(json.dumps(pack))
    return dst


@pytest.mark.parametrize("change,field", [
    (lambda p: p.update(level="expert" if p["level"] != "expert" else "easy"), "field level"),
    (lambda p: p["metrics"].update(critical=99), "field metrics.critical"),
    (lambda p: p.update(solution=p["solution"][::-1]), "field solution"),
    (lambda p: p["metrics"].update(max_score=1), "max_score"),
    (lambda p: p.update(percentile=12.5), "field percentile"),
])
def test_wrong_claims_are_named(small_pack, tmp_path, change, field):
    result = run("validate", tamper(small_pack, tmp_path / "bad.json", change))
    assert result.exit_code == 1
    assert "puzzle p1" in result.output and field in result.output


@pytest.mark.parametrize("game,message", [("chess", "unknown game 'chess'"),
                                          ("spider", "spider has no puzzles to grade")])
def test_a_pack_of_a_game_without_puzzles_is_refused(small_pack, tmp_path, game, message):
    path = tmp_path / "other.json"
    path.write_text(json.dumps(dict(json.loads(small_pack.read_text()), game=game)))
    result = run("validate", path)
    assert result.exit_code == 2 and message in result.output


def test_duplicate_up_to_symmetry_is_rejected(small_pack, tmp_path):
    pack = json.loads(small_pack.read_text())
    twin = dict(pack["puzzles"][0], id="twin")
    cards = twin["deal"].split()
    twin["deal"] = " ".join(cards[6:9] + cards[3:6] + cards[0:3])   # rows reversed
    twin["solution"] = pack["puzzles"][0]["solution"]
    pack["puzzles"].append(twin)
    path = tmp_path / "dup.json"
    path.write_text(json.dumps(pack))
    result = run("validate", path)
    assert result.exit_code == 1 and "puzzle twin: field deal" in result.output


def test_workers_find_the_same_problems_in_the_same_order(small_pack, tmp_path):
    """``--jobs 2`` (a real local Dask cluster) re-grades on worker processes and reports what
    one process does, puzzle by puzzle: a wrong level, a line that stops short, a duplicate id
    and deal."""
    pack = json.loads(small_pack.read_text())
    pack["puzzles"][1]["level"] = "expert" if pack["puzzles"][1]["level"] != "expert" else "easy"
    pack["puzzles"][2]["solution"] = pack["puzzles"][2]["solution"][:-1]
    pack["puzzles"].append(dict(pack["puzzles"][0]))
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(pack))
    alone, shared = run("validate", path, "--json"), run("validate", path, "--json", "--jobs", "2")
    assert alone.exit_code == shared.exit_code == 1, shared.output
    problems = json.loads(shared.stdout)["problems"]
    assert problems == json.loads(alone.stdout)["problems"]
    assert [p.split(":")[0] for p in problems] == [
        "puzzle p1", "puzzle p1", "puzzle p2", "puzzle p0", "puzzle p0"], problems
    assert problems[2] == "puzzle p2: field solution: does not win"


@pytest.mark.parametrize("text,fragment", [
    ("{not json", "is not JSON"),
    ('{"format": "puzzlegen-pack"}', "does not match the pack schema"),
])
def test_broken_files_exit_2(tmp_path, text, fragment):
    path = tmp_path / "broken.json"
    path.write_text(text)
    result = run("validate", path)
    assert result.exit_code == 2 and fragment in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_schema_error_names_the_puzzle(small_pack, tmp_path):
    bad = tamper(small_pack, tmp_path / "bad.json", lambda p: p.update(rows="3"))
    result = run("validate", bad)
    assert result.exit_code == 2 and "puzzle p1: rows" in result.output


@pytest.mark.parametrize("change,said", [
    (lambda p: p.update(deal=p["deal"].replace(p["deal"][:2], "ZD", 1)),
     "puzzle p1: deal: 'ZD' is not a card (rank A 2-9 T J Q K, suit C D H S"),
    (lambda p: p.update(deal=p["deal"].replace(" ", "  ", 1)), "deal: '' is not a card"),
    (lambda p: p["solution"].__setitem__(0, "QH-" + "x" * 30),
     "solution/0: 'QH-xxxxxxxxxxxxxxxxx...' is not a move such as 'QH-QD'"),
])
def test_a_bad_card_or_move_is_named_not_the_pattern(small_pack, tmp_path, monkeypatch, change,
                                                     said):
    monkeypatch.chdir(tmp_path)   # a short path: a long error line is cut short
    tamper(small_pack, tmp_path / "b.json", change)
    result = run("validate", "b.json")
    assert result.exit_code == 2 and said in result.output and "[A2-9" not in result.output


def test_regrade_writes_what_this_version_grades(small_pack, tmp_path):
    """A pack whose claims are stale (here: tampered) re-grades to one that validates: the same
    ids and deals, fresh levels and figures, each changed level listed; --out is never
    overwritten without --force."""
    pack = packs.load(small_pack)
    won = next(i for i, e in enumerate(pack["puzzles"]) if e["level"] != "unsolvable")
    stale = json.loads(json.dumps(pack))
    entry = stale["puzzles"][won]
    entry["level"] = "master" if entry["level"] != "master" else "easy"
    entry["metrics"]["hardness"] += 1.0
    old = tmp_path / "old.json"
    old.write_text(packs.dumps(stale))
    assert packs.validate(packs.load(old)) != []
    out = tmp_path / "new.json"
    result = run("regrade", old, "--out", out)
    assert result.exit_code == 0, result.output
    assert f"puzzle {entry['id']}: {entry['level']} -> {pack['puzzles'][won]['level']}" \
        in result.output
    assert result.output.strip().endswith(f"{out}: 3 puzzles re-graded, 1 changed level")
    fresh = packs.load(out)
    assert packs.validate(fresh) == []
    assert [(e["id"], e["deal"]) for e in fresh["puzzles"]] == \
        [(e["id"], e["deal"]) for e in pack["puzzles"]]
    again = run("regrade", old, "--out", out)
    assert again.exit_code == 2 and again.output.startswith("error: ")
    assert packs.load(out) == fresh


def test_missing_file_exits_2():
    result = run("validate", "/nonexistent/pack.json")
    assert result.exit_code == 2 and result.output.startswith("error: ")


def test_shipped_packs_exist():
    names = {p.name for p in SHIPPED}
    levels = ("easy", "medium", "hard", "expert", "master")
    assert {f"stacksquared-4x4-{level}.json" for level in levels} <= names
    assert any("3x4" in name for name in names) and any("5x5" in name for name in names)
    assert {packs.load(p)["game"] for p in SHIPPED} == set(games.designable())


#: Puzzles of each level the suite re-grades (chosen by the pack's file name); ``pack validate``
#: re-grades them all (about 6 minutes for every shipped pack on two cores), as one must after
#: a change to a game's figures (CONTRIBUTING.md).
REGRADE = 2

#: A Montana puzzle whose grade analysed more layouts than this, or was played past the
#: analysis, is never chosen: two easy 52-card puzzles (19M layouts, and one played) take
#: about a minute each.
REGRADE_LAYOUTS = 5_000_000


def costly(game: str, entry: dict) -> bool:
    metrics = entry["metrics"]
    return game == "montana" and ("games" in metrics
                                  or metrics.get("layouts", 0) > REGRADE_LAYOUTS)


def regraded(path: Path, pack: dict) -> list[dict]:
    """The puzzles of ``pack`` the suite re-grades: ``REGRADE`` of each level, none ``costly``."""
    chosen = []
    for level in LEVELS:
        entries = [e for e in pack["puzzles"]
                   if e["level"] == level and not costly(pack["game"], e)]
        chosen += random.Random(f"{path.name}:{level}").sample(entries,
                                                                min(REGRADE, len(entries)))
    return chosen


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_pack_is_valid(path):
    """What ``puzzlegen pack validate`` checks, for every shipped puzzle: schema, duplicates up
    to symmetry and the stored solution replayed; and an exact re-grade equal to the stored one
    for two puzzles of each level (``regraded``)."""
    pack = packs.load(path)
    assert packs.validate(pack, sample=0) == []
    chosen = regraded(path, pack)
    assert {e["level"] for e in chosen} == {e["level"] for e in pack["puzzles"]}
    assert packs.validate(dict(pack, puzzles=chosen)) == []
    levels = {p["level"] for p in pack["puzzles"]}
    if pack["game"] == "stacksquared":  # one pack a level
        assert levels == {path.stem.split("-")[-1]}
    else:  # one pack of several levels
        assert len(levels) >= 3 and levels <= set(LEVELS)
    assert all(p["explanation"].startswith(p["level"] + ": ") for p in pack["puzzles"])
    if "4x4" in path.name or pack["game"] != "stacksquared":
        assert len(pack["puzzles"]) >= 25


def by_rules() -> dict[tuple[str, str], list[Path]]:
    """The shipped packs grouped by game and rules."""
    groups: dict = {}
    for path in SHIPPED:
        pack = packs.load(path)
        game = games.get(pack["game"])
        for rules in {game.format_rules(game.entry_rules(e)) for e in pack["puzzles"]}:
            groups.setdefault((game.name, rules), []).append(path)
    return groups


#: The games and rules whose shipped packs hold several levels.
LEVELLED = sorted(key for key, paths in by_rules().items()
                  if len({e["level"] for p in paths for e in packs.load(p)["puzzles"]}) > 1)


def test_every_game_ships_a_pack_of_several_levels():
    assert {game for game, _ in LEVELLED} == set(games.designable())


@pytest.mark.parametrize("game, rules", LEVELLED)
def test_shipped_levels_separate_on_the_check_figure(game, rules):
    """Across a game's shipped packs of one rules, a puzzle of each level is easier on the game's
    check figure (which no level is built on) than one of the next level, significantly: the
    share of such pairs is above one half by 1.645 standard errors of the Mann-Whitney statistic
    (one-sided 5%, no ties assumed)."""
    found = separation(by_rules()[game, rules])
    levels = found["levels"]
    assert len(levels) >= 3
    for pair, share in found["easier_is_easier"].items():
        n, m = (levels[name]["puzzles"] for name in pair.split("<"))
        assert (share - 0.5) / math.sqrt((n + m + 1) / (12 * n * m)) >= 1.645, (pair, share)


def test_separation_takes_the_packs_of_one_rules():
    """Levels rank deals among deals of their own rules: packs of two grids are refused."""
    paths = [p for p in SHIPPED if p.name in ("stacksquared-4x4-easy.json",
                                               "stacksquared-3x4-hard.json")]
    with pytest.raises(BadInput, match="give the packs of one rules, not"):
        separation(paths)
