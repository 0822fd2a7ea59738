#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""libpmu's arm64 event codes against libpfm4's, by the validator itself.

Each libpfm4 is built with its own architecture's PMUs only: the x86 libpfm4
of this host has none of Arm's, so `pmu check-tables` here says it cannot
compare arm64 directories. This test builds libpmu for arm64
(tests/cross/aarch64-multiarch.ini, against Debian's multiarch
libjson-c-dev:arm64 and libpfm4-dev:arm64) into <build>/arm64-host and runs
that build's `pmu check-tables` under qemu-user (qemu-aarch64, with
libc6:arm64's loader), where it loads libpfm4:arm64 with dlopen() as it
would on an arm64 machine. What is checked:

* perf's arm64 tree (Debian's linux-source-6.12, extracted into the build
  directory as tests/perf-corpus.py does and read in place) and libpmu's own
  tables (events/): for each directory that lib/pfm.c maps to a libpfm4 PMU,
  its info line, the number of encodings compared and of events libpfm4 has
  no name for, must be those of EXPECTED below; no encoding may differ
  (exit 0, "no problems found"). The counts are facts of the two data sets
  (perf 6.12, libpfm4 4.13): a change of either shows here.
* The check can fail: in a copy of events/ with one arm64 code changed,
  check-tables must report that event with both encodings, and the resolver
  must refuse libpfm4's name for it under that CPU's id (a libpfm4 name
  whose encoding differs from the CPU table's), and accept it unchanged.

A missing tool or package is a failure naming the package (tests/deps.sh
installs them), not a skip.

Usage: test-arm64-libpfm4.py   (run by meson test; PMU_TEST_SRCDIR,
PMU_TEST_BUILDDIR)
"""
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from checks import check, tally  # tests/checks.py, beside this script

SRC = os.environ.get("PMU_TEST_SRCDIR", ".")
BUILD = os.environ.get("PMU_TEST_BUILDDIR", "build")
HOST = os.path.join(BUILD, "arm64-host")
CROSS = os.path.join(SRC, "tests", "cross", "aarch64-multiarch.ini")
FIXTURE = os.path.join(SRC, "tests", "fixtures", "arm64-neoverse-n1")
NEEDS = [("aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu"), ("qemu-aarch64", "qemu-user")]
FILES = [("/lib/ld-linux-aarch64.so.1", "libc6:arm64"),
         ("/usr/lib/aarch64-linux-gnu/libpfm.so.4", "libpfm4:arm64 (libpfm4-dev:arm64)"),
         ("/usr/lib/aarch64-linux-gnu/pkgconfig/json-c.pc", "libjson-c-dev:arm64")]

# directory: (encodings compared, events libpfm4 has no name for). libpfm4 4.13 names Cortex-A53's
# events by older names (BUS_READ_ACCESS for BUS_ACCESS_RD, EXCEPTION_IRQ for EXC_IRQ), and perf's
# cortex-a53 directory has none in common with it; its codes are not compared. Arm's data
# (events/arm64/arm/, gen/gen-armdata.py) names Cortex-A53's architectural events as the Arm ARM does,
# 18 of them as libpfm4 does. Arm's data and libpfm4 agree on every code compared (407 in its five
# directories libpfm4 has a PMU for): no difference to list, as tests/perf-corpus-libpfm4.txt lists
# the x86 ones; one would fail check_tree's "no problems found".
EXPECTED = {
    "perf": {"arm/cortex-a53": (0, 30), "arm/cortex-a57-a72": (16, 67), "arm/neoverse-n1": (106, 3),
             "arm/neoverse-v1": (123, 8), "arm/neoverse-n2-v2": (144, 10), "cavium/thunderx2": (37, 0),
             "fujitsu/a64fx": (178, 5), "hisilicon/hip08": (29, 0), "ampere/emag": (25, 82)},
    "built-in": {"arm64/neoverse-n1": (106, 3), "arm64/neoverse-n2": (144, 10), "arm64/neoverse-v1": (123, 8),
                 "arm64/neoverse-v2": (148, 6), "arm64/arm/cortex-a53": (18, 16),
                 "arm64/arm/cortex-a57-a72": (16, 68), "arm64/arm/neoverse-n1": (106, 4),
                 "arm64/arm/neoverse-n2-v2": (144, 11), "arm64/arm/neoverse-v1": (123, 9)},
}
# the mutation: a code of the built-in Neoverse V2 table and the CPU id of that table (events/mapfile.csv)
MUTATE = ("arm64/neoverse-v2", "BUS_ACCESS_RD", 0x60, 0x61, "0x00000000410fd4f0")





def fail_setup(msg):
    print("test-arm64-libpfm4: FAIL (setup): " + msg)
    sys.exit(1)


def run(cmd, env=None, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, **kw)


def build():
    """libpmu for arm64 in <build>/arm64-host: configured once, then brought up to date."""
    if not os.path.exists(os.path.join(HOST, "build.ninja")):
        r = run(["meson", "setup", HOST, SRC, "--cross-file", CROSS, "-Dtests=false", "-Dexamples=false",
                 "-Dlibpfm=enabled"])
        if r.returncode != 0:
            fail_setup("meson setup of the arm64 build failed:\n" + r.stdout[-3000:])
    r = run(["ninja", "-C", HOST])
    if r.returncode != 0:
        fail_setup("ninja -C %s failed:\n%s" % (HOST, r.stdout[-3000:]))
    return os.path.join(HOST, "tools", "pmu")


def pmu(exe, args, extra=None, apart=False):
    """pmu under qemu on the fixture; stdout and stderr together, or with @apart each its own (check-tables'
    problems and notes go to stdout, its log lines to stderr: one pipe for both would interleave them
    mid-line, stdout being buffered)."""
    env = dict(os.environ, PMU_SYSFS_ROOT=os.path.join(FIXTURE, "sys"), PMU_PROCFS_ROOT=os.path.join(FIXTURE, "proc"))
    for k in ("PMU_EVENTS_PATH", "PMU_CPUID", "PMU_LIBPFM", "LIBPFM_FORCE_PMU", "LIBPFM_ENCODE_INACTIVE"):
        env.pop(k, None)
    env.update(extra or {})
    if apart:
        return subprocess.run(["qemu-aarch64", exe] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env)
    return run(["qemu-aarch64", exe] + args, env=env)


def compared(out):
    """{directory: (compared, unknown)} from check-tables' info lines; the directories not compared."""
    got, not_compared = {}, []
    for line in out.splitlines():
        m = re.match(r"pmu: (\S+): (\d+) encodings compared with libpfm4 \((\S+)\), (\d+) events unknown", line)
        if m:
            got[m.group(1)] = (int(m.group(2)), int(m.group(4)))
        m = re.match(r"pmu: (\S+): encodings not compared with libpfm4", line)
        if m:
            not_compared.append(m.group(1))
    return got, not_compared


def check_tree(exe, label, root):
    r = pmu(exe, ["check-tables", "-v", root], apart=True)
    got, not_compared = compared(r.stderr)
    arm = {d: v for d, v in got.items() if not d.startswith("x86/")}
    print("%s: %s" % (label, ", ".join("%s %d compared (%d unknown to libpfm4)" % (d, c, u)
                                        for d, (c, u) in sorted(arm.items()))))
    check(r.returncode == 0 and "no problems found" in r.stdout,
          "%s: check-tables exits 0, no encoding differs from libpfm4's (exit %d):\n%s" %
          (label, r.returncode, "\n".join(l for l in r.stdout.splitlines() if "differs" in l)[:3000]))
    check(arm == EXPECTED[label], "%s: the directories compared and their counts are those expected:\n  got      %s\n"
          "  expected %s" % (label, sorted(arm.items()), sorted(EXPECTED[label].items())))
    check(not [d for d in not_compared if not d.startswith("x86/")],
          "%s: every arm64 directory libpmu maps to a libpfm4 PMU is compared (not compared: %s)" %
          (label, not_compared))
    return sum(c for c, _ in arm.values())


def mutated(exe):
    d, name, code, wrong, cpuid = MUTATE
    tmp = tempfile.mkdtemp(prefix="pmu-arm64-pfm")
    try:
        tree = os.path.join(tmp, "events")
        shutil.copytree(os.path.join(SRC, "events"), tree)
        path = os.path.join(tree, d, "events.json")
        with open(path) as f:
            entries = json.load(f)
        hits = [e for e in entries if e.get("EventName") == name]
        if not check(len(hits) == 1 and int(hits[0]["EventCode"], 16) == code,
                     "mutation: %s %s has code %#x in %s" % (d, name, code, path)):
            return
        # the unchanged table: libpfm4's name agrees with it and is accepted
        r = pmu(exe, ["resolve", "arm_v2::" + name], {"PMU_CPUID": cpuid})
        check(r.returncode == 0 and "config %#x" % code in r.stdout,
              "resolve arm_v2::%s under %s (unchanged table): libpfm4's %#x, accepted:\n%s" % (name, cpuid, code, r.stdout))
        hits[0]["EventCode"] = "%#x" % wrong
        with open(path, "w") as f:
            json.dump(entries, f, indent=1)
        r = pmu(exe, ["check-tables", tree])
        want = "%s: %s: encoding config=%#x config1=0x0 differs from libpfm4's arm_v2::%s: config=%#x config1=0x0" % (
            path, name, wrong, name, code)
        print("mutated %s %s %#x -> %#x: check-tables exit %d" % (d, name, code, wrong, r.returncode))
        check(r.returncode == 1 and want in r.stdout and "1 problem found" in r.stdout,
              "check-tables of the mutated tree reports exactly that event, both encodings:\n%s" % r.stdout[-2000:])
        r = pmu(exe, ["resolve", name], {"PMU_CPUID": cpuid, "PMU_EVENTS_PATH": tree})
        check(r.returncode == 0 and "config %#x" % wrong in r.stdout,
              "resolve %s under the mutated table: the table's %#x:\n%s" % (name, wrong, r.stdout))
        r = pmu(exe, ["resolve", "arm_v2::" + name + ":u"], {"PMU_CPUID": cpuid, "PMU_EVENTS_PATH": tree})
        print("resolve arm_v2::%s:u under the mutated table: exit %d: %s" % (name, r.returncode, r.stdout.strip()[:300]))
        check(r.returncode != 0 and "libpfm4 encodes arm_v2::%s as config %#x" % (name, code) in r.stdout and
              "encodes %s as %#x" % (name, wrong) in r.stdout and "rNNNN" in r.stdout,
              "resolve arm_v2::%s:u under the mutated table: refused, both encodings named" % name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def listed(exe):
    """pmu list libpfm4 under a Neoverse N1's id lists libpfm4's N1 events (114 in libpfm4 4.13, as its
    pfm_get_pmu_info() counts them), and one resolves on the core PMU, labelled with its name."""
    n1 = {"PMU_CPUID": "0x00000000410fd0c0"}
    r = pmu(exe, ["list", "libpfm4"], n1)
    names = [l.split()[0] for l in r.stdout.splitlines() if l.startswith("  arm_n1::")]
    print("pmu list libpfm4 under Neoverse N1: %d arm_n1:: names" % len(names))
    check(r.returncode == 0 and len(names) == 114 and "arm_n1::L2D_CACHE_REFILL" in names,
          "pmu list libpfm4 under Neoverse N1 lists libpfm4's 114 arm_n1 events:\n" + r.stdout[-1500:])
    r = pmu(exe, ["resolve", "L2D_CACHE_REFILL:u", "arm_n1::L2D_CACHE_REFILL:u"], n1)
    print(r.stdout.strip())
    check(r.returncode == 0 and r.stdout.count("config 0x17, exclude kernel hv") == 2 and
          "pmu armv8_pmuv3_0, type 4, config 0x17" in r.stdout and "from libpfm4: arm_n1::L2D_CACHE_REFILL" in r.stdout,
          "L2D_CACHE_REFILL from the table and from libpfm4: event 0x17 both, libpfm4's raw type labelled with the "
          "core PMU (armv8_pmuv3_0, not x86's cpu)")


def main():
    for tool, package in NEEDS:
        if not shutil.which(tool):
            fail_setup("%s not found: install Debian's %s (tests/deps.sh lists it)" % (tool, package))
    for path, package in FILES:
        if not os.path.exists(path):
            fail_setup("%s is missing: install Debian's %s (tests/deps.sh lists it)" % (path, package))
    spec = importlib.util.spec_from_file_location("perf_corpus", os.path.join(SRC, "tests", "perf-corpus.py"))
    corpus = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(corpus)
    root = corpus.extract(BUILD)
    exe = build()
    r = pmu(exe, ["--version"])
    if r.returncode != 0:
        fail_setup("the arm64 pmu does not run under qemu-aarch64:\n" + r.stdout[-2000:])
    listed(exe)
    n = check_tree(exe, "perf", os.path.join(root, "arch", "arm64"))
    n += check_tree(exe, "built-in", os.path.join(SRC, "events"))
    mutated(exe)
    print("test-arm64-libpfm4: %d arm64 encodings compared with libpfm4:arm64, %d checks, %d failed" % (n, tally.checks, tally.fails))
    return 1 if tally.fails else 0


if __name__ == "__main__":
    sys.exit(main())
