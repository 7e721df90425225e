"""numba's cache of a kernel is renewed when any source of its package changes, not only its
own file: a caller's cached code holds its callees' code (``solvers.jit``)."""
import os
import subprocess
import sys
import textwrap

RUN = """
import sys
import solvers.jit as jit
jit.SOLVERS = sys.argv[1]  # the stand-in for the solvers package
sys.path.insert(0, sys.argv[1])
from game.caller import total
print(total(), sum(total.stats.cache_hits.values()), sum(total.stats.cache_misses.values()))
"""


def test_editing_a_callee_module_renews_its_callers_cache(tmp_path):
    game = tmp_path / "solvers" / "game"
    game.mkdir(parents=True)
    (game / "__init__.py").write_text("")
    callee = game / "callee.py"
    callee.write_text("from solvers.jit import leaf\n\n\n@leaf\ndef part():\n    return 1\n")
    (game / "caller.py").write_text(textwrap.dedent("""\
        from numba import njit

        from solvers.jit import leaf  # noqa: F401 (the cache's stamp, before any kernel)
        from game.callee import part


        @njit(cache=True)
        def total():
            return part() + 10
        """))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def run():
        out = subprocess.run([sys.executable, "-c", RUN, str(tmp_path / "solvers")], env=env,
                             capture_output=True, text=True, check=True).stdout.split()
        value, hits, misses = map(int, out)
        return value, hits > 0, misses > 0

    assert run() == (11, False, True)  # compiled
    assert run() == (11, True, False)  # loaded from the cache
    callee.write_text(callee.read_text().replace("return 1", "return 2"))
    assert run() == (12, False, True)  # the caller's file is unchanged, its cache renewed
    assert run() == (12, True, False)
