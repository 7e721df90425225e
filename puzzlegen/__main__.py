"""``python -m puzzlegen``: the same as the ``puzzlegen`` command."""
from puzzlegen.cli import main

main()
