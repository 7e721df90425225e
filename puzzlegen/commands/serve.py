"""``puzzlegen serve``: the puzzle server; ``puzzlegen ratings``: what its ratings say of the
grades (docs/server.md)."""
from __future__ import annotations

import socket

import click

from puzzlegen import clitools
from puzzlegen.fileio import check_output
from solvers.errors import BadInput


@click.command(cls=clitools.Command)
@click.argument("pack_paths", metavar="PACK...", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--db", required=True, metavar="FILE",
              help="The SQLite database of attempts and ratings (created when new).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (0.0.0.0: every interface).")
@click.option("--port", type=clitools.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on (0: a free one, printed).")
@click.option("--backup", metavar="COPY",
              help="Instead of serving: copy --db to COPY, consistent even while a server "
                   "writes to it, and exit.")
def serve(pack_paths, db, host, port, backup):
    """Serve the packs PACK... over HTTP: each pack's page at /p/NAME/ (NAME: the file name
    without .json), the daily puzzle at /daily, per-puzzle statistics at /puzzles/CODE, and the
    JSON API (/api/attempts, /api/daily, /api/puzzles/CODE) storing every attempt the pages
    post, replayed by the game's rules, with Glicko-2 ratings of puzzles and players."""
    from puzzlegen.attemptsdb import AttemptsDB

    if backup is not None:
        check_output(backup)
        store = AttemptsDB(db, create=False)
        store.backup(backup)
        store.close()
        click.echo(f"copied {clitools.inert(db)} to {clitools.inert(backup)}")
        return
    if not pack_paths:
        raise BadInput("give at least one pack to serve")
    import uvicorn

    from puzzlegen.server import Catalogue, create_app

    catalogue = Catalogue(list(pack_paths))
    try:
        listening = socket.create_server((host, port))
    except OSError as exc:
        raise BadInput(f"cannot listen on {host} port {port}: {exc.strerror}") from None
    # Answers go out at once (the connections accepted inherit it): with Nagle's algorithm a
    # response's second write would wait for the client's delayed acknowledgement (40 ms).
    listening.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    store = AttemptsDB(db)
    bound = listening.getsockname()[1]
    click.echo(f"serving {len(catalogue.pages):,} packs ({len(catalogue.puzzles):,} puzzles) "
               f"at http://{host}:{bound}/ with the database {clitools.inert(db)}")
    server = uvicorn.Server(uvicorn.Config(create_app(catalogue, store), log_level="warning",
                                           access_log=False))
    try:
        server.run(sockets=[listening])
    finally:
        store.close()


@click.command(cls=clitools.Command)
@click.option("--db", required=True, metavar="FILE", help="A puzzle server's database.")
@click.option("--min-games", type=clitools.IntRange(1), default=1, show_default=True,
              help="Only puzzles with at least this many rated attempts.")
@clitools.json_option
def ratings(db, min_games, as_json):
    """The puzzles' Glicko-2 ratings in a puzzle server's database, and how well the grades
    predict them: Spearman's rank correlation of the rating with the percentile and the
    hardness, each level's median rating, and whether adjacent levels separate."""
    from puzzlegen import ratings as report
    from puzzlegen.attemptsdb import AttemptsDB

    store = AttemptsDB(db, create=False)
    result = report.report(store.puzzle_ratings(), min_games)
    store.close()
    if as_json:
        clitools.emit_json(result)
    else:
        click.echo(clitools.inert("\n".join(report.lines(result))))
