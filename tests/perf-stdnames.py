#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The built-in x86 tables' standard names against perf's tree.

For every x86 directory of events/mapfile.csv and every entry there with
StdNames, each standard name it lists is resolved by libpmu under an id
of that mapfile line (the built-in tables only: no PMU_EVENTS_PATH) on a
fixture machine of the vendor (tests/fixtures/amd-zen3, intel-icx; for
entries with a cpu_core/cpu_atom Unit intel-adl-hybrid and the name
written UNIT/NAME/, e.g. x86/alderlake's). It must
resolve to that very entry, and its encoding must equal the one of the
event of the same name in perf's directory of the same name (Debian's
linux-source-6.12, extracted once into the build directory by
tests/perf-corpus.py's code): the oracle is perf's jevents.py turning
perf's JSON entry into perf's event string, and the fixture's sysfs
format files turning its terms into config bits. An entry whose event
perf's directory does not have fails too (its code would have no oracle),
unless it is one of UNIONS: an event perf writes as parts (same code, some
umask bits each), compared with perf's parts' encodings ORed.

Prints one line per directory (names compared, differing, failing) and a
total; any difference or failure fails the test.
Usage: perf-stdnames.py [--verbose]   (run by meson test, env as perf-corpus.py)
"""
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("perf_corpus", os.path.join(HERE, "perf-corpus.py"))
pc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pc)

# libpmu's names for events perf's x86 tables spell otherwise (the kernel's sysfs name of the
# fixed counter 3 event)
PERF_NAME = {"slots": "TOPDOWN.SLOTS"}

# libpmu's events that perf's tables write as parts: the same event code with the parts' umask bits
# all set (the hardware counts what matches any bit, as perf's own SCALAR = SCALAR_SINGLE |
# SCALAR_DOUBLE and VECTOR = the six packed widths are written). The oracle is perf's encodings of
# the parts, which must differ only in the umask byte, ORed.
UNIONS = {"fp_arith_inst_retired.scalar_vector": ("fp_arith_inst_retired.scalar", "fp_arith_inst_retired.vector")}
UMASK = 0xff00


def union_attr(theirs, unit, name, fmt):
    """perf's encoding of the union @name (UNIONS), or raises CannotEncode saying why not."""
    attrs = []
    for part in UNIONS[name]:
        pe = theirs.get((unit, part))
        if pe is None:
            raise pc.CannotEncode("perf's table has no %s, a part of %s" % (part, name))
        attrs.append(pc.perf_terms_to_attr(pe.event, fmt))
    t, c, c1, c2 = attrs[0]
    for a in attrs[1:]:
        if (a[0], a[1] & ~UMASK, a[2], a[3]) != (t, c & ~UMASK, c1, c2):
            raise pc.CannotEncode("the parts of %s differ beyond the umask: %r" % (name, attrs))
        c |= a[1]
    return t, c, c1, c2


def perf_events(jevents, arch_root, d):
    """perf's core PMU events of directory @d by (unit, lower-case name)."""
    out = {}
    path = os.path.join(arch_root, d)
    for fn in sorted(os.listdir(path)):
        if fn.endswith(".json") and fn != "metricgroups.json":
            for e in jevents.read_json_events(os.path.join(path, fn), topic=fn[:-5]):
                if e.name and (e.pmu == "default_core" or e.pmu in pc.CORE_UNITS):
                    unit = "" if e.pmu == "default_core" else e.pmu
                    out.setdefault((unit, e.name.lower()), e)
    return out


def main():
    verbose = "--verbose" in sys.argv[1:]
    src = os.environ.get("PMU_TEST_SRCDIR")
    build = os.environ.get("PMU_TEST_BUILDDIR")
    if not src or not build:
        pc.fail_setup("PMU_TEST_SRCDIR / PMU_TEST_BUILDDIR are not set: run it through meson test")
    os.environ.pop("PMU_EVENTS_PATH", None)
    import pmu
    root = pc.extract(build)
    sys.path.insert(0, root)
    import jevents  # perf's own, in place
    arch_root = os.path.join(root, "arch", "x86")
    jevents._arch_std_events = {}
    jevents.preprocess_arch_std_files(arch_root)
    fx = os.path.join(src, "tests", "fixtures")
    rows = pc.read_mapfile(os.path.join(src, "events", "mapfile.csv"))
    total = {"compared": 0, "differing": 0, "failing": 0}
    failures = []
    seen = set()
    for i, (pat, d, typ) in enumerate(rows):
        # a row names libpmu's own table of the CPU (its StdNames) and Intel's full one, "x86/A+x86/intel/B":
        # A's mappings are compared with perf's B, the directory perf serves the row's CPUs from
        own = d.split("+")[0]
        if not d.startswith("x86/") or own.startswith("x86/intel/") or d in seen:
            continue
        seen.add(d)
        name = d.split("+")[-1].rsplit("/", 1)[1]
        cpuid = pc.cpu_id_for(rows, i)
        if cpuid is None:
            failures.append("%s: no CPU id found for the mapfile pattern %s" % (d, pat))
            continue
        if not os.path.isdir(os.path.join(arch_root, name)):
            failures.append("%s: perf's tree has no directory %s to compare with" % (d, name))
            continue
        theirs = perf_events(jevents, arch_root, name)
        n = {"compared": 0, "differing": 0, "failing": 0}
        for fn in sorted(os.listdir(os.path.join(src, "events", own))):
            if not fn.endswith(".json"):
                continue
            with open(os.path.join(src, "events", own, fn)) as f:
                entries = json.load(f)
            for e in entries:
                if not e.get("StdNames") or "EventName" not in e:
                    continue
                unit = e.get("Unit", "")
                fixture = "amd-zen3" if cpuid.startswith("AuthenticAMD") else (
                    "intel-adl-hybrid" if unit in pc.CORE_UNITS else "intel-icx")
                sysfs = os.path.join(fx, fixture, "sys")
                pmu_name = unit or "cpu"
                fmt = pc.read_pmu(sysfs, pmu_name)
                pe = theirs.get((unit, PERF_NAME.get(e["EventName"], e["EventName"]).lower()))
                union = pe is None and e["EventName"].lower() in UNIONS
                ctx = pmu.Context(cpuid=cpuid, sysfs_root=sysfs)
                for std in [s.strip() for s in e["StdNames"].split(",") if s.strip()]:
                    what = "%s %s -> %s%s" % (d, std, unit + "/" if unit else "", e["EventName"])
                    if pe is None and not union:
                        n["failing"] += 1
                        failures.append("%s: perf's %s has no such event (no oracle for its code)" % (what, name))
                        continue
                    try:
                        r = ctx.resolve(("%s/%s/" % (unit, std)) if unit else std)
                    except pmu.PmuError as x:
                        n["failing"] += 1
                        failures.append("%s: libpmu does not resolve it: %s" % (what, x))
                        continue
                    # Intel's own event of the standard name itself (TOPDOWN.SLOTS, in x86/intel/) is the CPU's
                    # event of that name and comes first; it must still encode what perf's mapped event does
                    intels = "/intel/" in r["origin"] and r["origin"].endswith(": " + std)
                    if not (r["origin"].endswith(": " + e["EventName"]) or intels) or r["source"] != "table":
                        n["failing"] += 1
                        failures.append("%s: libpmu resolves it to another event (%s)" % (what, r["origin"]))
                        continue
                    mine = (r["type"], r["config"], r["config1"], r["config2"])
                    try:
                        if union:
                            want = union_attr(theirs, unit, e["EventName"].lower(), fmt)
                            perf_event = " | ".join(UNIONS[e["EventName"].lower()])
                        else:
                            want = pc.perf_terms_to_attr(pe.event, fmt)
                            perf_event = pe.event
                    except pc.CannotEncode as x:
                        n["failing"] += 1
                        failures.append("%s: perf's event string %s cannot be encoded: %s" %
                                        (what, pe.event if pe else e["EventName"], x))
                        continue
                    n["compared"] += 1
                    if mine != want:
                        n["differing"] += 1
                        failures.append("%s: libpmu type %d config %#x/%#x/%#x, perf (%s) %d %#x/%#x/%#x" %
                                        ((what,) + mine + (perf_event,) + want))
                    elif verbose:
                        print("  same  %s  %s" % (what, perf_event))
                ctx.close()
        print("%-24s %-26s standard names compared with perf's %s: %3d, differing %d, failing %d" %
              (d, cpuid, name, n["compared"], n["differing"], n["failing"]))
        for k in total:
            total[k] += n[k]
    print("%-51s TOTAL compared %d, differing %d, failing %d" % ("", total["compared"], total["differing"],
                                                                   total["failing"]))
    for f in failures:
        print("FAIL: " + f)
    bad = bool(failures) or total["compared"] == 0
    print("perf-stdnames: %s" % ("FAIL" if bad else "PASS"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
