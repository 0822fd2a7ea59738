# SPDX-License-Identifier: MIT
"""Counts: Value (value, enabled, running) and their arithmetic, delta, scale and confidence."""

import ctypes
from collections import namedtuple

from ._libpmu import _confidence, _delta, _scale
from ._types import _enc, _NamedValue, _Value


class Value(namedtuple("Value", "value enabled running", module="pmu")):     # pmu.Value, as __init__.py says
    """A count with the times (ns) the kernel reports for it.

    ``value`` events counted, ``enabled`` ns the event was enabled,
    ``running`` ns it was actually on a counter (< enabled when multiplexed).
    ``.scaled`` and ``.confidence`` are :func:`scale` and :func:`confidence`.
    """
    __slots__ = ()

    @property
    def scaled(self):
        return scale(self)

    @property
    def confidence(self):
        return confidence(self)


_MASK64 = (1 << 64) - 1


def _to_c(v, out=None):
    if out is None:
        out = _Value()
    out.value, out.enabled, out.running = (int(x) & _MASK64 for x in v)
    return out


def _from_c(c):
    return Value(c.value, c.enabled, c.running)


def _values_array(values):
    values = list(values)
    arr = (_Value * max(len(values), 1))()
    for i, v in enumerate(values):
        _to_c(v, arr[i])
    return arr, len(values)


def _is_single(v):
    return isinstance(v, Value) or (isinstance(v, tuple) and len(v) == 3 and
                                    all(isinstance(x, int) for x in v))


def delta(a, b):
    """``b - a`` for value, enabled and running, modulo 2**64 (pmu_delta).

    ``a`` and ``b`` are two :class:`Value` s, or two equally long sequences
    of them (two reads of a set); returns the same shape.
    """
    if _is_single(a) and _is_single(b):
        return delta([a], [b])[0]
    ca, n = _values_array(a)
    cb, nb = _values_array(b)
    if n != nb:
        raise ValueError("delta: %d values and %d values" % (n, nb))
    out = (_Value * max(n, 1))()
    _delta(ca, cb, n, out)
    return [_from_c(out[i]) for i in range(n)]


def scale(v):
    """The count extrapolated to the whole enabled time (pmu_scale):
    ``value * enabled / running`` rounded; 0 if it never ran."""
    return _scale(ctypes.byref(_to_c(v)))


def confidence(v):
    """``running / enabled`` in [0, 1] (pmu_confidence): 1.0 exact, less
    means multiplexed (the scaled count is an estimate), 0.0 never counted."""
    return _confidence(ctypes.byref(_to_c(v)))


def _named_values(values):
    """dict name -> number (or Value, scaled) -> (array, n, keep-alive)."""
    items = list(values.items())
    arr = (_NamedValue * max(len(items), 1))()
    keep = []
    for i, (k, v) in enumerate(items):
        b = _enc(k)
        keep.append(b)
        arr[i].name = b
        arr[i].value = float(scale(v) if _is_single(v) else v)
    return arr, len(items), keep

