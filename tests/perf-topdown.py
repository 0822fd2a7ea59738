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

Prints one line per CPU (draws, metrics compared, largest relative
difference); any difference above 1e-9 fails.
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

# CPU id, perf's directory, perf's slot count, and libpmu metric -> perf metric (a fraction of the slots)
CPUS = [
    ("GenuineIntel-6-5E-3", "skylake", "tma_info_thread_slots", {
        "TOPDOWN.RETIRING.SLOTS": "tma_retiring",
        "TOPDOWN.BAD_SPECULATION.SLOTS": "tma_bad_speculation",
        "TOPDOWN.FRONTEND_BOUND.SLOTS": "tma_frontend_bound",
        "TOPDOWN.BACKEND_BOUND.SLOTS": "tma_backend_bound",
        "TOPDOWN.RETIRING.HEAVY_OPS.SLOTS": "tma_heavy_operations",
        "TOPDOWN.BAD_SPECULATION.CONTROL_FLOW.SLOTS": "tma_branch_mispredicts",
        "TOPDOWN.FRONTEND_BOUND.LATENCY.SLOTS": "tma_fetch_latency",
        "TOPDOWN.BACKEND_BOUND.MEMORY.SLOTS": "tma_memory_bound",
    }),
    ("GenuineIntel-6-55-4", "skylakex", "tma_info_thread_slots", None),  # the same names as skylake
    ("AuthenticAMD-25-11-1", "amdzen4", "total_dispatch_slots", {
        "TOPDOWN.RETIRING.SLOTS": "retiring",
        "TOPDOWN.BAD_SPECULATION.SLOTS": "bad_speculation",
        "TOPDOWN.FRONTEND_BOUND.SLOTS": "frontend_bound",
        "TOPDOWN.BACKEND_BOUND.SLOTS": "backend_bound",
    }),
    ("AuthenticAMD-26-2-0", "amdzen5", "total_dispatch_slots", None),  # the same names as amdzen4
]
CONSTANTS = {"#SMT_on": 0, "#core_wide": 1}
NAME = re.compile(r"#?[A-Za-z_][A-Za-z0-9_.]*")
DRAWS = 200


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
            if t in ("if", "else", "min", "max", "d_ratio"):
                return t
            key = "v%d" % len(names)
            names[key] = t
            return key

        py = NAME.sub(mangle, expr)
        ev = self

        class Lazy(dict):
            def __missing__(self, k):
                return ev.value(names[k])

        env = Lazy()
        env.update({"min": min, "max": max, "d_ratio": lambda a, b: a / b if b else 0.0})
        return eval(py, {"__builtins__": {}}, env)


def main():
    build = os.environ.get("PMU_TEST_BUILDDIR")
    if not os.environ.get("PMU_TEST_SRCDIR") or not build:
        pc.fail_setup("PMU_TEST_SRCDIR / PMU_TEST_BUILDDIR are not set: run it through meson test")
    os.environ.pop("PMU_EVENTS_PATH", None)
    import pmu
    root = pc.extract(build)
    rnd = random.Random(20261124)
    failures = []
    worst_all = 0.0
    for cpuid, d, slots_name, pairs in CPUS:
        pairs = pairs or [c[3] for c in CPUS if c[2] == slots_name and c[3]][0]
        ctx = pmu.Context(cpuid=cpuid)
        perf = perf_metrics(root, d)
        needed = set()
        for ours in list(pairs) + ["TOPDOWN.SLOTS"]:
            needed.update(ctx.metric_events(ours))
        compared, worst = 0, 0.0
        for draw in range(DRAWS):
            # counts of a plausible period: cycles first, the rest below what the cycles allow
            cyc = rnd.randint(10**5, 10**9)
            counts = {n: float(rnd.randint(0, 4 * cyc)) for n in sorted(needed)}
            for n in counts:
                if "CLK_UNHALTED" in n or n == "ls_not_halted_cyc":
                    counts[n] = float(cyc)
            ev = Evaluator(perf, counts)
            slots = ev.value(slots_name)
            if abs(ctx.metric("TOPDOWN.SLOTS", counts) - slots) > 1e-9 * abs(slots):
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
        print("%-9s %s: %d draws, %d values compared with perf's %s, largest relative difference %.3g"
              % (d, cpuid, DRAWS, compared, ", ".join(sorted(set(pairs.values()))), worst))
    for f in failures[:20]:
        print("FAIL: " + f)
    if failures:
        print("FAIL: %d differences" % len(failures))
        return 1
    print("PASS: every topdown slot formula equals perf's (largest relative difference %.3g)" % worst_all)
    return 0


if __name__ == "__main__":
    sys.exit(main())
