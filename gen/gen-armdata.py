#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Arm's published PMU event data (github.com/ARM-software/data) and metrics (github.com/ARM-software/
telemetry-solution), both Apache-2.0, to built-in tables.

For every arm/<dir> directory of a perf arm64 mapfile (perf 6.12's: tools/perf/pmu-events/arch/arm64/
mapfile.csv), the ARM-software/data file of each core the directory serves (pmu/<core>.json: the file whose
"cpuid" is the MIDR's implementer and part number, e.g. 0x41d0c for 0x00000000410fd0c0) is found, and the
data commit whose events best match perf's directory is chosen (`pin`): of the commits that changed those
files, the one where most of perf's events have the same name and code, the newest of those that tie.
Where perf's directory has metrics, the telemetry specifications of its cores (telemetry-solution's
data/pmu/cpu/**.json whose product_configuration names the part; one file per revision where the formulas
change: neoverse-n2.json, neoverse-n2-r0p3.json) are pinned alike: of the commits that changed them, the
one where most of perf's metrics evaluate alike on each MIDR of the directory (made-up counts; #slots the
core's num_slots), the newest of those that tie. The choices are recorded in events/arm64/arm/SOURCES.csv;
the tables are then written from those commits (`write`) into events/arm64/arm/<dir>/core.json and
metrics.json in perf's pmu-events schema. Only facts are taken from perf's tree: which directory serves
which MIDR, its name and version, its events' names and codes (perf's ArchStdEvent references resolved
through its common-and-microarch.json and recommended.json) and its metrics' names and formulas (through
sbsa.json) to choose the commits; nothing of perf's files is written.

How an ARM-software/data event becomes a perf-schema entry:
  - "name" is the EventName, "code" the EventCode (lower-case hex: "0x11"); each entry is written out in
    full, no ArchStdEvent (the built-in compiler refuses it);
  - BriefDescription is the first sentence of "description" (cut before ". X", ".This", " This event",
    " The counter" or " If ...", and before Arm's "+//0" line marks), without its final period; the long
    description is left out (size: the data file has it);
  - an event that has no "name" in Arm's data (Cortex-A34/A35/A53 list some IMPLEMENTATION DEFINED events by
    code and description alone) is left out, and said: no name can be given to it without inventing one;
    so is an entry without a "code" (a signal of the external event bus or trace, not countable by the PMU);
  - a directory that serves two cores (perf's cortex-a57-a72, cortex-a65-e1, cortex-a78, cortex-x1,
    neoverse-n2-v2) gets the events both files list, with the first core's description: an event only one
    core's file lists is left out, and said (it would be offered on the other core too); one name with two
    codes stops the generator;
  - entries are sorted by code, then name.

How a telemetry metric becomes one: the key is the MetricName, "formula" the MetricExpr, "description"
the BriefDescription, the metric groups of the specification that list it the MetricGroup ("A;B"), "1" and
"units" the ScaleUnit ("1percent of cycles": the formulas scale themselves). A directory's metrics are
those every core's specification defines (Neoverse V2's 11 metrics that N2's lacks are left out, and said);
where another core's or a later revision's formula differs from the first core's, the formula is
"(THAT) if strcmp_cpuid_str(ITS MIDR) else (FIRST)", nested (true on that part at that revision or
later, as libpmu and perf answer it). A metric whose formula names no event of the directory's core.json
nor metric is left out, and said. Metrics are sorted by name.

  gen-armdata.py pin DATA_GIT PERF_ARM64 [TELEMETRY_GIT]
                                  rewrite events/arm64/arm/SOURCES.csv (PERF_ARM64: perf's
                                  tools/perf/pmu-events/arch/arm64 directory; without TELEMETRY_GIT no metrics)
  gen-armdata.py write DATA_GIT [TELEMETRY_GIT]
                                  rewrite events/arm64/arm/<dir>/core.json (and metrics.json) and
                                  events/mapfile.csv's rows of those MIDRs
  gen-armdata.py --check [DATA_GIT [TELEMETRY_GIT]]
                                  exit 1 when events/mapfile.csv's rows of SOURCES.csv's MIDRs are not what
                                  SOURCES.csv gives, when a directory of SOURCES.csv lacks its core.json (or
                                  its metrics.json, where SOURCES.csv pins metrics) or has one not of this
                                  converter's form or another file, or one is not in SOURCES.csv, when
                                  LICENSE, LICENSE-2.0.txt or README.md is missing; with the clones, also
                                  when a file differs from what write makes (a meson test runs it without:
                                  no machine here has the clones; perf-corpus-builtin compares every event
                                  and metric with perf's own tree instead)
DATA_GIT and TELEMETRY_GIT are clones of github.com/ARM-software/data and github.com/ARM-software/
telemetry-solution with their history (the pinned commits are read with git show; nothing is checked out).

events/mapfile.csv gets one row per MIDR of SOURCES.csv, naming libpmu's own table of that core first where
a row of that MIDR had one (arm64/neoverse-n1+arm64/arm/neoverse-n1: StdNames, topdown, notes; the `+` of
events/README.md), then Arm's; those rows stand where the first of them stood, every other row as it was."""
import ast
import csv
import glob
import hashlib
import json
import os
import re
import sys

import vendordata
from vendordata import Form, by_name

V = vendordata.Vendor("gen-armdata", "arm64/arm", ["Directory", "MIDR", "Version", "Files", "Commit", "Metrics",
                                                   "MetricsCommit"],
                      mapfile_rows=lambda srcs: [(m, s["Version"], s["Directory"]) for s in srcs
                                                 for m in s["MIDR"].split(";")],
                      rows_name="rows of Arm's cores")
git, sources = V.git, V.sources
OUT = V.out


def data_file(repo, commit, path):
    text = git(repo, "show", "%s:%s" % (commit, path), check=False)
    return json.loads(text) if text is not None else None


def midr_cpuid(midr):
    """ARM-software/data's "cpuid" of a MIDR (implementer, part number): 0x00000000410fd0c0 -> 0x41d0c."""
    v = int(midr, 16)
    return "0x%x%03x" % (v >> 24 & 0xff, v >> 4 & 0xfff)


def perf_rows(perf):
    """perf's arm64 mapfile rows of Arm's own cores: (MIDR, version, directory below arm/)."""
    out = []
    with open(os.path.join(perf, "mapfile.csv")) as f:
        for r in csv.reader(f):
            if len(r) >= 4 and not r[0].startswith("#") and r[2].startswith("arm/") and r[3] == "core":
                out.append((r[0], r[1], r[2][len("arm/"):]))
    return out


def perf_events(perf, d):
    """{name: code} of perf's directory arm/@d (facts for choosing the commit)."""
    std = {}
    for fn in ("common-and-microarch.json", "recommended.json"):
        for e in json.load(open(os.path.join(perf, fn))):
            if "EventName" in e and "EventCode" in e:
                std[e["EventName"]] = int(e["EventCode"], 16)
    out = {}
    for fn in sorted(glob.glob(os.path.join(perf, "arm", d, "*.json"))):
        if os.path.basename(fn) in ("metrics.json", "metricgroups.json"):
            continue
        for e in json.load(open(fn)):
            if "ArchStdEvent" in e and e["ArchStdEvent"] in std:
                out[e["ArchStdEvent"]] = std[e["ArchStdEvent"]]
            elif "EventName" in e and "EventCode" in e:
                out[e["EventName"]] = int(e["EventCode"], 16)
    return out


def files_by_cpuid(repo, commit):
    """{cpuid: path} of the data files at @commit that name their core's cpuid."""
    out = {}
    for path in git(repo, "ls-tree", "--name-only", commit, "pmu/").split():
        data = data_file(repo, commit, path) if path.endswith(".json") else None
        if isinstance(data, dict) and data.get("cpuid"):
            out[data["cpuid"].lower()] = path
    return out


def merged(repo, commit, paths, d, quiet=True):
    """The named events of @paths at @commit that every one of them lists, one dict per name ({name, code,
    description}, the first file's description); None when a file is missing there."""
    files = []
    for path in paths:
        data = data_file(repo, commit, path)
        if data is None:
            return None
        unnamed = [e for e in data["events"] if not e.get("name") and "code" in e]
        nocode = [e for e in data["events"] if "code" not in e]
        if unnamed and not quiet:
            print("gen-armdata: %s: %s@%s lists %d events by code without a name (%s): left out" %
                  (d, path, commit[:12], len(unnamed), ", ".join("0x%x" % e["code"] for e in unnamed)),
                  file=sys.stderr)
        if nocode and not quiet:
            print("gen-armdata: %s: %s@%s lists %d signals of the event bus that have no PMU event code: left out" %
                  (d, path, commit[:12], len(nocode)), file=sys.stderr)
        files.append((path, {e["name"]: e for e in data["events"] if e.get("name") and "code" in e}))
    out = {}
    for name, e in files[0][1].items():
        for path, other in files[1:]:
            if name in other and other[name]["code"] != e["code"]:
                sys.exit("gen-armdata: %s: %s is 0x%x in %s and 0x%x in %s at %s" %
                         (d, name, e["code"], files[0][0], other[name]["code"], path, commit[:12]))
        if all(name in other for _, other in files[1:]):
            out[name] = {"name": name, "code": e["code"], "description": e.get("description", "")}
    for path, events in files:
        only = sorted(n for n in events if n not in out)
        if only and not quiet:
            print("gen-armdata: %s: %d events only %s lists, not every core's file of the directory: left out (%s)" %
                  (d, len(only), path, ", ".join(only)), file=sys.stderr)
    return out


def pin(repo, perf, trepo=None):
    head = git(repo, "rev-parse", "HEAD").strip()
    by_cpuid = files_by_cpuid(repo, head)
    dirs = {}
    for midr, version, d in perf_rows(perf):
        dirs.setdefault(d, {"midr": [], "version": version})["midr"].append(midr)
    out = []
    for d, info in dirs.items():
        paths = [by_cpuid[midr_cpuid(m)] for m in info["midr"] if midr_cpuid(m) in by_cpuid]
        if not paths:
            print("gen-armdata: arm/%s (%s): no ARM-software/data file names its core" % (d, ";".join(info["midr"])),
                  file=sys.stderr)
            continue
        want = perf_events(perf, d)
        best = None
        for c in git(repo, "log", "--format=%H", head, "--", *paths).split():  # newest first
            events = merged(repo, c, paths, d)
            if events is None:
                continue
            same = sum(1 for n, code in want.items() if n in events and events[n]["code"] == code)
            if best is None or same > best[0]:
                best = (same, c)
        if best is None:
            print("gen-armdata: arm/%s: no commit has all of %s" % (d, ", ".join(paths)), file=sys.stderr)
            continue
        print("gen-armdata: arm/%s: %s at %s: %d of perf's %d events with perf's name and code" %
              (d, ", ".join(paths), best[1][:12], best[0], len(want)))
        row = {"Directory": d, "MIDR": ";".join(info["midr"]), "Version": info["version"],
               "Files": ";".join(paths), "Commit": best[1], "Metrics": "", "MetricsCommit": ""}
        got = pin_metrics(trepo, perf, row, list(merged(repo, best[1], paths, d))) if trepo else None
        if got:
            row["Metrics"], row["MetricsCommit"] = got
        out.append(row)
    return V.write_sources(out)


# Where the first sentence of an ARM-software/data description ends: ". X" or ".This" (a sentence without
# its space), " This event ..." or " The counter ..." (a sentence without its period), " If ..." (the
# conditions of a configurable event), Arm's "+//0" line mark.
SENTENCE_END = re.compile(r"\.\s+(?=[A-Z+\"(])|\.(?=(?:This|The|These) )|\s+(?=(?:This|The|These) (?:event|counter)s?\b)"
                          r"|\s+(?=If\s)|\s*\+//0")


def brief(text):
    text = " ".join(text.replace("\u00a0", " ").split())
    m = SENTENCE_END.search(text, 1)
    return (text[:m.start()] if m else text).rstrip(" .")


def table(repo, src):
    events = merged(repo, src["Commit"], src["Files"].split(";"), src["Directory"], quiet=False)
    if events is None:
        sys.exit("gen-armdata: %s: %s not all at %s" % (src["Directory"], src["Files"], src["Commit"]))
    out = [{"EventName": e["name"], "EventCode": "0x%x" % e["code"], "BriefDescription": brief(e["description"])}
           for e in events.values()]
    return sorted(out, key=by_code)


def by_code(o):
    return (int(o["EventCode"], 16), o["EventName"])


CORE = Form({"EventName", "EventCode", "BriefDescription"}, {"EventName": None, "EventCode": r"0x[0-9a-f]+"}, by_code)


def made(src, repo, trepo):
    """The files of @src's directory as the pinned commits give them: core.json, metrics.json where
    SOURCES.csv pins metrics and the telemetry clone is given."""
    events = table(repo, src)
    out = [("core.json", events, "ARM-software/data", src["Commit"])]
    if trepo and src.get("Metrics"):
        out.append(("metrics.json", metrics_table(trepo, src, [e["EventName"] for e in events]),
                    "telemetry-solution", src["MetricsCommit"]))
    return out


def forms(src):
    """The files write makes in @src's directory, all of them needed: core.json, metrics.json where
    SOURCES.csv pins metrics."""
    return [("core.json", True, CORE)] + ([("metrics.json", True, METRICS)] if src.get("Metrics") else [])


def licence_files():
    """The licence travels with the data (Apache-2.0): the number of its files missing (said)."""
    bad = 0
    for fn in ("LICENSE", "LICENSE-2.0.txt", "README.md"):
        if not os.path.exists(os.path.join(OUT, fn)):
            print("gen-armdata: events/arm64/arm/%s is missing (Apache-2.0: the licence travels with the data)" % fn)
            bad += 1
    return bad


def ok(repo, trepo):
    """The check's last line when it found nothing."""
    return "ok: %d directories (%d with metrics) and their %d mapfile rows as SOURCES.csv gives them%s%s" % (
        len(sources()), sum(1 for s in sources() if s.get("Metrics")), sum(len(s["MIDR"].split(";")) for s in sources()),
        ", each core.json as ARM-software/data's pinned commit gives it" if repo else
        " (core.json not compared with ARM-software/data: no clone given)",
        "" if not repo else ", each metrics.json as telemetry-solution's pinned commit gives it" if trepo else
        " (metrics.json not compared: no telemetry-solution clone given)")


# ---------------------------------------------------------------------------------------------------------
# Metrics: Arm's telemetry specifications (github.com/ARM-software/telemetry-solution, Apache-2.0)
# ---------------------------------------------------------------------------------------------------------

METRICS = Form({"MetricName", "MetricExpr", "BriefDescription", "MetricGroup", "ScaleUnit"},
               {"MetricName": None, "MetricExpr": None}, by_name)


def telemetry_files(repo, commit):
    """{(implementer, part): [(revision, path)]} of the CPU specifications of telemetry-solution at
    @commit (data/pmu/cpu/**.json, regular files: its per-revision links to another file are that file)."""
    out = {}
    for line in git(repo, "ls-tree", "-r", commit, "data/pmu/cpu").splitlines():
        mode, _, _, path = line.split(None, 3)
        if mode != "100644" or not path.endswith(".json"):
            continue
        pc = data_file(repo, commit, path).get("product_configuration", {})
        if "part_num" in pc and "implementer" in pc:
            rev = (int(pc.get("major_revision", 0)), int(pc.get("minor_revision", 0)))
            out.setdefault((int(pc["implementer"], 16), int(pc["part_num"], 16)), []).append((rev, path))
    return {k: sorted(v) for k, v in out.items()}


def spec_midr(midr, rev):
    """The MIDR of @midr's part at revision @rev (major, minor) = rMpN: variant M, revision N."""
    return "0x%x" % (int(midr, 16) & ~0xf0000f | rev[0] << 20 | rev[1])


def telemetry_specs(repo, commit, midrs):
    """[(MIDR, path)] of the telemetry specifications of @midrs' cores at @commit: each core's earliest
    revision under the directory's MIDR, each later revision under its own MIDR (0x410fd493: r0p3)."""
    by_part = telemetry_files(repo, commit)
    out = []
    for midr in midrs:
        v = int(midr, 16)
        for k, (rev, path) in enumerate(by_part.get((v >> 24 & 0xff, v >> 4 & 0xfff), [])):
            out.append((midr if k == 0 else spec_midr(midr, rev), path))
    return out


def telemetry_metrics(repo, commit, specs, names, d, quiet=True):
    """The metrics of telemetry specifications @specs ([(MIDR, path)], the first the base) at @commit in
    perf's schema; None when a file is missing there. A metric is written where every core's base
    specification defines it; where another core's or a later revision's formula differs from the base's,
    the formula is "(THAT) if strcmp_cpuid_str(ITS MIDR) else (BASE...)": strcmp_cpuid_str(M) is true on
    M's part at M's revision or later, so the parts' conditions exclude each other. A metric whose formula
    names neither an event of @names nor a metric is left out, and said."""
    loaded = []
    for midr, path in specs:
        data = data_file(repo, commit, path)
        if data is None:
            return None
        loaded.append((midr, path, data))
    base = loaded[0][2]
    cores = [data for midr, _, data in loaded if int(midr, 16) & 0xf0000f == 0]
    groups = {}
    for g, info in base.get("groups", {}).get("metrics", {}).items():
        for m in info.get("metrics", []):
            groups.setdefault(m, []).append(g)
    out, only = [], set()
    for name, m in base.get("metrics", {}).items():
        if not all(name in data.get("metrics", {}) for data in cores):
            only.add(name)
            continue
        first = m["formula"].strip()
        expr = first
        for midr, _, data in loaded[1:]:
            other = data.get("metrics", {}).get(name)
            if other and other["formula"].strip() != first:
                expr = "(%s) if strcmp_cpuid_str(%s) else (%s)" % (other["formula"].strip(), midr_short(midr), expr)
        o = {"MetricName": name, "MetricExpr": expr,
             "BriefDescription": " ".join((m.get("description") or m.get("title", "")).split())}
        if groups.get(name):
            o["MetricGroup"] = ";".join(groups[name])
        if m.get("units"):
            o["ScaleUnit"] = "1" + m["units"]
        out.append(o)
    for data in cores[1:]:
        only.update(n for n in data.get("metrics", {}) if n not in base.get("metrics", {}))
    if only and not quiet:
        print("gen-armdata: %s: %d metrics not every core's specification defines: left out (%s)" %
              (d, len(only), ", ".join(sorted(only))), file=sys.stderr)
    known = {n.lower() for n in names} | {o["MetricName"].lower() for o in out}
    while True:
        bad = [o for o in out if any(w.lower() not in known for w in formula_names(o["MetricExpr"]))]
        if not bad:
            break
        for o in bad:
            if not quiet:
                print("gen-armdata: %s: metric %s left out: its formula names %s, not an event of Arm's data for the "
                      "directory nor a metric" % (d, o["MetricName"], ", ".join(
                          w for w in formula_names(o["MetricExpr"]) if w.lower() not in known)), file=sys.stderr)
            known.discard(o["MetricName"].lower())
        out = [o for o in out if o not in bad]
    return sorted(out, key=by_name)


def midr_short(midr):
    """perf's spelling of a MIDR in strcmp_cpuid_str: 0x00000000410fd490 -> 0x410fd490."""
    return "0x%x" % int(midr, 16)


def formula_names(expr):
    """The event and metric names a formula uses (not its functions, keywords, numbers or #constants)."""
    return [w for w in re.findall(r"(?<![#\w.])[A-Za-z_][A-Za-z0-9_.]*", re.sub(r"strcmp_cpuid_str\([^)]*\)", "", expr))
            if w not in ("if", "else", "min", "max", "d_ratio")]


def evaluate(expr, values, midr, slots):
    """@expr (perf's metric syntax: + - * /, numbers, names, 'A if C else B', min, max, #slots,
    strcmp_cpuid_str(MIDR) as libpmu answers it on @midr) with @values for the names; None when it cannot."""
    text = re.sub(r"strcmp_cpuid_str\((0x[0-9a-fA-F]+)\)",
                  lambda m: "1" if cpuid_at_least(midr, m.group(1)) else "0", expr).replace("#slots", "_slots")

    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, (int, float)):
            return n.value
        if isinstance(n, ast.Name):
            return slots if n.id == "_slots" else values(n.id)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
                   ast.Div: lambda: a / b, ast.BitOr: lambda: int(a) | int(b), ast.BitXor: lambda: int(a) ^ int(b),
                   ast.BitAnd: lambda: int(a) & int(b)}
            return ops[type(n.op)]()
        if isinstance(n, ast.IfExp):
            return ev(n.body) if ev(n.test) else ev(n.orelse)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("min", "max"):
            return {"min": min, "max": max}[n.func.id](*[ev(a) for a in n.args])
        raise ValueError(ast.dump(n))
    try:
        return ev(ast.parse(text, mode="eval"))
    except (SyntaxError, ValueError, KeyError, ZeroDivisionError):
        return None


def cpuid_at_least(midr, want):
    """libpmu's (and perf's) strcmp_cpuid_str on arm64: the same part, and variant/revision at least @want's."""
    have, want = int(midr, 16), int(want, 16)
    if (have & ~0xf0000f & 0xffffffff) != (want & ~0xf0000f & 0xffffffff):
        return False
    return ((have >> 20 & 0xf) << 4 | (have & 0xf)) >= ((want >> 20 & 0xf) << 4 | (want & 0xf))


def perf_metrics(perf, d):
    """{name: formula} of perf's arm/@d/metrics.json (ArchStdEvent through perf's sbsa.json; facts for
    choosing the commit)."""
    path = os.path.join(perf, "arm", d, "metrics.json")
    if not os.path.exists(path):
        return {}
    std = {m["MetricName"]: m for m in json.load(open(os.path.join(perf, "sbsa.json"))) if "MetricName" in m}
    out = {}
    for m in json.load(open(path)):
        if "ArchStdEvent" in m:
            m = dict(std.get(m["ArchStdEvent"], {}), **{k: v for k, v in m.items() if k != "ArchStdEvent"})
        if "MetricName" in m and "MetricExpr" in m:
            out[m["MetricName"]] = m["MetricExpr"]
    return out


def same_value(a, b, midr, slots):
    """Whether formulas @a and @b evaluate alike on @midr for three sets of made-up counts."""
    for seed in range(3):
        def values(n, seed=seed):
            return 1 + int(hashlib.sha256(("%d:%s" % (seed, n.lower())).encode()).hexdigest()[:8], 16)
        x, y = evaluate(a, values, midr, slots), evaluate(b, values, midr, slots)
        if x is None or y is None or abs(x - y) > 1e-9 * max(1.0, abs(x)):
            return False
    return True


def pin_metrics(trepo, perf, src, events):
    """(specs, commit) of the directory @src's metrics: of the telemetry commits that changed its cores'
    specifications, the one where most of perf's metrics of the directory evaluate alike on each of its
    MIDRs (#slots: the core's num_slots), the newest of those that tie; None without perf's metrics."""
    want = perf_metrics(perf, src["Directory"])
    head = git(trepo, "rev-parse", "HEAD").strip()
    midrs = src["MIDR"].split(";")
    specs = telemetry_specs(trepo, head, midrs)
    if not want or not specs:
        return None
    slots = {}
    for midr, path in specs:
        slots.setdefault(midr, data_file(trepo, head, path)["product_configuration"].get("num_slots", 0))
    best = None
    for c in git(trepo, "log", "--format=%H", head, "--", *[p for _, p in specs]).split():
        ms = telemetry_metrics(trepo, c, specs, events, src["Directory"])
        if ms is None:
            continue
        by = {o["MetricName"]: o["MetricExpr"] for o in ms}
        same = sum(1 for m in midrs if m in slots for n, f in want.items() if n in by and same_value(f, by[n], m, slots[m]))
        if best is None or same > best[0]:
            best = (same, c, len(ms))
    if best:
        print("gen-armdata: arm/%s: %s at %s: %d metrics; of perf's %d, %d evaluate alike (summed over %d MIDRs)" %
              (src["Directory"], ", ".join(p for _, p in specs), best[1][:12], best[2], len(want), best[0],
               len([m for m in midrs if m in slots])))
    return ";".join("%s=%s" % (m, p) for m, p in specs), best[1]


def metrics_table(trepo, src, events):
    specs = [tuple(x.split("=", 1)) for x in src["Metrics"].split(";")]
    ms = telemetry_metrics(trepo, src["MetricsCommit"], specs, events, src["Directory"], quiet=False)
    if ms is None:
        sys.exit("gen-armdata: %s: %s not all at %s" % (src["Directory"], src["Metrics"], src["MetricsCommit"]))
    return ms


def main(argv):
    return V.main(argv, __doc__, pin=pin, made=made, forms=forms, ok=ok, clones=2, more_check=licence_files)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
