# SPDX-License-Identifier: MIT
"""Regions: per-thread counts of named code regions (pmu_region_*), their results and reports."""

import contextlib
import ctypes
import errno as _errno

from .errors import PmuError, _fail
from ._libpmu import (_region_begin, _region_configure, _region_end, _region_foreach, _region_overhead,
                      _region_report, _region_reset, library_path)
from ._types import _dec, _enc, _RegionCb

_FORMATS = {"text": 0, "json": 1, "csv": 2}


def have_regions():
    """True if the loaded libpmu has the region functions (pmu_region_*)."""
    return None not in (_region_begin, _region_end, _region_report, _region_reset, _region_foreach)


def _need(f, name):
    if f is None:
        raise PmuError(_errno.ENOSYS, "%s is not in %s (a libpmu built before regions existed); "
                       "rebuild libpmu" % (name, library_path), name)
    return f


class _Region(contextlib.ContextDecorator):
    """``with pmu.region("name"):`` and ``@pmu.region("name")``."""

    __slots__ = ("name", "_b")

    def __init__(self, name):
        if not isinstance(name, (str, bytes)):
            raise TypeError("pmu.region: name must be a string, not %s" % type(name).__name__)
        self.name = name if isinstance(name, str) else _dec(name)
        self._b = _enc(name)

    def __enter__(self):
        rc = _need(_region_begin, "pmu_region_begin")(self._b)
        if rc < 0:
            raise _fail(rc, "pmu_region_begin")
        return self

    def __exit__(self, exc_type, exc, tb):
        rc = _need(_region_end, "pmu_region_end")(self._b)
        if rc < 0:
            e = _fail(rc, "pmu_region_end")
            if exc_type is None:        # never hide the block's own exception
                raise e
        return False

    def __repr__(self):
        return "pmu.region(%r)" % self.name


def region(name):
    """Count the calling thread's events in a named region.

    A context manager (``with pmu.region("solve"): ...``) and a decorator
    (``@pmu.region("solve")``, or bare ``@pmu.region``: the function's
    ``__qualname__`` names the region). Counts accumulate per (thread,
    name); the events come from $PMU_EVENTS at the thread's first region
    (default: instructions, cycles, branch and cache misses, or task-clock,
    page-faults, context-switches without a hardware PMU) and a report is
    written at exit to $PMU_OUTPUT (default stderr) in $PMU_FORMAT, unless
    :func:`region_reset` cleared everything. Raises PmuError on failure.
    """
    if callable(name) and not isinstance(name, (str, bytes)):
        func = name
        return _Region(getattr(func, "__qualname__", getattr(func, "__name__", repr(func))))(func)
    return _Region(name)


def region_configure(events=None, calibrate=None):
    """Choose the regions' events (``events``: an event list, metric names
    or "TOPDOWN"; None: $PMU_EVENTS or the default) and calibration
    (True/False; None: $PMU_CALIBRATE or on) in code. Call it once, before
    the first region of the process; later calls raise PmuError (EBUSY).
    A bad name raises PmuError naming it."""
    f = _need(_region_configure, "pmu_region_configure")
    if events is not None and not isinstance(events, (str, bytes)):
        raise TypeError("pmu.region_configure: events must be a string, not %s" % type(events).__name__)
    rc = f(_enc(events), -1 if calibrate is None else (1 if calibrate else 0))
    if rc < 0:
        raise _fail(rc, "pmu_region_configure")


def region_report(path=None, format="text", per_thread=False):
    """Write the region report now to ``path`` (None: $PMU_OUTPUT or
    stderr; "-": stdout) as "text", "json" (schema "libpmu-regions/1") or
    "csv"; threads summed, also per thread with ``per_thread``."""
    f = _need(_region_report, "pmu_region_report")
    if isinstance(format, str):
        try:
            fmt = _FORMATS[format.lower()]
        except KeyError:
            raise ValueError("format must be one of %s, not %r" % (", ".join(_FORMATS), format)) from None
    else:
        fmt = int(format)
    rc = f(_enc(path), fmt, 1 if per_thread else 0)
    if rc < 0:
        raise _fail(rc, "pmu_region_report")


def region_reset():
    """Forget every region's counts, in every thread (no report at exit)."""
    _need(_region_reset, "pmu_region_reset")()


def region_results(per_thread=False):
    """The regions' counts, in order of first use: a list of dicts

    ``{"name", "tid" (None for the sum over threads), "calls", "intervals",
    "values": {event: {"value", "enabled", "running", "min", "max", "unsupported", "socket_wide"}}}``

    (value/enabled/running: sums of the per-call deltas; min/max: smallest
    and largest delta of one call). A socket-wide event (an uncore or energy
    event: counted for the process, see pmu_region_configure()) is given in
    the row over threads only, summed over its "intervals" (min/max per
    interval). With ``per_thread`` the per-thread results follow the sums.
    """
    f = _need(_region_foreach, "pmu_region_foreach")
    out = []
    err = []

    def cb(rp, _data):
        try:
            r = rp.contents
            vals = {}
            for i in range(r.nvalues):
                if r.tid != -1 and r.socket_wide & (1 << i):
                    continue  # the name's, not the thread's
                v = r.values[i]
                vals[_dec(r.events[i])] = {
                    "value": v.value, "enabled": v.enabled, "running": v.running,
                    "min": r.min[i] if r.min else None,
                    "max": r.max[i] if r.max else None,
                    "unsupported": bool(r.unsupported & (1 << i)),
                    "socket_wide": bool(r.socket_wide & (1 << i)),
                }
            out.append({"name": _dec(r.name), "tid": None if r.tid == -1 else r.tid,
                        "calls": r.calls, "intervals": r.intervals, "values": vals})
            return 0
        except BaseException as x:
            err.append(x)
            return 1

    c_cb = _RegionCb(cb)
    rc = f(1 if per_thread else 0, c_cb, None)
    if rc < 0:
        raise _fail(rc, "pmu_region_foreach")
    if err:
        raise err[0]
    return out


def region_overhead(n=64):
    """The calibrated cost of an empty begin/end pair for the calling
    thread's events (list of ints, one per event); PmuError if this thread
    has not used a region yet."""
    f = _need(_region_overhead, "pmu_region_overhead")
    buf = (ctypes.c_uint64 * n)()
    rc = f(buf, n)
    if rc < 0:
        raise _fail(rc, "pmu_region_overhead")
    return list(buf[:min(rc, n)])
