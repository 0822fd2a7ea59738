#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perf's "sys" tables against libpmu: system PMUs matched by their identifier.

perf 6.12's trees have, beside the CPU directories of their mapfiles, sys/
directories (arm64: arm/cmn, freescale/imx8m*, imx93, imx95, hisilicon/hip09,
thead/yitian710; x86 and riscv none) whose events and metrics carry a Unit
(a PMU name less its instance suffix) and a Compat (a POSIX extended regular
expression the PMU's sysfs identifier must match whole): perf offers them on
any machine with such a PMU, whatever its CPU (tools/perf/util/pmu.c:
pmu_add_sys_aliases, pmu_uncore_alias_match, pmu_uncore_identifier_match).

For every sys/ directory of perf's tree (read in place, extracted by
perf-corpus.py's code), per Unit and Compat, a fixture machine with one PMU
of that unit, its format files the 6.12 driver's (tests/fixtures/sys-*/ and
arm64-neoverse-v1-cmn; README.md there), its identifier one the Compat
matches (the fixture's, or a copy made in the build tree with the Compat's
own text where the Compat is a plain string: i.MX8MM on the i.MX8MP
fixture):

* every event resolves by name (PMU_EVENTS_PATH=<perf's arch tree>) to the
  encoding perf gives it: jevents.py's event string, placed by the fixture's
  format files (perf-corpus.py's perf_terms_to_attr); same / DIFFERENT /
  lacking per Unit, 0 DIFFERENT and 0 lacking required; its origin names the
  sys/ file and its note the Compat matched and the PMU's identifier;
* the same events on a copy whose identifier has the matching one inside it
  ("x43603x": the Compat matches part of it, not all) must not be offered by
  the table (unknown, or the PMU's own sysfs event): "not offered";
* every metric of the directory is listed as a metric on the matching
  machine (offered), none on the non-matching one; on the matching one, each
  event libpmu's pmu_metric_events() names resolves (the PMU's sysfs events
  of the fixture, the driver's, for perf's imx8_ddr0@axid\-read\,...@) and
  its value on made-up counts equals perf's formula's, evaluated by
  perf-corpus.py's Oracle (a name perf's file defines twice not compared).

Usage: perf-sys.py [--verbose]   (run by meson test; PMU_TEST_SRCDIR,
PMU_TEST_BUILDDIR, PMU_LIBRARY, PYTHONPATH=bindings/python)
"""
import importlib.util
import os
import re
import shutil
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("perf_corpus", os.path.join(HERE, "perf-corpus.py"))
pc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pc)

# Unit -> (fixture, the PMU's name there as its driver names it). Neoverse N1 as the CPU: sys tables
# are chosen whatever the CPU.
MACHINES = {
    "arm_cmn": ("arm64-neoverse-v1-cmn", "arm_cmn_0"),
    "imx8_ddr": ("sys-imx8-ddr", "imx8_ddr0"),
    "imx9_ddr": ("sys-imx9-ddr", "imx9_ddr0"),
    "ali_drw": ("sys-ali-drw", "ali_drw_21000"),
    "hisi_sicl,cpa": ("sys-hisi-cpa", "hisi_sicl2_cpa0"),
}
CPUID = "0x00000000413fd0c1"  # Neoverse N1 r3p1


def sys_dirs(arch_root):
    out = []
    for dp, dn, fn in os.walk(arch_root):
        if os.path.basename(dp) == "sys":
            out.append(os.path.relpath(dp, arch_root))
    return sorted(out)


def machine(src, build, unit, ident):
    """The fixture of @unit with identifier @ident: the written one where it has it, else a copy."""
    fx, pmu = MACHINES[unit]
    base = os.path.join(src, "tests", "fixtures", fx)
    with open(os.path.join(base, "sys/bus/event_source/devices", pmu, "identifier")) as f:
        have = f.read().strip()
    if ident is None or ident == have:
        return base, have
    dst = os.path.join(build, "perf-sys", "%s-%s" % (fx, re.sub(r"[^A-Za-z0-9.]", "_", ident)))
    shutil.rmtree(dst, ignore_errors=True)  # made anew: the fixture may have changed
    shutil.copytree(base, dst, symlinks=True)
    with open(os.path.join(dst, "sys/bus/event_source/devices", pmu, "identifier"), "w") as f:
        f.write(ident + "\n")
    return dst, ident


cannot = []


def metric_value(ctx, pmu, t, oracle, trees, names, m, label, diffs):
    """@m's value as pmu stat computes it against perf's formula evaluated by perf-corpus.py's Oracle, the
    same made-up counts on both sides: equal / DIFFERENT / libpmu cannot / oracle cannot."""
    name = m.metric_name
    if names[name.lower()] > 1:
        t["metric twice in perf's file"] += 1
        return
    try:
        _, lit = oracle.names(m.pmu, m.metric_expr)
        want = oracle.value(m.pmu, name)
    except pc.OracleCannot:
        t["metric oracle cannot"] += 1
        return
    try:
        for c in lit:
            ctx.set_param(c, pc.constant_for(c))
        need = ctx.metric_events(name) + ["duration_time"]
        for n in need:  # counted by pmu stat -M: each must resolve here (the PMU's sysfs events too)
            if n != "duration_time" and (m.pmu, pc.canon(n)) not in trees:
                ctx.resolve(n)
        got = ctx.metric(name, {n: pc.count_for(n) for n in need if (m.pmu, pc.canon(n)) not in trees})
    except pmu_mod.PmuError as x:
        t["metric libpmu cannot"] += 1
        cannot.append("%s: metric %s: %s" % (label, name, x))
        return
    if pc.same_number(got, want):
        t["metric equal"] += 1
    else:
        t["metric DIFFERENT"] += 1
        diffs.append("%s: metric %s: libpmu %r, perf's formula %r" % (label, name, got, want))


def main():
    verbose = "--verbose" in sys.argv
    src, build, pmu, root = pc.start()
    import jevents
    import metric as metric_mod
    global pmu_mod
    pmu_mod = pmu
    failures, diffs = [], []
    tally = defaultdict(Counter)
    for arch in ("x86", "arm64", "riscv"):
        arch_root = os.path.join(root, "arch", arch)
        dirs = sys_dirs(arch_root)
        print("%s: %d sys directories%s" % (arch, len(dirs), (": " + ", ".join(dirs)) if dirs else ""))
        for d in dirs:
            entries = []
            for fn in sorted(os.listdir(os.path.join(arch_root, d))):
                if fn.endswith(".json"):
                    entries.extend(jevents.read_json_events(os.path.join(arch_root, d, fn), topic=fn[:-5]))
            groups = defaultdict(list)
            for e in entries:
                groups[(e.pmu, e.compat)].append(e)
            for (unit, compat), es in sorted(groups.items()):
                if unit not in MACHINES:
                    failures.append("%s: Unit %s has no fixture machine here" % (d, unit))
                    continue
                fx, pname = MACHINES[unit]
                _, have = machine(src, build, unit, None)
                ident = have if re.fullmatch(compat, have) else compat
                if not re.fullmatch(compat, ident):
                    failures.append("%s: no identifier found that Compat %s matches" % (d, compat))
                    continue
                label = "%s (%s, Compat %s)" % (d, unit, compat)
                names = Counter(m.metric_name.lower() for m in es if m.metric_name)
                trees = {(m.pmu, m.metric_name.lower()): (m.metric_name, m.metric_expr)
                         for m in es if m.metric_name}
                oracle = pc.Oracle(metric_mod, trees)
                # the matching identifier within others: a Compat must match the whole identifier
                nomatch = "x%sx" % ident
                if re.fullmatch(compat, nomatch):
                    failures.append("%s: Compat %s matches %s too" % (label, compat, nomatch))
                    continue
                for ident_now, matching in ((ident, True), (nomatch, False)):
                    fdir, _ = machine(src, build, unit, ident_now)
                    sysfs = os.path.join(fdir, "sys")
                    ctx = pmu.Context(cpuid=CPUID, sysfs_root=sysfs, events_path=arch_root)
                    listed = {x["name"].lower(): x for x in ctx.list()}
                    info = pc.read_pmu(sysfs, pname)
                    t = tally[unit]
                    for e in es:
                        if e.metric_name:
                            m = listed.get(e.metric_name.lower())
                            ok = m is not None and m.get("kind") == "metric"
                            t[("metric offered" if ok else "metric lacking") if matching else
                              ("metric NOT HIDDEN" if ok else "metric not offered")] += 1
                            if ok != matching:
                                failures.append("%s: metric %s %s" % (label, e.metric_name,
                                                "not offered" if matching else "offered though no Compat matches"))
                            if ok and matching:
                                metric_value(ctx, pmu, t, oracle, trees, names, e, label, diffs)
                            continue
                        if not e.name:
                            continue
                        try:
                            got = ctx.resolve(e.name)
                        except pmu.PmuError as x:
                            got = None
                            why = str(x)
                        if not matching:
                            table = got is not None and got["source"] == "table"
                            t["NOT HIDDEN" if table else "not offered"] += 1
                            if table:
                                failures.append("%s: %s offered on identifier %s: %s" % (label, e.name, nomatch,
                                                                                        got["origin"]))
                            continue
                        if got is None or got["source"] != "table":
                            t["lacking"] += 1
                            failures.append("%s: %s not resolved from the table: %s" % (
                                label, e.name, why if got is None else got["origin"]))
                            continue
                        note = "Compat '%s' matches PMU %s's identifier %s" % (compat, pname, ident)
                        if "/%s/" % d not in got["origin"] or note not in got.get("note", ""):
                            failures.append("%s: %s: resolve does not say where it came from (origin '%s', note "
                                            "'%s', want %s/... and \"%s\")" % (label, e.name, got["origin"],
                                                                             got.get("note"), d, note))
                        want = pc.perf_terms_to_attr(e.event, info)
                        have_enc = (got["type"], got["config"], got["config1"], got["config2"])
                        if have_enc == want:
                            t["same"] += 1
                        else:
                            t["DIFFERENT"] += 1
                            diffs.append("%s: %s: libpmu type %d config %#x/%#x/%#x, perf's %s: %d %#x/%#x/%#x" %
                                         ((label, e.name) + have_enc + (e.event,) + want))
                        if verbose:
                            print("  %s %s -> %s config %#x" % (label, e.name, got["pmu"], got["config"]))
                    ctx.close()
    print("\nper Unit (events: same / DIFFERENT / lacking on a machine whose identifier Compat matches; "
          "not offered / NOT HIDDEN where none matches; metrics likewise):")
    for unit in sorted(tally):
        t = tally[unit]
        print("  %-14s events %3d same, %d DIFFERENT, %d lacking; %3d not offered, %d NOT HIDDEN | "
              "metrics %3d offered, %d lacking; %3d not offered, %d NOT HIDDEN" %
              (unit, t["same"], t["DIFFERENT"], t["lacking"], t["not offered"], t["NOT HIDDEN"],
               t["metric offered"], t["metric lacking"], t["metric not offered"], t["metric NOT HIDDEN"]))
    tot = sum(tally.values(), Counter())
    print("  %-14s events %3d same, %d DIFFERENT, %d lacking; %3d not offered, %d NOT HIDDEN | "
          "metrics %3d offered, %d lacking; %3d not offered, %d NOT HIDDEN" %
          ("TOTAL", tot["same"], tot["DIFFERENT"], tot["lacking"], tot["not offered"], tot["NOT HIDDEN"],
           tot["metric offered"], tot["metric lacking"], tot["metric not offered"], tot["metric NOT HIDDEN"]))
    print("metrics' values (perf's formula, made-up counts): equal / DIFFERENT / libpmu cannot / oracle cannot / "
          "defined twice by perf's file:")
    for unit in sorted(tally):
        t = tally[unit]
        print("  %-14s %3d equal, %d DIFFERENT, %3d libpmu cannot, %d oracle cannot, %d twice" %
              (unit, t["metric equal"], t["metric DIFFERENT"], t["metric libpmu cannot"], t["metric oracle cannot"],
               t["metric twice in perf's file"]))
    if not tot["same"]:
        failures.append("no sys event compared")
    if tot["metric libpmu cannot"]:
        failures.append("%d sys metrics libpmu cannot evaluate on their machine" % tot["metric libpmu cannot"])
    for line in cannot[: None if verbose else 10]:
        print("libpmu cannot: " + line)
    for line in diffs:
        print("DIFFERENT: " + line)
    for f in failures[: None if verbose else 40]:
        print("FAIL: " + f)
    bad = bool(diffs or failures)
    print("perf-sys: %s" % ("FAIL" if bad else "PASS"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
