#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Intel's published event data (github.com/intel/perfmon, BSD-3-Clause) to built-in tables.

For every Intel CPU directory of a perf mapfile (perf 6.12's: tools/perf/pmu-events/arch/x86/mapfile.csv),
the perfmon commit whose own mapfile gives that CPU's core events the version perf's row names is found
(`pin`) and recorded in events/x86/intel/SOURCES.csv; the tables are then written from those commits
(`write`) into events/x86/intel/<directory>/core.json and uncore.json in perf's pmu-events schema, so
that the library's loader encodes them as it encodes perf's files; metrics.json is what Intel's own
converter (perfmon's scripts/create_perf_json.py, run, not copied) writes at METRICS_COMMIT. Only facts are taken from perf's mapfile: which
CPU ids a directory serves, its name, its version.

How a perfmon core event becomes a perf-schema entry (the conventions perf's Intel files follow):
  - a field whose value is empty, 0, 0x0, 0x00, na, null or tbd is left out (Counter excepted);
  - OFFCORE_RESPONSE_0.* is named OFFCORE_RESPONSE.*, "OFFCORE_RESPONSE:request=R:response=S" is named
    OFFCORE_RESPONSE.R.S;
  - UMask keeps the first of a comma-separated list, written as lower-case hex without leading zeros;
  - a hybrid CPU's events carry Unit cpu_core (its "Core" file) or cpu_atom ("Atom"), and the second
    definition of a name within one file is dropped;
  - the encoding keys (EventCode, UMask, CounterMask, Invert, EdgeDetect, AnyThread, MSRIndex, MSRValue,
    PEBS, SampleAfterValue, Counter, Deprecated, Errata, Data_LA) and BriefDescription are kept;
    PublicDescription is left out (size: `pmu list` shows the brief one; the perfmon file has the long).

  gen-perfmon.py pin PERFMON_GIT PERF_MAPFILE     rewrite events/x86/intel/SOURCES.csv
  gen-perfmon.py write PERFMON_GIT                rewrite events/x86/intel/*/{core,uncore,metrics}.json, and
                                                  events/mapfile.csv's Intel rows
  gen-perfmon.py --check [PERFMON_GIT]            exit 1 when events/mapfile.csv's Intel rows are not what
                                                  SOURCES.csv gives, when a directory of SOURCES.csv has no
                                                  core.json (or one that is not this schema's) or one is not
                                                  in SOURCES.csv; with PERFMON_GIT, also when a core.json
                                                  differs from what write makes (a meson test runs it without:
                                                  no machine here has perfmon; perf-corpus-builtin compares
                                                  every event with perf's own tree instead)
PERFMON_GIT is a clone of github.com/intel/perfmon with its history (the pinned commits are read with
git show; nothing is checked out)."""
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile

import vendordata
from vendordata import Form, by_name

V = vendordata.Vendor("gen-perfmon", "x86/intel", ["Directory", "CPUID", "Version", "Perfmon", "Commit", "Files"],
                      mapfile_rows=lambda srcs: [(s["CPUID"], s["Version"], s["Directory"]) for s in srcs],
                      rows_name="Intel rows", mine=lambda cpuid: cpuid.startswith("GenuineIntel"))
git, sources = V.git, V.sources

DROP = {"", "0", "0x0", "0x00", "na", "null", "tbd"}
KEEP = ["EventCode", "UMask", "CounterMask", "Invert", "EdgeDetect", "AnyThread", "MSRIndex", "MSRValue",
        "PEBS", "SampleAfterValue", "Counter", "Deprecated", "Errata", "Data_LA", "BriefDescription"]
ROLE_UNIT = {"Core": "cpu_core", "Atom": "cpu_atom"}
# The metrics: Intel's own converter (perfmon's scripts/create_perf_json.py, which writes perf's Intel
# files) run on perfmon at this commit (2024-11-11: TMA 4.7's formulas, the latest converter before perf
# 6.12's release), its <dir>/*-metrics.json taken without PublicDescription. No single perfmon commit gives
# perf 6.12's metrics: perf carries formulas of a TMA release perfmon never published (4.8).
METRICS_COMMIT = "bbeac54ec19b8e4d9cf0f0d5cd87de4f8557e5b8"
METRIC_KEYS = {"MetricName", "MetricExpr", "MetricGroup", "MetricThreshold", "ScaleUnit", "BriefDescription",
               "Unit", "MetricConstraint", "MetricgroupNoGroup", "DefaultMetricgroupName"}


def perfmon_rows(repo, commit):
    """perfmon's mapfile at @commit: dicts with id, version, file, type, role."""
    rows = []
    for r in csv.reader(io.StringIO(git(repo, "show", "%s:mapfile.csv" % commit))):
        if not r or r[0].startswith("Family-model"):
            continue
        r += [""] * (7 - len(r))
        rows.append({"id": r[0], "version": r[1].lower(), "file": r[2].lstrip("/"), "type": r[3].lower(),
                     "role": r[6]})
    return rows


def concrete(pmid):
    """A CPU id a perfmon mapfile id matches (its first choice of each bracket)."""
    return re.sub(r"\[([^\]])[^\]]*\]", r"\1", pmid)


def core_rows(rows, pattern):
    """The core-event rows of perfmon's mapfile for the CPUs perf's @pattern serves (those of the first
    perfmon id the pattern matches)."""
    for r in rows:
        if r["type"] in ("core", "hybridcore") and re.fullmatch(pattern, concrete(r["id"]), re.I):
            return [x for x in rows if x["id"] == r["id"] and x["type"] in ("core", "hybridcore")]
    return []


def read_perf_mapfile(path):
    out = []
    with open(path) as f:
        for r in csv.reader(f):
            if len(r) >= 4 and r[0].startswith("GenuineIntel") and r[3] == "core":
                out.append((r[0], r[1].lower(), r[2]))
    return out


def pin(repo, perf_mapfile):
    commits = git(repo, "log", "--format=%H", "--", "mapfile.csv").split()
    cache = {}
    out = []
    for pattern, version, d in read_perf_mapfile(perf_mapfile):
        found = None
        for c in commits:  # newest first: the last commit with perf's version
            if c not in cache:
                cache[c] = perfmon_rows(repo, c)
            rows = core_rows(cache[c], pattern)
            if rows and all(r["version"] == version for r in rows):
                found = (c, rows)
                break
        if not found:
            print("gen-perfmon: %s (%s %s): no perfmon commit gives its core events that version" %
                  (d, pattern, version), file=sys.stderr)
            continue
        c, rows = found
        files = ";".join("%s=%s" % (r["role"] or "core", r["file"]) for r in rows)
        out.append({"Directory": d, "CPUID": pattern, "Version": version,
                    "Perfmon": rows[0]["file"].split("/")[0], "Commit": c, "Files": files})
    return V.write_sources(out)


def value(e, k):
    v = e.get(k)
    if v is None:
        return None
    v = str(v).strip().replace("\u00ae", "(R)").replace("\u2122", "(TM)").replace("\ufeff", "")
    if k != "Counter" and v.lower() in DROP:
        return None
    return v


def fix_name(n):
    if n.startswith("OFFCORE_RESPONSE_0"):
        return n.replace("OFFCORE_RESPONSE_0", "OFFCORE_RESPONSE", 1)
    m = re.fullmatch(r"OFFCORE_RESPONSE:request=(.*):response=(.*)", n)
    return "OFFCORE_RESPONSE.%s.%s" % m.groups() if m else n


def convert(events, unit):
    out, seen = [], set()
    for e in events:
        name = fix_name(value(e, "EventName"))
        if name in seen:
            continue
        seen.add(name)
        o = {"EventName": name}
        for k in KEEP:
            v = value(e, k)
            if v is None:
                continue
            if k == "UMask":
                v = "0x%x" % int(v.split(",")[0], 16)
            o[k] = v
        if "BriefDescription" not in o and value(e, "Description"):
            o["BriefDescription"] = value(e, "Description")
        if unit:
            o["Unit"] = unit
        out.append(o)
    return sorted(out, key=by_name)


UNIT_FIX = {"CBO": "CBOX", "SBO": "SBOX", "QPI LL": "QPI", "UPI LL": "UPI"}
OLD_PCU = {"SNB", "IVB", "HSW", "BDW", "BDW-DE", "BDX", "HSX", "IVT", "JKT"}
FILTER_DROP_START = ("cbofilter", "chafilter", "pcufilter", "qpimask", "uboxfilter", "fc, chnl", "chnl", "ctrctrl")
EVENT_DROP_FILTER = ("ha_addrmatch", "ha_opcodematch", "irpfilter")


def freerun(short, unit, name):
    """(type, index) of a free-running counter, as the kernel's uncore driver numbers them."""
    if short in ("ADL", "ADLN", "ARL", "TGL", "MTL") and unit.startswith("imc_free_running"):
        return ({"TOTAL": 1, "RDCAS": 2, "WRCAS": 3}.get(next((k for k in ("TOTAL", "RDCAS", "WRCAS") if k in name), ""), None), 0)
    if short in ("EMR", "ICX", "SNR", "SPR"):
        if unit.startswith("iio_free_running"):
            if "CLOCKTICKS" in name:
                return 1, 0
            part = re.search(r"PART(\d+)", name)
            if "BANDWIDTH_IN" in name:
                return 2, int(part.group(1))
            if "BANDWIDTH_OUT" in name:
                return 3, int(part.group(1))
        if unit.startswith("imc_free_running") and "CLOCKTICKS" in name:
            return 1, 0
    return None, None


def convert_uncore(events, short, experimental):
    out, seen = [], set()
    for e in events:
        name = fix_name(value(e, "EventName"))
        if short not in ("SPR", "EMR") and name.startswith("UNC_IIO_BANDWIDTH_OUT."):
            continue
        o = {"EventName": name}
        for k in KEEP + ["FCMask", "PortMask", "Filter"]:
            v = value(e, k)
            if v is not None:
                o[k] = v
        if "BriefDescription" not in o and value(e, "Description"):
            o["BriefDescription"] = value(e, "Description")
        umask = value(e, "UMask")
        if umask:
            umask = umask.split(",")[0]
            ext = value(e, "UMaskExt")  # perf 6.12's data folds it in always (later, not beside PortMask/FCMask)
            if ext:
                umask = ext + umask[2:]
            o["UMask"] = "0x%x" % int(umask, 16)
        unit = value(e, "Unit")
        if unit in UNIT_FIX:
            unit = UNIT_FIX[unit]
        elif unit == "NCU" and name == "UNC_CLOCK.SOCKET":
            unit = "cbox_0" if short in ("BDW", "HSW", "SKL") else "CLOCK"  # (perf 6.12: Meteor Lake's too)
        elif name.startswith("UNC_P_POWER_STATE_OCCUPANCY") and short in OLD_PCU:
            o.pop("UMask", None)
            o["Filter"] = "occ_sel=%d" % {"C0": 1, "C3": 2, "C6": 3}[name[-2:]]
        if e.get("CounterType") == "FREERUN":
            unit = "%s_free_running" % unit.lower()
            m = re.search(r"_MC(\d+)_", name)
            if m:
                unit += "_" + m.group(1)
            o["EventCode"] = "0xff"
            ty, ix = freerun(short, unit, name)
            o["UMask"] = "0x%x" % ((ty << 4) | ix)
        if str(e.get("Counter", "")).strip().lower() == "fixed":
            o["EventCode"] = "0xff"
            o.pop("UMask", None)
        f = o.get("Filter")
        if f:
            if f.lower().startswith(FILTER_DROP_START):
                del o["Filter"]
            elif f == "Filter1":
                o["Filter"] = "config1=%s" % value(e, "FILTER_VALUE")
        if value(e, "FILTER_VALUE"):
            o["_filter_value"] = value(e, "FILTER_VALUE")
            if o.get("Filter", "").lower().startswith(EVENT_DROP_FILTER):
                continue
        if name in seen:
            continue
        seen.add(name)
        if unit:
            o["Unit"] = unit
        o["PerPkg"] = "1"
        if experimental:
            o["Experimental"] = "1"
        out.append(o)
    return out


def uncore_tables(repo, src):
    rows = [r for r in perfmon_rows(repo, src["Commit"]) if r["type"] in ("uncore", "uncore experimental")
            and re.fullmatch(src["CPUID"], concrete(r["id"]), re.I)]
    ids = sorted(set(r["id"] for r in rows))
    entries = []
    for r in rows:
        if r["id"] != ids[0]:
            continue
        data = json.loads(git(repo, "show", "%s:%s" % (src["Commit"], r["file"])))
        entries += convert_uncore(data["Events"] if isinstance(data, dict) else data, src["Perfmon"],
                                  r["type"] == "uncore experimental")
    rewrite_uncore(repo, src, entries)
    return sorted(entries, key=by_name)


FILTER_TERMS = [("State=", ",filter_state="), ("Match=", ",filter_opc="), (":opc=", ",filter_opc="),
                (":nc=", ",filter_nc="), (":tid=", ",filter_tid="), (":state=", ",filter_state="),
                (":filter1=", ",config1="), ("fc, chnl", "")]


def rewrite_uncore(repo, src, entries):
    """perfmon's scripts/config/perf-uncore-events-<cpu>.csv at the pinned commit (where it has one): perf's
    own names for some uncore events (a copy under the new name), and their descriptions, filters, unit
    masks and scales."""
    path = "scripts/config/perf-uncore-events-%s.csv" % src["Perfmon"].lower()
    text = git(repo, "show", "%s:%s" % (src["Commit"], path), check=False)
    if text is None:
        return
    by = {e["EventName"]: e for e in entries}
    for row in csv.reader(io.StringIO(text)):
        row += [""] * (7 - len(row))
        name, new, desc, filt, scale = row[:5]
        umask = None
        if ":" in name:
            name, umask = name.split(":")
            umask = umask[1:]
        if name not in by or by[name].get("Deprecated") == "1":
            other = name.replace("_C_", "_CHA_") if "_H_" in name else name.replace("_H_", "_CHA_") if "_C_" in name else None
            if other and other in by:
                name = other
        if name not in by:
            continue
        if new:
            copy = dict(by[name], EventName=new)
            entries.append(copy)
            by[new] = copy
            if desc:
                desc += ". Derived from %s" % name.lower()
            name = new
        e = by[name]
        if desc:
            e["BriefDescription"] = desc
        if filt:
            if filt == "Filter1":
                filt = "config1=%s" % e.get("_filter_value", "")
                if src["Perfmon"] in ("SKX", "CLX") and e.get("Unit") == "CHA":
                    # Skylake-SP's CHA filter 1 lies in config1 bits 32-63 (perf's files were corrected so)
                    filt = "config1=0x%x" % (int(e["_filter_value"], 16) << 32)
            for a, b in FILTER_TERMS:
                filt = filt.replace(a, b)
            m = re.match(r":u[0-9xa-f]+", filt)
            if m:
                umask = "0x%x" % int(m.group(0)[2:], 16)
                filt = filt.replace(m.group(0), "")
            filt = filt.strip(",")
            if filt:
                e["Filter"] = filt
        if umask:
            e["UMask"] = umask
        if scale:
            e["ScaleUnit"] = scale.replace("(", "").replace(")", "") if "(" in scale else scale + "Bytes"


_metrics = {}


def metric_tables(repo):
    """{directory: its metrics} as Intel's converter writes them from perfmon at METRICS_COMMIT (run in a
    temporary copy of that commit's tree; nothing of the converter is kept)."""
    if repo not in _metrics:
        with tempfile.TemporaryDirectory() as tmp:
            src, out = os.path.join(tmp, "perfmon"), os.path.join(tmp, "out")
            os.makedirs(src)
            tar = subprocess.run(["git", "--git-dir", vendordata.git_dir(repo), "archive", METRICS_COMMIT],
                                 stdout=subprocess.PIPE, check=True)
            subprocess.run(["tar", "-x", "-C", src], input=tar.stdout, check=True)
            subprocess.run([sys.executable, os.path.join("scripts", "create_perf_json.py"), "--outdir", out],
                           cwd=src, check=True, stdout=subprocess.DEVNULL)
            got = {}
            for d in sorted(os.listdir(out)):
                for fn in sorted(os.listdir(os.path.join(out, d))) if os.path.isdir(os.path.join(out, d)) else []:
                    if fn.endswith("-metrics.json"):
                        with open(os.path.join(out, d, fn)) as f:
                            got.setdefault(d, []).extend({k: v for k, v in m.items() if k in METRIC_KEYS}
                                                         for m in json.load(f))
            _metrics[repo] = {d: sorted(ms, key=by_name) for d, ms in got.items()}
    return _metrics[repo]


def tables(src, repo):
    files = [f.split("=", 1) for f in src["Files"].split(";")]
    hybrid = len(files) > 1
    entries = []
    for role, path in files:
        data = json.loads(git(repo, "show", "%s:%s" % (src["Commit"], path)))
        entries += convert(data["Events"] if isinstance(data, dict) else data, ROLE_UNIT[role] if hybrid else None)
    out = [("core.json", sorted(entries, key=by_name))]
    unc = [{k: v for k, v in o.items() if not k.startswith("_")} for o in uncore_tables(repo, src)]
    if unc:
        out.append(("uncore.json", unc))
    metrics = defined_only(src["Directory"], metric_tables(repo).get(src["Directory"], []))
    if metrics:
        out.append(("metrics.json", metrics))
    return [(fn, entries, "perfmon", src["Commit"]) for fn, entries in out]


def defined_only(d, metrics):
    """@metrics without those whose formula uses a tma_* metric the converter did not write for the CPU
    (Emerald Rapids at METRICS_COMMIT: tma_info_system_time), nor those that use them: a metric that cannot
    be evaluated is left out, and said."""
    while True:
        names = {m["MetricName"] for m in metrics}
        bad = [m for m in metrics if any(w.startswith("tma_") and w not in names
                                         for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", m["MetricExpr"]))]
        if not bad:
            return metrics
        for m in bad:
            print("gen-perfmon: %s: %s left out: its formula uses a metric Intel's converter did not write" %
                  (d, m["MetricName"]), file=sys.stderr)
        metrics = [m for m in metrics if m not in bad]


FORMS = {"core.json": Form(set(KEEP) | {"EventName", "Unit"}, {"EventName": None}, by_name),
         "uncore.json": Form(set(KEEP) | {"EventName", "Unit", "FCMask", "PortMask", "Filter", "PerPkg",
                                          "Experimental", "ScaleUnit"}, {"EventName": None}, by_name),
         "metrics.json": Form(METRIC_KEYS, {"MetricName": None}, by_name)}


def forms(src):
    """The files write makes in a directory: core.json always, uncore.json and metrics.json where perfmon
    has them."""
    return [(fn, fn == "core.json", form) for fn, form in FORMS.items()]


def ok(repo):
    """The check's last line when it found nothing."""
    return "ok: %d directories and their mapfile rows as SOURCES.csv gives them%s" % (
        len(sources()), ", each core.json as perfmon's pinned commit gives it" if repo else
        " (core.json not compared with perfmon: no clone given)")


def main(argv):
    return V.main(argv, __doc__, pin=pin, made=tables, forms=forms, ok=ok)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
