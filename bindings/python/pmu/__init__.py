# SPDX-License-Identifier: MIT
"""libpmu for Python: hardware performance counters through ctypes.

A thin, Pythonic layer over ``libpmu.so`` (standard library only)::

    import pmu

    with pmu.Context() as ctx:
        print(ctx.resolve("cycles"))            # the encoding and where it came from
        with pmu.Set(ctx, "task-clock,page-faults") as s:
            work()
        print(s.events, s.delta)                # counts of the block

    with pmu.region("solve"):                   # per-region counts, reported at exit
        solve()

Every failing libpmu call raises :class:`PmuError` (an :class:`OSError`
carrying the errno and libpmu's sentence naming the cause and the fix).

The shared library is found, in this order, from ``$PMU_LIBRARY`` (a path),
``ctypes.util.find_library("pmu")``, then the build tree of the source
checkout this package sits in (``<repo>/build/lib/libpmu.so``).

The package is small modules, one concept each, in layers: a module imports
only from the layers below it (tests/test_package.py checks this, so there is
no import circle).

1. ``_types``    <pmu.h>'s structures and callbacks as ctypes types; str as char *
2. ``_libpmu``   libpmu.so found and loaded; its functions' prototypes; version()
3. ``errors``    PmuError
4. ``names``     enum and flag names from the library (lib/names.c)
   ``values``    Value, delta, scale, confidence
5. ``events``    resolve, list, check_tables
   ``metrics``   metric evaluation, thresholds, events, info, #constants
   ``topdown``   topdown fractions
   ``regions``   region() and the region_* functions
   ``groups``    performance groups (LIKWID's group files, libpmu's own): listed, read, their metrics
6. ``context``   Context (its event, metric, topdown and group methods call layer 5)
   ``eventset``  Set (its metric, topdown and group methods call layer 5), Plan (a list resolved once, opened
                 as a Set on many targets)
7. ``frames``    region reports and pmu stat results as pandas DataFrames; imported on first use
                 (``pmu.frames``), pandas only when a frame is built: the package works without it

Every public name is importable from ``pmu`` itself, as when the package was
one file; the submodules are how it is organised, not a second API.
"""

# the version of this package, equal to meson.build's project version (checked by
# tests/test-python-package.sh); version() gives the loaded library's
__version__ = "0.1.0"

__all__ = [
    "PmuError", "Context", "Plan", "Set", "Value", "version", "delta", "scale", "confidence",
    "region", "region_configure", "region_report", "region_reset", "region_results", "region_overhead",
    "have_regions", "library_path",
]

from ._libpmu import _lib, library_path, version
from ._types import PMU_NAME_MAX, PMU_UNKNOWN
from .errors import PmuError
from .values import Value, confidence, delta, scale
from .regions import (have_regions, region, region_configure, region_overhead, region_report,
                      region_reset, region_results)
from .context import LOG_DEBUG, LOG_ERR, LOG_INFO, LOG_WARN, Context
from .eventset import Plan, Set

# the public classes say they are pmu's, as when they were defined here: "pmu.PmuError"
# in tracebacks, pickles that name pmu.Value
for _c in (PmuError, Value, Context, Plan, Set):
    _c.__module__ = __name__
del _c


def __getattr__(name):
    """``pmu.frames`` imported on first use: nothing of it (nor pandas) is loaded by ``import pmu``."""
    if name == "frames":
        import importlib
        return importlib.import_module(".frames", __name__)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
