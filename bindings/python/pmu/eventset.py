# SPDX-License-Identifier: MIT
"""Sets: an open event list (perf_event groups), enabled, read, and its counts' metrics."""

import ctypes
import weakref

from . import groups as _groups
from . import metrics as _metrics
from . import topdown as _topdown
from .errors import _check, _fail
from .events import _event_dict
from ._libpmu import (_plan_free, _plan_new, _plan_open, _set_close, _set_count, _set_disable, _set_enable, _set_enable_before_exec, _set_event,
                      _set_group_of, _set_open, _set_total_of, _set_read, _set_read_copies, _set_read_syscall, _set_reset)
from ._types import _P, _enc, _CopyValue, _EventInfo, _SetOpts, _Value
from .values import Value, _values_array, delta

_SET_PID, _SET_CPU, _SET_INHERIT, _SET_ENABLE_ON_EXEC = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_SET_ENABLE, _SET_NO_FAST, _SET_USER_ONLY, _SET_SKIP_UNSUPPORTED = 1 << 4, 1 << 5, 1 << 6, 1 << 7


def _opts(pid, cpu, enable, inherit, skip_unsupported, user_only, no_fast, enable_on_exec):
    """struct pmu_set_opts with the flags the arguments ask for (pid and cpu: whether a target names them)."""
    opts = _SetOpts()
    opts.size = ctypes.sizeof(_SetOpts)
    opts.cpu = -1
    opts.flags = ((_SET_PID if pid else 0) | (_SET_CPU if cpu else 0) | (_SET_ENABLE if enable else 0) |
                  (_SET_INHERIT if inherit else 0) | (_SET_SKIP_UNSUPPORTED if skip_unsupported else 0) |
                  (_SET_USER_ONLY if user_only else 0) | (_SET_NO_FAST if no_fast else 0) |
                  (_SET_ENABLE_ON_EXEC if enable_on_exec else 0))
    return opts


def _list(events):
    """An event list as pmu_set_open takes it: a string, or names joined with commas."""
    return _enc(events if isinstance(events, (str, bytes)) else ",".join(events))


def _own(obj, ctx, h, free):
    """@obj holds libpmu handle @h of context @ctx, freed by @free when collected or closed, and before
    the context (Context.close closes what it holds)."""
    obj._h = h
    obj.ctx = ctx
    obj._finalizer = weakref.finalize(obj, free, h)
    ctx._sets.add(obj)


class Plan:
    """An event list resolved once, opened on many targets (``pmu_plan_new``).

    ``Plan(ctx, events, pid=False, cpu=False, enable=False, inherit=False,
    skip_unsupported=False, user_only=False, no_fast=False,
    enable_on_exec=False)``

    ``pid`` and ``cpu`` say what each :meth:`open` names: a task (``pid``),
    a CPU (``cpu``: every task on it, or with ``pid`` too one task there);
    neither, the calling thread. The other arguments are :class:`Set`'s. Each
    ``open()`` returns the :class:`Set` that ``Set(ctx, events, ...)`` gives
    for that target, without resolving the list again; the sets outlive the
    plan.
    """

    def __init__(self, ctx, events, pid=False, cpu=False, enable=False, inherit=False,
                 skip_unsupported=False, user_only=False, no_fast=False, enable_on_exec=False):
        opts = _opts(pid, cpu, enable, inherit, skip_unsupported, user_only, no_fast, enable_on_exec)
        h = _P()
        rc = _plan_new(ctx._handle, _list(events), ctypes.byref(opts), ctypes.byref(h))
        if rc < 0:
            raise _fail(rc, "pmu_plan_new")
        _own(self, ctx, h, _plan_free)

    @property
    def _handle(self):
        if self._h is None:
            raise ValueError("pmu.Plan is closed")
        return self._h

    @property
    def closed(self):
        return self._h is None

    def open(self, pid=None, cpu=None):
        """The plan's :class:`Set` on one target: ``pid`` a task (-1 with
        ``cpu``: every task of it), ``cpu`` a CPU, as the plan was made for."""
        return Set(self.ctx, None, pid=pid, cpu=cpu, _plan=self)

    def close(self):
        """Free the plan (idempotent); its sets stay open."""
        if self._h is None:
            return
        self._h = None
        self._finalizer()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


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
                 skip_unsupported=False, user_only=False, no_fast=False, enable_on_exec=False, _plan=None):
        h = _P()
        if _plan is not None:  # Plan.open(): the plan's list, resolved once
            rc = _plan_open(_plan._handle, 0 if pid is None else int(pid), -1 if cpu is None else int(cpu),
                            ctypes.byref(h))
            if rc < 0:
                raise _fail(rc, "pmu_plan_open")
        else:
            opts = _opts(pid is not None, cpu is not None, enable, inherit, skip_unsupported, user_only, no_fast,
                         enable_on_exec)
            opts.pid = int(pid) if pid is not None else 0
            opts.cpu = int(cpu) if cpu is not None else -1
            rc = _set_open(ctx._handle, _list(events), ctypes.byref(opts), ctypes.byref(h))
            if rc < 0:
                raise _fail(rc, "pmu_set_open")
        _own(self, ctx, h, _set_close)
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
            # one core type's part of a name counted on each core PMU: that name (its total's label)
            name = ctypes.create_string_buffer(128)
            d["total_of"] = name.value.decode() if _set_total_of(h, i, name, len(name)) >= 0 else None
            infos.append(d)
        self._info = infos
        self.delta = None
        self._before = None
        self.group = None       # the performance group counted (Set.of_group), a dict as Context.group gives

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

    def read_copies(self, i):
        """Value @i copy by copy (pmu_set_read_copies: an uncore unit's boxes, a cpumask PMU's CPUs, each
        read with read(2)): a list of dicts {cpu, package, box, value: :class:`Value`}, adding up to
        what :meth:`read` gives for @i. cpu -1: the set's own task; package -1: unknown."""
        n = _set_read_copies(self._handle, i, None, 0)
        if n < 0:
            raise _fail(n, "pmu_set_read_copies")
        buf = (_CopyValue * max(n, 1))()
        got = _set_read_copies(self._handle, i, buf, n)
        if got < 0:
            raise _fail(got, "pmu_set_read_copies")
        return [{"cpu": c.cpu, "package": c.package, "box": c.box,
                 "value": Value(c.value.value, c.value.enabled, c.value.running)} for c in buf[:min(n, got)]]

    def enable(self):
        """Start counting."""
        _check(_set_enable(self._handle), "pmu_set_enable")

    def enable_before_exec(self):
        """Start what the target's exec will not: the groups of a PMU that
        counts CPUs and the tool events of a set opened with
        ``enable_on_exec``, which wait for this call; make it just before
        the target may exec (pmu_set_enable_before_exec). In another set,
        the same as :meth:`enable`."""
        _check(_set_enable_before_exec(self._handle), "pmu_set_enable_before_exec")

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
        return _metrics._eval_set(self, name, deltas)

    @classmethod
    def of_group(cls, ctx, group, **kwargs):
        """A set counting performance group ``group`` (a name or file as
        :meth:`Context.group` takes it, or the dict it returns): the group's
        events, then duration_time (the formulas' time), opened as
        ``Set(ctx, events, **kwargs)``; ``.group`` holds the group's dict,
        :meth:`group_metrics` evaluates its metrics::

            with pmu.Set.of_group(ctx, "MEM_DP") as s:
                work()
            print(s.group_metrics())    # {"Memory bandwidth [MBytes/s]": ..., ...}
        """
        g = group if isinstance(group, dict) else ctx.group(group)
        s = cls(ctx, ",".join(e for e in (g["events"], "duration_time") if e), **kwargs)
        s.group = g
        return s

    def group_metrics(self, group=None, deltas=None, seconds=None):
        """The metrics of performance group ``group`` (a dict from
        :meth:`Context.group`; default: the set's own, :meth:`of_group`) over
        this set's values: {"Name [unit]": float}, labelled as ``pmu stat -g``
        labels them ("Name" without a unit); None for a metric that cannot
        be evaluated, as ``pmu stat -g`` prints n/a for it, the others
        evaluated all the same: ``.group_errors`` then maps its label to why
        (the "why" string of a metric the group could not map; the PmuError
        of one that failed when evaluated: ENOENT names a value it lacks, an
        event the set does not count or #system_tsc_freq where the machine
        does not say it).
        ``deltas``: one value per event (default: ``.delta``, the last
        ``with`` block's), each scaled to the time enabled; an expression
        carries its units (LIKWID's PWR counters' 2^-32 J). The formulas'
        ``time`` (duration_time) is ``seconds`` if given, else this set's
        duration_time event (the wall time it was enabled, its ns / 1e9).
        ValueError where a metric needs time and neither is there."""
        if group is None:
            group = self.group
        if group is None:
            raise ValueError("which group? this set was not opened with Set.of_group: pass group=ctx.group(NAME)")
        return _groups._metrics(self, group, deltas, seconds)

    def topdown(self, deltas):
        """Topdown fractions from this set's values (pmu_topdown_from_set).

        A dict: retiring, bad_spec, fe_bound, be_bound (level 1), heavy_ops,
        light_ops, br_mispredict, machine_clears, fetch_lat, fetch_bw,
        mem_bound, core_bound (level 2; NaN when level is 1), slots, level,
        reset. PmuError ENOENT if the set has no topdown events, ENODATA if
        no slots elapsed.
        """
        return _topdown._from_set(self, deltas)

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
