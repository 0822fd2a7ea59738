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
"""

import contextlib
import ctypes
import ctypes.util
import errno as _errno
import math
import os
import weakref
from collections import namedtuple

# the version of this package, equal to meson.build's project version (checked by
# tests/test-version.sh); version() gives the loaded library's
__version__ = "0.1.0"

__all__ = [
    "PmuError", "Context", "Set", "Value", "version", "delta", "scale", "confidence",
    "region", "region_configure", "region_report", "region_reset", "region_results", "region_overhead",
    "have_regions", "library_path",
]

# ---------------------------------------------------------------------------
# Loading the library
# ---------------------------------------------------------------------------


def _load():
    tried = []
    env = os.environ.get("PMU_LIBRARY")
    if env:
        # an explicit choice: no silent fallback to another library
        try:
            return ctypes.CDLL(env), env
        except OSError as e:
            raise ImportError("pmu: cannot load libpmu from $PMU_LIBRARY=%s: %s" % (env, e)) from e
    tried.append("$PMU_LIBRARY (not set)")

    found = ctypes.util.find_library("pmu")
    if found:
        try:
            return ctypes.CDLL(found), found
        except OSError as e:
            tried.append('ctypes.util.find_library("pmu") -> %s: %s' % (found, e))
    else:
        tried.append('ctypes.util.find_library("pmu") (nothing found)')

    here = os.path.dirname(os.path.abspath(__file__))        # <repo>/bindings/python/pmu
    repo = os.path.normpath(os.path.join(here, "..", "..", ".."))
    local = os.path.join(repo, "build", "lib", "libpmu.so")
    if os.path.exists(local):
        try:
            return ctypes.CDLL(local), local
        except OSError as e:
            tried.append("%s: %s" % (local, e))
    else:
        tried.append("%s (no such file)" % local)
    raise ImportError("pmu: libpmu.so not found; tried " + "; ".join(tried) +
                      ". Build it (meson setup build && ninja -C build), install it, "
                      "or set PMU_LIBRARY=/path/to/libpmu.so")


_lib, library_path = _load()

# ---------------------------------------------------------------------------
# C declarations (include/pmu.h)
# ---------------------------------------------------------------------------

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
    ]


class _EventInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * PMU_NAME_MAX),
        ("pmu", ctypes.c_char * 64),
        ("type", ctypes.c_uint32),
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
_CONST_SOURCE = {1: "param", 2: "machine"}
_ProblemCb = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p)


class _SetOpts(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("flags", ctypes.c_uint),
        ("pid", ctypes.c_int),          # pid_t
        ("cpu", ctypes.c_int),
    ]


class _Value(ctypes.Structure):
    _fields_ = [
        ("value", ctypes.c_uint64),
        ("enabled", ctypes.c_uint64),
        ("running", ctypes.c_uint64),
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
    ]


_RegionCb = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(_RegionResult), ctypes.c_void_p)

_P = ctypes.c_void_p        # opaque handles (struct pmu_ctx *, struct pmu_set *)
_I = ctypes.c_int
_S = ctypes.c_char_p


def _declare(name, restype, argtypes, required=True):
    try:
        f = getattr(_lib, name)
    except AttributeError:
        if required:
            raise ImportError("pmu: %s does not export %s: is it an older libpmu?"
                              % (library_path, name)) from None
        return None
    f.restype = restype
    f.argtypes = argtypes
    return f


_version = _declare("pmu_version", _S, [])
_strerror = _declare("pmu_strerror", _S, [_I])
_ctx_new = _declare("pmu_ctx_new", _I, [ctypes.POINTER(_P), ctypes.POINTER(_CtxOpts)])
_ctx_free = _declare("pmu_ctx_free", None, [_P])
_caps = _declare("pmu_caps", _I, [_P, ctypes.POINTER(_Caps)])
_pmu_count = _declare("pmu_pmu_count", ctypes.c_size_t, [_P])
_pmu_get = _declare("pmu_pmu_get", _I, [_P, ctypes.c_size_t, ctypes.POINTER(_PmuInfo)])
_advice = _declare("pmu_advice", _I, [_P, ctypes.c_char_p, ctypes.c_size_t])
_event_resolve = _declare("pmu_event_resolve", _I, [_P, _S, ctypes.POINTER(_EventInfo)])
_event_foreach = _declare("pmu_event_foreach", _I, [_P, _S, _EventCb, ctypes.c_void_p])
_tables_check = _declare("pmu_tables_check", _I, [_P, _S, _ProblemCb, ctypes.c_void_p])
_constant_foreach = _declare("pmu_constant_foreach", _I, [_P, _ConstantCb, ctypes.c_void_p])
_arch_name = _declare("pmu_arch_name", _S, [_I])
_source_name = _declare("pmu_source_name", _S, [_I])
_kind_name = _declare("pmu_kind_name", _S, [_I])
_flags_format = _declare("pmu_flags_format", _I, [ctypes.c_uint, ctypes.c_char_p, ctypes.c_size_t])
_set_open = _declare("pmu_set_open", _I, [_P, _S, ctypes.POINTER(_SetOpts), ctypes.POINTER(_P)])
_set_close = _declare("pmu_set_close", None, [_P])
_set_enable = _declare("pmu_set_enable", _I, [_P])
_set_disable = _declare("pmu_set_disable", _I, [_P])
_set_reset = _declare("pmu_set_reset", _I, [_P])
_set_count = _declare("pmu_set_count", ctypes.c_size_t, [_P])
_set_event = _declare("pmu_set_event", _I, [_P, ctypes.c_size_t, ctypes.POINTER(_EventInfo)])
_set_group_of = _declare("pmu_set_group_of", _I, [_P, ctypes.c_size_t])
_set_read = _declare("pmu_set_read", _I, [_P, ctypes.POINTER(_Value)])
_set_read_syscall = _declare("pmu_set_read_syscall", _I, [_P, ctypes.POINTER(_Value)])
_delta = _declare("pmu_delta", None, [ctypes.POINTER(_Value), ctypes.POINTER(_Value), ctypes.c_size_t,
                                      ctypes.POINTER(_Value)])
_scale = _declare("pmu_scale", ctypes.c_uint64, [ctypes.POINTER(_Value)])
_confidence = _declare("pmu_confidence", ctypes.c_double, [ctypes.POINTER(_Value)])
_metric_eval = _declare("pmu_metric_eval", _I, [_P, _S, ctypes.POINTER(_NamedValue), ctypes.c_size_t,
                                                _c_double_p])
_metric_eval_set = _declare("pmu_metric_eval_set", _I, [_P, _S, _P, ctypes.POINTER(_Value), _c_double_p])
_metric_threshold = _declare("pmu_metric_threshold", _I, [_P, _S, ctypes.POINTER(_NamedValue),
                                                          ctypes.c_size_t, _c_int_p])
_metric_events = _declare("pmu_metric_events", _I, [_P, _S, ctypes.c_char_p, ctypes.c_size_t])
_metric_info = _declare("pmu_metric_info", _I, [_P, _S, ctypes.POINTER(_MetricInfo)])
_ctx_set_param = _declare("pmu_ctx_set_param", _I, [_P, _S, ctypes.c_double])
_topdown_from_set = _declare("pmu_topdown_from_set", _I, [_P, ctypes.POINTER(_Value), ctypes.POINTER(_Topdown)])
_topdown_from_named = _declare("pmu_topdown_from_named", _I, [_P, ctypes.POINTER(_NamedValue), ctypes.c_size_t,
                                                              ctypes.POINTER(_Topdown)])

# Regions (lib/region.c): optional, so that a libpmu built before they existed still loads.
_region_begin = _declare("pmu_region_begin", _I, [_S], required=False)
_region_end = _declare("pmu_region_end", _I, [_S], required=False)
_region_configure = _declare("pmu_region_configure", _I, [_S, _I], required=False)
_region_report = _declare("pmu_region_report", _I, [_S, _I, _I], required=False)
_region_reset = _declare("pmu_region_reset", None, [], required=False)
_region_foreach = _declare("pmu_region_foreach", _I, [_I, _RegionCb, ctypes.c_void_p], required=False)
_region_overhead = _declare("pmu_region_overhead", _I, [_c_u64_p, ctypes.c_size_t], required=False)

# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


class PmuError(OSError):
    """A libpmu call failed.

    ``errno`` is the positive errno (``errno.ENOENT`` for an unknown event,
    ``EINVAL`` for bad syntax, ``EACCES``/``EPERM`` when not permitted, ...);
    ``strerror`` (also ``str(e)``) is libpmu's sentence naming the event, the
    cause and the fix; ``function`` is the C function that failed.
    """

    def __init__(self, err, message, function=None):
        super().__init__(err, message)
        self.function = function

    def __str__(self):
        return self.strerror


def _fail(rc, function):
    """Build the PmuError for a negative return code; call right after the failing call."""
    msg = _strerror(rc)                 # same thread, before any other libpmu call
    msg = msg.decode("utf-8", "replace") if msg else os.strerror(-rc)
    return PmuError(-rc, msg, function)


def _check(rc, function):
    if rc < 0:
        raise _fail(rc, function)
    return rc


def _enc(s):
    if s is None:
        return None
    if isinstance(s, bytes):
        return s
    return os.fsencode(s) if isinstance(s, os.PathLike) else str(s).encode("utf-8")


def _dec(b):
    return b.decode("utf-8", "replace") if b is not None else ""


def version():
    """The version of the loaded libpmu, "MAJOR.MINOR.MICRO"."""
    return _dec(_version())


# ---------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------


class Value(namedtuple("Value", "value enabled running")):
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


# ---------------------------------------------------------------------------
# Context
# ---------------------------------------------------------------------------

def _flag_names(flags):
    """The names of the flags set (the library's, pmu_flags_format), as a list."""
    buf = ctypes.create_string_buffer(512)
    n = _flags_format(flags, buf, len(buf))
    if n >= len(buf):
        buf = ctypes.create_string_buffer(n + 1)
        _flags_format(flags, buf, len(buf))
    return [f for f in _dec(buf.value).split(",") if f]


_FORMATS = {"text": 0, "json": 1, "csv": 2}

LOG_ERR, LOG_WARN, LOG_INFO, LOG_DEBUG = 3, 4, 6, 7


def _event_dict(e):
    return {
        "name": _dec(e.name),
        "pmu": _dec(e.pmu),
        "type": e.type,
        "config": e.config,
        "config1": e.config1,
        "config2": e.config2,
        "config3": e.config3,
        "source": _dec(_source_name(e.source)),
        "origin": _dec(e.origin),
        "desc": _dec(e.desc),
        "unit": _dec(e.unit),
        "note": _dec(e.note),
        "approx_note": _dec(e.approx_note),
        "flags": _flag_names(e.flags),
    }


def _unknown(v):
    return None if v == PMU_UNKNOWN else v


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


def _topdown_dict(t):
    d = {f: getattr(t, f) for f, _ in _Topdown._fields_[:12]}
    if t.level < 2:
        for f in ("heavy_ops", "light_ops", "br_mispredict", "machine_clears",
                  "fetch_lat", "fetch_bw", "mem_bound", "core_bound"):
            d[f] = math.nan
    d["slots"] = t.slots
    d["level"] = t.level
    d["reset"] = bool(t.flags & 1)
    return d


class Context:
    """A libpmu context: the CPU, its PMUs, event tables and access settings.

    ``Context(cpuid=None, sysfs_root=None, events_path=None)``; ``cpuid``
    assumes another CPU ("GenuineIntel-6-55-4": its tables are used, counting
    still happens here), ``sysfs_root`` replaces /sys (fixture trees),
    ``events_path`` adds event-table directories (":"-separated or a list).
    ``None`` means the library default ($PMU_CPUID, $PMU_SYSFS_ROOT, ...).

    Messages the library logs are collected: ``ctx.warnings`` holds the
    warning lines, ``ctx.log`` every ``(level, message)`` up to ``log_level``
    (errors also raise :class:`PmuError`). Use as a context manager or call
    :meth:`close`; sets opened from the context are closed with it.
    A context may be shared between threads for resolution and listing.
    """

    def __init__(self, cpuid=None, sysfs_root=None, events_path=None, procfs_root=None,
                 log_level=LOG_WARN):
        self.warnings = []
        self.log = []
        if events_path is not None and not isinstance(events_path, (str, bytes, os.PathLike)):
            events_path = ":".join(os.fspath(p) for p in events_path)
        self._keep = [_enc(cpuid), _enc(sysfs_root), _enc(procfs_root), _enc(events_path)]
        warnings, log = self.warnings, self.log

        def on_log(_data, level, msg):      # never calls libpmu
            m = _dec(msg)
            log.append((level, m))
            if level == LOG_WARN:
                warnings.append(m)

        self._log_cb = _LogFn(on_log)
        opts = _CtxOpts()
        opts.size = ctypes.sizeof(_CtxOpts)
        opts.log_fn = self._log_cb
        opts.log_level = int(log_level)
        opts.cpuid, opts.sysfs_root, opts.procfs_root, opts.events_path = self._keep
        h = _P()
        rc = _ctx_new(ctypes.byref(h), ctypes.byref(opts))
        if rc < 0:
            raise _fail(rc, "pmu_ctx_new")
        self._h = h
        self._sets = weakref.WeakSet()
        # the callback object must outlive the C context: the finalizer holds it
        self._finalizer = weakref.finalize(self, _ctx_free, h, self._log_cb)

    # -- lifetime --
    @property
    def _handle(self):
        if self._h is None:
            raise ValueError("pmu.Context is closed")
        return self._h

    def close(self):
        """Close every set opened from this context, then free the context."""
        if self._h is None:
            return
        for s in list(self._sets):
            s.close()
        self._h = None
        self._finalizer()

    @property
    def closed(self):
        return self._h is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        if self._h is None:
            return "<pmu.Context closed>"
        return "<pmu.Context cpuid=%r>" % self.caps()["cpuid"]

    # -- machine --
    def caps(self):
        """What the machine (or assumed CPU) offers, as a dict (struct pmu_caps).

        Keys: arch ("x86", "arm64", "riscv", "unknown"), cpuid, cpu_name,
        cpuid_overridden, hw_pmu, hybrid, core_pmu, n_pmus, paranoid,
        cap_perfmon, cap_sys_admin, rdpmc_mode, user_access, fast_read,
        can_count_kernel, events_table, events_table_root. Unknown numbers are
        None; yes/no fields are bools.
        """
        c = _Caps()
        rc = _caps(self._handle, ctypes.byref(c))
        if rc < 0:
            raise _fail(rc, "pmu_caps")
        return {
            "arch": _dec(_arch_name(c.arch)),
            "cpuid": _dec(c.cpuid),
            "cpu_name": _dec(c.cpu_name),
            "cpuid_overridden": bool(c.cpuid_overridden),
            "hw_pmu": bool(c.hw_pmu),
            "hybrid": c.hybrid,
            "core_pmu": _dec(c.core_pmu),
            "n_pmus": c.n_pmus,
            "paranoid": _unknown(c.paranoid),
            "cap_perfmon": bool(c.cap_perfmon),
            "cap_sys_admin": bool(c.cap_sys_admin),
            "rdpmc_mode": _unknown(c.rdpmc_mode),
            "user_access": _unknown(c.user_access),
            "fast_read": bool(c.fast_read),
            "can_count_kernel": bool(c.can_count_kernel),
            "events_table": _dec(c.events_table),
            "events_table_root": _dec(c.events_table_root),
        }

    def pmus(self):
        """The PMUs under <sysfs>/bus/event_source/devices: list of dicts
        (name, type, is_core, n_formats, n_events)."""
        h = self._handle
        out = []
        for i in range(_pmu_count(h)):
            p = _PmuInfo()
            rc = _pmu_get(h, i, ctypes.byref(p))
            if rc < 0:
                raise _fail(rc, "pmu_pmu_get")
            out.append({"name": _dec(p.name), "type": p.type, "is_core": bool(p.is_core),
                        "n_formats": p.n_formats, "n_events": p.n_events})
        return out

    def advice(self):
        """Plain-language statement about access and hardware, with what to change."""
        h = self._handle
        need = _advice(h, None, 0)
        if need < 0:
            raise _fail(need, "pmu_advice")
        buf = ctypes.create_string_buffer(need + 1)
        rc = _advice(h, buf, len(buf))
        if rc < 0:
            raise _fail(rc, "pmu_advice")
        return _dec(buf.value)

    # -- events --
    def resolve(self, name):
        """Resolve an event name to its perf_event_attr encoding.

        Returns a dict: name, pmu, type, config, config1..config3 (ints),
        source (the library's pmu_source_name: "sysfs", "generic", "raw",
        "table", "libpfm4", "tracepoint", "tool"), origin, desc, unit, note,
        approx_note, flags (list of the names pmu_flags_format gives, e.g.
        "software", "exclude-kernel", "precise=2"). Raises PmuError (ENOENT
        with the closest names, EINVAL for bad syntax).
        """
        e = _EventInfo()
        rc = _event_resolve(self._handle, _enc(name), ctypes.byref(e))
        if rc < 0:
            raise _fail(rc, "pmu_event_resolve")
        return _event_dict(e)

    def list(self, prefix=""):
        """Every event (and metric) name known here starting with ``prefix``
        (case-insensitive): list of dicts (name, pmu, desc, source, kind
        ("kernel", "sysfs", "standard", "native", "metric"), usable)."""
        out = []
        err = []

        def cb(ep, _data):
            try:
                e = ep.contents
                out.append({"name": _dec(e.name), "pmu": _dec(e.pmu), "desc": _dec(e.desc),
                            "source": _dec(_source_name(e.source)),
                            "kind": _dec(_kind_name(e.kind)), "usable": bool(e.usable)})
                return 0
            except BaseException as x:          # stop, re-raised below
                err.append(x)
                return 1

        c_cb = _EventCb(cb)
        rc = _event_foreach(self._handle, _enc(prefix or ""), c_cb, None)
        if rc < 0:
            raise _fail(rc, "pmu_event_foreach")
        if err:
            raise err[0]
        return out

    def check_tables(self, directory, notes=False):
        """Validate event tables in ``directory`` (pmu_tables_check): a list of
        problems, each a dict (file, entry or None, message); [] when clean.
        With ``notes=True`` the notes too (what this machine cannot tell, such
        as a PMU it does not have; messages starting "note: "), each dict with
        ``note`` True, problems with ``note`` False."""
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
        rc = _tables_check(self._handle, _enc(directory), c_cb, None)
        if rc < 0:
            raise _fail(rc, "pmu_tables_check")
        return problems

    # -- metrics --
    def metric(self, name_or_expr, values):
        """Evaluate a table metric or a MetricExpr expression over ``values``
        (dict: name -> number, or -> Value, which is scaled). Names in an
        expression that contain '-' must be escaped ("page\\\\-faults").
        Division by zero gives NaN. Raises PmuError: ENOENT (lists the
        missing values), EINVAL (syntax: gives the position), ELOOP."""
        arr, n, _keep = _named_values(values)
        out = ctypes.c_double()
        rc = _metric_eval(self._handle, _enc(name_or_expr), arr, n, ctypes.byref(out))
        if rc < 0:
            raise _fail(rc, "pmu_metric_eval")
        return out.value

    def metric_threshold(self, name, values):
        """Whether the metric's MetricThreshold holds for ``values``; None if
        the metric has no threshold."""
        arr, n, _keep = _named_values(values)
        crossed = ctypes.c_int()
        rc = _metric_threshold(self._handle, _enc(name), arr, n, ctypes.byref(crossed))
        if rc == -_errno.ENODATA:
            return None
        if rc < 0:
            raise _fail(rc, "pmu_metric_threshold")
        return bool(crossed.value)

    def metric_events(self, name_or_expr):
        """The events a metric or expression needs (deduplicated, metric
        references expanded), as a list of names to open in a :class:`Set`."""
        h = self._handle
        b = _enc(name_or_expr)
        need = _metric_events(h, b, None, 0)
        if need < 0:
            raise _fail(need, "pmu_metric_events")
        buf = ctypes.create_string_buffer(need + 1)
        rc = _metric_events(h, b, buf, len(buf))
        if rc < 0:
            raise _fail(rc, "pmu_metric_events")
        return _split_events(_dec(buf.value))

    def metric_info(self, name):
        """Describe a table metric: dict (name, expr, desc, group, scale_unit,
        threshold, params, file). PmuError ENOENT if there is none."""
        mi = _MetricInfo()
        rc = _metric_info(self._handle, _enc(name), ctypes.byref(mi))
        if rc < 0:
            raise _fail(rc, "pmu_metric_info")
        return {f: _dec(getattr(mi, f)) for f, _ in _MetricInfo._fields_}

    def constants(self):
        """The #constants metric expressions get here (pmu_constant_foreach):
        a list of dicts (name, value, source "param" (set_param) or "machine",
        origin: where it was read). Recorded where counts are taken and given
        to :meth:`set_param` where they are evaluated, metrics use the counting
        machine's topology."""
        out = []

        def cb(cp, _data):
            c = cp.contents
            out.append({"name": _dec(c.name), "value": c.value, "source": _CONST_SOURCE.get(c.source, str(c.source)),
                        "origin": _dec(c.origin)})
            return 0

        c_cb = _ConstantCb(cb)
        rc = _constant_foreach(self._handle, c_cb, None)
        if rc < 0:
            raise _fail(rc, "pmu_constant_foreach")
        return out

    def set_param(self, name, value):
        """Set a #constant for metric evaluation (MetricParams like "a", or
        machine constants like "slots"). Not safe against concurrent
        evaluation on the same context."""
        rc = _ctx_set_param(self._handle, _enc(name), float(value))
        if rc < 0:
            raise _fail(rc, "pmu_ctx_set_param")

    def topdown(self, values):
        """Topdown fractions from named counts (dict name -> number or Value),
        e.g. a saved run; see :meth:`Set.topdown` for the result."""
        arr, n, _keep = _named_values(values)
        t = _Topdown()
        rc = _topdown_from_named(self._handle, arr, n, ctypes.byref(t))
        if rc < 0:
            raise _fail(rc, "pmu_topdown_from_named")
        return _topdown_dict(t)


# ---------------------------------------------------------------------------
# Sets
# ---------------------------------------------------------------------------

_SET_PID, _SET_CPU, _SET_INHERIT, _SET_ENABLE_ON_EXEC = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_SET_ENABLE, _SET_NO_FAST, _SET_USER_ONLY, _SET_SKIP_UNSUPPORTED = 1 << 4, 1 << 5, 1 << 6, 1 << 7


class Set:
    """An open event list (perf_event groups).

    ``Set(ctx, events, pid=None, cpu=None, enable=False, inherit=False,
    skip_unsupported=False, user_only=False, no_fast=False,
    enable_on_exec=False)``

    ``events`` is "a,b,{c,d}" (braces: one group, always counted together)
    or a list of names. By default the calling thread is counted, on any
    CPU, opened disabled. ``pid`` counts another task (-1 with ``cpu``:
    every task on that CPU); ``cpu`` restricts to one CPU. With
    ``skip_unsupported`` events the kernel cannot count stay in the set,
    flagged "unsupported", reading 0 with enabled == running == 0.

    As a context manager: enables on enter, disables on exit, and leaves
    the block's counts in ``.delta`` (a list of :class:`Value`); the set
    stays open (``close()`` or garbage collection closes it). A set belongs
    to one thread at a time; the context must stay open while it is used.
    """

    def __init__(self, ctx, events, pid=None, cpu=None, enable=False, inherit=False,
                 skip_unsupported=False, user_only=False, no_fast=False, enable_on_exec=False):
        if not isinstance(events, (str, bytes)):
            events = ",".join(events)
        opts = _SetOpts()
        opts.size = ctypes.sizeof(_SetOpts)
        flags = 0
        if pid is not None:
            flags |= _SET_PID
            opts.pid = int(pid)
        if cpu is not None:
            flags |= _SET_CPU
            opts.cpu = int(cpu)
        if enable:
            flags |= _SET_ENABLE
        if inherit:
            flags |= _SET_INHERIT
        if skip_unsupported:
            flags |= _SET_SKIP_UNSUPPORTED
        if user_only:
            flags |= _SET_USER_ONLY
        if no_fast:
            flags |= _SET_NO_FAST
        if enable_on_exec:
            flags |= _SET_ENABLE_ON_EXEC
        opts.flags = flags
        h = _P()
        rc = _set_open(ctx._handle, _enc(events), ctypes.byref(opts), ctypes.byref(h))
        if rc < 0:
            raise _fail(rc, "pmu_set_open")
        self._h = h
        self.ctx = ctx
        self._finalizer = weakref.finalize(self, _set_close, h)
        ctx._sets.add(self)
        self._n = _set_count(h)
        self._buf = (_Value * max(self._n, 1))()
        infos = []
        for i in range(self._n):
            e = _EventInfo()
            rc = _set_event(h, i, ctypes.byref(e))
            if rc < 0:
                raise _fail(rc, "pmu_set_event")
            d = _event_dict(e)
            d["group"] = _set_group_of(h, i)
            infos.append(d)
        self._info = infos
        self.delta = None
        self._before = None

    @property
    def _handle(self):
        if self._h is None:
            raise ValueError("pmu.Set is closed")
        return self._h

    def close(self):
        """Disable, unmap and close the set (idempotent)."""
        if self._h is None:
            return
        self._h = None
        self._finalizer()

    @property
    def closed(self):
        return self._h is None

    def __len__(self):
        return self._n

    @property
    def events(self):
        """The event names, one per value of a read."""
        return [e["name"] for e in self._info]

    def event_info(self):
        """The resolved events (dicts as :meth:`Context.resolve`, plus "group":
        events with the same number are read together)."""
        return [dict(e) for e in self._info]

    def read(self):
        """Read every event (pmu_set_read: user-space counter reads where
        possible, read(2) otherwise): a list of :class:`Value`."""
        rc = _set_read(self._handle, self._buf)
        if rc < 0:
            raise _fail(rc, "pmu_set_read")
        b = self._buf
        return [Value(b[i].value, b[i].enabled, b[i].running) for i in range(self._n)]

    def read_syscall(self):
        """Like :meth:`read` but always through read(2)."""
        rc = _set_read_syscall(self._handle, self._buf)
        if rc < 0:
            raise _fail(rc, "pmu_set_read_syscall")
        b = self._buf
        return [Value(b[i].value, b[i].enabled, b[i].running) for i in range(self._n)]

    def enable(self):
        """Start counting."""
        _check(_set_enable(self._handle), "pmu_set_enable")

    def disable(self):
        """Stop counting."""
        _check(_set_disable(self._handle), "pmu_set_disable")

    def reset(self):
        """Zero the counts (times keep running)."""
        _check(_set_reset(self._handle), "pmu_set_reset")

    def _c_values(self, values):
        values = list(values)
        if len(values) != self._n:
            raise ValueError("expected %d values (one per event), got %d" % (self._n, len(values)))
        arr, _n = _values_array(values)
        return arr

    def metric(self, name, deltas):
        """Evaluate a metric or expression over this set's values (one per
        event, typically deltas; each is scaled) (pmu_metric_eval_set)."""
        arr = self._c_values(deltas)
        out = ctypes.c_double()
        rc = _metric_eval_set(self.ctx._handle, _enc(name), self._handle, arr, ctypes.byref(out))
        if rc < 0:
            raise _fail(rc, "pmu_metric_eval_set")
        return out.value

    def topdown(self, deltas):
        """Topdown fractions from this set's values (pmu_topdown_from_set).

        A dict: retiring, bad_spec, fe_bound, be_bound (level 1), heavy_ops,
        light_ops, br_mispredict, machine_clears, fetch_lat, fetch_bw,
        mem_bound, core_bound (level 2; NaN when level is 1), slots, level,
        reset. PmuError ENOENT if the set has no topdown events, ENODATA if
        no slots elapsed.
        """
        arr = self._c_values(deltas)
        t = _Topdown()
        rc = _topdown_from_set(self._handle, arr, ctypes.byref(t))
        if rc < 0:
            raise _fail(rc, "pmu_topdown_from_set")
        return _topdown_dict(t)

    def __enter__(self):
        self.delta = None
        self._before = self.read()
        self.enable()
        return self

    def __exit__(self, *exc):
        self.disable()
        after = self.read()
        self.delta = delta(self._before, after)
        return False

    def __repr__(self):
        return "<pmu.Set %s%s>" % (",".join(self.events), " closed" if self._h is None else "")


# ---------------------------------------------------------------------------
# Regions
# ---------------------------------------------------------------------------


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

    ``{"name", "tid" (None for the sum over threads), "calls",
    "values": {event: {"value", "enabled", "running", "min", "max", "unsupported"}}}``

    (value/enabled/running: sums of the per-call deltas; min/max: smallest
    and largest delta of one call). With ``per_thread`` the per-thread
    results follow the sums.
    """
    f = _need(_region_foreach, "pmu_region_foreach")
    out = []
    err = []

    def cb(rp, _data):
        try:
            r = rp.contents
            vals = {}
            for i in range(r.nvalues):
                v = r.values[i]
                vals[_dec(r.events[i])] = {
                    "value": v.value, "enabled": v.enabled, "running": v.running,
                    "min": r.min[i] if r.min else None,
                    "max": r.max[i] if r.max else None,
                    "unsupported": bool(r.unsupported & (1 << i)),
                }
            out.append({"name": _dec(r.name), "tid": None if r.tid == -1 else r.tid,
                        "calls": r.calls, "values": vals})
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
