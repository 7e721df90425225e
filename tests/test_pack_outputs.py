"""``pack show --id --no-solution --json``, ``pack html`` and ``pack print``: outputs and bad input."""
from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from puzzlegen.cli import cli
from solvers.errors import BadInput

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / "puzzles/stacksquared-3x4-hard.json"


def run(*args):
    return CliRunner().invoke(cli, ["pack", *map(str, args)])


def test_show_one_puzzle_as_json_without_solution():
    pack = json.loads(PACK.read_text())
    pid = pack["puzzles"][3]["id"]
    result = run("show", PACK, "--id", pid, "--no-solution", "--json")
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    assert [p["id"] for p in shown["puzzles"]] == [pid]
    assert "solution" not in shown["puzzles"][0]
    assert shown["puzzles"][0]["deal"] == pack["puzzles"][3]["deal"]
    assert {k: v for k, v in shown.items() if k != "puzzles"} == \
        {k: v for k, v in pack.items() if k != "puzzles"}
    assert json.loads(run("show", PACK, "--json").output) == pack


def test_show_text_without_solutions():
    pack = json.loads(PACK.read_text())
    result = run("show", PACK, "--no-solution")
    assert result.exit_code == 0 and "solution" not in result.output
    assert all(p["id"] in result.output for p in pack["puzzles"])
    one = run("show", PACK, "--id", pack["puzzles"][0]["id"])
    assert one.output.count("solution:") == 1


def test_print_pdf_has_a_page_per_puzzle_and_solutions(tmp_path):
    out = tmp_path / "book.pdf"
    result = run("print", PACK, "--out", out)
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type /Page\b", data))
    puzzles = len(json.loads(PACK.read_text())["puzzles"])
    assert pages >= puzzles + 2          # contents, the puzzles, at least one page of solutions
    assert result.output == f"wrote {out}: {pages} pages (contents, {puzzles} puzzles, solutions)\n"
    again = tmp_path / "again.pdf"
    assert run("print", PACK, "--out", again).exit_code == 0
    assert again.read_bytes() == data    # reproducible: no time stamps


def test_print_svg_pages_are_named_by_puzzle(tmp_path):
    out = tmp_path / "pages"
    result = run("print", PACK, "--out", out, "--format", "svg")
    assert result.exit_code == 0, result.output
    pack = json.loads(PACK.read_text())
    names = sorted(p.name for p in out.iterdir())
    assert "contents.svg" in names and "solutions-1.svg" in names
    assert result.output == (f"wrote {out}: {len(names)} pages (contents, {len(pack['puzzles'])} "
                             f"puzzles, solutions)\n")
    assert all(f"{p['id']}.svg" in names for p in pack["puzzles"])
    first = (out / f"{pack['puzzles'][0]['id']}.svg").read_text()
    assert first.lstrip().startswith("<?xml") and pack["puzzles"][0]["id"] in first
    assert "Skill matters by " in first          # how much skill matters, from the metrics
    assert run("print", PACK, "--out", out, "--format", "svg").exit_code == 2
    assert run("print", PACK, "--out", out, "--format", "svg", "--force").exit_code == 0


@pytest.mark.parametrize("second", ["3x4 hard 001", "solutions-1"])
def test_print_svg_refuses_pages_with_one_file_name_but_pdf_prints_them(tmp_path, second):
    pack = json.loads(PACK.read_text())
    first = dict(pack["puzzles"][0], id="3x4_hard_001")
    source = tmp_path / "clash.json"
    source.write_text(json.dumps(dict(pack, puzzles=[first, dict(pack["puzzles"][1], id=second)])))
    result = run("print", source, "--out", tmp_path / "pages", "--format", "svg")
    assert result.exit_code == 2 and not (tmp_path / "pages").exists()
    assert result.output.startswith("error: two pages get the same file name")
    assert run("print", source, "--out", tmp_path / "book.pdf").exit_code == 0


def printed(tmp_path: Path, name: str, index: int) -> tuple[dict, dict, str]:
    """The shipped pack ``name`` printed as SVG pages: the pack, its puzzle ``index`` and that
    puzzle's page."""
    pack_path = ROOT / "puzzles" / name
    result = run("print", pack_path, "--out", tmp_path / "pages", "--format", "svg")
    assert result.exit_code == 0, result.output
    pack = json.loads(pack_path.read_text())
    entry = pack["puzzles"][index]
    return pack, entry, (tmp_path / "pages" / f"{entry['id']}.svg").read_text()


def test_print_a_montana_pack_with_its_gaps_and_numbered_cells(tmp_path):
    pack, entry, page = printed(tmp_path, "montana-8.json", -1)
    book = tmp_path / "book.pdf"
    assert run("print", ROOT / "puzzles/montana-8.json", "--out", book).exit_code == 0
    pages = len(re.findall(rb"/Type /Page\b", book.read_bytes()))
    assert pages >= len(pack["puzzles"]) + 2
    assert entry["id"] in page and "Build each row in one suit" in page
    assert page.count("stroke-dasharray") == 4            # the four aces are the gaps
    assert all(f">{k}<" in page for k in range(1, 9))     # columns 1..8 (and rows 1..4)
    solutions = (tmp_path / "pages" / "solutions-1.svg").read_text()
    assert "counted from 1 at the top left" in solutions
    assert f"1.\xa0{html.escape(pack['puzzles'][0]['solution'][0])}" in solutions


def test_a_montana_pack_with_reshuffles_does_not_print(tmp_path):
    pack = json.loads((ROOT / "puzzles/montana-8.json").read_text())
    pack["puzzles"] = [dict(pack["puzzles"][0], rules="8-redeals2")]
    source = tmp_path / "redeals.json"
    source.write_text(json.dumps(pack))
    result = run("print", source, "--out", tmp_path / "book.pdf")
    assert result.exit_code == 2 and not (tmp_path / "book.pdf").exists()
    assert result.output == ("error: a printed Montana puzzle is one round: rules with "
                             "reshuffles (2) cannot be followed on paper\n")


def test_print_a_stack_management_pack_with_its_stacks_as_columns(tmp_path):
    _, entry, page = printed(tmp_path, "stackmgmt-8x4-k4.json", 1)
    stacks = [stack.split() for stack in entry["deal"].split("|")]
    shown = re.findall(r">(\d+)</text>\s*(?:<[^>]*>\s*)*?<text[^>]*>suit (\d+)<", page)
    # row by row (bottom cards first), stack by stack: the top of each stack lowest
    assert [f"{v},{s}" for v, s in shown] == [stack[r] for r in range(4) for stack in stacks]
    assert all(f">{k}<" in page for k in range(1, 9))        # stacks numbered as moves name them
    solutions = (tmp_path / "pages" / "solutions-1.svg").read_text()
    assert ">remove (4,8) from 1: the top of stack 1, value 4 of suit 8," in solutions


def test_print_an_agnes_pack_with_its_piles_base_card_and_stock(tmp_path):
    pack, entry, page = printed(tmp_path, "agnes-up-suit-anyrun-nosplit.json", 2)
    cards = entry["deal"].split()
    assert f"Base card {cards[0]}: " in page
    assert "then on piles 1 and 2: " + " ".join(cards[29:]) + "." in \
        re.sub(r"</text>\s*(<[^>]*>\s*)*", " ", page).replace("  ", " ")   # lines joined
    assert "stroke-dasharray" not in page                     # no empty cell below a pile
    assert page.count("fill: rgb(100%,100%,100%)") == 28      # the piles' 1 + 2 + ... + 7 cards

    down = dict(pack, puzzles=[dict(entry, rules="Down-Suit-AnyRun-NoSplit")])
    source = tmp_path / "down.json"
    source.write_text(json.dumps(down))
    result = run("print", source, "--out", tmp_path / "book.pdf")
    assert result.exit_code == 2 and not (tmp_path / "book.pdf").exists()
    assert result.output.startswith("error: a printed Agnes puzzle is dealt face up: ")


def test_a_game_without_a_page_is_refused_by_name():
    """Every game of the pack format has a page; a registered game without one (Spider's
    positions are no packs) is refused naming the games that have."""
    from puzzlegen import web
    with pytest.raises(BadInput, match="no puzzle page for spider packs: pack html plays "
                                       "stacksquared, agnes, montana, stackmgmt packs"):
        web.page_data({"game": "spider", "puzzles": [{}]}, "title")


def broken_packs(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    pack = json.loads(PACK.read_text())
    first, second = pack["puzzles"][:2]
    wrong = dict(pack, puzzles=[dict(first, solution=first["solution"][:-1])])
    twice = dict(pack, puzzles=[first, dict(second, id=first["id"])])
    files = {"missing": (tmp_path / "nope.json", "No such file"),
             "not json": (tmp_path / "bad.json", "is not JSON"),
             "short solution": (tmp_path / "short.json", "field solution"),
             "one id twice": (tmp_path / "twice.json", "field id: used by two puzzles")}
    files["not json"][0].write_text("{oops")
    files["short solution"][0].write_text(json.dumps(wrong))
    files["one id twice"][0].write_text(json.dumps(twice))
    return files


def test_show_refuses_a_broken_pack_in_one_error_line(tmp_path):
    for pack, fragment in broken_packs(tmp_path).values():
        result = run("show", pack, "--no-solution")
        assert result.exit_code == 2 and result.output.startswith("error: "), result.output
        assert fragment in result.output and len(result.output.splitlines()) == 1


@pytest.mark.parametrize("command", ["html", "print"])
def test_bad_input_is_one_error_line_and_exit_2(tmp_path, command):
    out = tmp_path / ("out.html" if command == "html" else "out.pdf")
    for pack, fragment in broken_packs(tmp_path).values():
        result = run(command, pack, "--out", out)
        assert result.exit_code == 2 and result.output.startswith("error: "), result.output
        assert fragment in result.output and len(result.output.splitlines()) == 1
        assert not out.exists()
    out.write_text("keep me")
    result = run(command, PACK, "--out", out)
    assert result.exit_code == 2 and "already exists" in result.output
    assert out.read_text() == "keep me"
    missing = tmp_path / "no-folder" / out.name
    result = run(command, PACK, "--out", missing)
    assert result.exit_code == 2 and "there is no folder" in result.output
    if os.geteuid() != 0:             # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        result = run(command, PACK, "--out", locked / out.name)
        assert result.exit_code == 2 and "not writable" in result.output


def test_unknown_id_is_one_error_line():
    result = run("show", PACK, "--id", "no-such-puzzle")
    assert result.exit_code == 2
    assert result.output == "error: no puzzle with id 'no-such-puzzle' in the pack\n"


def test_html_force_replaces_and_the_page_names_every_puzzle(tmp_path):
    out = tmp_path / "page.html"
    out.write_text("old")
    result = run("html", PACK, "--out", out, "--force")
    assert result.exit_code == 0
    text = out.read_text()
    data = json.loads(re.search(r'id="pack-data">(.*?)</script>', text, re.S).group(1))
    pack = json.loads(PACK.read_text())
    assert [p["id"] for p in data["puzzles"]] == [p["id"] for p in pack["puzzles"]]
    assert result.output == f"wrote {out}: a page playing {len(pack['puzzles'])} puzzles\n"
    assert all(len(p["safe"]) == len(p["solution"]) for p in data["puzzles"])
    assert "<script src" not in text and "<link" not in text
