"""Shows the interpreter's garbage collections as slices (mem:gc) in a
trace of examples/memtrace: import it first in a program run with
LD_PRELOAD=libmemtrace.so.  Without the library it does nothing."""
import ctypes
import gc

try:
    _lib = ctypes.CDLL(None)
    _begin, _end = _lib.memtrace_gc_begin, _lib.memtrace_gc_end
    _end.argtypes = (ctypes.c_int, ctypes.c_long)
except (OSError, AttributeError):
    _begin = None


def _on_gc(phase, info):
    if phase == "start":
        _begin(info["generation"])
    else:
        _end(info["generation"], info["collected"])


if _begin is not None:
    gc.callbacks.append(_on_gc)
