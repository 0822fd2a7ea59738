#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perf's uncore events read from perf's own tree (PMU_EVENTS_PATH) on the written servers, whose PMUs
have the kernel's real format files (issue 43).

For each pair below, libpmu is given perf 6.12's arch/x86 tree and the fixture machine, and every event
of perf's CPU directory whose Unit is not a core PMU is resolved by name; its config, config1 and config2
are compared with perf's encoding: perf's jevents.py event string (its EventCode, UMask, PortMask, FCMask,
RdWrMask, EnAllCores, EnAllSlices, SliceId, ThreadMask, Filter, ... as jevents writes them) placed by the
fixture's format files of that PMU (its first box, uncore_imc_0 for Unit iMC; perf-corpus.py's oracle).
An event of a PMU the fixture does not have is counted, not compared. An event whose own string perf
cannot place in the kernel's format (a value too wide: perf says "value too big for format") must be
refused by libpmu too ("refused"), not counted truncated. Required: no event encoded differently, none
unresolved that perf encodes, and at least one event the same on each PMU listed below.

Found so: libpmu's loader dropped RdWrMask, EnAllCores, EnAllSlices, SliceId and ThreadMask without a
word, and 44 of perf's 196 AMD Zen 4/5 uncore events (umc_*.rd/.wr, l3_xi_sampled_latency*) counted
something else.

Usage: perf-uncore-fixtures.py   (run by meson test; env as perf-corpus.py)
"""
import importlib.util
import os
import re
import shutil
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("perf_corpus", os.path.join(HERE, "perf-corpus.py"))
pc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pc)

# (fixture, perf's arch and directory, an id of its mapfile line, the PMUs whose events must all compare)
PAIRS = [
    ("amd-zen4-2s", "x86", "amdzen4", "AuthenticAMD-25-11", ["amd_df", "amd_l3", "amd_umc"]),
    ("amd-zen4-2s", "x86", "amdzen5", "AuthenticAMD-26-02", ["amd_l3", "amd_umc"]),
    ("intel-spr-2s", "x86", "sapphirerapids", "GenuineIntel-6-8F-8",
     ["uncore_cha", "uncore_imc", "uncore_upi", "uncore_iio", "uncore_pcu"]),
    ("hisi-hip08", "arm64", "hisilicon/hip08", "0x00000000480fd010",
     ["hisi_sccl,ddrc", "hisi_sccl,hha", "hisi_sccl,l3c"]),
]

# HiSilicon Hip08's uncore PMUs, as drivers/perf/hisilicon/ of Linux 6.12 names them ("hisi_sccl%u_ddrc%u",
# "hisi_sccl%u_hha%u", "hisi_sccl%u_l3c%u") with their v1 format files (hisi_uncore_ddrc_pmu.c: event
# config:0-4; hisi_uncore_hha_pmu.c and hisi_uncore_l3c_pmu.c: event config:0-7), a cpumask each (one CPU
# of its super cluster); two super clusters, sccl1 (CPUs 0-1) and sccl3 (2-3), each box numbered as a
# Hip08 numbers them. Written at run time on tests/fixtures/arm64-neoverse-n1's tree (its core PMU); no
# identifier file (the value a Hip08 reads from its version register is not known here).
HIP08 = [("hisi_sccl%d_ddrc%d" % (s, b), "config:0-4", c) for s, c in ((1, 0), (3, 2)) for b in range(4)] + \
        [("hisi_sccl%d_hha%d" % (s, b), "config:0-7", c) for s, c, bs in ((1, 0, (2, 3)), (3, 2, (0, 1))) for b in bs] + \
        [("hisi_sccl%d_l3c%d" % (s, b), "config:0-7", c) for s, c, bs in ((1, 0, range(10, 16)), (3, 2, range(18, 24)))
         for b in bs]
CORE = ("default_core", "cpu", "cpu_core", "cpu_atom")


def box_of(devs, pmu):
    """The fixture's PMU that counts perf's Unit @pmu: itself, else its first box (pmu_0; for a Unit
    "socket,name" the first socketX_nameY in the order of the names), else None."""
    for cand in (pmu, pmu + "_0"):
        if os.path.isdir(os.path.join(devs, cand)):
            return cand
    if "," in pmu:
        sock, name = pmu.split(",", 1)
        hits = sorted(d for d in os.listdir(devs) if re.fullmatch(re.escape(sock) + r"\d+_" + re.escape(name) + r"\d+", d))
        return hits[0] if hits else None
    return None


def hip08_machine(src, build):
    """The Hip08 machine (HIP08) made in the build directory: its root."""
    dst = os.path.join(build, "perf-corpus", "fixtures", "hisi-hip08")
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(os.path.join(src, "tests", "fixtures", "arm64-neoverse-n1"), dst, symlinks=True)
    devs = os.path.join(dst, "sys/bus/event_source/devices")
    for k, (name, event, cpu) in enumerate(HIP08):
        os.makedirs(os.path.join(devs, name, "format"))
        for fn, text in (("type", "%d" % (40 + k)), ("cpumask", "%d" % cpu), ("format/event", event)):
            with open(os.path.join(devs, name, fn), "w") as f:
                f.write(text + "\n")
    return dst


def main():
    src, build, pmu, root = pc.start()
    import jevents  # perf's own, in place
    failures = []
    print("perf's uncore events (PMU_EVENTS_PATH=perf's arch/<arch>) on the written servers' real formats:")
    print("%-14s %-16s %7s %6s %5s %7s %6s %s" % ("fixture", "perf directory", "uncore", "same", "DIFF", "refused",
                                                   "no PMU", "per PMU (same/compared)"))
    for fx, arch_name, d, cpuid, need in PAIRS:
        arch = os.path.join(root, "arch", arch_name)
        jevents._arch_std_events = {}
        jevents.preprocess_arch_std_files(arch)
        fxroot = hip08_machine(src, build) if fx == "hisi-hip08" else os.path.join(src, "tests", "fixtures", fx)
        sysfs = os.path.join(fxroot, "sys")
        devs = os.path.join(sysfs, "bus/event_source/devices")
        entries = []
        for fn in sorted(os.listdir(os.path.join(arch, d))):
            if fn.endswith(".json") and fn != "metricgroups.json":
                entries.extend(jevents.read_json_events(os.path.join(arch, d, fn), topic=fn[:-5]))
        unc = [e for e in entries if e.name and e.event and e.pmu not in CORE]
        ctx = pmu.Context(cpuid=cpuid, sysfs_root=sysfs, procfs_root=os.path.join(fxroot, "proc"), events_path=arch)
        if ctx.caps().get("events_table") != d:
            failures.append("%s: libpmu chose table %s for %s, not perf's %s" %
                            (fx, ctx.caps().get("events_table"), cpuid, d))
        t, per = Counter(), {}
        for e in unc:
            box = box_of(devs, e.pmu)
            if not box:
                t["no PMU"] += 1
                continue
            c = per.setdefault(e.pmu, Counter())
            c["compared"] += 1
            try:
                want = pc.perf_terms_to_attr(e.event, pc.read_pmu(sysfs, box))
            except pc.CannotEncode as why:
                # perf's own string does not fit the kernel's format (perf refuses it: "value too big for
                # format"): libpmu must refuse it too, not count it truncated
                try:
                    got = ctx.resolve(e.name)
                    t["DIFF"] += 1
                    failures.append("%s %s: %s (%s): perf cannot encode it (%s) but libpmu resolved it: config=%#x"
                                    % (fx, d, e.name, e.pmu, why, got["config"]))
                except pmu.PmuError:
                    t["refused"] += 1
                    c["refused"] += 1
                continue
            try:
                got = ctx.resolve(e.name)
            except pmu.PmuError as x:
                t["unresolved"] += 1
                failures.append("%s %s: %s (%s) not resolved: %s" % (fx, d, e.name, e.pmu, x))
                continue
            have = (got["config"], got["config1"], got["config2"])
            if have == tuple(want[1:]):
                t["same"] += 1
                c["same"] += 1
            else:
                t["DIFF"] += 1
                failures.append("%s %s: %s (%s): libpmu config=%#x config1=%#x config2=%#x, perf (%s) "
                                "config=%#x config1=%#x config2=%#x" % ((fx, d, e.name, e.pmu) + have + (e.event,)
                                                                       + tuple(want[1:])))
        ctx.close()
        for p in need:
            if not per.get(p, Counter())["same"]:
                failures.append("%s %s: no event of %s compared (the fixture or perf's directory changed?)" %
                                (fx, d, p))
        print("%-14s %-16s %7d %6d %5d %7d %6d %s" % (fx, d, len(unc), t["same"], t["DIFF"], t["refused"],
                                                      t["no PMU"], ", ".join("%s %d/%d" % (p, c["same"], c["compared"])
                                                                             for p, c in sorted(per.items()))))
    for f in failures:
        print("FAIL: " + f)
    print("perf-uncore-fixtures: %s" % ("FAIL" if failures else "PASS"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
