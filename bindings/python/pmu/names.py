# SPDX-License-Identifier: MIT
"""Names of enum values and event flags, as the library spells them (lib/names.c)."""

import ctypes

from ._libpmu import _arch_name, _constant_source_name, _flags_format, _kind_name, _source_name
from ._types import _dec


def _source(v):
    """enum pmu_source -> "sysfs", "generic", ... (pmu_source_name)."""
    return _dec(_source_name(v))


def _kind(v):
    """enum pmu_entry_kind -> "kernel", "sysfs", ... (pmu_kind_name)."""
    return _dec(_kind_name(v))


def _constant_source(v):
    """enum pmu_constant_source -> "param", "machine" (pmu_constant_source_name)."""
    return _dec(_constant_source_name(v))


def _arch(v):
    """enum pmu_arch -> "x86", "arm64", ... (pmu_arch_name)."""
    return _dec(_arch_name(v))


def _flag_names(flags):
    """The names of the flags set (the library's, pmu_flags_format), as a list."""
    buf = ctypes.create_string_buffer(512)
    n = _flags_format(flags, buf, len(buf))
    if n >= len(buf):
        buf = ctypes.create_string_buffer(n + 1)
        _flags_format(flags, buf, len(buf))
    return [f for f in _dec(buf.value).split(",") if f]
