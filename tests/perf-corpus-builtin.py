#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""libpmu's built-in tables against perf's own tree, CPU directory by CPU directory (issue 42).

perf-corpus.py hands libpmu perf's tree (PMU_EVENTS_PATH) and checks that libpmu reads it as perf does.
Here libpmu gets no path: for every CPU directory of perf 6.12's x86, arm64 and riscv mapfiles it chooses
its own built-in table for an id of the directory's mapfile line, and each core PMU event of perf's
directory is resolved by name and compared with perf's encoding (perf's jevents.py event string, the
fixture's format files: perf-corpus.py's oracle, imported from it), and so is each uncore event of an Intel
directory, on a machine with its uncore PMUs (uncore_machine: one made-up format for all, so that the
tables' fields are compared, not the kernel's bit positions); each metric of perf's directory
evaluated and compared with perf's formula evaluated by perf-corpus.py's oracle on the same made-up counts
(here a count is made of the event's encoding, as each side encodes it, so that two names of one counter
count alike: libpmu's own metrics name Intel's PERF_METRICS.* events where perf's name sysfs topdown-*).
One line per directory: the built-in table chosen, then the counts.

A metric whose value differs is DIFFERENT when the built-in formula is perf's (after perf's metric.py
parses and simplifies both), and so are those of the metrics it uses; else it is counted as "formula not
perf's": Intel's published TMA 4.7 formulas where perf 6.12 carries 4.8's, and libpmu's own topdown
formulas (x86/<dir>/metrics.json, first in their mapfile rows) for Ice Lake and Sapphire Rapids.

Required (the test fails otherwise): no event or metric DIFFERENT anywhere; for every Intel directory of
perf's x86 mapfile, a built-in table that names Intel's data for it (x86/intel/<dir>), every core event
and every uncore event of perf's directory resolved with perf's encoding (but NOT_IN_INTEL_DATA); for
every arm/<dir> directory of perf's arm64 mapfile (Arm's own cores), a built-in table that names Arm's
data for it (arm64/arm/<dir>, gen/gen-armdata.py), every core event of perf's directory resolved with
perf's encoding (but NOT_IN_ARM_DATA) and every metric of perf's directory built in (but
NOT_IN_ARM_METRICS; Arm's formulas write the core's slot count where perf's read #slots, which the
oracle sets to 6 on both sides: such a topdown metric differs and is counted as "formula not perf's").
An entry of those lists that no longer applies fails too. What the built-in tables do not hold
(metrics Intel's converter does not write; AMD, other arm64 vendors' and RISC-V cores) is counted and
listed by reason, and does not fail.

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


# The fixture's format of every uncore PMU perf's Intel files name: each term perf's event strings use
# (jevents.py's, for the 25,497 uncore events of perf 6.12's Intel directories: event, umask up to 39
# bits, cmask, occ_sel, filter_opc/nc/tid/state, ch_mask, fc_mask; config1 raw), on bits of its own so
# that no term hides another. The layout is made up, not the kernel's: both sides' terms are spread over
# it, so what is compared is the tables' fields (which event, which unit mask, which filter), not the
# kernel's bit positions, which differ between uncore drivers (issue 43 takes those).
UNCORE_FORMAT = {"event": "config:0-7", "umask": "config:8-15,32-62", "occ_sel": "config:16-17",
                 "edge": "config:18", "inv": "config:23", "cmask": "config:24-31", "filter_opc": "config2:0-8",
                 "filter_nc": "config2:9", "filter_tid": "config2:10-15", "filter_state": "config2:16-23",
                 "ch_mask": "config2:24-35", "fc_mask": "config2:36-38"}


# Uncore events of perf's tree that Intel's data at the pinned commit does not have: their lack is expected
# (counted, not failed), and one found fails (this list is then out of date). Haswell: perf 6.12 has
# UNC_CLOCK.SOCKET twice, Unit cbox_0 (uncore-cache.json) and Unit CLOCK (uncore-other.json, a file of an
# earlier conversion); perfmon's haswell_uncore.json has it once, which gen-perfmon.py gives Unit cbox_0.
NOT_IN_INTEL_DATA = {"x86/haswell": {"uncore_clock/UNC_CLOCK.SOCKET/"}}

# Core events of perf's arm/<dir> directories that Arm's data (github.com/ARM-software/data at the commit
# events/arm64/arm/SOURCES.csv pins) does not name: their lack is expected (counted, not failed), and one
# resolved, or one perf's directory no longer has, fails (this list is then out of date). Cortex-A53:
# pmu/cortex-a53.json lists its IMPLEMENTATION DEFINED events 0xc0-0xe8 by code and description only, with
# no name (gen-armdata.py leaves such events out rather than invent names); perf's directory names 25.
NOT_IN_ARM_DATA = {"arm64/arm/cortex-a53": {
    "AGU_DEP_STALL", "BR_COND", "BR_COND_MISPRED", "BR_INDIRECT_MISPRED", "BR_INDIRECT_MISPRED_ADDR",
    "DECODE_DEP_STALL", "EXT_MEM_REQ", "EXT_MEM_REQ_NC", "EXT_SNOOP", "IC_DEP_STALL", "IUTLB_DEP_STALL",
    "L1D_CACHE_ERR", "L1I_CACHE_ERR", "LD_DEP_STALL", "OTHER_INTERLOCK_STALL", "OTHER_IQ_DEP_STALL",
    "PREFETCH_LINEFILL", "PREFETCH_LINEFILL_DROP", "PRE_DECODE_ERR", "READ_ALLOC", "READ_ALLOC_ENTER",
    "SIMD_DEP_STALL", "STALL_SB_FULL", "ST_DEP_STALL", "TLB_ERR"}}

# Metrics of perf's arm/<dir> directories that Arm's telemetry specifications (github.com/ARM-software/
# telemetry-solution at the commit events/arm64/arm/SOURCES.csv pins) do not define: perf 6.12's own
# additions to neoverse-n2-v2/metrics.json, in neither Arm's N2 nor its V2 specification. Counted, not
# failed; one built in, or one perf's directory no longer has, fails.
NOT_IN_ARM_METRICS = {"arm64/arm/neoverse-n2-v2": {
    "branch_immed_spec_rate", "branch_indirect_spec_rate", "branch_pki", "branch_return_spec_rate", "ipc_rate",
    "l3d_cache_miss_rate", "l3d_cache_mpki", "retired_rate", "spec_ipc", "wasted_rate"}}


def uncore_machine(base, dst, pmus):
    """@base's tree with one PMU for each name of @pmus (jevents.py's name of each uncore Unit: uncore_cha,
    uncore_imc_free_running_0, ...), each of UNCORE_FORMAT and counting on CPU 0; made in @dst."""
    if os.path.exists(os.path.join(dst, ".made")):
        return dst
    pc.subprocess.run(["rm", "-rf", dst], check=True)
    pc.shutil.copytree(base, dst, ignore=pc.shutil.ignore_patterns(".made"))
    devs = os.path.join(dst, "sys/bus/event_source/devices")
    for k, pmu in enumerate(sorted(pmus)):
        os.makedirs(os.path.join(devs, pmu, "format"))
        for fn, text in (("type", "%d" % (100 + k)), ("cpumask", "0")):
            with open(os.path.join(devs, pmu, fn), "w") as f:
                f.write(text + "\n")
        for term, bits in UNCORE_FORMAT.items():
            with open(os.path.join(devs, pmu, "format", term), "w") as f:
                f.write(bits + "\n")
    open(os.path.join(dst, ".made"), "w").close()
    return dst


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
        self.perf_terms = {}    # lower name -> (PMU, perf's event string) of its table events
        self.sysfs = None
        self.total.un = Counter()  # the uncore events' tally

    def perf_encodings(self, sysfs, core_pmus, entries):
        """perf's encoding of each name its metrics may use: the directory's table events (jevents' event
        string through the fixture's format files) and every PMU's sysfs events: bare for the core PMUs
        (topdown-be-bound), PMU-qualified for all (cstate_pkg@c6-residency@)."""
        enc = {}
        devs = os.path.join(sysfs, "bus/event_source/devices")
        for e in entries:
            pmu = e.pmu if e.pmu in core_pmus else core_pmus[0] if e.pmu == "default_core" else None
            if e.name and pmu and e.event:
                try:
                    v = pc.perf_terms_to_attr(e.event, pc.read_pmu(sysfs, pmu))
                except pc.CannotEncode:
                    continue
                enc.setdefault(e.name.lower(), v)
                enc.setdefault("%s@%s@" % (pmu, e.name.lower()), v)  # perf's PMU-qualified spelling
                self.perf_terms.setdefault(e.name.lower(), (pmu, e.event))
                self.perf_terms.setdefault("%s@%s" % (pmu, e.name.lower()), (pmu, e.event))
        # the sysfs events of every PMU of the fixture: bare for the core PMUs, PMU-qualified for all
        # (cstate_pkg@c6-residency@)
        for pmu in sorted(os.listdir(devs)):
            d = os.path.join(devs, pmu, "events")
            for n in sorted(os.listdir(d)) if os.path.isdir(d) else []:
                if n.endswith((".scale", ".unit", ".per-pkg", ".snapshot")):
                    continue
                with open(os.path.join(d, n)) as f:
                    terms = f.read().strip()
                try:
                    v = pc.perf_terms_to_attr(terms, pc.read_pmu(sysfs, pmu))
                except (pc.CannotEncode, OSError, ValueError):
                    continue
                if pmu in core_pmus:
                    enc.setdefault(n.lower(), v)
                enc.setdefault("%s@%s@" % (pmu, n.lower()), v)
        return enc

    def perf_count(self, name):
        n = name.replace("\\", "")
        return count_of(self.perf_key(pc.canon(n)), n)

    def perf_key(self, n):
        """perf's encoding of event name @n (no escapes), None where the fixture gives it none (tool events,
        names with modifiers: both sides then count the name)."""
        key = self.perf_enc.get(n.lower())
        m = re.fullmatch(r"(?:([\w]+)@)?([^,@]+),([^@]+)@?", n.lower())
        base = m and ("%s@%s" % (m.group(1), m.group(2)) if m.group(1) else m.group(2))
        if key is None and base in self.perf_terms:
            # an event with perf's terms after it (UOPS_ISSUED.ANY,cmask=1): its table terms, then these, each
            # ORed in as perf's pmu_format_value() does on a core PMU (no field cleared first)
            pmu, event = self.perf_terms[base]
            more = ",".join(t if "=" in t else t + "=1" for t in m.group(3).split(","))
            try:
                key = pc.perf_terms_to_attr(event + "," + more, pc.read_pmu(self.sysfs, m.group(1) or pmu))
            except (pc.CannotEncode, OSError):
                key = None
        return key

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
                if self.perf_key(pc.canon(n)) is None:
                    key = None  # perf's side counts the name: so does this one
            except self.pmu.PmuError:
                key = None
            values[n] = count_of(key, n)
        return ctx.metric(spec, values)

    def formula(self, text):
        """A formula in one spelling: perf's metric.py parses and simplifies it (as jevents.py ships it)."""
        try:
            return self.metric.ParsePerfJson(text).Simplify().ToPerfJson()
        except Exception:
            return text

    def same_formula(self, ctx, pmu, name, trees, seen=None):
        """Whether the built-in table's formula of metric @name is perf's, and so of every metric it uses."""
        seen = set() if seen is None else seen
        if name.lower() in seen:
            return True
        seen.add(name.lower())
        try:
            # a hybrid CPU's metric of one core PMU by that PMU's name (defined once per PMU)
            ours = self.formula(ctx.metric_info("%s/%s/" % (pmu, name) if pmu in pc.CORE_UNITS else name)["expr"])
        except self.pmu.PmuError:
            return False
        perf = trees[(pmu, name.lower())][1].ToPerfJson()
        if ours != perf:
            return False
        return all(self.same_formula(ctx, pmu, trees[(pmu, w.lower())][0], trees, seen)
                   for w in re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", perf) if (pmu, w.lower()) in trees)

    def one_metric_status(self, ctx, t, res, oracle, trees, m, unit):
        """As perf-corpus.py's; a value that differs where the built-in formula (or one of the metrics it
        uses) is not perf's is counted as such ("formula not perf's": Intel's TMA 4.7 data, perf's 4.8),
        not as DIFFERENT: DIFFERENT is a value that differs from one same formula."""
        super().one_metric_status(ctx, t, res, oracle, trees, m, unit)
        if res.get("metric " + m.metric_name, ("",))[0] == "DIFFERENT" and \
                not self.same_formula(ctx, m.pmu, m.metric_name, trees):
            t.diffs.pop()
            t.mt["DIFFERENT"] -= 1
            t.mt["formula not perf's"] += 1
            t.note("metric", "formula not perf's", "", m.metric_name)

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
        arm = arch == "arm64" and d.startswith("arm/")
        vendor = "Intel" if intel else "Arm" if arm else None
        if intel and not table.endswith("x86/intel/" + d):
            self.failures.append("%s: the built-in table chosen for %s is %s, not Intel's data for it "
                                 "(x86/intel/%s)" % (label, cpuid, table, d))
        if arm and table.split("+")[-1] != "arm64/" + d:
            self.failures.append("%s: the built-in table chosen for %s is %s, not Arm's data for it "
                                 "(arm64/%s)" % (label, cpuid, table, d))
        metrics = [e for e in entries if e.metric_name and e.metric_expr is not None]
        trees = {(m.pmu, m.metric_name.lower()): (m.metric_name, m.metric_expr) for m in metrics}
        self.perf_terms, self.sysfs = {}, sysfs
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
            if arm:
                self.not_in_arm_data(label, t, res)
            for m in metrics:
                if not hybrid or m.pmu == unit:
                    # a name the built-in tables do not define is not evaluated (an expression of that text
                    # would be: "a_%_b" names two events)
                    try:
                        ctx.metric_info("%s/%s/" % (unit, m.metric_name) if unit in pc.CORE_UNITS else m.metric_name)
                    except self.pmu.PmuError:
                        t.mt["libpmu cannot"] += 1
                        t.note("metric", "not in the built-in tables", "", m.metric_name)
                        continue
                    self.one_metric_status(ctx, t, res, oracle, trees, m, unit if unit in pc.CORE_UNITS else "")
            if arm:
                self.not_in_arm_metrics(label, t, [m.metric_name for m in metrics])
            ev.update(t.ev)
            mt.update(t.mt)
            self.total.ev.update(t.ev)
            self.total.mt.update(t.mt)
            for k, v in t.reasons.items():
                self.total.reasons[k].extend("%s:%s" % (label, n) for n in v)
            self.total.diffs.extend("%s: %s" % (label, s) for s in t.diffs)
        ctx.close()
        un = self.uncore(label, d, cpuid, sysfs_dir, entries, core_pmus) if intel else Counter()
        self.rows.append((label, table, vendor, ev, mt, un))

    def not_in_arm_metrics(self, label, t, perf_names):
        """NOT_IN_ARM_METRICS's metrics of @label, not built in: counted as such; built in, or not among
        perf's metrics of the directory: a failure (the list is out of date)."""
        lacking = t.reasons.get(("metric", "not in the built-in tables", ""), [])
        for name in sorted(NOT_IN_ARM_METRICS.get(label, ())):
            if name in lacking:
                lacking.remove(name)
                t.mt["libpmu cannot"] -= 1
                t.mt["not in Arm's data"] += 1
                t.note("metric", "not in Arm's data", "perf's own, in no telemetry specification of Arm's", name)
            else:
                self.failures.append("%s: metric %s is in NOT_IN_ARM_METRICS but is %s: take it out of the list" %
                                     (label, name, "built in now" if name in perf_names else "not in perf's directory"))
        if ("metric", "not in the built-in tables", "") in t.reasons and not lacking:
            del t.reasons[("metric", "not in the built-in tables", "")]

    def not_in_arm_data(self, label, t, res):
        """NOT_IN_ARM_DATA's events of @label, not resolved: counted as such; resolved, or not among perf's
        events of the directory: a failure (the list is out of date)."""
        for name in sorted(NOT_IN_ARM_DATA.get(label, ())):
            got = res.get(name, ("not in perf's directory",))[0]
            if got == "not resolved":
                t.ev["not resolved"] -= 1
                t.ev["not in Arm's data"] += 1
                for k in [k for k, names in t.reasons.items() if k[:2] == ("event", "not resolved") and name in names]:
                    t.reasons[k].remove(name)
                    if not t.reasons[k]:
                        del t.reasons[k]
                t.note("event", "not in Arm's data", "named by perf; Arm's data lists its code without a name", name)
            else:
                self.failures.append("%s: %s is in NOT_IN_ARM_DATA but is %s: take it out of the list" %
                                     (label, name, "resolved by the built-in table now" if got != "not in perf's directory"
                                      else got))

    def uncore(self, label, d, cpuid, sysfs_dir, entries, core_pmus):
        """Each uncore event of perf's directory resolved by the built-in table on a machine with its PMUs
        (uncore_machine), as '<pmu>/<name>/', and compared with perf's encoding on the same formats."""
        t = pc.Tally()
        unc = [e for e in entries if e.name and e.event and e.pmu not in core_pmus + ["default_core"]
               + list(pc.CORE_UNITS)]
        if not unc:
            return t.ev
        root = uncore_machine(sysfs_dir, os.path.join(self.build, "perf-corpus", "fixtures", "uncore-" + d),
                              {e.pmu for e in unc})
        sysfs = os.path.join(root, "sys")
        info = {p: pc.read_pmu(sysfs, p) for p in {e.pmu for e in unc}}
        ctx = self.pmu.Context(cpuid=cpuid, sysfs_root=sysfs, procfs_root=os.path.join(root, "proc"))
        res = {}
        for e in unc:
            self.one_event(ctx, t, res, e, e.pmu + "/%s/", info[e.pmu])
            name = e.name.upper() if e.name.islower() else e.name
            spec = "%s/%s/" % (e.pmu, name)
            known = spec in NOT_IN_INTEL_DATA.get(label, ())
            if known and res[name][0] == "not resolved":
                t.ev["not resolved"] -= 1
                t.ev["not in Intel's data"] += 1
            elif known:
                self.failures.append("%s: %s is in NOT_IN_INTEL_DATA but the built-in table has it now: take it "
                                     "out of the list" % (label, spec))
        ctx.close()
        self.total.un.update(t.ev)
        for k, v in t.reasons.items():
            self.total.reasons[("uncore " + k[0],) + k[1:]].extend("%s:%s" % (label, n) for n in v)
        self.total.diffs.extend("%s: uncore %s" % (label, s) for s in t.diffs)
        return t.ev


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    args.only = set(x for x in args.only.split(",") if x)
    src, build, pmu, root = pc.start()
    t0 = time.time()
    c = Builtin(root, src, build, pmu, args)
    for arch in ("x86", "arm64", "riscv"):
        c.run_arch(arch)
    print("libpmu's built-in tables against perf's own tree (%s), per CPU directory of perf's mapfiles:\n"
          "events resolved by name and encoded, compared with perf's jevents.py encoding; metrics evaluated on\n"
          "made-up counts, compared with perf's formula (perf-corpus.py's oracle)" % pc.PE)
    # events: perf's core events, those encoded as perf does, DIFFERENT, not resolved by libpmu, and those
    # perf's own event string cannot encode (no oracle); metrics: perf's, equal, DIFFERENT, not evaluated
    # metrics: "other" is a value that differs where the built-in formula is not perf's
    print("%-24s %-44s %6s %5s %4s %5s %4s | %6s %5s %4s %5s %5s | %6s %5s %4s %5s %4s" % (
        "perf directory", "built-in table", "events", "same", "DIFF", "lack", "skip", "metric", "equal", "DIFF",
        "other", "lack", "uncore", "same", "DIFF", "lack", "skip"))

    def cols(ev, mt, un):
        return "%6d %5d %4d %5d %4d | %6d %5d %4d %5d %5d | %6d %5d %4d %5d %4d" % (
            sum(ev.values()), ev["same"], ev["DIFFERENT"], ev["not resolved"] + ev["not in Arm's data"], ev["skipped"],
            sum(mt.values()),
            mt["equal"], mt["DIFFERENT"], mt["formula not perf's"],
            mt["libpmu cannot"] + mt["oracle cannot"] + mt["not in Arm's data"],
            sum(un.values()), un["same"],
            un["DIFFERENT"], un["not resolved"] + un["not in Intel's data"], un["skipped"])
    for label, table, vendor, ev, mt, un in c.rows:
        print("%-24s %-44s %s" % (label, table, cols(ev, mt, un)))
        for what, t in (("core", ev), ("uncore", un)) if vendor == "Intel" else (("core", ev),) if vendor else ():
            if t["not resolved"] or (what == "core" and not t["same"]):
                c.failures.append("%s: %d of perf's %d %s events resolved with perf's encoding by the built-in "
                                  "table %s, %d not resolved" % (label, t["same"], sum(t.values()), what, table,
                                                                 t["not resolved"]))
        if vendor == "Arm" and mt["libpmu cannot"]:
            c.failures.append("%s: %d of perf's %d metrics not in the built-in table %s (Arm's telemetry data)" %
                              (label, mt["libpmu cannot"], sum(mt.values()), table))
    tot = c.total
    print("%-69s %s  (%.0f s)" % ("TOTAL", cols(tot.ev, tot.mt, tot.un), time.time() - t0))
    print("\nWhat the built-in tables lack, by reason (count, examples):")
    for (kind, what, reason), names in sorted(tot.reasons.items(), key=lambda kv: -len(kv[1]))[:40]:
        print("  %5d %s %s: %s  [%s%s]" % (len(names), kind, what, reason, ", ".join(names[:3]),
                                           ", ..." if len(names) > 3 else ""))
    if tot.diffs:
        print("\nDIFFERENT (%d): a number the built-in tables give that perf does not" % len(tot.diffs))
        for line in tot.diffs[: (None if args.verbose else 60)]:
            print("  " + line)
    intel = [r for r in c.rows if r[2] == "Intel"]
    arm = [r for r in c.rows if r[2] == "Arm"]
    failed = {"Intel": any(f.startswith("x86/") for f in c.failures),
              "Arm": any(f.startswith("arm64/") for f in c.failures)}
    print("\nRequired:\n  %s every core event of perf's %d Intel directories resolved by the built-in tables with "
          "perf's encoding, and every uncore event (but those perf's own event string cannot encode)\n"
          "  %s every core event of perf's %d Arm directories (arm/*) resolved by Arm's data built in with perf's "
          "encoding (but NOT_IN_ARM_DATA's %d: %d events in all), and every metric built in (but NOT_IN_ARM_METRICS's "
          "%d: %d metrics in all)\n  %s no event or metric DIFFERENT" % (
              "FAIL" if failed["Intel"] else "ok  ", len(intel), "FAIL" if failed["Arm"] else "ok  ", len(arm),
              sum(r[3]["not in Arm's data"] for r in arm), sum(sum(r[3].values()) for r in arm),
              sum(r[4]["not in Arm's data"] for r in arm), sum(sum(r[4].values()) for r in arm),
              "FAIL" if tot.diffs else "ok  "))
    for f in c.failures:
        print("FAIL: " + f)
    # a whole run must have met both vendors' directories (a run of --only some of them, those asked)
    bad = bool(tot.diffs or c.failures or not c.rows or (not args.only and not (intel and arm)))
    print("perf-corpus-builtin: %s" % ("FAIL" if bad else "PASS"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
