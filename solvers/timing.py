"""Clock access for numba kernels, so a search can stop at a time limit.

``now()`` may be called from ``@njit(cache=True)`` code: it reads the monotonic clock through a
direct ``clock_gettime`` call (an LLVM intrinsic), which, unlike ``numba.objmode``, adds nothing
to the time it takes to load a cached kernel.  Call it every few thousand nodes.
"""
import time

from llvmlite import ir
from numba import njit
from numba.core import cgutils, types
from numba.extending import intrinsic

_CLOCK_ID = time.CLOCK_MONOTONIC


@intrinsic
def _monotonic_ns(typingctx):
    """Nanoseconds on the monotonic clock, read by calling ``clock_gettime`` directly."""
    def codegen(context, builder, signature, args):
        i64, i32 = ir.IntType(64), ir.IntType(32)
        spec_type = ir.LiteralStructType([i64, i64])
        spec = cgutils.alloca_once(builder, spec_type)
        fn_type = ir.FunctionType(i32, [i32, spec_type.as_pointer()])
        clock_gettime = cgutils.get_or_insert_function(builder.module, fn_type, "clock_gettime")
        builder.call(clock_gettime, [ir.Constant(i32, _CLOCK_ID), spec])
        seconds = builder.load(cgutils.gep_inbounds(builder, spec, 0, 0))
        nanos = builder.load(cgutils.gep_inbounds(builder, spec, 0, 1))
        return builder.add(builder.mul(seconds, ir.Constant(i64, 1_000_000_000)), nanos)
    return types.int64(), codegen


@njit(cache=True)
def now() -> float:
    """Seconds on the monotonic clock (same clock as ``time.monotonic()``), from nopython code."""
    return _monotonic_ns() * 1e-9
