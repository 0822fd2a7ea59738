#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The topdown slot formulas of libpmu's tables against perf's own metrics.

On CPUs without a slots counter libpmu's tables give the topdown slot
counts as metrics named after the standard events (TOPDOWN.SLOTS,
TOPDOWN.RETIRING.SLOTS, ... and on Skylake/Skylake-X the level-2
TOPDOWN.RETIRING.HEAVY_OPS.SLOTS, ...). perf's tables (Debian's
linux-source-6.12, extracted as tests/perf-corpus.py does) give the same
quantities as fractions of the slots (tma_retiring, tma_heavy_operations,
... on Intel; retiring, bad_speculation, ... on AMD). For seeded random
counts, every libpmu metric evaluated by libpmu (pmu_metric_eval, through
the Python binding) must equal perf's fraction, evaluated here by Python
from perf's expression text, times perf's slot count: perf's formulas and
this evaluator are the oracle. Intel's are taken per logical processor
(perf's #core_wide 1, #SMT_on 0: Hyper-Threading off), as libpmu's tables
say they count.

The counts must also be of perf's events: every event those formulas
need is resolved by libpmu on a fixture machine of the vendor
(tests/fixtures/intel-icx, amd-zen3) and its encoding compared with perf's
jevents.py encoding of the event of the same name (with the formula's
modifier, e.g. cmask=0x6), as tests/perf-stdnames.py does for the
standard names.

Alder Lake's E-cores (cpu_atom; Raptor Lake shares the table): libpmu's
cpu_atom/TOPDOWN.*.SLOTS/ over cpu_atom/TOPDOWN.SLOTS/ against perf's
tma_* metrics of Unit cpu_atom (adl-metrics.json), on the hybrid fixture
(the four events' encodings are compared with perf's by perf-stdnames.py).

Arm Neoverse N2 (r0p0 and r0p3), V2 and V1: libpmu's TOPDOWN.*.SLOTS
metrics against perf's retiring, bad_speculation, frontend_bound and
backend_bound of arch/arm64 (the CPU directory's metrics.json over the
sbsa.json entries it names; percentages of #slots x CPU_CYCLES), with
perf's strcmp_cpuid_str() computed here as perf's arm64 header.c does (the
same part, variant.revision at least the one written), and each event's
code compared with perf's for that CPU (test-coverage.py's reading of
perf's arm64 tables).

Prints one line per CPU (draws, metrics compared, largest relative
difference, events compared); any difference above 1e-9, and any event
perf's directory lacks or encodes otherwise, fails.
Usage: perf-topdown.py   (run by meson test, env as perf-corpus.py)
"""
import importlib.util
import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("perf_corpus", os.path.join(HERE, "perf-corpus.py"))
pc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pc)

LEVEL1 = ("TOPDOWN.RETIRING.SLOTS", "TOPDOWN.BAD_SPECULATION.SLOTS", "TOPDOWN.FRONTEND_BOUND.SLOTS",
          "TOPDOWN.BACKEND_BOUND.SLOTS")
LEVEL2 = ("TOPDOWN.RETIRING.HEAVY_OPS.SLOTS", "TOPDOWN.BAD_SPECULATION.CONTROL_FLOW.SLOTS",
          "TOPDOWN.FRONTEND_BOUND.LATENCY.SLOTS", "TOPDOWN.BACKEND_BOUND.MEMORY.SLOTS")
INTEL_L1 = ("tma_retiring", "tma_bad_speculation", "tma_frontend_bound", "tma_backend_bound")
INTEL_L2 = ("tma_heavy_operations", "tma_branch_mispredicts", "tma_fetch_latency", "tma_memory_bound")
AMD_L1 = ("retiring", "bad_speculation", "frontend_bound", "backend_bound")

# CPU id, perf's directory, perf's slot count, and libpmu metric -> perf metric (a fraction of the slots);
# on Ice Lake level 1 is PERF_METRICS (counted events, no formulas), level 2 the table's formulas
CPUS = [
    ("GenuineIntel-6-5E-3", "skylake", "tma_info_thread_slots", dict(zip(LEVEL1 + LEVEL2, INTEL_L1 + INTEL_L2))),
    ("GenuineIntel-6-55-4", "skylakex", "tma_info_thread_slots", dict(zip(LEVEL1 + LEVEL2, INTEL_L1 + INTEL_L2))),
    ("GenuineIntel-6-7E-5", "icelake", "tma_info_thread_slots", dict(zip(LEVEL2, INTEL_L2))),
    ("GenuineIntel-6-6A-6", "icelakex", "tma_info_thread_slots", dict(zip(LEVEL2, INTEL_L2))),
    ("AuthenticAMD-25-11-1", "amdzen4", "total_dispatch_slots", dict(zip(LEVEL1 + LEVEL2, AMD_L1 + (
        "retiring_microcode", "bad_speculation_mispredicts", "frontend_bound_latency", "backend_bound_memory")))),
    ("AuthenticAMD-26-2-0", "amdzen5", "total_dispatch_slots", dict(zip(LEVEL1 + LEVEL2, AMD_L1 + (
        "retiring_from_microcode", "bad_speculation_from_mispredicts", "frontend_bound_by_latency",
        "backend_bound_by_memory")))),
]
# perf's event with modifiers in a formula, cpu@EVENT\,cmask\=0x6@, is libpmu's cpu/EVENT,cmask=0x6/
PERF_AT = re.compile(r"cpu@((?:[^@\\]|\\.)*)@")
CONSTANTS = {"#SMT_on": 0, "#core_wide": 1}
NAME = re.compile(r"#?(?:[A-Za-z_]|\\.)(?:[A-Za-z0-9_.]|\\.)*")  # perf escapes '-' in names: topdown\-retiring
# perf's names for what libpmu's formulas and counts call otherwise
PERF_ALIAS = {"TOPDOWN.SLOTS": "slots"}
# Ice Lake: perf corrects PERF_METRICS' level 1 with these two counts (INT_MISC.UOP_DROPPING off frontend
# bound, 5 x INT_MISC.CLEARS_COUNT onto backend bound), libpmu's decoding does not: the draws set them to 0
# and make the four topdown-* slot counts add up to slots, where perf's level 1 is PERF_METRICS' fractions
PERF_METRICS_DRAW = ("INT_MISC.UOP_DROPPING", "INT_MISC.CLEARS_COUNT")
# perf's JSON name of the kernel's slots event (fixed counter 3: event 0x00, umask 0x04)
PERF_EVENT = {"slots": "TOPDOWN.SLOTS"}
SDM_METRICS = {"topdown-retiring": 0x80, "topdown-bad-spec": 0x81, "topdown-fe-bound": 0x82, "topdown-be-bound": 0x83}
DRAWS = 200
# Arm: MIDR (perf's mapfile picks the directory), the slots per cycle as the kernel's caps/slots gives them
ARM_CPUS = [("0x00000000410fd490", 5), ("0x00000000410fd493", 5), ("0x00000000410fd4f0", 8),
            ("0x00000000410fd400", 8)]
ARM_PERF = dict(zip(LEVEL1, AMD_L1))  # perf's sbsa.json names: percentages of #slots x CPU_CYCLES
STRCMP_CPUID = re.compile(r"strcmp_cpuid_str\((0x[0-9a-fA-F]+)\)")


def perf_metrics(root, d):
    out = {}
    path = os.path.join(root, "arch", "x86", d)
    for fn in sorted(os.listdir(path)):
        if fn.endswith(".json") and fn != "metricgroups.json":
            for e in json.load(open(os.path.join(path, fn))):
                if isinstance(e, dict) and "MetricName" in e:
                    out[e["MetricName"]] = e["MetricExpr"]
    return out


class Evaluator:
    """perf's MetricExpr text as Python (its 'a if c else b' is Python's; names looked up lazily, so
    the branch not taken may name events not counted here)."""

    def __init__(self, metrics, counts):
        self.metrics, self.counts, self.cache = metrics, counts, {}

    def value(self, name):
        name = PERF_ALIAS.get(re.sub(r"\\(.)", r"\1", name), re.sub(r"\\(.)", r"\1", name))
        if name in CONSTANTS:
            return CONSTANTS[name]
        if name in self.counts:
            return self.counts[name]
        if name in self.metrics:
            if name not in self.cache:
                self.cache[name] = self.eval(self.metrics[name])
            return self.cache[name]
        raise KeyError("perf's formula names '%s', which this test has no count for" % name)

    def eval(self, expr):
        names = {}

        def mangle(m):
            t = m.group(0)
            if t in ("if", "else", "min", "max", "d_ratio") or t in names:
                return t
            key = "v%d" % len(names)
            names[key] = t
            return key

        def at_name(m):
            key = "v%d" % len(names)
            names[key] = "cpu/" + re.sub(r"\\(.)", r"\1", m.group(1)) + "/"
            return key

        py = NAME.sub(mangle, PERF_AT.sub(at_name, expr))
        ev = self

        class Lazy(dict):
            def __missing__(self, k):
                return ev.value(names[k])

        env = Lazy()
        env.update({"min": min, "max": max, "d_ratio": lambda a, b: a / b if b else 0.0})
        return eval(py, {"__builtins__": {}}, env)


def check_encodings(jevents, root, src, cpuid, d, names, failures):
    """Each of @names (libpmu's spellings) against perf's event of that name in directory @d."""
    theirs = {}
    path = os.path.join(root, "arch", "x86", d)
    for fn in sorted(os.listdir(path)):
        if fn.endswith(".json") and fn != "metricgroups.json":
            for e in jevents.read_json_events(os.path.join(path, fn), topic=fn[:-5]):
                if e.name and e.pmu in ("default_core", "cpu"):
                    theirs.setdefault(e.name.lower(), e)
    sysfs = os.path.join(src, "tests", "fixtures", "amd-zen3" if cpuid.startswith("AuthenticAMD") else "intel-icx", "sys")
    fmt = pc.read_pmu(sysfs, "cpu")
    import pmu
    ctx = pmu.Context(cpuid=cpuid, sysfs_root=sysfs)
    n = 0
    for name in sorted(names):
        m = re.fullmatch(r"cpu/([^,/]+)((?:,[^/]*)?)/", name)
        base, mods = (m.group(1), m.group(2)) if m else (name, "")
        if base in SDM_METRICS:
            # the kernel's PERF_METRICS pseudo-events, in no perf JSON file: the SDM's encoding (event 0x00,
            # umask 0x80 + the field's index), which the kernel's sysfs events give too
            r = ctx.resolve(name)
            n += 1
            if (r["type"], r["config"]) != (4, SDM_METRICS[base] << 8):
                failures.append("%s: %s: libpmu type %d config %#x, the SDM's 4 %#x" % (d, name, r["type"], r["config"],
                                                                                     SDM_METRICS[base] << 8))
            continue
        pe = theirs.get(PERF_EVENT.get(base, base).lower())
        if pe is None:
            failures.append("%s: event %s: perf's %s has no such event (no oracle for its code)" % (d, base, d))
            continue
        r = ctx.resolve(name)
        mine = (r["type"], r["config"], r["config1"], r["config2"])
        want = pc.perf_terms_to_attr(pe.event + mods, fmt)
        n += 1
        if mine != want:
            failures.append("%s: %s: libpmu type %d config %#x/%#x/%#x, perf (%s%s) %d %#x/%#x/%#x" %
                            ((d, name) + mine + (pe.event, mods) + want))
    ctx.close()
    return n


def atom(root, src, rnd, failures):
    """Alder Lake's E-core formulas (libpmu's cpu_atom metrics) against perf's cpu_atom tma_* fractions."""
    import pmu
    perf = {}
    for e in json.load(open(os.path.join(root, "arch", "x86", "alderlake", "adl-metrics.json"))):
        if e.get("Unit") == "cpu_atom" and "MetricExpr" in e:
            perf[e["MetricName"]] = re.sub(r"cpu_atom@([^@]*)@", r"\1", e["MetricExpr"])
    fx = os.path.join(src, "tests", "fixtures", "intel-adl-hybrid")
    ctx = pmu.Context(cpuid="GenuineIntel-6-97-2", sysfs_root=os.path.join(fx, "sys"),
                      procfs_root=os.path.join(fx, "proc"))
    ours = ["cpu_atom/%s/" % n for n in LEVEL1]
    needed = set()
    for n in ours + ["cpu_atom/TOPDOWN.SLOTS/"]:
        needed.update(ctx.metric_events(n))
    compared, worst = 0, 0.0
    for draw in range(DRAWS):
        cyc = rnd.randint(10**5, 10**9)
        counts = {n: float(rnd.randint(0, 5 * cyc // 3)) for n in sorted(needed)}
        counts["CPU_CLK_UNHALTED.CORE"] = float(cyc)
        ev = Evaluator(perf, counts)
        slots = ctx.metric("cpu_atom/TOPDOWN.SLOTS/", counts)
        for mine, theirs in zip(ours, INTEL_L1):
            a = ctx.metric(mine, counts) / slots
            b = ev.value(theirs)
            rel = abs(a - b) / max(abs(b), 1e-9)
            worst = max(worst, rel)
            compared += 1
            if rel > 1e-9:
                failures.append("alderlake cpu_atom draw %d: %s / cpu_atom/TOPDOWN.SLOTS/ = %r, perf's %s = %r" %
                                (draw, mine, a, theirs, b))
    ctx.close()
    print("alderlake cpu_atom GenuineIntel-6-97-2: %d draws, %d fractions compared with perf's %s (Unit cpu_atom), "
          "largest relative difference %.3g; events %s" % (DRAWS, compared, ", ".join(INTEL_L1), worst,
                                                           ", ".join(sorted(needed))))
    return worst


def arm_cpuid_matches(want, have):
    """perf's arm64 strcmp_cpuid_str() == 0: the same MIDR without variant and revision, and the CPU's
    variant.revision at least @want's (tools/perf/arch/arm64/util/header.c)."""
    version = (0xf << 20) | 0xf
    w, h = int(want, 16), int(have, 16)
    if (w & ~version) != (h & ~version):
        return 0
    return int(((h >> 20) & 0xf, h & 0xf) >= ((w >> 20) & 0xf, w & 0xf))


def arm_perf_metrics(root, d):
    """perf's metrics for arm64 directory @d: its metrics.json, an ArchStdEvent entry taking sbsa.json's
    entry of that name with the keys it writes itself over it."""
    a = os.path.join(root, "arch", "arm64")
    std = {m["MetricName"].lower(): m for m in json.load(open(os.path.join(a, "sbsa.json"))) if "MetricName" in m}
    out = {}
    for e in json.load(open(os.path.join(a, d, "metrics.json"))):
        if "ArchStdEvent" in e:
            m = dict(std.get(e["ArchStdEvent"].lower(), {}))
            m.update(e)
            name = e["ArchStdEvent"].lower()
        else:
            m, name = e, e.get("MetricName")
        if name and "MetricExpr" in m:
            out[name] = m["MetricExpr"]
    return out


def arm(root, src, rnd, failures):
    """The Neoverse topdown formulas against perf's; returns the largest relative difference."""
    _spec = importlib.util.spec_from_file_location("test_coverage", os.path.join(HERE, "test-coverage.py"))
    tc = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(tc)
    codes = tc.PerfArch(root, "arm64")
    import pmu
    worst_all = 0.0
    for cpuid, nslots in ARM_CPUS:
        # perf picks the directory by the MIDR without variant and revision
        d, theirs_codes = codes.events("0x%016x" % (int(cpuid, 16) & ~((0xf << 20) | 0xf)))
        if d is None:
            failures.append("%s: perf's arm64 mapfile has no directory for this CPU" % cpuid)
            continue
        ctx = pmu.Context(cpuid=cpuid)
        ctx.set_param("slots", nslots)
        # perf's text with each strcmp_cpuid_str() replaced by its value on this CPU; event names upper case
        perf = {}
        for name, expr in arm_perf_metrics(root, d).items():
            expr = STRCMP_CPUID.sub(lambda m: str(arm_cpuid_matches(m.group(1), cpuid)), expr)
            perf[name] = NAME.sub(lambda m: m.group(0) if m.group(0) in ("if", "else") or m.group(0).startswith("#")
                                  else m.group(0).upper(), expr)
        CONSTANTS["#slots"] = nslots
        needed = set()
        for ours in list(ARM_PERF) + ["TOPDOWN.SLOTS"]:
            needed.update(ctx.metric_events(ours))
        compared, worst = 0, 0.0
        for draw in range(DRAWS):
            cyc = rnd.randint(10**5, 10**9)
            counts = {n: float(rnd.randint(0, 4 * cyc)) for n in sorted(needed)}
            counts["CPU_CYCLES"] = float(cyc)
            counts["STALL_SLOT_FRONTEND"] = float(rnd.randint(0, nslots * cyc // 2))
            counts["STALL_SLOT_BACKEND"] = float(rnd.randint(0, nslots * cyc // 2))
            counts["STALL_SLOT"] = counts["STALL_SLOT_FRONTEND"] + counts["STALL_SLOT_BACKEND"]
            counts["BR_MIS_PRED"] = float(rnd.randint(0, cyc // 20))
            counts["OP_SPEC"] = float(rnd.randint(1, 4 * cyc))
            counts["OP_RETIRED"] = float(rnd.randint(0, int(counts["OP_SPEC"])))
            ev = Evaluator({k.upper(): v for k, v in perf.items()}, counts)
            slots = nslots * cyc
            if abs(ctx.metric("TOPDOWN.SLOTS", counts) - slots) > 1e-9 * slots:
                failures.append("%s %s draw %d: TOPDOWN.SLOTS %r, perf's #slots x CPU_CYCLES %r" %
                                (d, cpuid, draw, ctx.metric("TOPDOWN.SLOTS", counts), slots))
            for ours, theirs in sorted(ARM_PERF.items()):
                a = ctx.metric(ours, counts)
                b = ev.value(theirs.upper()) / 100 * slots
                rel = abs(a - b) / max(abs(b), 1.0)
                worst = max(worst, rel)
                compared += 1
                if rel > 1e-9:
                    failures.append("%s %s draw %d: %s = %r, perf's %s%% x %d x CPU_CYCLES = %r" %
                                    (d, cpuid, draw, ours, a, theirs, nslots, b))
        # the events' codes: perf's for this CPU (raw events of arm64: config = the code)
        nenc = 0
        for name in sorted(needed):
            r = ctx.resolve(name)
            want = theirs_codes.get(name.upper())
            nenc += 1
            if want is None:
                failures.append("%s: event %s: perf's tables for %s have no such event" % (d, name, cpuid))
            elif (r["type"], r["config"]) != (4, want):
                failures.append("%s: %s: libpmu type %d config %#x, perf's code %#x" % (d, name, r["type"],
                                                                                       r["config"], want))
        ctx.close()
        worst_all = max(worst_all, worst)
        print("%-9s %s: %d draws, %d values compared with perf's %s, largest relative difference %.3g; "
              "the %d events' codes compared with perf's" % (d, cpuid, DRAWS, compared,
                                                             ", ".join(sorted(ARM_PERF.values())), worst, nenc))
    CONSTANTS.pop("#slots", None)
    return worst_all


def main():
    src, build, pmu, root = pc.start()
    import jevents  # perf's own, in place
    jevents._arch_std_events = {}
    jevents.preprocess_arch_std_files(os.path.join(root, "arch", "x86"))
    rnd = random.Random(20261124)
    failures = []
    worst_all = 0.0
    for cpuid, d, slots_name, pairs in CPUS:
        ctx = pmu.Context(cpuid=cpuid)
        perf = perf_metrics(root, d)
        needed = set()
        for ours in list(pairs) + ([] if d.startswith("icelake") else ["TOPDOWN.SLOTS"]):
            needed.update(ctx.metric_events(ours))
        if d.startswith("icelake"):  # the PERF_METRICS group perf's level 1 reads
            needed.update(["slots", "topdown-retiring", "topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound"])
        compared, worst = 0, 0.0
        for draw in range(DRAWS):
            # counts of a plausible period: cycles first, the rest below what the cycles allow
            cyc = rnd.randint(10**5, 10**9)
            counts = {n: float(rnd.randint(0, 4 * cyc)) for n in sorted(needed)}
            for n in counts:
                if "CLK_UNHALTED" in n or n == "ls_not_halted_cyc":
                    counts[n] = float(cyc)
            if "slots" in counts:  # PERF_METRICS: the level-1 slot counts add up to slots
                counts["slots"] = float(5 * cyc)
                left = counts["slots"]
                for n in ("topdown-retiring", "topdown-bad-spec", "topdown-fe-bound"):
                    counts[n] = float(rnd.randint(0, int(left)))
                    left -= counts[n]
                counts["topdown-be-bound"] = left
                for n in PERF_METRICS_DRAW:
                    counts[n] = 0.0
            ev = Evaluator(perf, counts)
            slots = ev.value(slots_name)
            if "slots" not in counts and abs(ctx.metric("TOPDOWN.SLOTS", counts) - slots) > 1e-9 * abs(slots):
                failures.append("%s draw %d: TOPDOWN.SLOTS %r, perf's %s %r" % (d, draw, ctx.metric("TOPDOWN.SLOTS", counts),
                                                                             slots_name, slots))
            for ours, theirs in sorted(pairs.items()):
                a = ctx.metric(ours, counts)
                b = ev.value(theirs) * slots
                rel = abs(a - b) / max(abs(b), 1.0)
                worst = max(worst, rel)
                compared += 1
                if rel > 1e-9:
                    failures.append("%s draw %d: %s = %r, perf's %s x %s = %r" % (d, draw, ours, a, theirs,
                                                                              slots_name, b))
        worst_all = max(worst_all, worst)
        nenc = check_encodings(jevents, root, src, cpuid, d, needed, failures)
        print("%-9s %s: %d draws, %d values compared with perf's %s, largest relative difference %.3g; "
              "the %d events' encodings compared with perf's" % (d, cpuid, DRAWS, compared,
                                                                 ", ".join(sorted(set(pairs.values()))), worst, nenc))
    worst_all = max(worst_all, atom(root, src, rnd, failures))
    worst_all = max(worst_all, arm(root, src, rnd, failures))
    for f in failures[:20]:
        print("FAIL: " + f)
    if failures:
        print("FAIL: %d differences" % len(failures))
        return 1
    print("PASS: every topdown slot formula equals perf's (largest relative difference %.3g)" % worst_all)
    return 0


if __name__ == "__main__":
    sys.exit(main())
