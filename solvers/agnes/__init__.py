"""Agnes Sorel solitaire: every rule variant of quagnes 1.1.0, solved exactly."""
from solvers.agnes.api import *  # noqa: F401,F403
from solvers.agnes.api import __all__  # noqa: F401
