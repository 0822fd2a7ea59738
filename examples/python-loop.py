#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Count a pure-Python loop with libpmu: a Set around it, and a region.

    PYTHONPATH=bindings/python PMU_LIBRARY=build/lib/libpmu.so \
        /usr/bin/python3 examples/python-loop.py [N]

Sums the primes below N (default 30000) by trial division, counts the work
with a Set (hardware events where a PMU is exposed, software events
otherwise), prints the counts and one metric, and the region "primes".
Exit status 0 on success.
"""
import sys

import pmu


def primes_sum(n):
    total = 0
    for k in range(2, n):
        d = 2
        while d * d <= k:
            if k % d == 0:
                break
            d += 1
        else:
            total += k
    return total


def sieve_sum(n):
    flags = bytearray([1]) * n
    flags[:2] = b"\0\0"
    for i in range(2, int(n ** 0.5) + 1):
        if flags[i]:
            flags[i * i::i] = bytearray(len(range(i * i, n, i)))
    return sum(i for i in range(n) if flags[i])


HW = ("instructions:u,cycles:u,branch-misses:u", "instructions / cycles", "instructions per cycle")
SW = ("task-clock,page-faults,context-switches", "task\\-clock / 1e6", "milliseconds on a CPU")


def open_set(ctx):
    if ctx.caps()["hw_pmu"]:
        try:
            return pmu.Set(ctx, HW[0]), HW
        except pmu.PmuError as e:
            print("hardware events not available (%s); counting software events" % e)
    else:
        print("no hardware PMU here: counting software events")
    return pmu.Set(ctx, SW[0]), SW


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 30000
    print("libpmu %s (%s)" % (pmu.version(), pmu.library_path))
    with pmu.Context() as ctx:
        s, (events, metric, what) = open_set(ctx)
        with s:
            if pmu.have_regions():
                with pmu.region("primes"):
                    total = primes_sum(n)
            else:
                total = primes_sum(n)
        if total != sieve_sum(n):
            print("wrong sum of primes: %d" % total)
            return 1
        print("sum of the primes below %d: %d" % (n, total))
        for name, v in zip(s.events, s.delta):
            print("  %-22s %15d   (%.0f%% counted)" % (name, pmu.scale(v), 100 * pmu.confidence(v)))
        print("  %-22s %15.3f   %s" % (metric.replace("\\", ""), s.metric(metric, s.delta), what))
        s.close()

    if pmu.have_regions():
        for r in pmu.region_results():
            print('region "%s": %d call%s' % (r["name"], r["calls"], "" if r["calls"] == 1 else "s"))
            for ev, v in r["values"].items():
                print("  %-22s %15d" % (ev, v["value"]))
        pmu.region_reset()          # printed above: no second report at exit
    else:
        print("(this libpmu has no regions: pmu_region_* not exported)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
