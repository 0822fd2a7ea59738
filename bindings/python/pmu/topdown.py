# SPDX-License-Identifier: MIT
"""Topdown: the level 1 and 2 fractions from a set's counts or from named counts."""

import ctypes
import math

from .errors import _fail
from ._libpmu import _topdown_from_named, _topdown_from_set
from ._types import _Topdown
from .values import _named_values


def _topdown_dict(t):
    """struct pmu_topdown as the dict Set.topdown returns."""
    d = {f: getattr(t, f) for f, _ in _Topdown._fields_[:12]}
    if t.level < 2:
        for f in ("heavy_ops", "light_ops", "br_mispredict", "machine_clears",
                  "fetch_lat", "fetch_bw", "mem_bound", "core_bound"):
            d[f] = math.nan
    d["slots"] = t.slots
    d["level"] = t.level
    d["reset"] = bool(t.flags & 1)
    # PMU_TOPDOWN_AMD: AMD's method; level 1 leaves out SMT contention, level 2's
    # quantities are AMD's under the tree's keys (heavy_ops = microcode ops, light_ops =
    # fast-path ops, machine_clears = pipeline restarts, core_bound = backend bound CPU)
    d["amd"] = bool(t.flags & 2)
    return d


def _from_named(ctx, values):
    """Context.topdown (pmu_topdown_from_named)."""
    arr, n, _keep = _named_values(values)
    t = _Topdown()
    rc = _topdown_from_named(ctx._handle, arr, n, ctypes.byref(t))
    if rc < 0:
        raise _fail(rc, "pmu_topdown_from_named")
    return _topdown_dict(t)


def _from_set(s, deltas):
    """Set.topdown (pmu_topdown_from_set)."""
    arr = s._c_values(deltas)
    t = _Topdown()
    rc = _topdown_from_set(s._handle, arr, ctypes.byref(t))
    if rc < 0:
        raise _fail(rc, "pmu_topdown_from_set")
    return _topdown_dict(t)
