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
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("perf_corpus", os.path.join(HERE, "perf-corpus.py"))
pc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pc)

# (fixture, perf's x86 directory, an id of its mapfile line, the PMUs whose events must all compare)
PAIRS = [
    ("amd-zen4-2s", "amdzen4", "AuthenticAMD-25-11", ["amd_df", "amd_l3", "amd_umc"]),
    ("amd-zen4-2s", "amdzen5", "AuthenticAMD-26-02", ["amd_l3", "amd_umc"]),
    ("intel-spr-2s", "sapphirerapids", "GenuineIntel-6-8F-8",
     ["uncore_cha", "uncore_imc", "uncore_upi", "uncore_iio", "uncore_pcu"]),
]
CORE = ("default_core", "cpu", "cpu_core", "cpu_atom")


def box_of(devs, pmu):
    """The fixture's PMU that counts perf's Unit @pmu: itself, else its first box (pmu_0), else None."""
    for cand in (pmu, pmu + "_0"):
        if os.path.isdir(os.path.join(devs, cand)):
            return cand
    return None


def main():
    src, build, pmu, root = pc.start()
    import jevents  # perf's own, in place
    arch = os.path.join(root, "arch", "x86")
    jevents._arch_std_events = {}
    jevents.preprocess_arch_std_files(arch)
    failures = []
    print("perf's uncore events (PMU_EVENTS_PATH=perf's arch/x86) on the written servers' real formats:")
    print("%-14s %-16s %7s %6s %5s %7s %6s %s" % ("fixture", "perf directory", "uncore", "same", "DIFF", "refused",
                                                   "no PMU", "per PMU (same/compared)"))
    for fx, d, cpuid, need in PAIRS:
        sysfs = os.path.join(src, "tests", "fixtures", fx, "sys")
        devs = os.path.join(sysfs, "bus/event_source/devices")
        entries = []
        for fn in sorted(os.listdir(os.path.join(arch, d))):
            if fn.endswith(".json") and fn != "metricgroups.json":
                entries.extend(jevents.read_json_events(os.path.join(arch, d, fn), topic=fn[:-5]))
        unc = [e for e in entries if e.name and e.event and e.pmu not in CORE]
        ctx = pmu.Context(cpuid=cpuid, sysfs_root=sysfs, procfs_root=os.path.join(src, "tests", "fixtures", fx,
                                                                                   "proc"), events_path=arch)
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
