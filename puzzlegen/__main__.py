"""``python -m puzzlegen``: the same as the ``puzzlegen`` command."""
from puzzlegen.cli import main

if __name__ == "__main__":   # not when a worker process imports the main module
    main()
