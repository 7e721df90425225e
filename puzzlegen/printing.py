"""Printable packs (``puzzlegen pack print``): a contents page, one puzzle a page with its id,
level and grid, and the solutions collected at the end, as a PDF or as one SVG per page.

Every page is a ReportLab ``Drawing`` (cards drawn as shapes, suits as paths, so no font needs
suit glyphs), rendered to PDF or SVG by ReportLab's renderers.  What a page shows of a game comes
from the game contract: its ``goal``, each deal's ``sheet`` (a grid of cells with labels and
notes), what a solution ``reached`` and how to read a move (``notation``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from io import BytesIO

from reportlab.graphics import renderPDF, renderSVG
from reportlab.graphics.shapes import Circle, Drawing, Path, Rect, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from puzzlegen.codes import encode
from puzzlegen.packs import read_entry
from solvers import game as games
from solvers.game import GAP, harder_than
from solvers.cards import Card
from solvers.errors import BadInput

PAPERS = {"a4": A4, "letter": LETTER}
MARGIN = 56
RED, INK, LINE = colors.HexColor("#c0262d"), colors.HexColor("#1d2330"), colors.HexColor("#9aa0a6")
RANK_LABELS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
NBSP = "\u00a0"

# Suit outlines in a 100 x 100 box, y pointing down (as in the page's SVG symbols): each is a
# list of ("circle", cx, cy, r) or ("path", [(op, coordinates...)]).
SUIT_SHAPES = {
    0: [("circle", 50, 27, 21), ("circle", 27, 58, 21), ("circle", 73, 58, 21),
        ("path", [("M", 43, 50), ("L", 57, 50), ("L", 62, 98), ("L", 38, 98)])],
    1: [("path", [("M", 50, 2), ("L", 88, 50), ("L", 50, 98), ("L", 12, 50)])],
    2: [("path", [("M", 50, 92), ("C", 20, 66, 2, 48, 2, 29), ("C", 2, 13, 13, 3, 27, 3),
                  ("C", 38, 3, 46, 10, 50, 20), ("C", 54, 10, 62, 3, 73, 3),
                  ("C", 87, 3, 98, 13, 98, 29), ("C", 98, 48, 80, 66, 50, 92)])],
    3: [("path", [("M", 50, 3), ("C", 80, 30, 98, 46, 98, 62), ("C", 98, 76, 88, 84, 76, 84),
                  ("C", 66, 84, 58, 79, 54, 71), ("L", 61, 98), ("L", 39, 98), ("L", 46, 71),
                  ("C", 42, 79, 34, 84, 24, 84), ("C", 12, 84, 2, 76, 2, 62),
                  ("C", 2, 46, 20, 30, 50, 3)])],
}


@dataclass
class Page:
    name: str          # the file name stem when pages are written one per file
    drawing: Drawing


def draw_suit(d: Drawing, suit: int, x: float, y: float, size: float, fill) -> None:
    """The suit symbol with its top-left corner at (x, y) (y up, so the box hangs below y)."""
    s = size / 100

    def at(px, py):
        return x + px * s, y - py * s

    for shape in SUIT_SHAPES[suit]:
        if shape[0] == "circle":
            cx, cy = at(shape[1], shape[2])
            d.add(Circle(cx, cy, shape[3] * s, fillColor=fill, strokeColor=None))
            continue
        path = Path(fillColor=fill, strokeColor=None)
        for op, *coords in shape[1]:
            points = [v for i in range(0, len(coords), 2) for v in at(coords[i], coords[i + 1])]
            {"M": path.moveTo, "L": path.lineTo, "C": path.curveTo}[op](*points)
        path.closePath()
        d.add(path)


def draw_cell(d: Drawing, cell, x: float, y: float, w: float) -> None:
    """A cell of a :class:`~solvers.game.Sheet` of width ``w`` with its bottom-left corner at
    (x, y): a playing card, a ``(value, suit)`` card of numbers, a gap's outline, or nothing."""
    h = w * 1.4
    if cell is None:
        return
    if cell is GAP:
        d.add(Rect(x, y, w, h, rx=w * .1, ry=w * .1, fillColor=None, strokeColor=LINE,
                   strokeDashArray=[3, 3]))
        return
    d.add(Rect(x, y, w, h, rx=w * .1, ry=w * .1, fillColor=colors.white, strokeColor=INK,
               strokeWidth=1))
    if isinstance(cell, Card):
        ink = RED if cell.is_red else INK
        d.add(String(x + w * .12, y + h - w * .33, RANK_LABELS[cell.rank - 1],
                     fontName="Helvetica-Bold", fontSize=w * .3, fillColor=ink))
        draw_suit(d, cell.suit, x + w * .1, y + h - w * .42, w * .22, ink)
        draw_suit(d, cell.suit, x + w * .36, y + h - w * .62, w * .54, ink)
        return
    value, suit = cell
    d.add(String(x + w / 2, y + h * .45, str(value), fontName="Helvetica-Bold",
                 fontSize=w * .45, fillColor=INK, textAnchor="middle"))
    d.add(String(x + w / 2, y + h * .12, f"suit {suit}", fontName="Helvetica",
                 fontSize=w * .16, fillColor=LINE, textAnchor="middle"))


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` broken into lines at spaces, each at most ``width`` points wide."""
    lines, line = [], ""
    for word in text.split(" "):
        if not word:
            continue
        trial = f"{line} {word}".strip()
        if line and stringWidth(trial, font, size) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + [line] if line else lines


def text_lines(d: Drawing, lines: list[str], x: float, y: float, size: float,
               font: str = "Helvetica", fill=INK) -> float:
    """Draw ``lines`` downwards from baseline ``y``; returns the next free baseline."""
    for line in lines:
        d.add(String(x, y, line, fontName=font, fontSize=size, fillColor=fill))
        y -= size * 1.35
    return y


def footer(d: Drawing, number: int, title: str) -> None:
    w = d.width
    d.add(String(w / 2, MARGIN / 2, f"{title} \u00b7 {number}", fontName="Helvetica", fontSize=8,
                 fillColor=LINE, textAnchor="middle"))


def level_text(game: games.Designable, entry: dict) -> str:
    """The level, the percentile in words, the explanation and how much skill matters."""
    percentile = "" if entry["percentile"] is None else \
        f" (harder than {harder_than(entry['percentile'])} of random deals)"
    return " ".join(filter(None, [f"Level: {entry['level']}{percentile}.",
                                  entry.get("explanation"), game.skill_words(entry["metrics"])]))


def puzzle_page(pack: dict, entry: dict, number: int, title: str, paper) -> Drawing:
    w, h = paper
    d = Drawing(w, h)
    y = text_lines(d, [entry["id"]], MARGIN, h - MARGIN - 14, 22, "Helvetica-Bold")
    width = w - 2 * MARGIN
    game = games.get(pack["game"])
    deal, rules = read_entry(game, entry)
    y = text_lines(d, [f"Code {encode(game, rules, deal)}"], MARGIN, y, 9, fill=LINE)
    y = text_lines(d, wrap(level_text(game, entry), "Helvetica", 11, width), MARGIN, y - 4, 11)
    y = text_lines(d, wrap(game.goal, "Helvetica", 10, width), MARGIN, y - 2, 10, fill=LINE)
    sheet = game.sheet(deal, rules)
    rows, cols = sheet.rows, sheet.cols
    notes = [line for note in sheet.notes for line in wrap(note, "Helvetica", 9, width)]
    below = len(notes) * 9 * 1.35 + (12 if notes else 0)
    text_lines(d, notes, MARGIN, MARGIN + 18 + below - 12, 9)
    gap = 8
    room_h = y - MARGIN - 30 - below - 14   # 14: the column labels above the grid
    card_w = min((width - gap * (cols - 1)) / cols, (room_h - gap * (rows - 1)) / rows / 1.4, 90)
    grid_w, grid_h = cols * card_w + (cols - 1) * gap, rows * card_w * 1.4 + (rows - 1) * gap
    left, top = (w - grid_w) / 2, MARGIN + 30 + below + (room_h + grid_h) / 2
    for i, cell in enumerate(sheet.cells):
        r, c = divmod(i, cols)
        draw_cell(d, cell, left + c * (card_w + gap), top - (r + 1) * card_w * 1.4 - r * gap,
                  card_w)
    for c, label in enumerate(sheet.col_labels):
        d.add(String(left + c * (card_w + gap) + card_w / 2, top + 5, label,
                     fontName="Helvetica", fontSize=9, fillColor=LINE, textAnchor="middle"))
    for r, label in enumerate(sheet.row_labels):
        d.add(String(left - 5, top - r * (card_w * 1.4 + gap) - card_w * 0.7, label,
                     fontName="Helvetica", fontSize=9, fillColor=LINE, textAnchor="end"))
    footer(d, number, title)
    return d


def solution_pages(pack: dict, first: int, title: str, paper) -> list[Drawing]:
    """The solutions, puzzle after puzzle, numbered moves wrapped to the page width."""
    w, h = paper
    width, size = w - 2 * MARGIN, 10
    game = games.get(pack["game"])
    blocks = []
    for entry in pack["puzzles"]:
        moves = "  ".join(f"{k}.{NBSP}{m.replace(' ', NBSP)}"   # a move never breaks
                          for k, m in enumerate(entry["solution"], 1))
        blocks.append((f"{entry['id']} ({game.reached(entry)})",
                       wrap(moves, "Helvetica", size, width)))
    pages, d, y = [], None, 0.0
    for heading, lines in blocks:
        need = (len(lines) + 2) * size * 1.35
        if d is None or y - need < MARGIN:
            d = Drawing(w, h)
            pages.append(d)
            footer(d, first + len(pages) - 1, title)
            y = text_lines(d, ["Solutions"], MARGIN, h - MARGIN - 14, 18, "Helvetica-Bold") - 6
            y = text_lines(d, wrap(game.notation, "Helvetica", size, width), MARGIN, y, size,
                           fill=LINE) - 6
        y = text_lines(d, [heading], MARGIN, y, 11, "Helvetica-Bold")
        y = text_lines(d, lines, MARGIN, y, size) - 6
    return pages


def contents_page(pack: dict, title: str, paper) -> Drawing:
    w, h = paper
    d = Drawing(w, h)
    y = text_lines(d, [title], MARGIN, h - MARGIN - 14, 22, "Helvetica-Bold")
    made = pack["created_with"]
    y = text_lines(d, [f"{len(pack['puzzles'])} {pack['game']} puzzles, made with {made['tool']} "
                       f"({made['method']})."], MARGIN, y - 4, 11)
    y = text_lines(d, wrap(games.get(pack["game"]).goal, "Helvetica", 10, w - 2 * MARGIN),
                   MARGIN, y - 2, 10, fill=LINE) - 10
    size = 10 if len(pack["puzzles"]) <= 40 else 7
    for number, entry in enumerate(pack["puzzles"], 2):
        d.add(String(MARGIN, y, entry["id"], fontName="Helvetica", fontSize=size, fillColor=INK))
        d.add(String(w / 2, y, entry["level"], fontName="Helvetica", fontSize=size, fillColor=INK))
        d.add(String(w - MARGIN, y, f"page {number}", fontName="Helvetica", fontSize=size,
                     fillColor=INK, textAnchor="end"))
        y -= size * 1.5
        if y < MARGIN:
            break
    footer(d, 1, title)
    return d


def file_stem(pid: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", pid).lstrip(".") or "puzzle"


def pages(pack: dict, title: str, paper_name: str = "a4") -> list[Page]:
    """The book's pages in order: contents, one per puzzle, solutions."""
    if not isinstance(games.get(pack["game"]), games.Designable):
        raise BadInput(f"no printed form for {pack['game']} packs: pack print draws "
                       f"{', '.join(games.designable())} packs")
    paper = PAPERS[paper_name]
    out = [Page("contents", contents_page(pack, title, paper))]
    for number, entry in enumerate(pack["puzzles"], 2):
        out.append(Page(file_stem(entry["id"]), puzzle_page(pack, entry, number, title, paper)))
    solutions = solution_pages(pack, len(out) + 1, title, paper)
    out += [Page(f"solutions-{k}", d) for k, d in enumerate(solutions, 1)]
    return out


def pdf(book: list[Page], title: str) -> bytes:
    buffer = BytesIO()
    canvas = Canvas(buffer, pagesize=(book[0].drawing.width, book[0].drawing.height),
                    invariant=True)
    canvas.setTitle(title)
    canvas.setCreator("puzzlegen")
    for page in book:
        renderPDF.draw(page.drawing, canvas, 0, 0)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def svg(page: Page) -> bytes:
    return renderSVG.drawToString(page.drawing).encode("utf-8")
