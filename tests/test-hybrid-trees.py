#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The written trees of newer machines of several core PMUs, each against an oracle of its own.

Trees: tests/fixtures/intel-rpl-hybrid (Raptor Lake), intel-mtl-hybrid (Meteor Lake),
intel-arl-hybrid (Arrow Lake S), arm64-dynamiq-3 (A510 + A710 + X2, kernel 6.12) and the older
arm64-biglittle (kernel 6.1). Oracles, read in place from Debian's linux-source-6.12 tarball
(extracted once into the build directory; exit 77 where the tarball is absent):

1. The trees' bytes against arch/x86/events/intel/core.c: each Intel tree's topdown and memory
   events/ and its extra format/ files are exactly those the kernel's attribute arrays make visible
   on that PMU (EVENT_ATTR_STR_HYBRID / FORMAT_ATTR_HYBRID: hybrid_big cpu_core, hybrid_small
   cpu_atom; "atom;core" strings split by PMU index), each file the kernel's string, no newline;
   caps/pmu_name the case's name. Which arrays each model's case uses is written here from the file.
2. Generic names on each core PMU, by the tree's kernel (proc/sys/kernel/osrelease): on x86 and on
   arm64 from 6.6 the extended type, config = id | PMU type << 32, id computed here by hand from
   perf_event.h's enums; on arm64 6.1 the PMU's own event as arm_pmuv3.c maps it (numbers written
   here); the same A510/A710/X2 tree copied with osrelease 6.5, 6.6, 6.12 and none.
3. pmu resolve NAME on every name perf's tables define: Meteor Lake and Raptor Lake with
   PMU_EVENTS_PATH = perf's x86 tree (meteorlake, alderlake): every EventName defined for both
   cpu_core and cpu_atom, written bare, must give two parts, each encoded as the JSON entry says
   (EventCode | UMask << 8 | EdgeDetect << 18 | Invert << 23 | CounterMask << 24, encoded here);
   entries with other encoding fields (MSRValue, FrontendValue, several codes) are skipped and
   counted. arm64-dynamiq-3 (PMU_EVENTS_PATH = perf's arm64 tree): every EventName of the three
   cores' tables gives one part on each core whose table defines it, with that table's code
   (ArchStdEvent resolved through common-and-microarch.json / recommended.json). Arrow Lake: no
   table (perf 6.12 has none), so a table name is refused and the sysfs and generic names split.
4. pmu info: each core PMU, its CPUs (the tree's cpus) and core type; pmu list: a name of one
   core's table listed under that core's PMU only.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from checks import check, tally  # tests/checks.py, beside this script

TARBALL = "/usr/src/linux-source-6.12.tar.xz"
TOP = "linux-source-6.12"
PE = TOP + "/tools/perf/pmu-events/arch"
WANT = [TOP + "/arch/x86/events/intel/core.c", PE + "/x86/mapfile.csv", PE + "/x86/alderlake/*",
        PE + "/x86/meteorlake/*", PE + "/arm64/*"]




def source(build):
    d = os.path.join(build, "hybrid-trees-src")
    if not os.path.exists(os.path.join(d, ".done")):
        if not os.path.exists(TARBALL):
            print("test-hybrid-trees: SKIP: %s is absent (Debian's linux-source-6.12; tests/deps.sh)" % TARBALL)
            sys.exit(77)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        r = subprocess.run(["tar", "xJf", TARBALL, "-C", d, "--wildcards"] + WANT, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if r.returncode:
            print("test-hybrid-trees: FAIL (setup): tar: " + r.stdout.strip())
            sys.exit(1)
        open(os.path.join(d, ".done"), "w").close()
    return os.path.join(d, TOP)


class Tree:
    def __init__(self, pmu_bin, root, events_path=None):
        self.bin, self.root = pmu_bin, root
        self.env = dict(os.environ, PMU_SYSFS_ROOT=root + "/sys", PMU_PROCFS_ROOT=root + "/proc")
        self.env.pop("PMU_EVENTS_PATH", None)
        if events_path:
            self.env["PMU_EVENTS_PATH"] = events_path

    def run(self, *args):
        r = subprocess.run([self.bin] + list(args), env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        return r.stdout, r.stderr

    def resolve(self, names):
        out, err = self.run("resolve", "--json", *names)
        return json.loads(out or "[]"), err

    def parts(self, name):
        got, err = self.resolve([name])
        return [(e["pmu"], e["type"], int(e["config"], 16), int(e["config1"], 16)) for e in got], err

    def sysfs(self, pmu, path):
        with open(os.path.join(self.root, "sys/bus/event_source/devices", pmu, path)) as f:
            return f.read()


def intel_bytes(ks, fixtures):
    """Part 1: the Intel trees' kernel-specific files against intel/core.c's arrays."""
    c = open(os.path.join(ks, "arch/x86/events/intel/core.c")).read()
    strs = {m.group(2): (m.group(1), m.group(3), m.group(4)) for m in re.finditer(
        r'EVENT_ATTR_STR_HYBRID\(([\w-]+),\s*(\w+),\s*"([^"]*)",\s*(\w+)\)', c)}
    fmts = {m.group(1): m.group(2) for m in re.finditer(r"FORMAT_ATTR_HYBRID\((\w+),\s*(\w+)\)", c)}
    fmt_text = {m.group(1): m.group(2) for m in re.finditer(r'PMU_FORMAT_ATTR\((\w+),\s*"([^"]*)"\s*\)', c)}

    def array(name):
        m = re.search(r"static struct attribute \*%s\[\] = \{(.*?)\};" % name, c, re.S)
        body = m.group(1)
        macros = {"ADL_HYBRID_RTM_FORMAT_ATTR": ["in_tx", "in_tx_cp"],
                  "ADL_HYBRID_FORMAT_ATTR": ["offcore_rsp", "ldlat", "frontend"]}
        out = re.findall(r"EVENT_PTR\((\w+)\)|FORMAT_HYBRID_PTR\((\w+)\)|(ADL_HYBRID_\w+_ATTR)", body)
        res = []
        for ev, fm, mac in out:
            res += [ev] if ev else [fm] if fm else macros[mac]
        return res
    # intel_pmu_init(): (td_attr, mem_attr, extra_attr without RTM, name) of each case
    cases = {"intel-rpl-hybrid": ("adl_hybrid_events_attrs", "adl_hybrid_mem_attrs", "adl_hybrid_extra_attr",
                                  "alderlake_hybrid"),
             "intel-mtl-hybrid": ("adl_hybrid_events_attrs", "mtl_hybrid_mem_attrs", "mtl_hybrid_extra_attr",
                                  "meteorlake_hybrid"),
             "intel-arl-hybrid": ("lnl_hybrid_events_attrs", "mtl_hybrid_mem_attrs", "mtl_hybrid_extra_attr",
                                  "lunarlake_hybrid")}
    for m, (td, mem, extra, name) in cases.items():
        check(re.search(r'name = "%s";' % name, c) is not None, "core.c has no case named %s" % name)
        t = Tree(None, os.path.join(fixtures, m))
        for pmu, bit, idx in (("cpu_atom", "hybrid_small", 0), ("cpu_core", "hybrid_big", 1)):
            want = {}
            for var in array(td) + array(mem):
                ev, text, types = strs[var]
                if bit not in types and types != "hybrid_big_small":
                    continue
                want[ev] = text.split(";")[idx] if types == "hybrid_big_small" else text
            have = {os.path.basename(p) for p in glob.glob(os.path.join(t.root, "sys/bus/event_source/devices",
                                                                        pmu, "events/*"))}
            generic = {"branch-instructions", "branch-misses", "bus-cycles", "cache-misses", "cache-references",
                       "cpu-cycles", "instructions", "ref-cycles"}
            check(have - generic == set(want), "%s %s events/: %s, the kernel's arrays give %s" %
                  (m, pmu, sorted(have - generic), sorted(want)))
            for ev, text in want.items():
                if ev in have:
                    got = t.sysfs(pmu, "events/" + ev)
                    check(got == text, "%s %s/events/%s: %r, the kernel prints %r" % (m, pmu, ev, got, text))
            wantf = {f for f in array(extra) if fmts[f] in (bit, "hybrid_big_small")}
            havef = {os.path.basename(p) for p in glob.glob(os.path.join(t.root, "sys/bus/event_source/devices",
                                                                         pmu, "format/*"))}
            base = {"event", "umask", "edge", "pc", "inv", "cmask"}
            check(havef - base == wantf, "%s %s format/: %s, expected %s" % (m, pmu, sorted(havef - base), sorted(wantf)))
            for f in wantf | base:
                if f in havef and f in fmt_text:
                    check(t.sysfs(pmu, "format/" + f) == fmt_text[f] + "\n", "%s %s/format/%s" % (m, pmu, f))
            check(t.sysfs(pmu, "caps/pmu_name") == name + "\n", "%s %s caps/pmu_name" % (m, pmu))
    print("part 1: the Intel trees' topdown, memory and format files equal intel/core.c's for their cases")


# perf_event.h: PERF_COUNT_HW_* and the cache id | op << 8 | result << 16, by hand
GENERIC = {"cycles": (0, 0), "instructions": (0, 1), "cache-references": (0, 2), "cache-misses": (0, 3),
           "branch-instructions": (0, 4), "branch-misses": (0, 5), "L1-dcache-loads": (3, 0x0),
           "L1-dcache-load-misses": (3, 0x10000), "L1-icache-load-misses": (3, 0x10001),
           "LLC-loads": (3, 0x2), "LLC-load-misses": (3, 0x10002), "dTLB-load-misses": (3, 0x10003),
           "iTLB-load-misses": (3, 0x10004), "branch-loads": (3, 0x5), "branch-load-misses": (3, 0x10005)}
# arm_pmuv3.c's armv8_pmuv3_perf_map / _cache_map for those names, where the CPU lists the event
ARM_NATIVE = {"cycles": 0x11, "instructions": 0x08, "cache-references": 0x04, "cache-misses": 0x03,
              "branch-instructions": 0x21, "branch-misses": 0x10, "L1-dcache-loads": 0x04,
              "L1-dcache-load-misses": 0x03, "L1-icache-load-misses": 0x01, "LLC-loads": 0x36,
              "LLC-load-misses": 0x37, "dTLB-load-misses": 0x05, "iTLB-load-misses": 0x02, "branch-loads": 0x12,
              "branch-load-misses": 0x10}


def generic_names(pmu_bin, fixtures):
    """Part 2: the same generic names on every core PMU of each tree, encoded as its kernel takes them."""
    trees = {"intel-rpl-hybrid": [("cpu_core", 4), ("cpu_atom", 10)],
             "intel-mtl-hybrid": [("cpu_core", 4), ("cpu_atom", 10)],
             "intel-arl-hybrid": [("cpu_core", 4), ("cpu_atom", 10)],
             "arm64-dynamiq-3": [("armv9_cortex_a510", 10), ("armv9_cortex_a710", 11), ("armv9_cortex_x2", 12)],
             "arm64-biglittle": [("armv8_cortex_a55", 10), ("armv8_cortex_a76", 11)]}
    n = 0
    with tempfile.TemporaryDirectory() as tmp:
        copies = []
        for rel in ("6.5.0", "6.6.0", "6.12.0", None):
            d = os.path.join(tmp, rel or "none")
            shutil.copytree(os.path.join(fixtures, "arm64-dynamiq-3"), d)
            p = os.path.join(d, "proc/sys/kernel/osrelease")
            if rel:
                open(p, "w").write(rel + "\n")
            else:
                os.remove(p)
            copies.append((d, rel is not None and tuple(map(int, rel.split(".")[:2])) >= (6, 6), rel))
        runs = [(os.path.join(fixtures, m), pmus, m.startswith("intel") or m == "arm64-dynamiq-3", m)
                for m, pmus in trees.items()]
        runs += [(d, trees["arm64-dynamiq-3"], ext, "arm64-dynamiq-3 with osrelease %s" % rel) for d, ext, rel in copies]
        for root, pmus, ext, label in runs:
            t = Tree(pmu_bin, root)
            got, err = t.resolve(list(GENERIC))
            by = {}
            for e in got:
                by.setdefault(e.get("part_of", e["name"]), []).append((e["pmu"], e["type"], int(e["config"], 16)))
            for name, (kind, gid) in GENERIC.items():
                if ext:
                    want = [(p, kind, gid | t_ << 32) for p, t_ in pmus]
                else:
                    want = [(p, t_, ARM_NATIVE[name]) for p, t_ in pmus]
                n += len(want)
                check(by.get(name) == want, "%s: %s -> %s, expected %s %s" % (label, name, by.get(name), want,
                                                                             err.strip()[:200]))
    print("part 2: %d (generic name, core PMU) encodings on 5 trees and 4 kernels of the three-core tree" % n)


def x86_code(e):
    """The config perf's JSON entry gives (the simple fields only), or None to skip it."""
    if set(e) & {"MSRValue", "FrontendValue", "MSRIndex"} and (e.get("MSRValue") not in (None, "0", "0x0", "0x00") or
                                                              e.get("FrontendValue")):
        return None
    if "," in e.get("EventCode", "") or "EventCode" not in e:
        return None
    v = int(e["EventCode"], 16) | int(e.get("UMask", "0"), 16) << 8
    v |= int(e.get("EdgeDetect", "0")) << 18 | int(e.get("Invert", "0")) << 23 | int(e.get("CounterMask", "0")) << 24
    if int(e.get("UMask", "0"), 16) > 0xff or int(e.get("EventCode"), 16) > 0xff:
        return None
    return v


def intel_tables(pmu_bin, fixtures, ks):
    """Part 3 (Intel): every name perf's table defines for both core types, bare, split on both."""
    x86 = os.path.join(ks, "tools/perf/pmu-events/arch/x86")
    for m, d, events_path in (("intel-mtl-hybrid", "meteorlake", x86), ("intel-rpl-hybrid", "alderlake", x86)):
        per = {}
        for f in glob.glob(os.path.join(ks, "tools/perf/pmu-events/arch/x86", d, "*.json")):
            for e in json.load(open(f)):
                if "EventName" in e and e.get("Unit") in ("cpu_core", "cpu_atom"):
                    per.setdefault(e["EventName"], {})[e["Unit"]] = e
        both = sorted(n for n, u in per.items() if len(u) == 2)
        t = Tree(pmu_bin, os.path.join(fixtures, m), events_path)
        got, err = t.resolve(both)
        by = {}
        for e in got:
            by.setdefault(e.get("part_of", e["name"]), []).append(e)
        compared = skipped = 0
        for name in both:
            parts = by.get(name, [])
            check([p["pmu"] for p in parts] == ["cpu_core", "cpu_atom"],
                  "%s: bare %s parts %s, expected cpu_core and cpu_atom" % (m, name, [p["pmu"] for p in parts]))
            for p in parts:
                want = x86_code(per[name][p["pmu"]])
                if want is None:
                    skipped += 1
                    continue
                compared += 1
                check(p["type"] == (4 if p["pmu"] == "cpu_core" else 10) and int(p["config"], 16) == want,
                      "%s: %s/%s/ type %d config %s, perf's JSON gives 0x%x" % (m, p["pmu"], name, p["type"],
                                                                               p["config"], want))
        print("part 3: %s (perf's %s table): %d names defined on both core types, each split in two; %d parts "
              "compared with perf's JSON, %d skipped (offcore/frontend/several codes)" %
              (m, d, len(both), compared, skipped))


def arm_tables(pmu_bin, fixtures, ks):
    """Part 3 (arm64): every event of the three cores' tables on the cores whose table defines it."""
    root = os.path.join(ks, "tools/perf/pmu-events/arch/arm64")
    std = {}
    for f in ("common-and-microarch.json", "recommended.json"):
        for e in json.load(open(os.path.join(root, f))):
            if "EventCode" in e:
                std[e["EventName"]] = int(e["EventCode"], 16)
    cores = [("armv9_cortex_a510", 10, "cortex-a510"), ("armv9_cortex_a710", 11, "cortex-a710"),
             ("armv9_cortex_x2", 12, "cortex-x2")]
    table = {}
    for pmu, ty, d in cores:
        for f in glob.glob(os.path.join(root, "arm", d, "*.json")):
            for e in json.load(open(f)):
                if "ArchStdEvent" in e:
                    table.setdefault(e["ArchStdEvent"], {})[pmu] = (ty, std[e["ArchStdEvent"]])
                elif "EventName" in e and "EventCode" in e:
                    table.setdefault(e["EventName"], {})[pmu] = (ty, int(e["EventCode"], 16))
    t = Tree(pmu_bin, os.path.join(fixtures, "arm64-dynamiq-3"), root)
    names = sorted(table)
    got, err = t.resolve(names)
    by = {}
    for e in got:
        bare = e.get("part_of") or (e["name"].split("/")[1] if e["name"].count("/") == 2 else e["name"])
        by.setdefault(bare, []).append((e["pmu"], e["type"], int(e["config"], 16)))
    some = 0
    for name in names:
        want = [(p, ty, code) for p, ty, _ in cores if p in table[name] for ty, code in [table[name][p]]]
        some += len(want) < 3
        check(by.get(name) == want, "arm64-dynamiq-3: %s -> %s, perf's tables give %s" % (name, by.get(name), want))
    print("part 3: arm64-dynamiq-3: %d names of perf's A510/A710/X2 tables, %d parts compared (%d names on "
          "only some cores)" % (len(names), sum(len(v) for v in table.values()), some))
    # a name of some cores' tables only: counted there, the others said
    only = [n for n in names if len(table[n]) == 1 and "armv9_cortex_a510" not in table[n]]
    if only:
        _, err = t.parts(only[0])
        check("has no meaning on the" in err, "%s (one core's table) counted without a word: %s" % (only[0], err))
        out, _ = t.run("list", "--json", only[0])
        pmu = list(table[only[0]])[0]
        lst = [(e["name"], e["pmu"]) for e in json.loads(out or "[]") if e["name"].split("/")[-2 if "/" in e["name"] else 0] == only[0]]
        check(("%s/%s/" % (pmu, only[0]), pmu) in lst, "pmu list %s: %s, expected under %s" % (only[0], lst, pmu))
    return root


def info_and_arl(pmu_bin, fixtures, arm_root):
    """Part 4: pmu info's core types; Arrow Lake without a table."""
    want = {"intel-rpl-hybrid": [("cpu_core", "0-15", "P-core (Intel Core)", "x86/alderlake+x86/intel/alderlake"),
                                 ("cpu_atom", "16-31", "E-core (Intel Atom)", "x86/alderlake+x86/intel/alderlake")],
            "intel-mtl-hybrid": [("cpu_core", "0-11", "P-core (Intel Core)", "x86/intel/meteorlake"),
                                 ("cpu_atom", "12-21", "E-core (Intel Atom)", "x86/intel/meteorlake")],
            "intel-arl-hybrid": [("cpu_core", "0-7", "P-core (Intel Core)", ""),
                                 ("cpu_atom", "8-23", "E-core (Intel Atom)", "")],
            # each core its built-in table of Arm's data (events/arm64/arm/)
            "arm64-dynamiq-3": [("armv9_cortex_a510", "0-3", "Cortex-A510 r1p0 (MIDR 0x00000000411fd460)",
                                 "arm64/arm/cortex-a510"),
                                ("armv9_cortex_a710", "4-6", "Cortex-A710 r2p0 (MIDR 0x00000000412fd470)",
                                 "arm64/arm/cortex-a710"),
                                ("armv9_cortex_x2", "7", "Cortex-X2 r2p0 (MIDR 0x00000000412fd480)",
                                 "arm64/arm/cortex-x2")]}
    for m, w in want.items():
        t = Tree(pmu_bin, os.path.join(fixtures, m))
        for p, cpus, _, _ in w:
            check(t.sysfs(p, "cpus") == cpus + "\n", "%s %s/cpus" % (m, p))
        info = json.loads(t.run("info", "--json")[0])
        core = [(p["name"], p.get("cpus"), p.get("core_type"), p.get("events_table")) for p in info["pmus"] if p["core"]]
        check(core == w and info["hybrid"] == len(w), "pmu info %s: %s (hybrid %s), expected %s" %
              (m, core, info["hybrid"], w))
    t = Tree(pmu_bin, os.path.join(fixtures, "arm64-dynamiq-3"), arm_root)
    core = [p.get("events_table") for p in json.loads(t.run("info", "--json")[0])["pmus"] if p["core"]]
    check(core == ["arm/cortex-a510", "arm/cortex-a710", "arm/cortex-x2"], "each core its own table: %s" % core)
    # Arrow Lake S: perf 6.12 and libpmu have no table; names still count on both core types
    t = Tree(pmu_bin, os.path.join(fixtures, "intel-arl-hybrid"))
    parts, err = t.parts("INST_RETIRED.ANY")
    check(parts == [] and "unknown event" in err, "ARL: a table name without a table: %s %s" % (parts, err))
    for name, want in (("INST.RET", [("cpu_core", 0, 0x400000001, 0), ("cpu_atom", 0, 0xa00000001, 0)]),
                       ("mem-loads", [("cpu_core", 4, 0x1cd, 3), ("cpu_atom", 10, 0x5d0, 3)]),
                       ("mem-stores", [("cpu_core", 4, 0x2cd, 0), ("cpu_atom", 10, 0x6d0, 0)]),
                       ("r3c", [("cpu_core", 4, 0x3c, 0), ("cpu_atom", 10, 0x3c, 0)]),
                       ("cpu_atom/topdown-retiring/", [("cpu_atom", 10, 0x2c2, 0)]),
                       ("topdown-retiring", [("cpu_core", 4, 0x8000, 0)])):
        parts, err = t.parts(name)
        check(parts == want, "ARL: %s -> %s, expected %s %s" % (name, parts, want, err.strip()))
    print("part 4: pmu info's core types on 4 trees; Arrow Lake without a table: 6 names")


def main():
    src = os.environ.get("PMU_TEST_SRCDIR", ".")
    build = os.environ.get("PMU_TEST_BUILDDIR", "build")
    pmu_bin = os.environ.get("PMU_CLI") or os.path.join(build, "tools/pmu")
    if not os.access(pmu_bin, os.X_OK):
        print("test-hybrid-trees: FAIL (setup): no %s: build first" % pmu_bin)
        sys.exit(1)
    fixtures = os.path.join(src, "tests/fixtures")
    ks = source(build)
    intel_bytes(ks, fixtures)
    generic_names(pmu_bin, fixtures)
    intel_tables(pmu_bin, fixtures, ks)
    arm_root = arm_tables(pmu_bin, fixtures, ks)
    info_and_arl(pmu_bin, fixtures, arm_root)
    print("test-hybrid-trees: %d checks, %d failed" % (tally.checks, tally.fails))
    sys.exit(1 if tally.fails else 0)


if __name__ == "__main__":
    main()
