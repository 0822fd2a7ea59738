# SPDX-License-Identifier: MIT
"""The C side's data: <pmu.h>'s structures and callbacks as ctypes types, str as char *."""

import ctypes
import os

PMU_UNKNOWN = -1000
PMU_NAME_MAX = 128

_c_int_p = ctypes.POINTER(ctypes.c_int)
_c_double_p = ctypes.POINTER(ctypes.c_double)
_c_u64_p = ctypes.POINTER(ctypes.c_uint64)

_LogFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p)


class _CtxOpts(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("log_fn", _LogFn),
        ("log_data", ctypes.c_void_p),
        ("log_level", ctypes.c_int),
        ("sysfs_root", ctypes.c_char_p),
        ("procfs_root", ctypes.c_char_p),
        ("cpuid", ctypes.c_char_p),
        ("events_path", ctypes.c_char_p),
    ]


class _Caps(ctypes.Structure):
    _fields_ = [
        ("arch", ctypes.c_int),
        ("cpuid", ctypes.c_char * 64),
        ("cpu_name", ctypes.c_char * 128),
        ("cpuid_overridden", ctypes.c_int),
        ("hw_pmu", ctypes.c_int),
        ("hybrid", ctypes.c_int),
        ("core_pmu", ctypes.c_char * 64),
        ("n_pmus", ctypes.c_uint),
        ("paranoid", ctypes.c_int),
        ("cap_perfmon", ctypes.c_int),
        ("cap_sys_admin", ctypes.c_int),
        ("rdpmc_mode", ctypes.c_int),
        ("user_access", ctypes.c_int),
        ("fast_read", ctypes.c_int),
        ("can_count_kernel", ctypes.c_int),
        ("events_table", ctypes.c_char * 128),
        ("events_table_root", ctypes.c_char * 256),
    ]


class _PmuInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * 64),
        ("type", ctypes.c_uint32),
        ("is_core", ctypes.c_int),
        ("n_formats", ctypes.c_uint),
        ("n_events", ctypes.c_uint),
        ("cpus", ctypes.c_char * 128),
        ("cpuid", ctypes.c_char * 64),
        ("core_type", ctypes.c_char * 96),
        ("events_table", ctypes.c_char * 64),
    ]


class _EventInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * PMU_NAME_MAX),
        ("pmu", ctypes.c_char * 64),
        ("type", ctypes.c_uint32),
        ("boxes", ctypes.c_uint32),
        ("config", ctypes.c_uint64),
        ("config1", ctypes.c_uint64),
        ("config2", ctypes.c_uint64),
        ("config3", ctypes.c_uint64),
        ("flags", ctypes.c_uint),
        ("source", ctypes.c_int),
        ("origin", ctypes.c_char * 256),
        ("desc", ctypes.c_char_p),
        ("unit", ctypes.c_char_p),
        ("note", ctypes.c_char_p),
        ("approx_note", ctypes.c_char_p),
    ]


class _EventEntry(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("pmu", ctypes.c_char_p),
        ("desc", ctypes.c_char_p),
        ("source", ctypes.c_int),
        ("kind", ctypes.c_int),
        ("usable", ctypes.c_int),
        ("long_desc", ctypes.c_char_p),
    ]


_EventCb = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(_EventEntry), ctypes.c_void_p)


class _ConstantInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("value", ctypes.c_double),
        ("source", ctypes.c_int),
        ("origin", ctypes.c_char_p),
    ]


_ConstantCb = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(_ConstantInfo), ctypes.c_void_p)
_ProblemCb = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p)


class _SetOpts(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("flags", ctypes.c_uint),
        ("pid", ctypes.c_int),          # pid_t
        ("cpu", ctypes.c_int),
        ("cgroup_fd", ctypes.c_int),    # read with PMU_SET_CGROUP only
    ]


class _Value(ctypes.Structure):
    _fields_ = [
        ("value", ctypes.c_uint64),
        ("enabled", ctypes.c_uint64),
        ("running", ctypes.c_uint64),
    ]


class _CopyValue(ctypes.Structure):
    _fields_ = [
        ("cpu", ctypes.c_int),
        ("package", ctypes.c_int),
        ("box", ctypes.c_uint32),
        ("reserved", ctypes.c_uint32),
        ("value", _Value),
    ]


class _NamedValue(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("value", ctypes.c_double)]


class _MetricInfo(ctypes.Structure):
    _fields_ = [(f, ctypes.c_char_p) for f in
                ("name", "expr", "desc", "group", "scale_unit", "threshold", "params", "file")]


class _Topdown(ctypes.Structure):
    _fields_ = [(f, ctypes.c_double) for f in
                ("retiring", "bad_spec", "fe_bound", "be_bound",
                 "heavy_ops", "light_ops", "br_mispredict", "machine_clears",
                 "fetch_lat", "fetch_bw", "mem_bound", "core_bound")] + [
        ("slots", ctypes.c_uint64),
        ("level", ctypes.c_int),
        ("flags", ctypes.c_uint),
    ]


class _RegionResult(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("tid", ctypes.c_long),
        ("calls", ctypes.c_uint64),
        ("nvalues", ctypes.c_size_t),
        ("events", ctypes.POINTER(ctypes.c_char_p)),
        ("values", ctypes.POINTER(_Value)),
        ("min", _c_u64_p),
        ("max", _c_u64_p),
        ("unsupported", ctypes.c_uint32),
        ("socket_wide", ctypes.c_uint32),
        ("intervals", ctypes.c_uint64),
    ]


_RegionCb = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(_RegionResult), ctypes.c_void_p)

class _GroupEvent(ctypes.Structure):
    _fields_ = [(f, ctypes.c_char_p) for f in ("counter", "likwid", "event", "why")]


class _GroupMetric(ctypes.Structure):
    _fields_ = [(f, ctypes.c_char_p) for f in ("name", "unit", "formula", "expr", "why")]


class _GroupInfo(ctypes.Structure):
    _fields_ = [(f, ctypes.c_char_p) for f in ("name", "arch", "path", "short_desc", "long_desc", "events")] + [
        ("nevents", ctypes.c_size_t),
        ("event", ctypes.POINTER(_GroupEvent)),
        ("nmetrics", ctypes.c_size_t),
        ("metric", ctypes.POINTER(_GroupMetric)),
        ("clock", ctypes.c_char_p),
    ]


_GroupCb = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                            ctypes.c_void_p)

_P = ctypes.c_void_p        # opaque handles (struct pmu_ctx *, struct pmu_set *)
_I = ctypes.c_int
_S = ctypes.c_char_p


def _enc(s):
    """A str, bytes or path as the C string libpmu takes. A NUL inside would end it there: what follows
    would be silently dropped (a name cut short, a list of events shorter than asked), so it is refused."""
    if s is None:
        return None
    if isinstance(s, bytes):
        b = s
    else:
        b = os.fsencode(s) if isinstance(s, os.PathLike) else str(s).encode("utf-8")
    if b"\0" in b:
        raise ValueError("%r holds a NUL character, which would end the C string there; remove it" % (s,))
    return b


def _dec(b):
    return b.decode("utf-8", "replace") if b is not None else ""
