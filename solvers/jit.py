"""How the numba kernels are compiled.

``leaf`` compiles a kernel function that allocates no array, without numba's reference
counting.  Numba otherwise wraps each call in atomic increments and decrements of the counts of
the function's array arguments; in the StacksSquared players' recursive look-ahead and decision
search these took about 45% of a grade's time (docs/design.md, "Speed").  A ``leaf`` function
must not create or return an array; views and element writes are fine, its caller owns every
array it touches.  numba refuses to compile an allocation or a returned view there, but not a
returned argument, which its caller would then release once too often.
"""
from numba import njit

leaf = njit(cache=True, _nrt=False)
