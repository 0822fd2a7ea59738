#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Intel's published event data (github.com/intel/perfmon, BSD-3-Clause) to built-in tables.

For every Intel CPU directory of a perf mapfile (perf 6.12's: tools/perf/pmu-events/arch/x86/mapfile.csv),
the perfmon commit whose own mapfile gives that CPU's core events the version perf's row names is found
(`pin`) and recorded in events/x86/intel/SOURCES.csv; the tables are then written from those commits
(`write`) into events/x86/intel/<directory>/core.json in perf's pmu-events schema, so that the
library's loader encodes them as it encodes perf's files. Only facts are taken from perf's mapfile: which
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
  gen-perfmon.py write PERFMON_GIT                rewrite events/x86/intel/*/core.json from it, and
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

HERE = os.path.dirname(os.path.abspath(__file__))
EVENTS = os.path.join(os.path.dirname(HERE), "events")
OUT = os.path.join(EVENTS, "x86", "intel")
SOURCES = os.path.join(OUT, "SOURCES.csv")
SOURCE_COLS = ["Directory", "CPUID", "Version", "Perfmon", "Commit", "Files"]
DROP = {"", "0", "0x0", "0x00", "na", "null", "tbd"}
KEEP = ["EventCode", "UMask", "CounterMask", "Invert", "EdgeDetect", "AnyThread", "MSRIndex", "MSRValue",
        "PEBS", "SampleAfterValue", "Counter", "Deprecated", "Errata", "Data_LA", "BriefDescription"]
ROLE_UNIT = {"Core": "cpu_core", "Atom": "cpu_atom"}


def git(repo, *args):
    r = subprocess.run(["git", "-C", repo] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode:
        sys.exit("gen-perfmon: git %s: %s" % (" ".join(args), r.stderr.decode().strip()))
    return r.stdout.decode("utf-8")


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
    os.makedirs(OUT, exist_ok=True)
    with open(SOURCES, "w", newline="") as f:
        w = csv.DictWriter(f, SOURCE_COLS, lineterminator="\n")
        w.writeheader()
        w.writerows(out)
    print("gen-perfmon: %d directories pinned in %s" % (len(out), os.path.relpath(SOURCES)))


def sources():
    with open(SOURCES) as f:
        return list(csv.DictReader(f))


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
    return sorted(out, key=lambda o: (o["EventName"], o.get("Unit", "")))


def tables(repo, src):
    files = [f.split("=", 1) for f in src["Files"].split(";")]
    hybrid = len(files) > 1
    entries = []
    for role, path in files:
        data = json.loads(git(repo, "show", "%s:%s" % (src["Commit"], path)))
        entries += convert(data["Events"] if isinstance(data, dict) else data, ROLE_UNIT[role] if hybrid else None)
    return {"core.json": sorted(entries, key=lambda o: (o["EventName"], o.get("Unit", "")))}


def dump(entries):
    return json.dumps(entries, indent=4, sort_keys=True, ensure_ascii=True) + "\n"


SCHEMA_KEYS = set(KEEP) | {"EventName", "Unit"}


def offline_check():
    """What --check can tell without perfmon: each directory of SOURCES.csv (and no other) has a core.json
    that is a sorted array of this converter's keys, each entry with a name and a code."""
    bad = 0
    named = {s["Directory"] for s in sources()}
    here = {d for d in os.listdir(OUT) if os.path.isdir(os.path.join(OUT, d))}
    for d in sorted(here - named):
        print("gen-perfmon: events/x86/intel/%s is in no row of SOURCES.csv" % d)
        bad += 1
    for d in sorted(named):
        path = os.path.join(OUT, d, "core.json")
        try:
            entries = json.load(open(path))
        except (OSError, ValueError) as x:
            print("gen-perfmon: %s: %s" % (os.path.relpath(path), x))
            bad += 1
            continue
        odd = [e.get("EventName", "?") for e in entries
               if not isinstance(e, dict) or set(e) - SCHEMA_KEYS or "EventName" not in e]
        if odd or entries != sorted(entries, key=lambda o: (o["EventName"], o.get("Unit", ""))):
            print("gen-perfmon: %s is not what write makes (%s)" % (os.path.relpath(path), ", ".join(odd[:3]) or "order"))
            bad += 1
    return bad


def write(repo, check):
    bad = offline_check() if check else 0
    for src in sources() if repo else []:
        d = os.path.join(OUT, src["Directory"])
        for fn, entries in tables(repo, src).items():
            path = os.path.join(d, fn)
            text = dump(entries)
            if check:
                old = open(path).read() if os.path.exists(path) else None
                if old != text:
                    print("gen-perfmon: %s differs from what perfmon %s gives" % (os.path.relpath(path), src["Commit"][:12]))
                    bad += 1
                continue
            os.makedirs(d, exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
    text = mapfile_text()
    if check and open(MAPFILE).read() != text:
        print("gen-perfmon: events/mapfile.csv's Intel rows differ from SOURCES.csv's")
        bad += 1
    elif not check:
        with open(MAPFILE, "w") as f:
            f.write(text)
    if check and not bad:
        print("ok: %d directories and their mapfile rows as SOURCES.csv gives them%s" %
              (len(sources()), ", each core.json as perfmon's pinned commit gives it" if repo else
               " (core.json not compared with perfmon: no clone given)"))
    return 1 if bad else 0


MAPFILE = os.path.join(EVENTS, "mapfile.csv")


def mapfile_text():
    """events/mapfile.csv with its Intel rows made from SOURCES.csv: one per directory, naming libpmu's own
    table of the CPU first where a row had one (x86/<dir>: StdNames, topdown, notes), then the vendor's."""
    lines = open(MAPFILE).read().splitlines()
    own = {}
    for ln in lines[1:]:
        c = ln.split(",")
        if c[0].startswith("GenuineIntel") and c[2].startswith("x86/") and not c[2].startswith("x86/intel/"):
            own[c[0]] = c[2].split("+")[0]
    rows = ["%s,%s,%s,core" % (s["CPUID"], s["Version"], "+".join(([own[s["CPUID"]]] if s["CPUID"] in own else [])
                                                                + ["x86/intel/" + s["Directory"]]))
            for s in sources()]
    out, done = [lines[0]], False
    for ln in lines[1:]:
        if ln.startswith("GenuineIntel"):
            if not done:
                out += rows
                done = True
            continue
        out.append(ln)
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) == 3 and argv[0] == "pin":
        return pin(argv[1], argv[2])
    if len(argv) == 2 and argv[0] == "write":
        return write(argv[1], False)
    if argv[:1] == ["--check"] and len(argv) <= 2:
        return write(argv[1] if len(argv) == 2 else None, True)
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
