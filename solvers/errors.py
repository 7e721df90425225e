"""The one error type for bad input, shared by every game.

Anything a user typed or a file held that cannot be a valid deal, board or option raises
:class:`BadInput` with one clear sentence; the command line turns it into exit status 2.
"""


class BadInput(ValueError):
    """Input that cannot be a valid deal, board, file or option; the message says why."""


class LimitReached(Exception):
    """A search inside an analysis (grading, figures) hit its limit: no figure is claimed."""


class BeyondMeasure(LimitReached):
    """A winnable deal whose hardness the grade's player cannot measure (it never won within
    its limit): no figure is claimed (a calibration ranks such deals above the measured ones)."""
