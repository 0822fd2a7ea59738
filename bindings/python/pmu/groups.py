# SPDX-License-Identifier: MIT
"""Performance groups (LIKWID's group files, libpmu's own): listed, read, their metrics evaluated."""

import ctypes
import errno as _errno

from .errors import PmuError, _fail
from ._libpmu import (_group_foreach, _group_free, _group_info, _group_open, _metric_eval_events,
                      _set_event, library_path)
from ._types import _P, _dec, _enc, _EventInfo, _GroupCb, _NamedValue
from .values import scale

_GROUP_PARTIAL = 1


def _need(f, name):
    if f is None:
        raise PmuError(_errno.ENOSYS, "%s is not in %s (a libpmu built before performance groups existed); "
                       "rebuild libpmu" % (name, library_path), name)
    return f


def _str(b):
    """A C string that may be NULL: None for NULL."""
    return None if b is None else _dec(b)


def _list(ctx):
    """Context.groups (pmu_group_foreach)."""
    out, err = [], []

    def cb(name, arch, path, short, _data):
        try:
            out.append({"name": _dec(name), "arch": _dec(arch), "path": _dec(path), "short": _dec(short)})
            return 0
        except BaseException as x:          # stop, re-raised below
            err.append(x)
            return 1

    c_cb = _GroupCb(cb)
    rc = _need(_group_foreach, "pmu_group_foreach")(ctx._handle, c_cb, None)
    if rc < 0:
        raise _fail(rc, "pmu_group_foreach")
    if err:
        raise err[0]
    return out


def _open(ctx, name, partial=False):
    """Context.group (pmu_group_open, pmu_group_info): the group as a dict, the C group freed."""
    h = _P()
    rc = _need(_group_open, "pmu_group_open")(ctx._handle, _enc(name), _GROUP_PARTIAL if partial else 0,
                                              ctypes.byref(h))
    if rc < 0:
        raise _fail(rc, "pmu_group_open")
    try:
        g = _group_info(h).contents
        return {
            "name": _dec(g.name), "arch": _dec(g.arch), "path": _dec(g.path),
            "short": _dec(g.short_desc), "long": _dec(g.long_desc), "clock": _dec(g.clock),
            "events": _dec(g.events),
            "lines": [{"counter": _dec(e.counter), "likwid": _dec(e.likwid), "event": _str(e.event),
                       "why": _str(e.why)} for e in g.event[:g.nevents]],
            "metrics": [{"name": _dec(m.name), "unit": _dec(m.unit), "formula": _dec(m.formula),
                         "expr": _str(m.expr), "why": _str(m.why)} for m in g.metric[:g.nmetrics]],
        }
    finally:
        _group_free(h)


def _label(m):
    """"Name [unit]" as likwid-perfctr and pmu stat -g label a metric ("Name" without a unit)."""
    return "%s [%s]" % (m["name"], m["unit"]) if m["unit"] else m["name"]


def _metrics(s, group, deltas=None, seconds=None):
    """Set.group_metrics: each metric of @group over set @s's values (pmu_metric_eval_events)."""
    deltas = s.delta if deltas is None else list(deltas)
    if deltas is None:
        raise ValueError("no values to evaluate: count in a 'with set:' block first, or pass deltas")
    if len(deltas) != len(s):
        raise ValueError("expected %d values (one per event of the set), got %d" % (len(s), len(deltas)))
    h = s._handle
    n = len(s)
    names = (_NamedValue * max(n + 1, 1))()
    infos = (_EventInfo * max(n + 1, 1))()
    k = 0
    for i in range(n):
        e = infos[k]
        rc = _set_event(h, i, ctypes.byref(e))
        if rc < 0:
            raise _fail(rc, "pmu_set_event")
        if _dec(e.name) == "duration_time":
            if seconds is None:             # the set's own clock: CLOCK_MONOTONIC while enabled, in ns
                seconds = scale(deltas[i]) / 1e9
            continue                        # given below, in seconds
        # the count as the expressions take it: LIKWID's PWR counters carry their 2^-32 J in the expression
        unsupported = "unsupported" in s._info[i]["flags"]
        names[k].name = e.name             # bytes: the structure keeps them alive
        names[k].value = float("nan") if unsupported else scale(deltas[i])
        k += 1
    if seconds is not None:
        infos[k] = _EventInfo()             # matched by its name
        names[k].name = b"duration_time"
        names[k].value = float(seconds)
        k += 1
    out, errors = {}, {}
    for m in group["metrics"]:
        if m["expr"] is None:
            out[_label(m)] = None     # not evaluable here: group["metrics"][i]["why"] says why
            errors[_label(m)] = m["why"] or "not mapped"
            continue
        if seconds is None and "duration_time" in m["expr"]:
            raise ValueError("metric %r needs the run's time: count duration_time in the set "
                             "(Set.of_group does) or pass seconds=" % m["name"])
        v = ctypes.c_double()
        rc = _metric_eval_events(s.ctx._handle, _enc(m["expr"]), names, infos, k, ctypes.byref(v))
        if rc < 0:                    # n/a, as pmu stat -g prints it; the others still evaluated
            out[_label(m)] = None
            errors[_label(m)] = _fail(rc, "pmu_metric_eval_events")
            continue
        out[_label(m)] = v.value
    s.group_errors = errors
    return out
