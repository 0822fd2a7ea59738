# SPDX-License-Identifier: MIT
"""Metrics: table metrics and MetricExpr expressions evaluated, their events, #constants."""

import ctypes
import errno as _errno

from .errors import _fail
from ._libpmu import (_constant_foreach, _ctx_set_param, _metric_eval, _metric_eval_events, _metric_eval_set,
                      _metric_events, _metric_info, _metric_threshold, _metric_threshold_events)
from .names import _constant_source
from ._types import _dec, _enc, _ConstantCb, _EventInfo, _MetricInfo
from .values import _named_values


def _split_events(s):
    """Split a comma-separated event list, keeping pmu/a=1,b=2/ and {a,b} whole."""
    out, cur, depth, slashes = [], [], 0, 0
    for ch in s:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "/":
            slashes += 1
        if ch == "," and depth == 0 and slashes % 2 == 0:
            out.append("".join(cur))
            cur, slashes = [], 0
            continue
        cur.append(ch)
    if cur:
        out.append("".join(cur))
    return [e for e in out if e]


def _event_infos(values, events):
    """struct pmu_event_info per value of ``values`` (in its order) from
    ``events`` (dict name -> event dict as Context.resolve / Set.event_info
    give): the encoding fields the library matches; a name without an entry
    gets pmu "" (matched by its name)."""
    unknown = [k for k in events if k not in values]
    if unknown:
        raise ValueError("events names %s, which the values do not have" % ", ".join(map(repr, unknown)))
    arr = (_EventInfo * max(len(values), 1))()
    for i, k in enumerate(values):
        e = events.get(k)
        if e is None:
            continue
        arr[i].name = _enc(e["name"])
        arr[i].pmu = _enc(e["pmu"])
        arr[i].type = e["type"]
        for f in ("config", "config1", "config2", "config3"):
            setattr(arr[i], f, e.get(f, 0))
    return arr


def _eval(ctx, name_or_expr, values, events=None):
    """Context.metric (pmu_metric_eval, or pmu_metric_eval_events with ``events``)."""
    arr, n, _keep = _named_values(values)
    out = ctypes.c_double()
    if events is None:
        rc = _metric_eval(ctx._handle, _enc(name_or_expr), arr, n, ctypes.byref(out))
    else:
        rc = _metric_eval_events(ctx._handle, _enc(name_or_expr), arr, _event_infos(values, events), n,
                                 ctypes.byref(out))
    if rc < 0:
        raise _fail(rc, "pmu_metric_eval" if events is None else "pmu_metric_eval_events")
    return out.value


def _threshold(ctx, name, values, events=None):
    """Context.metric_threshold (pmu_metric_threshold, or pmu_metric_threshold_events)."""
    arr, n, _keep = _named_values(values)
    crossed = ctypes.c_int()
    if events is None:
        rc = _metric_threshold(ctx._handle, _enc(name), arr, n, ctypes.byref(crossed))
    else:
        rc = _metric_threshold_events(ctx._handle, _enc(name), arr, _event_infos(values, events), n,
                                      ctypes.byref(crossed))
    if rc == -_errno.ENODATA:
        return None
    if rc < 0:
        raise _fail(rc, "pmu_metric_threshold" if events is None else "pmu_metric_threshold_events")
    return bool(crossed.value)


def _events(ctx, name_or_expr):
    """Context.metric_events (pmu_metric_events)."""
    h = ctx._handle
    b = _enc(name_or_expr)
    need = _metric_events(h, b, None, 0)
    if need < 0:
        raise _fail(need, "pmu_metric_events")
    buf = ctypes.create_string_buffer(need + 1)
    rc = _metric_events(h, b, buf, len(buf))
    if rc < 0:
        raise _fail(rc, "pmu_metric_events")
    return _split_events(_dec(buf.value))


def _info(ctx, name):
    """Context.metric_info (pmu_metric_info)."""
    mi = _MetricInfo()
    rc = _metric_info(ctx._handle, _enc(name), ctypes.byref(mi))
    if rc < 0:
        raise _fail(rc, "pmu_metric_info")
    return {f: _dec(getattr(mi, f)) for f, _ in _MetricInfo._fields_}


def _constants(ctx):
    """Context.constants (pmu_constant_foreach)."""
    out = []

    def cb(cp, _data):
        c = cp.contents
        out.append({"name": _dec(c.name), "value": c.value, "source": _constant_source(c.source),
                    "origin": _dec(c.origin)})
        return 0

    c_cb = _ConstantCb(cb)
    rc = _constant_foreach(ctx._handle, c_cb, None)
    if rc < 0:
        raise _fail(rc, "pmu_constant_foreach")
    return out


def _set_param(ctx, name, value):
    """Context.set_param (pmu_ctx_set_param)."""
    rc = _ctx_set_param(ctx._handle, _enc(name), float(value))
    if rc < 0:
        raise _fail(rc, "pmu_ctx_set_param")


def _eval_set(s, name, deltas):
    """Set.metric (pmu_metric_eval_set)."""
    arr = s._c_values(deltas)
    out = ctypes.c_double()
    rc = _metric_eval_set(s.ctx._handle, _enc(name), s._handle, arr, ctypes.byref(out))
    if rc < 0:
        raise _fail(rc, "pmu_metric_eval_set")
    return out.value
