# SPDX-License-Identifier: MIT
"""Metrics: table metrics and MetricExpr expressions evaluated, their events, #constants."""

import ctypes
import errno as _errno

from .errors import _fail
from ._libpmu import (_constant_foreach, _ctx_set_param, _metric_eval, _metric_eval_set, _metric_events,
                      _metric_info, _metric_threshold)
from .names import _constant_source
from ._types import _dec, _enc, _ConstantCb, _MetricInfo
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


def _eval(ctx, name_or_expr, values):
    """Context.metric (pmu_metric_eval)."""
    arr, n, _keep = _named_values(values)
    out = ctypes.c_double()
    rc = _metric_eval(ctx._handle, _enc(name_or_expr), arr, n, ctypes.byref(out))
    if rc < 0:
        raise _fail(rc, "pmu_metric_eval")
    return out.value


def _threshold(ctx, name, values):
    """Context.metric_threshold (pmu_metric_threshold)."""
    arr, n, _keep = _named_values(values)
    crossed = ctypes.c_int()
    rc = _metric_threshold(ctx._handle, _enc(name), arr, n, ctypes.byref(crossed))
    if rc == -_errno.ENODATA:
        return None
    if rc < 0:
        raise _fail(rc, "pmu_metric_threshold")
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
