#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""libpmu's built-in tables against perf's own tree, CPU directory by CPU directory (issue 42).

perf-corpus.py hands libpmu perf's tree (PMU_EVENTS_PATH) and checks that libpmu reads it as perf does.
Here libpmu gets no path: for every CPU directory of perf 6.12's x86, arm64 and riscv mapfiles it chooses
its own built-in table for an id of the directory's mapfile line, and each core PMU event of perf's
directory is resolved by name and compared with perf's encoding (perf's jevents.py event string, the
fixture's format files: perf-corpus.py's oracle, imported from it), each metric of perf's directory
evaluated and compared with perf's formula evaluated by perf-corpus.py's oracle on the same made-up counts
(here a count is made of the event's encoding, as each side encodes it, so that two names of one counter
count alike: libpmu's own metrics name Intel's PERF_METRICS.* events where perf's name sysfs topdown-*).
One line per directory: the built-in table chosen, then the counts.

Required (the test fails otherwise): no event or metric DIFFERENT anywhere but the metrics OWN_FORMULAS
lists (libpmu's own formulas under perf's names, each still DIFFERENT); for every Intel directory of
perf's x86 mapfile, a built-in table that names Intel's data for it (x86/intel/<dir>) and every core event
of perf's directory resolved with perf's encoding. What the built-in tables do not hold yet (metrics;
AMD, Arm and RISC-V cores) is counted and listed by reason, and does not fail.

Usage: perf-corpus-builtin.py [--only ARCH/DIR,...]   (run by meson test; PMU_TEST_SRCDIR,
PMU_TEST_BUILDDIR, PMU_LIBRARY, PYTHONPATH=bindings/python)
"""
import argparse
import importlib.util
import os
import re
import sys
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("perf_corpus", os.path.join(HERE, "perf-corpus.py"))
pc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pc)


# libpmu's own metrics (x86/<dir>/metrics.json, written before Intel's data came) that carry perf's names
# but not perf's formulas: a DIFFERENT here is expected, and one no longer DIFFERENT fails (this list is
# then out of date). Ice Lake's level 1 lacks perf's INT_MISC.CLEARS_COUNT and INT_MISC.UOP_DROPPING
# terms (tma_frontend_bound, tma_backend_bound, and tma_bad_speculation, which is what they leave);
# Sapphire Rapids' level 1 and 2 the same UOP_DROPPING term, and its level-2 topdown-* events are not
# on the fixture (intel-icx), so perf's side counts them by name, libpmu's by encoding. Issue 42 replaces
# these formulas with Intel's (TMA) data.
OWN_FORMULAS = {
    "x86/icelake": "tma_backend_bound tma_bad_speculation tma_frontend_bound",
    "x86/icelakex": "tma_backend_bound tma_bad_speculation tma_frontend_bound",
    "x86/sapphirerapids": "tma_bad_speculation tma_branch_mispredicts tma_core_bound tma_fetch_latency "
                          "tma_frontend_bound tma_heavy_operations tma_light_operations tma_memory_bound",
}


def count_of(key, name):
    """The made-up count of an event: of its encoding (type, config, config1, config2) where it has one, so
    that two names of one counter (perf's sysfs topdown-be-bound, Intel's PERF_METRICS.BACKEND_BOUND) count
    alike; else of its name (perf-corpus.py's count_for)."""
    return pc.count_for("%d:%x:%x:%x" % key) if key else pc.count_for(name)


class Builtin(pc.Corpus):
    def __init__(self, *a):
        super().__init__(*a)
        self.rows = []          # (label, table chosen, events Counter, metrics Counter)
        self.perf_enc = {}      # lower name -> encoding, perf's side, of the directory being compared

    def perf_encodings(self, sysfs, core_pmus, entries):
        """perf's encoding of each name its metrics may use: the directory's table events (jevents' event
        string through the fixture's format files) and the core PMUs' sysfs events (topdown-be-bound)."""
        enc = {}
        for e in entries:
            pmu = e.pmu if e.pmu in core_pmus else core_pmus[0] if e.pmu == "default_core" else None
            if e.name and pmu and e.event:
                try:
                    enc.setdefault(e.name.lower(), pc.perf_terms_to_attr(e.event, pc.read_pmu(sysfs, pmu)))
                except pc.CannotEncode:
                    pass
        for pmu in core_pmus:
            d = os.path.join(sysfs, "bus/event_source/devices", pmu, "events")
            for n in sorted(os.listdir(d)) if os.path.isdir(d) else []:
                with open(os.path.join(d, n)) as f:
                    terms = f.read().strip()
                try:
                    enc.setdefault(n.lower(), pc.perf_terms_to_attr(terms, pc.read_pmu(sysfs, pmu)))
                except pc.CannotEncode:
                    pass
        return enc

    def perf_count(self, name):
        n = name.replace("\\", "")
        return count_of(self.perf_enc.get(n.lower()), n)

    def libpmu_metric(self, ctx, m, spec, trees, lit, own=None):
        """As perf-corpus.py's, each event's count of its encoding as libpmu resolves it."""
        for c in lit:
            ctx.set_param(c, pc.constant_for(c))
        values = {}
        for n in ctx.metric_events(own or spec) + ["duration_time"]:
            if (m.pmu, pc.canon(n)) in trees:
                continue
            try:
                r = ctx.resolve(n)
                key = (r["type"], r["config"], r["config1"], r["config2"])
            except self.pmu.PmuError:
                key = None
            values[n] = count_of(key, n)
        return ctx.metric(spec, values)

    def run_dir(self, arch, arch_root, d, cpuid):
        """perf-corpus.py's run_arch calls it for each CPU directory of perf's mapfile: the built-in table's
        answers for it (no PMU_EVENTS_PATH)."""
        label = "%s/%s" % (arch, d)
        got = self.core_entries(label, arch_root, d)
        if not got or not got[1]:
            return
        entries, events = got
        sysfs_dir, sysfs, core_pmus, pmus, hybrid = self.machine(arch, cpuid, events)
        ctx = self.pmu.Context(cpuid=cpuid, sysfs_root=sysfs, procfs_root=os.path.join(sysfs_dir, "proc"))
        table = ctx.caps().get("events_table") or "(none)"
        intel = arch == "x86" and cpuid.startswith("GenuineIntel")
        if intel and not table.endswith("x86/intel/" + d):
            self.failures.append("%s: the built-in table chosen for %s is %s, not Intel's data for it "
                                 "(x86/intel/%s)" % (label, cpuid, table, d))
        metrics = [e for e in entries if e.metric_name and e.metric_expr is not None]
        trees = {(m.pmu, m.metric_name.lower()): (m.metric_name, m.metric_expr) for m in metrics}
        self.perf_enc = self.perf_encodings(sysfs, core_pmus, entries)
        oracle = pc.Oracle(self.metric, trees, counts=self.perf_count,
                           machine=pc.Machine(sysfs, core_pmus, entries, arch, cpuid))
        units = list(pc.CORE_UNITS) + ["default_core"] if hybrid else [""]
        ev, mt = Counter(), Counter()
        for unit in units:
            t = pc.Tally()
            t.others = 0
            res = self.results.setdefault((label, unit), {})
            pmu_info = pmus[unit] if unit in pc.CORE_UNITS else pmus[core_pmus[0]]
            for e in events:
                if not hybrid or e.pmu == unit:
                    self.one_event(ctx, t, res, e, "%s/%%s/" % unit if hybrid else "%s", pmu_info)
            for m in metrics:
                if not hybrid or m.pmu == unit:
                    # a name the built-in tables do not define is not evaluated (an expression of that text
                    # would be: "a_%_b" names two events)
                    try:
                        ctx.metric_info(m.metric_name)
                    except self.pmu.PmuError:
                        t.mt["libpmu cannot"] += 1
                        t.note("metric", "not in the built-in tables", "", m.metric_name)
                        continue
                    self.one_metric_status(ctx, t, res, oracle, trees, m, unit if unit in pc.CORE_UNITS else "")
            ev.update(t.ev)
            mt.update(t.mt)
            self.total.ev.update(t.ev)
            self.total.mt.update(t.mt)
            for k, v in t.reasons.items():
                self.total.reasons[k].extend("%s:%s" % (label, n) for n in v)
            self.total.diffs.extend("%s: %s" % (label, s) for s in t.diffs)
        ctx.close()
        self.rows.append((label, table, intel, ev, mt))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    args.only = set(x for x in args.only.split(",") if x)
    src = os.environ.get("PMU_TEST_SRCDIR")
    build = os.environ.get("PMU_TEST_BUILDDIR")
    if not src or not build:
        pc.fail_setup("PMU_TEST_SRCDIR / PMU_TEST_BUILDDIR are not set: run it through meson test")
    os.environ.pop("PMU_EVENTS_PATH", None)
    try:
        import pmu
    except ImportError as x:
        pc.fail_setup("cannot import the Python binding: %s" % x)
    root = pc.extract(build)
    t0 = time.time()
    c = Builtin(root, src, build, pmu, args)
    for arch in ("x86", "arm64", "riscv"):
        c.run_arch(arch)
    print("libpmu's built-in tables against perf's own tree (%s), per CPU directory of perf's mapfiles:\n"
          "events resolved by name and encoded, compared with perf's jevents.py encoding; metrics evaluated on\n"
          "made-up counts, compared with perf's formula (perf-corpus.py's oracle)" % pc.PE)
    # events: perf's core events, those encoded as perf does, DIFFERENT, not resolved by libpmu, and those
    # perf's own event string cannot encode (no oracle); metrics: perf's, equal, DIFFERENT, not evaluated
    print("%-24s %-44s %6s %5s %4s %5s %4s | %6s %5s %4s %5s" % (
        "perf directory", "built-in table", "events", "same", "DIFF", "lack", "skip", "metric", "equal", "DIFF", "lack"))
    for label, table, intel, ev, mt in c.rows:
        n_ev, n_mt = sum(ev.values()), sum(mt.values())
        print("%-24s %-44s %6d %5d %4d %5d %4d | %6d %5d %4d %5d" % (
            label, table, n_ev, ev["same"], ev["DIFFERENT"], ev["not resolved"], ev["skipped"], n_mt,
            mt["equal"], mt["DIFFERENT"], mt["libpmu cannot"] + mt["oracle cannot"]))
        if intel and (ev["not resolved"] or not ev["same"]):
            c.failures.append("%s: %d of perf's %d core events resolved with perf's encoding by the built-in "
                              "table %s, %d not resolved" % (label, ev["same"], n_ev, table, ev["not resolved"]))
    tot = c.total
    print("%-69s %6d %5d %4d %5d %4d | %6d %5d %4d %5d  (%.0f s)" % (
        "TOTAL", sum(tot.ev.values()), tot.ev["same"], tot.ev["DIFFERENT"], tot.ev["not resolved"], tot.ev["skipped"],
        sum(tot.mt.values()), tot.mt["equal"], tot.mt["DIFFERENT"], tot.mt["libpmu cannot"] + tot.mt["oracle cannot"],
        time.time() - t0))
    print("\nWhat the built-in tables lack, by reason (count, examples):")
    for (kind, what, reason), names in sorted(tot.reasons.items(), key=lambda kv: -len(kv[1]))[:40]:
        print("  %5d %s %s: %s  [%s%s]" % (len(names), kind, what, reason, ", ".join(names[:3]),
                                           ", ..." if len(names) > 3 else ""))
    known = {(d, n) for d, names in OWN_FORMULAS.items() for n in names.split()}
    seen = set()
    unexpected = []
    for line in tot.diffs:
        m = re.match(r"(\S+): metric (\S+):", line)
        if m and (m.group(1), m.group(2)) in known:
            seen.add((m.group(1), m.group(2)))
        else:
            unexpected.append(line)
    print("\nlibpmu's own metrics of perf's names whose formulas are not perf's (OWN_FORMULAS): %d DIFFERENT, "
          "as listed" % len(seen))
    for d, n in sorted(known - seen):
        c.failures.append("%s: metric %s is no longer DIFFERENT from perf's: take it out of OWN_FORMULAS" % (d, n))
    tot.diffs = unexpected
    if tot.diffs:
        print("\nDIFFERENT (%d): a number the built-in tables give that perf does not" % len(tot.diffs))
        for line in tot.diffs[: (None if args.verbose else 60)]:
            print("  " + line)
    intel = [r for r in c.rows if r[2]]
    print("\nRequired:\n  %s every core event of perf's %d Intel directories resolved by the built-in tables with "
          "perf's encoding (but those perf's own event string cannot encode)\n  %s no event or metric DIFFERENT "
          "(but OWN_FORMULAS)" % (
              "FAIL" if any(f for f in c.failures) else "ok  ", len(intel), "FAIL" if tot.diffs else "ok  "))
    for f in c.failures:
        print("FAIL: " + f)
    bad = bool(tot.diffs or c.failures or not intel)
    print("perf-corpus-builtin: %s" % ("FAIL" if bad else "PASS"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
