#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Arm's published PMU event data (github.com/ARM-software/data, Apache-2.0) to built-in tables.

For every arm/<dir> directory of a perf arm64 mapfile (perf 6.12's: tools/perf/pmu-events/arch/arm64/
mapfile.csv), the ARM-software/data file of each core the directory serves (pmu/<core>.json: the file whose
"cpuid" is the MIDR's implementer and part number, e.g. 0x41d0c for 0x00000000410fd0c0) is found, and the
data commit whose events best match perf's directory is chosen (`pin`): of the commits that changed those
files, the one where most of perf's events have the same name and code, the newest of those that tie.
The choice is recorded in events/arm64/arm/SOURCES.csv; the tables are then written from those commits
(`write`) into events/arm64/arm/<dir>/core.json in perf's pmu-events schema. Only facts are taken from
perf's tree: which directory serves which MIDR, its name and version, its events' names and codes (perf's
ArchStdEvent references resolved through its common-and-microarch.json and recommended.json) to choose
the commit; nothing of perf's files is written.

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

  gen-armdata.py pin DATA_GIT PERF_ARM64     rewrite events/arm64/arm/SOURCES.csv (PERF_ARM64: perf's
                                             tools/perf/pmu-events/arch/arm64 directory)
  gen-armdata.py write DATA_GIT              rewrite events/arm64/arm/<dir>/core.json and events/mapfile.csv's
                                             rows of those MIDRs
  gen-armdata.py --check [DATA_GIT]          exit 1 when events/mapfile.csv's rows of SOURCES.csv's MIDRs are
                                             not what SOURCES.csv gives, when a directory of SOURCES.csv has no
                                             core.json (or one that is not this converter's form) or one is not
                                             in SOURCES.csv, when LICENSE or README.md is missing; with DATA_GIT,
                                             also when a core.json differs from what write makes (a meson test
                                             runs it without: no machine here has the clone; perf-corpus-builtin
                                             compares every event with perf's own tree instead)
DATA_GIT is a clone of github.com/ARM-software/data with its history (the pinned commits are read with
git show; nothing is checked out).

events/mapfile.csv gets one row per MIDR of SOURCES.csv, naming libpmu's own table of that core first where
a row of that MIDR had one (arm64/neoverse-n1+arm64/arm/neoverse-n1: StdNames, topdown, notes; the `+` of
events/README.md), then Arm's; those rows stand where the first of them stood, every other row as it was."""
import csv
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EVENTS = os.path.join(os.path.dirname(HERE), "events")
OUT = os.path.join(EVENTS, "arm64", "arm")
SOURCES = os.path.join(OUT, "SOURCES.csv")
MAPFILE = os.path.join(EVENTS, "mapfile.csv")
SOURCE_COLS = ["Directory", "MIDR", "Version", "Files", "Commit"]
KEYS = {"EventName", "EventCode", "BriefDescription"}


def git(repo, *args, check=True):
    r = subprocess.run(["git", "--git-dir", git_dir(repo)] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if r.returncode and check:
        sys.exit("gen-armdata: git %s: %s" % (" ".join(args), r.stderr.decode().strip()))
    return r.stdout.decode("utf-8") if not r.returncode else None


def git_dir(repo):
    """The git directory of @repo: a bare clone (the directory itself) or a work tree's .git."""
    return os.path.join(repo, ".git") if os.path.isdir(os.path.join(repo, ".git")) else repo


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


def pin(repo, perf):
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
        out.append({"Directory": d, "MIDR": ";".join(info["midr"]), "Version": info["version"],
                    "Files": ";".join(paths), "Commit": best[1]})
    os.makedirs(OUT, exist_ok=True)
    with open(SOURCES, "w", newline="") as f:
        w = csv.DictWriter(f, SOURCE_COLS, lineterminator="\n")
        w.writeheader()
        w.writerows(out)
    print("gen-armdata: %d directories pinned in %s" % (len(out), os.path.relpath(SOURCES)))
    return 0


def sources():
    with open(SOURCES) as f:
        return list(csv.DictReader(f))


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
    return sorted(out, key=sort_key)


def sort_key(o):
    return (int(o["EventCode"], 16), o["EventName"])


def dump(entries):
    return json.dumps(entries, indent=4, sort_keys=True, ensure_ascii=True) + "\n"


def check_file(path):
    """1 when @path is not a core.json write makes: a sorted array of entries of KEYS, each with a name and a
    hex code."""
    try:
        entries = json.load(open(path))
    except (OSError, ValueError) as x:
        print("gen-armdata: %s: %s" % (os.path.relpath(path), x))
        return 1
    odd = [e.get("EventName", "?") if isinstance(e, dict) else "?" for e in entries
           if not isinstance(e, dict) or set(e) - KEYS or "EventName" not in e
           or not re.fullmatch(r"0x[0-9a-f]+", e.get("EventCode", ""))]
    if odd or entries != sorted(entries, key=sort_key):
        print("gen-armdata: %s is not what write makes (%s)" % (os.path.relpath(path), ", ".join(odd[:3]) or "order"))
        return 1
    return 0


def offline_check():
    """What --check can tell without the data clone: each directory of SOURCES.csv (and no other) has a
    core.json of this converter's form and nothing else; LICENSE and README.md are there."""
    bad = 0
    named = {s["Directory"] for s in sources()}
    here = {d for d in os.listdir(OUT) if os.path.isdir(os.path.join(OUT, d))}
    for d in sorted(here - named):
        print("gen-armdata: events/arm64/arm/%s is in no row of SOURCES.csv" % d)
        bad += 1
    for d in sorted(named):
        path = os.path.join(OUT, d, "core.json")
        if not os.path.exists(path):
            print("gen-armdata: events/arm64/arm/%s/core.json is missing" % d)
            bad += 1
            continue
        bad += check_file(path)
        for fn in sorted(set(os.listdir(os.path.join(OUT, d))) - {"core.json"}):
            print("gen-armdata: events/arm64/arm/%s/%s is no file write makes" % (d, fn))
            bad += 1
    for fn in ("LICENSE", "README.md"):
        if not os.path.exists(os.path.join(OUT, fn)):
            print("gen-armdata: events/arm64/arm/%s is missing (Apache-2.0: the licence travels with the data)" % fn)
            bad += 1
    return bad


def write(repo, check):
    bad = offline_check() if check else 0
    for src in sources() if repo else []:
        path = os.path.join(OUT, src["Directory"], "core.json")
        text = dump(table(repo, src))
        if check:
            old = open(path).read() if os.path.exists(path) else None
            if old != text:
                print("gen-armdata: %s differs from what ARM-software/data %s gives" %
                      (os.path.relpath(path), src["Commit"][:12]))
                bad += 1
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    text = mapfile_text()
    if check and open(MAPFILE).read() != text:
        print("gen-armdata: events/mapfile.csv's rows of Arm's cores differ from SOURCES.csv's")
        bad += 1
    elif not check:
        with open(MAPFILE, "w") as f:
            f.write(text)
    if check and not bad:
        print("ok: %d directories and their %d mapfile rows as SOURCES.csv gives them%s" %
              (len(sources()), sum(len(s["MIDR"].split(";")) for s in sources()),
               ", each core.json as ARM-software/data's pinned commit gives it" if repo else
               " (core.json not compared with ARM-software/data: no clone given)"))
    return 1 if bad else 0


def mapfile_text():
    """events/mapfile.csv with a row per MIDR of SOURCES.csv: libpmu's own table of the core first where a
    row of that MIDR had one (arm64/<core>: StdNames, topdown, notes), then Arm's; the rows stand where the
    first row of any of those MIDRs stood (else after the last arm64 row), every other row as it was."""
    lines = open(MAPFILE).read().splitlines()
    midrs = [m for s in sources() for m in s["MIDR"].split(";")]
    own = {}
    for ln in lines[1:]:
        c = ln.split(",")
        if c[0] in midrs and c[2].startswith("arm64/") and not c[2].startswith("arm64/arm/"):
            own[c[0]] = c[2].split("+")[0]
    rows = ["%s,%s,%s,core" % (m, s["Version"], "+".join(([own[m]] if m in own else []) + ["arm64/arm/" + s["Directory"]]))
            for s in sources() for m in s["MIDR"].split(";")]
    out, at = [lines[0]], None
    for ln in lines[1:]:
        if ln.split(",")[0] in midrs:
            if at is None:
                at = len(out)
            continue
        out.append(ln)
    if at is None:
        arm = [k for k, ln in enumerate(out) if ",arm64/" in ln]
        at = arm[-1] + 1 if arm else len(out)
    out[at:at] = rows
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
