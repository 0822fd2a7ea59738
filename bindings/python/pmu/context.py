# SPDX-License-Identifier: MIT
"""The context: a CPU, its PMUs, tables and access settings; the library's log collected."""

import ctypes
import errno
import os
import weakref

from . import events as _events
from . import groups as _groups
from . import metrics as _metrics
from . import topdown as _topdown
from .errors import _fail
from ._libpmu import _advice, _caps, _ctx_free, _ctx_new, _pmu_count, _pmu_get
from .names import _arch
from ._types import PMU_UNKNOWN, _P, _dec, _enc, _Caps, _CtxOpts, _LogFn, _PmuInfo

LOG_ERR, LOG_WARN, LOG_INFO, LOG_DEBUG = 3, 4, 6, 7


def _unknown(v):
    return None if v == PMU_UNKNOWN else v


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
            "arch": _arch(c.arch),
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
        (name, type, is_core, n_formats, n_events, and for a core PMU of a
        machine of several: cpus, cpuid, core_type, events_table; "" else);
        one whose type file can no longer be read is left out."""
        h = self._handle
        out = []
        for i in range(_pmu_count(h)):
            p = _PmuInfo()
            rc = _pmu_get(h, i, ctypes.byref(p))
            if rc == -errno.ENOENT:
                continue  # its sysfs type file is gone since the scan: not a PMU any more
            if rc < 0:
                raise _fail(rc, "pmu_pmu_get")
            out.append({"name": _dec(p.name), "type": p.type, "is_core": bool(p.is_core),
                        "n_formats": p.n_formats, "n_events": p.n_events, "cpus": _dec(p.cpus),
                        "cpuid": _dec(p.cpuid), "core_type": _dec(p.core_type),
                        "events_table": _dec(p.events_table)})
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
        return _events._resolve(self, name)

    def resolve_each(self, name):
        """Every encoding ``name`` is counted as (pmu_event_resolve_each): on a
        machine of several core PMUs (Intel hybrid, Arm big.LITTLE) a name that
        names no PMU is counted on each core PMU that gives it a meaning, one
        part per PMU (flag "hybrid-part"), its count the parts' sum; elsewhere
        the one encoding resolve() gives. A list of dicts as resolve() gives
        (without unit_scale). Raises PmuError as resolve() does (ENOENT when
        no core PMU gives the name a meaning)."""
        return _events._resolve_each(self, name)

    def list(self, prefix=""):
        """Every event (and metric) name known here starting with ``prefix``
        (case-insensitive): list of dicts (name, pmu, desc, long_desc (a
        table's PublicDescription, else desc: what perf list --long-desc
        prints), source, kind ("kernel", "sysfs", "standard", "native",
        "metric", "tool", "papi": a PAPI preset), usable)."""
        return _events._list(self, prefix)

    def list_libpfm(self, prefix=""):
        """libpfm4's names for this CPU starting with ``prefix``
        (case-insensitive), "PMU::EVENT" and "PMU::EVENT:UMASK" as libpfm4
        encodes them (pmu_libpfm_event_foreach): dicts as list() gives, source
        and kind "libpfm4". Loads libpfm4. Raises PmuError (ELIBACC where
        libpfm4 cannot be loaded, ENOTSUP in a libpmu built without it)."""
        return _events._list(self, prefix, libpfm=True)

    def check_tables(self, directory, notes=False):
        """Validate event tables in ``directory`` (pmu_tables_check): a list of
        problems, each a dict (file, entry or None, message); [] when clean.
        With ``notes=True`` the notes too (what this machine cannot tell, such
        as a PMU it does not have; messages starting "note: "), each dict with
        ``note`` True, problems with ``note`` False."""
        return _events._check_tables(self, directory, notes)

    # -- metrics --
    def metric(self, name_or_expr, values, events=None):
        """Evaluate a table metric or a MetricExpr expression over ``values``
        (dict: name -> number, or -> Value, which is scaled). Names in an
        expression that contain '-' must be escaped ("page\\\\-faults").
        Division by zero gives NaN. Raises PmuError: ENOENT (lists the
        missing values), EINVAL (syntax: gives the position), ELOOP.

        ``events`` (optional): dict name -> the event a value counted, as
        :meth:`resolve` or :meth:`Set.event_info` give it. Where the metric
        names an event otherwise than a value does, the value is then found
        by that event's encoding, not by resolving its name again (values
        summed or kept after counting meet the metric as the events that
        were counted; pmu_metric_eval_events). Values without an entry are
        matched by name. ValueError if ``events`` names a value not given."""
        return _metrics._eval(self, name_or_expr, values, events)

    def metric_threshold(self, name, values, events=None):
        """Whether the metric's MetricThreshold holds for ``values``; None if
        the metric has no threshold. ``events`` as for :meth:`metric`."""
        return _metrics._threshold(self, name, values, events)

    def metric_events(self, name_or_expr):
        """The events a metric or expression needs (deduplicated, metric
        references expanded), as a list of names to open in a :class:`Set`."""
        return _metrics._events(self, name_or_expr)

    def metric_info(self, name):
        """Describe a table metric: dict (name, expr, desc, group, scale_unit,
        threshold, params, file). PmuError ENOENT if there is none."""
        return _metrics._info(self, name)

    def constants(self):
        """The #constants metric expressions get here (pmu_constant_foreach):
        a list of dicts (name, value, source "param" (set_param) or "machine",
        origin: where it was read). Recorded where counts are taken and given
        to :meth:`set_param` where they are evaluated, metrics use the counting
        machine's topology."""
        return _metrics._constants(self)

    def set_param(self, name, value):
        """Set a #constant for metric evaluation (MetricParams like "a", or
        machine constants like "slots"). Not safe against concurrent
        evaluation on the same context."""
        return _metrics._set_param(self, name, value)

    def topdown(self, values):
        """Topdown fractions from named counts (dict name -> number or Value),
        e.g. a saved run; see :meth:`Set.topdown` for the result. On a hybrid
        CPU the tree is one core type's: give the E-cores' counts alone
        (``cpu_atom/...``) for theirs (pmu_topdown_from_named)."""
        return _topdown._from_named(self, values)

    # -- performance groups --
    def groups(self):
        """The performance groups of this CPU (pmu_group_foreach: LIKWID's
        directory for it, then libpmu's own), as ``pmu list groups`` lists
        them: a list of dicts (name, arch (the directory: "skylakeX",
        "arm8_n1", "standard"), path (the file), short (its SHORT line));
        [] where there are none."""
        return _groups._list(self)

    def group(self, name, partial=False):
        """Read a performance group (pmu_group_open): ``name`` as ``pmu stat
        -g`` takes it ("MEM_DP", "likwid:MEM_DP", any case; a name with a
        '/' is a group file). A dict: name, arch, path, short, long, clock
        (what inverseClock stands for), events (the mapped events,
        comma-separated: the list to open in a :class:`Set`), lines (one
        dict per EVENTSET line: counter, likwid (the file's event), event
        (libpmu's; "" for a pseudo event, None where not mapped), why),
        metrics (one dict per METRICS line: name, unit, formula (LIKWID's),
        expr (for :meth:`metric`: counters as their events, time as
        duration_time in seconds; None where it cannot be evaluated), why).
        With ``partial`` an event libpmu cannot map stays in lines (event
        None, why says why) instead of refusing the group. Raises PmuError:
        ENOENT (no such group here: where it looked), EINVAL (a malformed
        file: the line quoted), EOPNOTSUPP (an event that cannot be mapped:
        the line, why and what to count instead)."""
        return _groups._open(self, name, partial)
