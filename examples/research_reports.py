"""What the research scripts share: their command line (data sets in, a report per data set out
as JSON, a figure with ``--png``) and its errors."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Callable


def main(doc: str, reports: Callable, draw: Callable, png_help: str,
         options: Callable = lambda ap: None) -> None:
    """Parse the command line (the data sets, ``options``' own, ``--png``), print
    ``reports(args)`` as JSON and ``draw(reports, path)`` with ``--png``.  A missing library,
    an unreadable data set or a bad option (``ValueError``) is one error line, status 2."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("data", nargs="+", help="data sets (CSV, .csv.gz) of stacksquared_dataset.py")
    options(ap)
    ap.add_argument("--png", help=png_help)
    args = ap.parse_args()
    try:
        found = reports(args)
    except ImportError as exc:
        ap.exit(2, f"error: {exc.name} is missing (pip install \".[research,plots]\")\n")
    except (OSError, ValueError, KeyError) as exc:
        ap.exit(2, f"error: {exc}\n")
    if args.png:
        draw(found, args.png)
    json.dump(found, sys.stdout, indent=1, allow_nan=False)
    print()
