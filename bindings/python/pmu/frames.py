# SPDX-License-Identifier: MIT
"""Region reports and pmu stat results as tidy pandas DataFrames (pandas optional)."""

# pandas is imported by the functions that build a frame, never at import time: `import pmu` and
# `import pmu.frames` work without it, and a frame asked for without it raises ImportError naming
# Debian's python3-pandas. The files are read with json and csv alone; nothing here calls libpmu.
#
# What a frame holds (doc/python.md, "Data frames", says the same for users):
#
# regions(): one row per (run, file, rank, tid, region, kind, name). Regions are names (they nest
#   and overlap freely; the same name nested counts once): libpmu keeps no tree of them, so `region`
#   is the name and there is no path column. By default a report gives its region totals (tid <NA>:
#   the region summed over the process's threads), which is what every source has — a rank's JSON
#   or CSV report and pmu report --json's merged document — so their frames compare row for row;
#   threads=True adds the per-thread rows a report has (PMU_PER_THREAD=1).
# stat(): one row per (run, file, time_s, aggregation, id, kind, name).

import csv
import io
import json
import os
import re

__all__ = ["regions", "stat", "runs", "concat", "ReportError", "REGION_COLUMNS", "STAT_COLUMNS",
           "SPREAD_COLUMNS"]

REGIONS = "libpmu-regions/1"
MERGED = "libpmu-report-regions/1"
STAT = "libpmu-stat/1"

# a merged document's spread of each event across its files (ranks), as columns spread_<key>: the
# keys pmu report writes and those libpmu-mpi's in-job job report adds (sum, stddev, the ranks of the
# min and max, and their MPI_COMM_WORLD ranks); and a region's calls_spread (each rank's calls) as
# calls_spread_<key>. Any other scalar key there becomes a column of that name too, after these.
SPREAD_KEYS = ("files", "min", "mean", "max", "sum", "stddev", "min_rank", "max_rank", "min_world_rank",
               "max_world_rank", "min_file", "max_file", "imbalance")
CALLS_SPREAD_KEYS = ("files", "min", "max", "min_rank", "max_rank")
SPREAD_COLUMNS = ["spread_" + k for k in SPREAD_KEYS] + ["calls_spread_" + k for k in CALLS_SPREAD_KEYS]

REGION_COLUMNS = ["run", "file", "rank", "tid", "region", "kind", "name", "value", "scaled", "unit", "unit_scale",
                  "quantity", "enabled_ns", "running_ns", "confidence", "counted", "calls", "min", "max",
                  "scope"] + SPREAD_COLUMNS

STAT_COLUMNS = ["run", "file", "time_s", "aggregation", "id", "cpu", "tid", "kind", "name", "pmu", "value",
                "scaled", "unit", "unit_scale", "quantity", "enabled_ns", "running_ns", "confidence", "counted",
                "stddev_pct", "cgroup", "cpus", "threshold_crossed", "error"]

_INT_COLUMNS = {"rank", "tid", "calls", "min", "max", "enabled_ns", "running_ns", "cpu", "cpus", "spread_files",
                "spread_min", "spread_max", "spread_sum", "spread_min_rank", "spread_max_rank",
                "spread_min_world_rank", "spread_max_world_rank", "calls_spread_files", "calls_spread_min",
                "calls_spread_max", "calls_spread_min_rank", "calls_spread_max_rank"}
_FLOAT_COLUMNS = {"value", "scaled", "unit_scale", "quantity", "confidence", "time_s", "stddev_pct", "spread_mean",
                  "spread_stddev", "spread_imbalance"}

# the region CSV's header (PMU_FORMAT=csv, lib/region-report.c)
_REGION_CSV = ["region", "tid", "calls", "event", "value", "scaled", "enabled_ns", "running_ns", "confidence", "min",
               "max", "unsupported", "scope", "unit", "unit_scale"]
# a unit of pmu stat's --per-socket and the like, as perf names it: S0, S0-D0, S0-D0-CLS0, S0-D0-L3-ID0,
# S0-D0-C0, N0
_AGGR_ID = re.compile(r"^(S\d+(-D\d+(-(CLS\d+|L\d+-ID\d+|C\d+))?)?|N\d+)$")
_AGGR_MODE = {"S": "socket", "D": "die", "CLS": "cluster", "L": "cache", "C": "core", "N": "node"}


class ReportError(ValueError):
    """A file that is not a report these functions read: ``file`` names it, ``problem`` says what is wrong."""

    def __init__(self, file, problem):
        super().__init__("%s: %s" % (file, problem))
        self.file = file
        self.problem = problem


def _pandas():
    try:
        import pandas
    except ImportError as e:
        raise ImportError("pmu.frames needs pandas, which is not installed here (Debian: apt-get install "
                          "python3-pandas; elsewhere: pip install pandas); the rest of pmu works without it: "
                          "%s" % e) from e
    return pandas


# ---- reading a file ----

def _paths(paths):
    if isinstance(paths, (str, bytes, os.PathLike)):
        return [os.fsdecode(paths)]
    try:
        out = [os.fsdecode(p) for p in paths]
    except TypeError:
        raise TypeError("pmu.frames: paths must be a path or a list of paths, not %s" % type(paths).__name__) \
            from None
    if not out:
        raise ValueError("pmu.frames: no files given")
    return out


def _read(path):
    """(text, JSON document or None) of @path; ReportError when it is neither JSON nor text."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ReportError(path, "cannot be read: %s" % (e.strerror or e)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ReportError(path, "is not UTF-8 text (byte %d): not a libpmu report" % e.start) from None
    if not text.strip():
        raise ReportError(path, "is empty: a report was expected (was the program still running, or did it "
                          "write its report elsewhere?)")
    if text.lstrip()[0] not in "{[":
        return text, None
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise ReportError(path, "is not valid JSON (%s)%s" % (
            e, "; it ends early: truncated?" if getattr(e, "pos", 0) >= len(text.rstrip()) else "")) from None
    if not isinstance(doc, dict):
        raise ReportError(path, "is JSON but not a libpmu report (a %s, not an object with a 'schema')"
                          % type(doc).__name__)
    return text, doc


def _schema(path, doc, want):
    s = doc.get("schema")
    if s is None:
        raise ReportError(path, "is JSON without a 'schema' key: not a libpmu report (%s expected)"
                          % " or ".join(want))
    if s in want:
        return s
    if s == STAT:
        raise ReportError(path, "is a 'pmu stat --json' document (%s): read it with pmu.frames.stat()" % s)
    if s in (REGIONS, MERGED):
        raise ReportError(path, "is a region report (%s): read it with pmu.frames.regions()" % s)
    raise ReportError(path, "has schema %r, which this pmu.frames does not read (it reads %s): a newer libpmu "
                      "wrote it?" % (s, ", ".join(want)))


def _need(path, obj, key, where, types=None):
    if not isinstance(obj, dict) or key not in obj:
        raise ReportError(path, "%s has no %r" % (where, key))
    v = obj[key]
    if types is not None and not isinstance(v, types):
        raise ReportError(path, "%s's %r is %r, not a %s" % (where, key, v, "/".join(
            t.__name__ for t in (types if isinstance(types, tuple) else (types,)))))
    return v


def _number(path, obj, where, key, integer=False, null=False):
    """obj[key], which must be a number (an integer with @integer; None allowed with @null)."""
    v = _need(path, obj, key, where)
    if (v is None and null) or (isinstance(v, int) and not isinstance(v, bool)) or \
            (isinstance(v, float) and not integer):
        return v
    raise ReportError(path, "%s's %r is %r, not %s" % (where, key, v, "an integer" if integer else "a number"))


def _numbers(path, obj, where, integers, numbers):
    """The integer keys @integers and the number or null keys @numbers of @obj, checked."""
    for k in integers:
        _number(path, obj, where, k, integer=True)
    for k in numbers:
        _number(path, obj, where, k, null=True)


def _num(path, s, where, integer=False):
    """A CSV cell as a number; ReportError naming the cell when it is not one."""
    try:
        return int(s) if integer else float(s)
    except (TypeError, ValueError):
        raise ReportError(path, "%s is %r, not a number" % (where, s)) from None


def _rank_from(pattern, path):
    if pattern is None:
        return None
    m = re.search(pattern, os.path.basename(path))
    if not m:
        raise ReportError(path, "the file does not say its rank and rank_from %r does not match its name"
                          % pattern)
    r = m.group(1) if m.groups() else m.group(0)
    return int(r) if r.isdigit() else r


# ---- region reports ----

def _event_fields(path, e, where, merged):
    """The columns of one counted event of a libpmu-regions/1 or libpmu-report-regions/1 document. A rank's
    report gives unit and unit_scale where a count is of fractions of a unit (none: 1.0); pmu report's merged
    document gives neither: there both are unknown (<NA>), and so is quantity."""
    _numbers(path, e, where, ("value", "scaled", "enabled_ns", "running_ns", "max"), ("confidence", "min"))
    unit_scale = _number(path, e, where, "unit_scale") if "unit_scale" in e else None if merged else 1.0
    scaled = e["scaled"]
    return {"value": e["value"], "scaled": scaled, "unit": e.get("unit") or None, "unit_scale": unit_scale,
            "quantity": None if unit_scale is None else scaled * unit_scale, "enabled_ns": e["enabled_ns"],
            "running_ns": e["running_ns"], "confidence": e["confidence"], "counted": True, "min": e["min"],
            "max": e["max"]}


def _spread(path, sp, where, extra, prefix="spread_"):
    """The columns prefix<key> of a spread object; a key not in REGION_COLUMNS is added to @extra."""
    if not isinstance(sp, dict):
        raise ReportError(path, "%s's %r is %r, not an object" % (where, prefix[:-1], sp))
    out = {}
    for k, v in sp.items():
        if isinstance(v, (dict, list)):
            continue                        # a structure a later libpmu may add: not a column
        if prefix + k not in REGION_COLUMNS and prefix + k not in extra:
            extra.append(prefix + k)
        out[prefix + k] = v
    return out


def _region_json(path, doc, schema, base, threads, extra):
    rows = []
    regs = _need(path, doc, "regions", "the document", list)
    sockets = set(doc.get("socket_wide") or ())
    merged = schema == MERGED

    def events(evs, where, row0):
        if not isinstance(evs, dict):
            raise ReportError(path, "%s's 'events' is not an object" % where)
        for name, e in evs.items():
            w = "%s.events[%r]" % (where, name)
            row = dict(row0, kind="event", name=name)
            if merged and name.endswith(" [socket]"):    # pmu report's column of a socket-wide event
                row["name"], row["scope"] = name[:-len(" [socket]")], "socket"
            else:
                row["scope"] = "socket" if name in sockets else "thread"
            if e is None:                   # could not be counted there
                row["counted"] = False
            elif isinstance(e, dict):
                row.update(_event_fields(path, e, w, merged))
                if merged and "spread" in e:
                    row.update(_spread(path, e["spread"], w, extra))
            else:
                raise ReportError(path, "%s is %r, not an object or null" % (w, e))
            rows.append(row)

    for i, r in enumerate(regs):
        where = "regions[%d]" % i
        name = _need(path, r, "name", where, str)
        calls = _need(path, r, "calls", where, int)
        row0 = dict(base, tid=None, region=name, calls=calls)
        if merged and r.get("calls_spread") is not None:
            row0.update(_spread(path, r["calls_spread"], where, extra, "calls_spread_"))
        events(_need(path, r, "events", where), where, row0)
        for m, v in (r.get("metrics") or {}).items():
            if v is not None and not isinstance(v, (int, float)):
                raise ReportError(path, "%s.metrics[%r] is %r, not a number or null" % (where, m, v))
            rows.append(dict(row0, kind="metric", name=m, value=v, quantity=v, counted=v is not None,
                             scope=None))
        if threads:
            for j, t in enumerate(r.get("threads") or ()):
                tw = "%s.threads[%d]" % (where, j)
                events(_need(path, t, "events", tw), tw, dict(base, tid=_need(path, t, "tid", tw, int), region=name,
                                                              calls=_need(path, t, "calls", tw, int)))
    return rows


def _region_csv(path, text, base, threads):
    rd = csv.reader(io.StringIO(text))
    header = next(rd, None)
    if header is None or header[:len(_REGION_CSV) - 2] != _REGION_CSV[:-2]:
        raise ReportError(path, "is neither JSON nor a region CSV report (PMU_FORMAT=csv, whose header is %s): "
                          "its first line is %r" % (",".join(_REGION_CSV), text.split("\n", 1)[0][:120]))
    rows = []
    for n, cells in enumerate(rd, start=2):
        if not cells:
            continue
        if len(cells) != len(header):
            raise ReportError(path, "line %d has %d fields, the header %d%s" % (
                n, len(cells), len(header), ": the file is truncated?" if n >= text.count("\n") else ""))
        c = dict(zip(header, cells))
        where = "line %d" % n
        tid = _num(path, c["tid"], where + "'s tid", True)
        if tid != -1 and not threads:
            continue
        counted = c["unsupported"] not in ("1", "true")
        unit_scale = _num(path, c["unit_scale"], where + "'s unit_scale") if c.get("unit_scale") else 1.0
        row = dict(base, tid=None if tid == -1 else tid, region=c["region"], kind="event", name=c["event"],
                   calls=_num(path, c["calls"], where + "'s calls", True), scope=c["scope"] or "thread",
                   counted=counted, unit=c.get("unit") or None, unit_scale=unit_scale)
        if counted:                     # an event not counted has zeros there: none of them a count
            for k in ("value", "scaled", "enabled_ns", "running_ns", "min", "max"):
                row[k] = _num(path, c[k], "%s's %s" % (where, k), True)
            row["confidence"] = _num(path, c["confidence"], where + "'s confidence")
            row["quantity"] = row["scaled"] * unit_scale
        rows.append(row)
    return rows


def _frame(rows, columns, extra=()):
    """The rows as a DataFrame of @columns (then @extra): integers as Int64 (<NA> where none), a rank that
    is a string (a launcher's, not decimal digits) kept as an object column, floats float64, flags boolean."""
    pd = _pandas()
    cols = list(columns) + [c for c in extra if c not in columns]
    data = {}
    for c in cols:
        vals = [r.get(c) for r in rows]
        if c in _INT_COLUMNS and all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in vals):
            data[c] = pd.array(vals, dtype="Int64")
        elif c in _FLOAT_COLUMNS:
            data[c] = pd.array([float("nan") if v is None else float(v) for v in vals], dtype="float64")
        elif c in ("counted", "threshold_crossed"):
            data[c] = pd.array(vals, dtype="boolean")
        else:
            data[c] = pd.array(vals, dtype=object)
    return pd.DataFrame(data, columns=cols)


def regions(paths, run=None, threads=False, rank_from=None):
    """Region reports as one tidy DataFrame: a row per (run, file, rank, tid, region, kind, name).

    ``paths``: a file or a list of files, each a rank's (a process's) report, ``PMU_FORMAT=json``
    (schema ``libpmu-regions/1``) or ``csv``, or a merged job report (``pmu report --json``,
    ``libpmu-report-regions/1``). ``run`` labels every row (the ``run`` column; see :func:`runs`).
    ``threads``: also the per-thread rows a report has (``PMU_PER_THREAD=1``); by default a report
    gives its region totals only (``tid`` <NA>, the threads summed), the rows every source has, so
    that frames of rank files and of a merged report compare row for row. ``rank_from``: a regular
    expression whose first group, searched in the file's name, is its rank where the file does not
    say it (a CSV report: ``rank_from=r"out-(\\d+)"`` for ``PMU_OUTPUT=out-%r.csv``).

    Columns (:data:`REGION_COLUMNS`, then any unknown ``spread_*``): ``run``, ``file`` (as given), ``rank``
    (the file's; <NA> in a merged report and where unknown; Int64, or strings where a rank is not a number),
    ``tid`` (<NA>: the region's total; 0: threads that exited, folded), ``region`` (the region's name:
    libpmu's regions are names that nest or overlap freely, not a tree, so there is no path), ``kind``
    (``"event"`` or ``"metric"``: the metrics a JSON report evaluates on a region's total), ``name``,
    ``value`` (the sum of the per-call counts, or the metric's value), ``scaled`` (value * enabled /
    running), ``unit`` and ``unit_scale`` (an event counted in fractions of a unit, RAPL's 2^-32 J: the unit
    and what one count is of it; else None and 1.0; a merged report does not say them: None and <NA>),
    ``quantity`` (scaled * unit_scale: in ``unit``), ``enabled_ns``, ``running_ns``, ``confidence`` (running
    / enabled), ``counted`` (False: the event could not be counted there, its numbers <NA>), ``calls``,
    ``min``, ``max`` (the smallest and largest count of one call), ``scope`` (``"socket"`` for a socket-wide
    event, on a region's total only; else ``"thread"``), and a merged or job report's spread of each event
    across its files or ranks (each one's scaled count), :data:`SPREAD_COLUMNS`: ``spread_files``,
    ``spread_min``, ``spread_mean``, ``spread_max``, ``spread_max_rank``, ``spread_max_file``,
    ``spread_imbalance`` and, where the report has them, ``spread_sum``, ``spread_stddev`` (the
    population's), ``spread_min_rank``, ``spread_min_file``, ``spread_min_world_rank``,
    ``spread_max_world_rank`` and the region's ``calls_spread_files``, ``_min``, ``_max``, ``_min_rank``,
    ``_max_rank`` (each rank's calls); <NA> elsewhere. Any other number or string a later report adds there
    is a ``spread_<key>`` or ``calls_spread_<key>`` column after these. ``value`` and ``scaled`` are
    float64 (a metric shares the column): counts are exact up to 2^53; the integer columns are pandas'
    Int64.

    Raises :class:`ReportError` (a ValueError naming the file and the problem) for a file that is
    not such a report, is truncated or has an unknown schema; ImportError without pandas.
    """
    _pandas()
    rows, extra = [], []
    for path in _paths(paths):
        text, doc = _read(path)
        base = {"run": run, "file": path}
        if doc is None:
            base["rank"] = _rank_from(rank_from, path)
            rows += _region_csv(path, text, base, threads)
            continue
        schema = _schema(path, doc, (REGIONS, MERGED))
        if schema == REGIONS:
            rank = _need(path, doc, "rank", "the document")
            base["rank"] = rank if rank is not None else _rank_from(rank_from, path)
        else:
            base["rank"] = None
        rows += _region_json(path, doc, schema, base, threads, extra)
    return _frame(rows, REGION_COLUMNS, extra)


# ---- pmu stat ----

def _stat_event(path, e, where):
    for k in ("name", "unit", "supported"):
        _need(path, e, k, where)
    _numbers(path, e, where, ("value", "scaled", "enabled_ns", "running_ns"), ("confidence",))
    us = _number(path, e, where, "unit_scale") if "unit_scale" in e else 1.0
    counted = bool(e["supported"])
    row = {"kind": "event", "name": e["name"], "pmu": e.get("pmu"), "unit": e["unit"] or None, "unit_scale": us,
           "counted": counted, "stddev_pct": e.get("stddev_pct"), "cgroup": e.get("cgroup"), "cpus": e.get("cpus")}
    if counted:
        row.update(value=e["value"], scaled=e["scaled"], quantity=e["scaled"] * us, enabled_ns=e["enabled_ns"],
                   running_ns=e["running_ns"], confidence=e["confidence"])
    return row


def _stat_metric(path, m, where):
    for k in ("name", "unit"):
        _need(path, m, k, where)
    _number(path, m, where, "value", null=True)
    return {"kind": "metric", "name": m["name"], "value": m["value"], "quantity": m["value"],
            "unit": m["unit"] or None, "counted": m["value"] is not None,
            "threshold_crossed": m.get("threshold_crossed"), "error": m.get("error")}


def _unit_where(u):
    if "cpu" in u:
        return {"aggregation": "cpu", "id": "CPU%d" % u["cpu"], "cpu": u["cpu"]}
    if "thread" in u or "tid" in u:
        return {"aggregation": "thread", "id": u.get("thread"), "tid": u.get("tid")}
    a = u.get("aggregation") or {}
    return {"aggregation": a.get("mode"), "id": a.get("id"), "cpus": len(a.get("cpus") or ()) or None}


def _stat_json(path, doc, base):
    rows = []

    def block(b, where, row0):
        for i, e in enumerate(_need(path, b, "events", where, list)):
            rows.append(dict(row0, **_stat_event(path, e, "%s.events[%d]" % (where, i))))
        for i, u in enumerate(b.get("units") or ()):
            uw = "%s.units[%d]" % (where, i)
            r1 = dict(row0, **_unit_where(u))
            for j, e in enumerate(_need(path, u, "events", uw, list)):
                r = dict(r1, **_stat_event(path, e, "%s.events[%d]" % (uw, j)))
                if r1.get("cpus") and r.get("cpus") is None:
                    r["cpus"] = r1["cpus"]
                rows.append(r)
            for j, m in enumerate(u.get("metrics") or ()):
                rows.append(dict(r1, **_stat_metric(path, m, "%s.metrics[%d]" % (uw, j))))
        for i, m in enumerate(b.get("metrics") or ()):
            rows.append(dict(row0, **_stat_metric(path, m, "%s.metrics[%d]" % (where, i))))

    block(doc, "the document", dict(base, aggregation="total"))
    for i, iv in enumerate(doc.get("intervals") or ()):
        w = "intervals[%d]" % i
        block(iv, w, dict(base, aggregation="total", time_s=_need(path, iv, "time_s", w, (int, float))))
    return rows


def _is_value(s):
    if s.startswith("<not "):
        return True
    try:
        float(s)
        return True
    except ValueError:
        return False


def _stat_csv(path, text, base, sep):
    """pmu stat -x SEP (perf's CSV): [time,][where,[cpus,]]value,unit,event,[cgroup,][variance,]runtime,
    percent,metric,metric unit; a -M metric's line: the counter's fields empty, then value, "unit name"."""
    rows = []
    lines = text.split("\n")
    for n, line in enumerate(lines, start=1):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split(sep)
        where = "line %d" % n
        row = dict(base, aggregation="total")
        i = 0
        t = f[0].strip()
        if t == "summary" or re.match(r"^\d+\.\d{9}$", t):
            row["time_s"] = None if t == "summary" else float(t)
            i = 1
        if i < len(f) and _AGGR_ID.match(f[i]) and i + 1 < len(f) and f[i + 1].isdigit():
            last = f[i].split("-")[-1]      # S0-D0-L3-ID0: a cache's; else the last part's letters
            mode = "cache" if last.startswith("ID") else _AGGR_MODE[re.match(r"[A-Z]+", last).group(0)]
            row.update(aggregation=mode, id=f[i], cpus=int(f[i + 1]))
            i += 2
        r = f[i:]
        if len(r) >= 7 and all(x == "" for x in r[:-2]):
            v = r[-2]
            rows.append(dict(row, kind="metric", name=r[-1], value=_num(path, v, where) if v else None,
                             quantity=_num(path, v, where) if v else None, counted=v != ""))
            continue
        if len(r) < 7:
            raise ReportError(path, "%s has %d fields: not pmu stat -x%s's (value, unit, event, run time, percent, "
                              "metric, metric unit at least)%s" % (
                                  where, len(f), sep, " : the file is truncated?" if n >= len(lines) - 1 else ""))
        if not _is_value(r[0]):             # CPU3, or a thread: comm-TID
            m = re.match(r"^CPU(\d+)$", r[0])
            if m:
                row.update(aggregation="cpu", id=r[0], cpu=int(m.group(1)))
            else:
                tm = re.match(r"^.*-(\d+)$", r[0])
                row.update(aggregation="thread", id=r[0], tid=int(tm.group(1)) if tm else None)
            r = r[1:]
        if len(r) < 7 or not _is_value(r[0]):
            raise ReportError(path, "%s: %r is not a count (pmu stat -x%s's value field)" % (where, r[0] if r else "",
                                                                                              sep))
        value, unit, name, mid, runtime, pct = r[0], r[1], r[2], r[3:-4], r[-4], r[-3]
        row.update(kind="event", name=name, counted=not value.startswith("<"))
        for x in mid:                       # [cgroup,][variance,]
            if x.endswith("%"):
                row["stddev_pct"] = _num(path, x[:-1], where + "'s variance")
            else:
                row["cgroup"] = x
        row["running_ns"] = _num(path, runtime, where + "'s run time", True)
        # a count (no unit) or a time in msec (--json's ns) is the scaled count; a count printed in its
        # unit (RAPL's Joules) is count * unit_scale, a scale the line does not say
        counts = unit in ("", "msec")
        row["unit"] = "ns" if unit == "msec" else unit or None
        row["unit_scale"] = 1.0 if counts else None
        if row["counted"]:
            q = _num(path, value, where + "'s value") * (1e6 if unit == "msec" else 1)
            row["confidence"] = _num(path, pct, where + "'s percent") / 100
            row["quantity"] = q
            if counts:
                row["scaled"] = q
        rows.append(row)
    if not rows:
        raise ReportError(path, "has no counter lines: not pmu stat -x%s's output" % sep)
    return rows


def stat(paths, run=None, sep=","):
    """``pmu stat --json`` documents (``libpmu-stat/1``) and ``pmu stat -x,`` output as one tidy DataFrame.

    A row per (run, file, time_s, aggregation, id, kind, name). ``run`` labels the rows; ``sep`` is
    the CSV's separator (``-x``). Columns (:data:`STAT_COLUMNS`): ``run``, ``file``, ``time_s`` (the
    end of an ``-I`` interval, seconds after counting began; <NA>: the whole run), ``aggregation``
    (``"total"``; ``"cpu"`` for ``-A``'s rows, ``"thread"`` for ``--per-thread``'s, ``"socket"``,
    ``"die"``, ``"cluster"``, ``"cache"``, ``"core"``, ``"node"`` for ``--per-socket`` and the like),
    ``id`` (``CPU3``, ``comm-TID``, perf's ``S0-D0``; None for the total), ``cpu``, ``tid``, ``kind``
    (``"event"`` or ``"metric"``), ``name``, ``pmu``, ``value`` (the raw count, or the metric's
    value), ``scaled`` (the count scaled to the time enabled), ``unit`` (``"ns"`` for time events),
    ``unit_scale`` (what one count is in ``unit``: RAPL's 2^-32 J; 1.0 elsewhere), ``quantity`` (scaled
    * unit_scale: the amount in ``unit``), ``enabled_ns``, ``running_ns``, ``confidence``, ``counted``,
    ``stddev_pct`` (``-r``), ``cgroup``, ``cpus`` (a unit's CPUs), ``threshold_crossed``, ``error``
    (a metric's).

    A JSON document gives its total and, where it has them, each unit's rows (``-A`` and the
    like) and each interval's. The CSV gives what it prints, which is less: a time event's value
    in msec to 0.01 (read as ``ns``, ``quantity`` and ``scaled`` multiplied by 1e6), no raw
    ``value`` or ``enabled_ns`` (<NA>), ``confidence`` from its percent to 0.0001, an event in
    fractions of a unit in that unit (``quantity``; ``scaled`` <NA>), a -M metric's name with its
    unit in front as printed, ``unit`` None; with ``-A`` the counts per CPU only; perf's derived
    ratio (``CPUs utilized``) is not read. Raises :class:`ReportError` naming the file and the
    problem for a file that is not such output; ImportError without pandas.
    """
    _pandas()
    rows = []
    for path in _paths(paths):
        text, doc = _read(path)
        base = {"run": run, "file": path}
        if doc is None:
            rows += _stat_csv(path, text, base, sep)
        else:
            _schema(path, doc, (STAT,))
            rows += _stat_json(path, doc, base)
    return _frame(rows, STAT_COLUMNS)


# ---- several runs ----

def runs(labelled, kind="regions", **kw):
    """Several runs as one frame: ``labelled`` maps a run's label to its file or files
    (``{"before": "old-*.json" expanded by the caller, "after": [...]}``); ``kind`` is
    ``"regions"`` or ``"stat"``; other keyword arguments go to :func:`regions` or :func:`stat`.
    The ``run`` column holds the label."""
    read = {"regions": regions, "stat": stat}.get(kind)
    if read is None:
        raise ValueError("pmu.frames.runs: kind must be 'regions' or 'stat', not %r" % (kind,))
    if not labelled:
        raise ValueError("pmu.frames.runs: no runs given")
    return concat(*[read(p, run=label, **kw) for label, p in labelled.items()])


def concat(*frames):
    """Frames of several runs (each read with ``run=`` its label) as one, their rows in order.
    Raises ValueError when a frame has a row without a run label, or two frames share one."""
    pd = _pandas()
    if len(frames) == 1 and isinstance(frames[0], (list, tuple)):
        frames = tuple(frames[0])
    if not frames:
        raise ValueError("pmu.frames.concat: no frames given")
    seen = {}
    for i, f in enumerate(frames):
        if f["run"].isna().any():
            raise ValueError("pmu.frames.concat: frame %d has rows without a run label: read it with run=LABEL "
                             "(or use pmu.frames.runs)" % i)
        for label in f["run"].unique():
            if label in seen:
                raise ValueError("pmu.frames.concat: frames %d and %d both have run %r: give each run its own "
                                 "label" % (seen[label], i, label))
            seen[label] = i
    out = pd.concat(frames, ignore_index=True)
    for c in ("counted", "threshold_crossed"):
        if c in out:
            out[c] = out[c].astype("boolean")
    return out
