# SPDX-License-Identifier: MIT
"""The loaded libpmu.so: where it is found, and the ctypes prototypes of its functions."""

import ctypes
import ctypes.util
import os

from ._types import (_I, _P, _S, _c_double_p, _c_int_p, _c_u64_p, _dec, _Caps, _ConstantCb, _CopyValue, _CtxOpts, _EventCb,
                     _EventInfo, _GroupCb, _GroupInfo, _MetricInfo, _NamedValue, _PmuInfo, _ProblemCb, _RegionCb,
                     _SetOpts, _Topdown, _Value)


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
            return ctypes.CDLL(found), _loaded_path(found)
        except OSError as e:
            tried.append('ctypes.util.find_library("pmu") -> %s: %s' % (found, e))
    else:
        tried.append('ctypes.util.find_library("pmu") (nothing found)')

    # run from libpmu's source tree (<repo>/bindings/python/pmu): the library built beside it; an
    # installed copy of this package (site-packages/pmu) has no such place to try
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.normpath(os.path.join(here, "..", "..", ".."))
    if here.endswith(os.path.join("bindings", "python", "pmu")) and os.path.exists(os.path.join(repo, "meson.build")):
        local = os.path.join(repo, "build", "lib", "libpmu.so")
        if os.path.exists(local):
            try:
                return ctypes.CDLL(local), local
            except OSError as e:
                tried.append("%s: %s" % (local, e))
        else:
            tried.append("%s (no such file: build it with meson setup build && ninja -C build)" % local)
    raise ImportError("pmu: libpmu.so not found; tried " + "; ".join(tried) +
                      ". Install libpmu (the libpmu0 package, or ninja -C build install), or set "
                      "PMU_LIBRARY=/path/to/libpmu.so")


def _loaded_path(name):
    """The file the dynamic loader mapped for @name (find_library gives a name, "libpmu.so.0"), else @name."""
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split(None, 5)[-1].strip() if len(line.split(None, 5)) == 6 else ""
                base = os.path.basename(path)
                if path.startswith("/") and (base == name or base.startswith(name + ".") or
                                             (base.startswith("libpmu.so") and name.startswith("libpmu.so"))):
                    return path
    except OSError:
        pass
    return name


_lib, library_path = _load()


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
_event_resolve_each = _declare("pmu_event_resolve_each", _I,
                               [_P, _S, ctypes.POINTER(_EventInfo), ctypes.c_size_t])
_event_scale = _declare("pmu_event_scale", _I, [_P, ctypes.POINTER(_EventInfo), ctypes.POINTER(ctypes.c_double)])
_event_foreach = _declare("pmu_event_foreach", _I, [_P, _S, _EventCb, ctypes.c_void_p])
_libpfm_event_foreach = _declare("pmu_libpfm_event_foreach", _I, [_P, _S, _EventCb, ctypes.c_void_p])
_tables_check = _declare("pmu_tables_check", _I, [_P, _S, _ProblemCb, ctypes.c_void_p])
_constant_foreach = _declare("pmu_constant_foreach", _I, [_P, _ConstantCb, ctypes.c_void_p])
_arch_name = _declare("pmu_arch_name", _S, [_I])
_source_name = _declare("pmu_source_name", _S, [_I])
_kind_name = _declare("pmu_kind_name", _S, [_I])
_constant_source_name = _declare("pmu_constant_source_name", _S, [_I])
_flags_format = _declare("pmu_flags_format", _I, [ctypes.c_uint, ctypes.c_char_p, ctypes.c_size_t])
_set_open = _declare("pmu_set_open", _I, [_P, _S, ctypes.POINTER(_SetOpts), ctypes.POINTER(_P)])
_set_close = _declare("pmu_set_close", None, [_P])
_plan_new = _declare("pmu_plan_new", _I, [_P, _S, ctypes.POINTER(_SetOpts), ctypes.POINTER(_P)])
_plan_open = _declare("pmu_plan_open", _I, [_P, ctypes.c_int, ctypes.c_int, ctypes.POINTER(_P)])
_plan_free = _declare("pmu_plan_free", None, [_P])
_set_enable = _declare("pmu_set_enable", _I, [_P])
_set_enable_before_exec = _declare("pmu_set_enable_before_exec", _I, [_P])
_set_disable = _declare("pmu_set_disable", _I, [_P])
_set_reset = _declare("pmu_set_reset", _I, [_P])
_set_count = _declare("pmu_set_count", ctypes.c_size_t, [_P])
_set_event = _declare("pmu_set_event", _I, [_P, ctypes.c_size_t, ctypes.POINTER(_EventInfo)])
_set_group_of = _declare("pmu_set_group_of", _I, [_P, ctypes.c_size_t])
_set_total_of = _declare("pmu_set_total_of", _I, [_P, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t])
_set_read = _declare("pmu_set_read", _I, [_P, ctypes.POINTER(_Value)])
_set_read_syscall = _declare("pmu_set_read_syscall", _I, [_P, ctypes.POINTER(_Value)])
_set_read_copies = _declare("pmu_set_read_copies", _I, [_P, ctypes.c_size_t, ctypes.POINTER(_CopyValue),
                                                        ctypes.c_size_t])
_delta = _declare("pmu_delta", None, [ctypes.POINTER(_Value), ctypes.POINTER(_Value), ctypes.c_size_t,
                                      ctypes.POINTER(_Value)])
_scale = _declare("pmu_scale", ctypes.c_uint64, [ctypes.POINTER(_Value)])
_confidence = _declare("pmu_confidence", ctypes.c_double, [ctypes.POINTER(_Value)])
_metric_eval = _declare("pmu_metric_eval", _I, [_P, _S, ctypes.POINTER(_NamedValue), ctypes.c_size_t,
                                                _c_double_p])
_metric_eval_set = _declare("pmu_metric_eval_set", _I, [_P, _S, _P, ctypes.POINTER(_Value), _c_double_p])
_metric_threshold = _declare("pmu_metric_threshold", _I, [_P, _S, ctypes.POINTER(_NamedValue),
                                                          ctypes.c_size_t, _c_int_p])
_metric_eval_events = _declare("pmu_metric_eval_events", _I, [_P, _S, ctypes.POINTER(_NamedValue),
                                                              ctypes.POINTER(_EventInfo), ctypes.c_size_t,
                                                              _c_double_p])
_metric_threshold_events = _declare("pmu_metric_threshold_events", _I, [_P, _S, ctypes.POINTER(_NamedValue),
                                                                        ctypes.POINTER(_EventInfo),
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

# Performance groups (lib/group.c, lib/likwid.c): optional, as regions are
_group_open = _declare("pmu_group_open", _I, [_P, _S, ctypes.c_uint, ctypes.POINTER(_P)], required=False)
_group_free = _declare("pmu_group_free", None, [_P], required=False)
_group_info = _declare("pmu_group_info", ctypes.POINTER(_GroupInfo), [_P], required=False)
_group_foreach = _declare("pmu_group_foreach", _I, [_P, _GroupCb, ctypes.c_void_p], required=False)
_group_arch = _declare("pmu_group_arch", _I, [_P, ctypes.c_char_p, ctypes.c_size_t], required=False)


def version():
    """The version of the loaded libpmu, "MAJOR.MINOR.MICRO"."""
    return _dec(_version())
