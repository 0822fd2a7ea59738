#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generic events on arm64 machines of several core PMUs, against the kernel's own source.

Part 1: where the kernel takes no PMU type in a generic event's config bits 32-63
(Debian 12's 6.1), libpmu counts a generic event on a core PMU as that PMU's own event
(lib/generic-native.c). The oracle is the driver itself: drivers/perf/arm_pmuv3.c and
include/linux/perf/arm_pmuv3.h of Debian's linux-source-6.12, read in place from the tarball.
Its maps (armv8_pmuv3_perf_map, armv8_pmuv3_perf_cache_map, each core's own cache map and
which core uses which: PMUV3_INIT_MAP_EVENT) and its event numbers are parsed from the C text;
__armv8_pmuv3_map_event's order is written here from the same file: the common map's event
where the CPU has it (PMCEID, which the PMU's sysfs events/ lists by the names of
ARMV8_EVENT_ATTR), branch-instructions BR_RETIRED else PC_WRITE_RETIRED, then the core's
own cache map, else no event (ENOENT). Written sysfs trees of two core PMUs each (pairs of the
driver's PMU names, events/ either every common event the driver names or a seeded random
part of them) are resolved with `pmu resolve --json PMU/NAME/` for all 52 generic hardware
and cache names, and each answer compared with the driver's.

Part 2: the written big.LITTLE tree tests/fixtures/arm64-biglittle (RK3588-like: A55 on
CPUs 0-3 type 10, A76 on CPUs 4-7 type 11, each cluster's MIDR): every kind of name that names
no PMU is listed by `pmu resolve` as one part per core PMU with that PMU's type, each encoded
from its cluster's own table; a name of one cluster's table counts there only, and says so.
The event numbers are Arm's architectural ones (INST_RETIRED 0x08, CPU_CYCLES 0x11) and those
of perf's cortex-a55 and cortex-a76 trees, written here by hand.
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile

from checks import check, tally  # tests/checks.py, beside this script

TARBALL = "/usr/src/linux-source-6.12.tar.xz"
TOP = "linux-source-6.12"
FILES = [TOP + "/drivers/perf/arm_pmuv3.c", TOP + "/include/linux/perf/arm_pmuv3.h"]




def fail_setup(msg):
    print("test-arm64-generic: FAIL (setup): " + msg)
    sys.exit(1)


def kernel_source(builddir):
    d = os.path.join(builddir, "arm64-generic-src")
    if not all(os.path.exists(os.path.join(d, f)) for f in FILES):
        if not os.path.exists(TARBALL):
            fail_setup("%s is missing: install Debian's linux-source-6.12 (tests/deps.sh)" % TARBALL)
        os.makedirs(d, exist_ok=True)
        r = subprocess.run(["tar", "xJf", TARBALL, "--occurrence=1", "-C", d] + FILES,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            fail_setup("tar: " + r.stdout.strip())
    return [open(os.path.join(d, f)).read() for f in FILES]


def parse(c, h):
    num = {m.group(1): int(m.group(2), 16)
           for m in re.finditer(r"#define\s+(ARMV8_\w+_PERFCTR_\w+)\s+(0x[0-9A-Fa-f]+)", h + c)}
    attr = {m.group(2): m.group(1) for m in re.finditer(r"ARMV8_EVENT_ATTR\((\w+),\s*(ARMV8_\w+)\)", c)}

    def block(name):
        m = re.search(r"\b%s\[[^=]*=\s*\{(.*?)\n\};" % re.escape(name), c, re.S)
        if not m:
            fail_setup("no %s in arm_pmuv3.c" % name)
        return m.group(1)
    hw = {m.group(1): num[m.group(2)]
          for m in re.finditer(r"\[PERF_COUNT_HW_(\w+)\]\s*=\s*(ARMV8_\w+)", block("armv8_pmuv3_perf_map"))}

    def cache(name):
        return {(m.group(1), m.group(2), m.group(3)): num[m.group(4)]
                for m in re.finditer(r"\[C\((\w+)\)\]\[C\(OP_(\w+)\)\]\[C\(RESULT_(\w+)\)\]\s*=\s*(ARMV8_\w+)",
                                     block(name))}
    common = cache("armv8_pmuv3_perf_cache_map")
    # each core's map_event: its cache map, and the PMU names that use it
    uses = {m.group(1): m.group(2) for m in
            re.finditer(r"static int (armv8_\w+_map_event)\(struct perf_event \*event\)\s*\{\s*return "
                        r"__armv8_pmuv3_map_event\(event, NULL,\s*&(armv8_\w+_perf_cache_map)\);", c)}
    extra = {}
    for m in re.finditer(r"PMUV3_INIT_MAP_EVENT\((armv8_\w+), (armv8_\w+_map_event)\)", c):
        extra[m.group(1)] = cache(uses[m.group(2)])
    for m in re.finditer(r"PMUV3_INIT_SIMPLE\((armv8_\w+)\)", c):
        extra[m.group(1)] = {}
    if not hw or not common or len(extra) < 10:
        fail_setup("the driver's maps were not found (hw %d, cache %d, cores %d)" % (len(hw), len(common), len(extra)))
    return num, attr, hw, common, extra


HW = [("cycles", "CPU_CYCLES"), ("instructions", "INSTRUCTIONS"), ("cache-references", "CACHE_REFERENCES"),
      ("cache-misses", "CACHE_MISSES"), ("branch-instructions", "BRANCH_INSTRUCTIONS"),
      ("branch-misses", "BRANCH_MISSES"), ("bus-cycles", "BUS_CYCLES"),
      ("stalled-cycles-frontend", "STALLED_CYCLES_FRONTEND"), ("stalled-cycles-backend", "STALLED_CYCLES_BACKEND"),
      ("ref-cycles", "REF_CPU_CYCLES")]
CACHES = [("L1-dcache", "L1D"), ("L1-icache", "L1I"), ("LLC", "LL"), ("dTLB", "DTLB"), ("iTLB", "ITLB"),
          ("branch", "BPU"), ("node", "NODE")]
OPS = [("load", "READ", "s"), ("store", "WRITE", "s"), ("prefetch", "PREFETCH", "es")]


def generic_names():
    for name, hw in HW:
        yield name, ("hw", hw)
    for c, cc in CACHES:
        for o, oc, plural in OPS:
            yield "%s-%s%s" % (c, o, plural), ("cache", (cc, oc, "ACCESS"))
            yield "%s-%s-misses" % (c, o), ("cache", (cc, oc, "MISS"))


def driver_event(kind, key, pmu, listed, num, attr, hw, common, extra):
    """The event the driver maps generic event @key to on @pmu whose events/ lists @listed, or None."""
    def has(const):
        return attr.get(const) in listed
    if kind == "hw" and key == "BRANCH_INSTRUCTIONS":
        for const in ("ARMV8_PMUV3_PERFCTR_BR_RETIRED", "ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED"):
            if has(const):
                return num[const]
        return None
    table = hw if kind == "hw" else common
    if key in table:
        const = [k for k, v in num.items() if v == table[key] and k.startswith("ARMV8_PMUV3_PERFCTR_")]
        if any(has(k) for k in const):
            return table[key]
    if kind == "cache":
        return extra.get(pmu, {}).get(key)
    return None


def write_tree(root, pmus):
    def w(path, text):
        path = os.path.join(root, path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    w("proc/sys/kernel/perf_event_paranoid", "2\n")
    w("proc/sys/kernel/perf_user_access", "0\n")
    w("sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "0x00000000410fd030\n")
    for n, t in (("software", 1), ("tracepoint", 2), ("breakpoint", 5)):
        w("sys/bus/event_source/devices/%s/type" % n, "%d\n" % t)
    for i, (name, t, events) in enumerate(pmus):
        d = "sys/bus/event_source/devices/%s/" % name
        w(d + "type", "%d\n" % t)
        w(d + "cpus", "%d-%d\n" % (4 * i, 4 * i + 3))
        w(d + "format/event", "config:0-15\n")
        for ev, number in events.items():
            w(d + "events/" + ev, "event=0x%04x\n" % number)


def resolve(pmu_bin, root, names):
    env = dict(os.environ, PMU_SYSFS_ROOT=root + "/sys", PMU_PROCFS_ROOT=root + "/proc")
    r = subprocess.run([pmu_bin, "resolve", "--json"] + names, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return json.loads(r.stdout or "[]"), r.stderr


def part1(pmu_bin, num, attr, hw, common, extra):
    rng = random.Random("libpmu-arm64-generic-1")
    every = {attr[k]: v for k, v in num.items() if k.startswith("ARMV8_PMUV3_PERFCTR_") and k in attr}
    cores = sorted(extra)
    compared = 0
    for scenario in range(2 * len(cores)):
        a, b = cores[scenario % len(cores)], cores[(scenario * 7 + 3) % len(cores)]
        if a == b:
            b = cores[(cores.index(a) + 1) % len(cores)]
        pmus = []
        for i, name in enumerate((a, b)):
            listed = dict(every) if scenario < len(cores) else {k: v for k, v in every.items() if rng.random() < 0.5}
            pmus.append((name, 20 + i, listed))
        with tempfile.TemporaryDirectory() as root:
            write_tree(root, pmus)
            for name, t, listed in pmus:
                names = list(generic_names())
                got, err = resolve(pmu_bin, root, ["%s/%s/" % (name, n) for n, _ in names])
                by = {e["name"]: e for e in got}
                for n, (kind, key) in names:
                    want = driver_event(kind, key, name, listed, num, attr, hw, common, extra)
                    e = by.get("%s/%s/" % (name, n))
                    compared += 1
                    if want is None:
                        check(e is None, "%s/%s/ (events/ of %d): the driver maps none, libpmu gave %s" %
                              (name, n, len(listed), e and (e["type"], e["config"])))
                    else:
                        check(e is not None and e["type"] == t and int(e["config"], 16) == want,
                              "%s/%s/ (events/ of %d): the driver's event 0x%x on type %d, libpmu %s" %
                              (name, n, len(listed), want, t, e and (e["type"], e["config"])))
    print("part 1: %d generic names on %d driver PMUs (pairs, full and random events/) compared with "
          "arm_pmuv3.c" % (compared, len(cores)))


def part2(pmu_bin, src):
    root = os.path.join(src, "tests/fixtures/arm64-biglittle")
    # (name, [(pmu, type, config)] expected; [] when no core PMU gives it a meaning)
    cases = [
        ("INST.RET:u", [("armv8_cortex_a55", 10, 0x08), ("armv8_cortex_a76", 11, 0x08)]),
        ("instructions", [("armv8_cortex_a55", 10, 0x08), ("armv8_cortex_a76", 11, 0x08)]),
        ("cycles:u", [("armv8_cortex_a55", 10, 0x11), ("armv8_cortex_a76", 11, 0x11)]),
        ("INST_RETIRED", [("armv8_cortex_a55", 10, 0x08), ("armv8_cortex_a76", 11, 0x08)]),
        ("inst_retired", [("armv8_cortex_a55", 10, 0x08), ("armv8_cortex_a76", 11, 0x08)]),
        ("r11", [("armv8_cortex_a55", 10, 0x11), ("armv8_cortex_a76", 11, 0x11)]),
        ("armv8_cortex_a76/INST.RET/", [("armv8_cortex_a76", 11, 0x08)]),
        ("L1-dcache-store-misses", []),
        # each cluster's own table (its CPUs' MIDR: cortex-a55, cortex-a76); the numbers as perf's
        # arm64/arm/cortex-a55 and cortex-a76 trees give them (BR_RETURN_RETIRED 0x0E, BR_RETURN_SPEC
        # 0x79, BR_COND_PRED 0xC9 an A55 event, L1D_TLB_RD 0x4E and L1D_TLB_REFILL_RD 0x4C A76 ones)
        ("INST.BRJMP.RETURN.RET", [("armv8_cortex_a55", 10, 0x0e), ("armv8_cortex_a76", 11, 0x79)]),
        ("BR_COND_PRED", [("armv8_cortex_a55", 10, 0xc9)]),
        ("L1D_TLB_RD", [("armv8_cortex_a76", 11, 0x4e)]),
        ("armv8_cortex_a76/TLB.L1D.LOAD.MISS/", [("armv8_cortex_a76", 11, 0x4c)]),
    ]
    for name, want in cases:
        got, err = resolve(pmu_bin, root, [name])
        have = [(e["pmu"], e["type"], int(e["config"], 16)) for e in got]
        check(have == want, "big.LITTLE tree: %s -> %s, expected %s %s" % (name, have, want, err.strip()))
        if len(want) == 1 and "/" not in name:
            check("has no meaning on the" in err and "counted on %s only" % want[0][0] in err,
                  "big.LITTLE tree: %s counted on one cluster without a word: %s" % (name, err))
        if len(want) > 1:
            check(all(e.get("part_of") == name and "hybrid-part" in e["flags"] for e in got),
                  "big.LITTLE tree: %s's parts are not marked as its parts: %s" % (name, got))
        if not want:
            check("has no meaning on any of the 2 core PMUs" in err, "big.LITTLE tree: %s refused: %s" % (name, err))
    print("part 2: %d names on the big.LITTLE tree" % len(cases))
    # pmu info: each core type, its CPUs (the tree's cpus files), its identity (its CPUs' midr_el1:
    # A55 r2p0, A76 r4p0) and the table of that identity (libpmu's own, then Arm's data: events/mapfile.csv);
    # the Alder Lake tree's in Intel's words
    env = dict(os.environ, PMU_SYSFS_ROOT=root + "/sys", PMU_PROCFS_ROOT=root + "/proc")
    info = json.loads(subprocess.run([pmu_bin, "info", "--json"], env=env, stdout=subprocess.PIPE, text=True).stdout)
    core = [(p["name"], p.get("cpus"), p.get("core_type"), p.get("events_table")) for p in info["pmus"] if p["core"]]
    check(core == [("armv8_cortex_a55", "0-3", "Cortex-A55 r2p0 (MIDR 0x00000000412fd050)",
                    "arm64/cortex-a55+arm64/arm/cortex-a55"),
                   ("armv8_cortex_a76", "4-7", "Cortex-A76 r4p0 (MIDR 0x00000000414fd0b0)",
                    "arm64/cortex-a76+arm64/arm/cortex-a76")],
          "pmu info on the big.LITTLE tree: %s" % core)
    # pmu list: each cluster's own table under its PMU; a bare name of the A55's table countable
    lst = json.loads(subprocess.run([pmu_bin, "list", "--json", "L1D_TLB_R"], env=env, stdout=subprocess.PIPE,
                                    text=True).stdout)
    got = {(e["name"], e["pmu"], e["usable"]) for e in lst}
    check(("armv8_cortex_a76/L1D_TLB_RD/", "armv8_cortex_a76", True) in got and
          ("L1D_TLB_REFILL", "armv8_cortex_a55", True) in got and
          not any(n == "armv8_cortex_a55/L1D_TLB_RD/" for n, _, _ in got), "pmu list on the big.LITTLE tree: %s" % got)
    adl = os.path.join(src, "tests/fixtures/intel-adl-hybrid")
    env = dict(os.environ, PMU_SYSFS_ROOT=adl + "/sys", PMU_PROCFS_ROOT=adl + "/proc")
    info = json.loads(subprocess.run([pmu_bin, "info", "--json"], env=env, stdout=subprocess.PIPE, text=True).stdout)
    core = [(p["name"], p.get("cpus"), p.get("core_type"), p.get("events_table")) for p in info["pmus"] if p["core"]]
    check(core == [("cpu_core", "0-7", "P-core (Intel Core)", "x86/alderlake+x86/intel/alderlake"),
                   ("cpu_atom", "8-15", "E-core (Intel Atom)", "x86/alderlake+x86/intel/alderlake")], "pmu info on Alder Lake: %s" % core)


def main():
    src = os.environ.get("PMU_TEST_SRCDIR", ".")
    build = os.environ.get("PMU_TEST_BUILDDIR", "build")
    pmu_bin = os.environ.get("PMU_CLI") or os.path.join(build, "tools/pmu")
    if not os.access(pmu_bin, os.X_OK):
        fail_setup("no %s: build first" % pmu_bin)
    c, h = kernel_source(build)
    num, attr, hw, common, extra = parse(c, h)
    part1(pmu_bin, num, attr, hw, common, extra)
    part2(pmu_bin, src)
    print("test-arm64-generic: %d checks, %d failed" % (tally.checks, tally.fails))
    sys.exit(1 if tally.fails else 0)


if __name__ == "__main__":
    main()
