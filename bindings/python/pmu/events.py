# SPDX-License-Identifier: MIT
"""Events: a name resolved to its encoding, the names known, event tables checked."""

import ctypes

from .errors import _fail
from ._libpmu import _event_foreach, _event_resolve, _event_resolve_each, _event_scale, _libpfm_event_foreach, _tables_check
from .names import _flag_names, _kind, _source
from ._types import _dec, _enc, _EventCb, _EventInfo, _ProblemCb


def _event_dict(e):
    """struct pmu_event_info as the dict Context.resolve returns."""
    return {
        "name": _dec(e.name),
        "pmu": _dec(e.pmu),
        "type": e.type,
        "boxes": e.boxes,
        "config": e.config,
        "config1": e.config1,
        "config2": e.config2,
        "config3": e.config3,
        "source": _source(e.source),
        "origin": _dec(e.origin),
        "desc": _dec(e.desc),
        "unit": _dec(e.unit),
        "note": _dec(e.note),
        "approx_note": _dec(e.approx_note),
        "flags": _flag_names(e.flags),
    }


def _resolve(ctx, name):
    """Context.resolve (pmu_event_resolve)."""
    e = _EventInfo()
    rc = _event_resolve(ctx._handle, _enc(name), ctypes.byref(e))
    if rc < 0:
        raise _fail(rc, "pmu_event_resolve")
    d = _event_dict(e)
    # the factor from a count to "unit" (pmu_event_scale): RAPL's 2^-32 Joules, ...; 1.0 elsewhere
    scale = ctypes.c_double(1.0)
    rc = _event_scale(ctx._handle, ctypes.byref(e), ctypes.byref(scale))
    if rc < 0:
        raise _fail(rc, "pmu_event_scale")
    d["unit_scale"] = scale.value
    return d


def _resolve_each(ctx, name):
    """Context.resolve_each (pmu_event_resolve_each): every part, as dicts."""
    n = 8
    while True:
        arr = (_EventInfo * n)()
        rc = _event_resolve_each(ctx._handle, _enc(name), arr, n)
        if rc < 0:
            raise _fail(rc, "pmu_event_resolve_each")
        if rc <= n:
            return [_event_dict(arr[i]) for i in range(rc)]
        n = rc


def _list(ctx, prefix="", libpfm=False):
    """Context.list (pmu_event_foreach), Context.list_libpfm (pmu_libpfm_event_foreach)."""
    out = []
    err = []

    def cb(ep, _data):
        try:
            e = ep.contents
            out.append({"name": _dec(e.name), "pmu": _dec(e.pmu), "desc": _dec(e.desc),
                        "long_desc": _dec(e.long_desc), "source": _source(e.source),
                        "kind": _kind(e.kind), "usable": bool(e.usable)})
            return 0
        except BaseException as x:          # stop, re-raised below
            err.append(x)
            return 1

    c_cb = _EventCb(cb)
    fn, fname = (_libpfm_event_foreach, "pmu_libpfm_event_foreach") if libpfm else (_event_foreach, "pmu_event_foreach")
    rc = fn(ctx._handle, _enc(prefix or ""), c_cb, None)
    if rc < 0:
        raise _fail(rc, fname)
    if err:
        raise err[0]
    return out


def _check_tables(ctx, directory, notes=False):
    """Context.check_tables (pmu_tables_check)."""
    problems = []

    def cb(_data, f, entry, msg):
        m = _dec(msg)
        is_note = m.startswith("note: ")
        if is_note and not notes:
            return
        d = {"file": _dec(f), "entry": _dec(entry) if entry is not None else None, "message": m}
        if notes:
            d["note"] = is_note
        problems.append(d)

    c_cb = _ProblemCb(cb)
    rc = _tables_check(ctx._handle, _enc(directory), c_cb, None)
    if rc < 0:
        raise _fail(rc, "pmu_tables_check")
    return problems
