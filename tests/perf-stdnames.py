#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The built-in x86 tables' standard names against perf's tree.

For every x86 directory of events/mapfile.csv and every entry there with
StdNames, each standard name it lists is resolved by libpmu under an id
of that mapfile line (the built-in tables only: no PMU_EVENTS_PATH) on a
fixture machine of the vendor (tests/fixtures/amd-zen3, intel-icx; for
entries with a cpu_core/cpu_atom Unit intel-adl-hybrid and the name
written UNIT/NAME/, e.g. x86/alderlake's). It must
resolve to that very entry, and its encoding must equal the one of the
event of the same name in perf's directory of the same name (Debian's
linux-source-6.12, extracted once into the build directory by
tests/perf-corpus.py's code): the oracle is perf's jevents.py turning
perf's JSON entry into perf's event string, and the fixture's sysfs
format files turning its terms into config bits. An entry whose event
perf's directory does not have fails too (its code would have no oracle),
unless it is one of UNIONS: an event perf writes as parts (same code, some
umask bits each), compared with perf's parts' encodings ORed.

An entry of an uncore Unit (iMC, CHA, UPI, UMCPMC: the socket-wide names of
events/standard/socket.json, issue 43) is resolved on a machine with one
box of each uncore PMU instead, and compared with perf's uncore event of the
same name the same way: for Intel, one box of every uncore PMU perf's
directory names (uncore_imc, uncore_cha, ...: tests/perf-corpus-builtin.py's
uncore_machine, whose one made-up format for all makes the tables' fields,
not the kernel's bit positions, what is compared); for AMD, the amd-zen3
fixture with amd_umc_0 in the format the kernel's driver writes
(AMD_UNCORE). One box: the encodings are compared here; the sum over several
boxes and sockets is checked by test-server-bandwidth (the kernel model).
Then the numbers, on that machine, for each CPU whose table maps them:
each socket-wide standard name's bytes (its mapping's count, or the value of
the CPU table's metric of that name where no single event counts it, times
its ScaleUnit) over 1e6 and the run's duration must equal the oracle's
bandwidth metric of the same traffic (SOCKET_BYTES: memory_bandwidth_read,
umc_mem_read_bandwidth, upi_data_transmit_bw, ...), and each standard
bandwidth metric of events/standard/metrics.json (SOCKET_BW) evaluated by
libpmu must equal it too, and so must MEM.DRAM.RW.BYTES (a standard metric of
64-byte lines: SOCKET_LINES) times 64 over 1e6 and the duration. The oracle is perf's formula, evaluated by
perf-corpus.py's Oracle (perf's metric.py trees) on made-up counts, a count
being a hash of the event's encoding as each side encodes it; where perf
6.12 has no such metric for the directory (Granite Rapids: none at all)
Intel's own formula (events/x86/intel/<dir>/metrics.json, what Intel's
converter for perf writes). A name the oracle has a metric for must be
mapped, but on SOCKET_UNMAPPED's directories (each with the reason); a
mapped name no oracle metric checks fails too.

Prints one line per directory (names compared, differing, failing) and a
total; any difference or failure fails the test.
Usage: perf-stdnames.py [--verbose]   (run by meson test, env as perf-corpus.py)
"""
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("perf_corpus", os.path.join(HERE, "perf-corpus.py"))
pc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pc)
_spec = importlib.util.spec_from_file_location("perf_corpus_builtin", os.path.join(HERE, "perf-corpus-builtin.py"))
pcb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pcb)

# libpmu's names for events perf's x86 tables spell otherwise (the kernel's sysfs name of the
# fixed counter 3 event)
PERF_NAME = {"slots": "TOPDOWN.SLOTS"}

# libpmu's events that perf's tables write as parts: the same event code with the parts' umask bits
# all set (the hardware counts what matches any bit, as perf's own SCALAR = SCALAR_SINGLE |
# SCALAR_DOUBLE and VECTOR = the six packed widths are written). The oracle is perf's encodings of
# the parts, which must differ only in the umask byte, ORed.
UNIONS = {"fp_arith_inst_retired.scalar_vector": ("fp_arith_inst_retired.scalar", "fp_arith_inst_retired.vector")}
UMASK = 0xff00


def union_attr(theirs, unit, name, fmt):
    """perf's encoding of the union @name (UNIONS), or raises CannotEncode saying why not."""
    attrs = []
    for part in UNIONS[name]:
        pe = theirs.get((unit, part))
        if pe is None:
            raise pc.CannotEncode("perf's table has no %s, a part of %s" % (part, name))
        attrs.append(pc.perf_terms_to_attr(pe.event, fmt))
    t, c, c1, c2 = attrs[0]
    for a in attrs[1:]:
        if (a[0], a[1] & ~UMASK, a[2], a[3]) != (t, c & ~UMASK, c1, c2):
            raise pc.CannotEncode("the parts of %s differ beyond the umask: %r" % (name, attrs))
        c |= a[1]
    return t, c, c1, c2


def perf_events(jevents, arch_root, d):
    """perf's events of directory @d by (unit, lower-case name): unit "" for the core PMU, the core PMU's
    name on a hybrid CPU, else jevents' PMU name of the uncore Unit (uncore_imc, uncore_cha, ...)."""
    out = {}
    path = os.path.join(arch_root, d)
    for fn in sorted(os.listdir(path)):
        if fn.endswith(".json") and fn != "metricgroups.json":
            for e in jevents.read_json_events(os.path.join(path, fn), topic=fn[:-5]):
                if e.name:
                    unit = "" if e.pmu == "default_core" else e.pmu
                    out.setdefault((unit, e.name.lower()), e)
    return out


def perf_metrics(jevents, path):
    """The metrics of directory @path (perf's, or Intel's converted ones) as perf-corpus.py's Oracle wants
    them: (PMU, lower name) -> (name, perf's metric.py tree)."""
    out = {}
    for fn in sorted(os.listdir(path)) if os.path.isdir(path) else []:
        if fn.endswith(".json") and fn != "metricgroups.json":
            for e in jevents.read_json_events(os.path.join(path, fn), topic=fn[:-5]):
                if e.metric_name and e.metric_expr is not None:
                    out[(e.pmu, e.metric_name.lower())] = (e.metric_name, e.metric_expr)
    return out


def jevents_pmu(jevents, unit):
    """jevents' own PMU name of a Unit ("iMC" -> uncore_imc, "DFPMC" -> amd_df)."""
    return jevents.JsonEvent({"EventName": "X", "Unit": unit, "EventCode": "0"}).pmu


# The socket-wide standard names (events/standard/socket.json): the factor of the ScaleUnit every mapping
# must have (what the standard bandwidth metrics multiply by) and the oracle's metric of the same traffic
# (perf's or Intel's names; AMD's perf tables name the DRAM ones umc_mem_*_bandwidth).
SOCKET_BYTES = {"MEM.DRAM.RD.BYTES": (64, ("memory_bandwidth_read", "umc_mem_read_bandwidth")),
                "MEM.DRAM.WR.BYTES": (64, ("memory_bandwidth_write", "umc_mem_write_bandwidth")),
                "CACHE.LLC.MISS.RD.LOCAL.BYTES": (64, ("llc_miss_local_memory_bandwidth_read",)),
                "CACHE.LLC.MISS.RD.REMOTE.BYTES": (64, ("llc_miss_remote_memory_bandwidth_read",)),
                "CACHE.LLC.MISS.WR.LOCAL.BYTES": (64, ("llc_miss_local_memory_bandwidth_write",)),
                "CACHE.LLC.MISS.WR.REMOTE.BYTES": (64, ("llc_miss_remote_memory_bandwidth_write",)),
                "MEM.XSOCKET.TX.BYTES": (64 / 9, ("upi_data_transmit_bw",)),
                "MEM.XSOCKET.RX.BYTES": (64 / 9, ("upi_data_receive_bw",))}
# The standard bandwidth metrics (events/standard/metrics.json, group MEM_BW) and the oracle's of the same
# traffic: each alternative a sum of metrics. AMD's umc_mem_bandwidth counts umc_cas_cmd.all, which made-up
# counts cannot tell equal to reads plus writes: its read and write metrics are summed instead.
SOCKET_BW = {"MEM.DRAM.RD.BW": (("memory_bandwidth_read",), ("umc_mem_read_bandwidth",)),
             "MEM.DRAM.WR.BW": (("memory_bandwidth_write",), ("umc_mem_write_bandwidth",)),
             "MEM.DRAM.RW.BW": (("memory_bandwidth_total",), ("umc_mem_read_bandwidth", "umc_mem_write_bandwidth")),
             "CACHE.LLC.MISS.RD.LOCAL.BW": (("llc_miss_local_memory_bandwidth_read",),),
             "CACHE.LLC.MISS.RD.REMOTE.BW": (("llc_miss_remote_memory_bandwidth_read",),),
             "CACHE.LLC.MISS.WR.LOCAL.BW": (("llc_miss_local_memory_bandwidth_write",),),
             "CACHE.LLC.MISS.WR.REMOTE.BW": (("llc_miss_remote_memory_bandwidth_write",),),
             "MEM.XSOCKET.TX.BW": (("upi_data_transmit_bw",),), "MEM.XSOCKET.RX.BW": (("upi_data_receive_bw",),)}
# Standard metrics of bytes (ScaleUnit 64Bytes: the value counts lines), checked as value * 64 / 1e6 /
# duration_time against the oracle's bandwidth metric of the same traffic.
SOCKET_LINES = {"MEM.DRAM.RW.BYTES": (64, SOCKET_BW["MEM.DRAM.RW.BW"])}
# Directories whose oracle has the traffic's metrics but whose built-in table maps none of the names, and why
# (a name mapped there, or one more such directory, fails: this list is then out of date).
SOCKET_UNMAPPED = {
    "haswellx": "libpmu's x86/haswell serves client Haswell too, whose uncore_imc is another PMU (free-running "
                "counters): Haswell-EP's iMC events need a table of the -EP row alone, and the mapfile's Intel rows "
                "are gen-perfmon.py's",
    "broadwellx": "as haswellx: libpmu's x86/broadwell serves client Broadwell and Broadwell-DE too"}
# The kernel's formats of the uncore PMUs the AMD mappings name (arch/x86/events/amd/uncore.c, Linux 6.12:
# the PerfMonV2 UMC's event8 and rdwrmask), on a PMU named as the kernel names the first of them.
AMD_UNCORE = {"amd_umc": ("amd_umc_0", {"event": "config:0-7", "rdwrmask": "config:8-9"})}


def amd_machine(base, dst):
    """@base's tree (an AMD fixture) with AMD_UNCORE's PMUs, one box each, made in @dst."""
    if os.path.exists(os.path.join(dst, ".made")):
        return dst
    pc.subprocess.run(["rm", "-rf", dst], check=True)
    pc.shutil.copytree(base, dst, ignore=pc.shutil.ignore_patterns(".made"))
    devs = os.path.join(dst, "sys/bus/event_source/devices")
    for k, (dev, fmt) in enumerate(sorted(AMD_UNCORE.values())):
        os.makedirs(os.path.join(devs, dev, "format"))
        for fn, text in (("type", "%d" % (200 + k)), ("cpumask", "0")):
            with open(os.path.join(devs, dev, fn), "w") as f:
                f.write(text + "\n")
        for term, bits in fmt.items():
            with open(os.path.join(devs, dev, "format", term), "w") as f:
                f.write(bits + "\n")
    open(os.path.join(dst, ".made"), "w").close()
    return dst


def dev_of(sysfs, name):
    """The sysfs PMU of jevents' PMU name @name on the machine: itself, else its first box (amd_umc_0)."""
    devs = os.path.join(sysfs, "bus/event_source/devices")
    return name if os.path.isdir(os.path.join(devs, name)) or not os.path.isdir(os.path.join(devs, name + "_0")) \
        else name + "_0"


def count_of(key, name):
    """The made-up count of an event: a hash of its encoding (type, config, config1, config2) where it has one
    as a table event, so that both sides' names of one counter count alike; else of its name."""
    return pc.count_for("%d:%x:%x:%x" % key) if key else pc.count_for(name)


def socket_numbers(ctx, pmu, metric_mod, theirs, sysfs, oracles, d, failures):
    """The numbers of the socket-wide names on directory @d's uncore machine (@ctx, @sysfs): each mapped
    name's bytes / 1e6 / duration_time and each standard bandwidth metric against the oracle's metric
    (@oracles: (label, metrics), perf's first, then Intel's). Returns (compared, differing, failing, mapped)."""
    n = [0, 0, 0, 0]
    by_name = {}
    for (unit, name), e in theirs.items():
        if unit and e.event:
            by_name.setdefault(name, e)

    def perf_count(name):
        name = name.replace("\\", "")
        e = by_name.get(name.lower())
        if e is None:
            return pc.count_for(name)
        try:
            return count_of(pc.perf_terms_to_attr(e.event, pc.read_pmu(sysfs, dev_of(sysfs, e.pmu))), name)
        except (pc.CannotEncode, OSError):
            return pc.count_for(name)

    def libpmu_count(name):
        try:
            r = ctx.resolve(name)
        except pmu.PmuError:
            return pc.count_for(name)
        if r["source"] != "table":
            return pc.count_for(name)
        return count_of((r["type"], r["config"], r["config1"], r["config2"]), name)

    def oracle_value(alternatives):
        """(label, names, value): the first alternative whose metrics one oracle has all of, summed."""
        for label, trees in oracles:
            for names in alternatives:
                if all(("default_core", m) in trees for m in names):
                    o = pc.Oracle(metric_mod, trees, counts=perf_count)
                    return label, " + ".join(names), sum(o.value("default_core", m) for m in names)
        return None, None, None

    def check(what, mine, alternatives):
        label, names, want = oracle_value(alternatives)
        n[0] += 1
        if not pc.same_number(mine, want):
            n[1] += 1
            failures.append("%s: %s = %r, %s %s = %r" % (d, what, mine, label, names, want))

    t = pc.count_for("duration_time")
    for std, (factor, perf_metrics) in sorted(SOCKET_BYTES.items()):
        alternatives = tuple((m,) for m in perf_metrics)
        has_oracle = oracle_value(alternatives)[2] is not None
        try:
            r = ctx.resolve(std)
            count, su, unit = libpmu_count(std), r.get("unit_scale"), r.get("unit")
        except pmu.PmuError as x:
            # no single event: the CPU table's metric of the name (Granite Rapids' two sub-channels)
            try:
                info = ctx.metric_info(std)
            except pmu.PmuError:
                if has_oracle and d.split("/")[-1] not in SOCKET_UNMAPPED:
                    n[2] += 1
                    failures.append("%s: %s is not mapped, though the oracle's metrics have its traffic: %s" %
                                    (d, std, x))
                continue
            count = ctx.metric(std, {m: libpmu_count(m) for m in ctx.metric_events(std)})
            scale = info.get("scale_unit") or ""
            su = float(scale[:-len("Bytes")]) if scale.endswith("Bytes") else None
            unit = "Bytes" if su else scale
        n[3] += 1
        if unit != "Bytes" or su is None or not pc.same_number(su, factor):
            n[2] += 1
            failures.append("%s: %s counts %r %s a count, not %r Bytes (the standard metrics' factor)" %
                            (d, std, su, unit, factor))
            continue
        if not has_oracle:
            n[2] += 1
            failures.append("%s: %s is mapped but neither perf's nor Intel's metrics have %s to check it with" %
                            (d, std, " or ".join(perf_metrics)))
            continue
        check("%s bytes / 1e6 / duration_time" % std, count * su / 1e6 / t, alternatives)
    for std, alternatives in sorted(SOCKET_BW.items()):
        has_oracle = oracle_value(alternatives)[2] is not None
        try:
            names = ctx.metric_events(std)
            for m in names:
                ctx.resolve(m)
        except pmu.PmuError as x:
            if has_oracle and d.split("/")[-1] not in SOCKET_UNMAPPED:
                n[2] += 1
                failures.append("%s: the standard metric %s cannot be evaluated: %s" % (d, std, x))
            continue
        if not has_oracle:
            n[2] += 1
            failures.append("%s: the standard metric %s is evaluated here but no oracle metric checks it" % (d, std))
            continue
        values = {m: libpmu_count(m) for m in names}
        values["duration_time"] = t
        check("the standard metric %s" % std, ctx.metric(std, values), alternatives)
    for std, (factor, alternatives) in sorted(SOCKET_LINES.items()):
        try:
            names = ctx.metric_events(std)
            for m in names:
                ctx.resolve(m)
            scale = ctx.metric_info(std).get("scale_unit")
        except pmu.PmuError:
            continue  # as its bandwidth metric: the failure, if any, is said there
        if oracle_value(alternatives)[2] is None:
            continue
        if scale != "%dBytes" % factor:
            n[2] += 1
            failures.append("%s: the standard metric %s has ScaleUnit %r, not %dBytes" % (d, std, scale, factor))
            continue
        values = {m: libpmu_count(m) for m in names}
        check("the standard metric %s * %d / 1e6 / duration_time" % (std, factor),
              ctx.metric(std, values) * factor / 1e6 / t, alternatives)
    return n


def pc_metric():
    """perf's metric.py (its directory is on sys.path once perf's tree is extracted)."""
    import metric
    return metric


def main():
    verbose = "--verbose" in sys.argv[1:]
    src, build, pmu, root = pc.start()
    import jevents  # perf's own, in place
    arch_root = os.path.join(root, "arch", "x86")
    jevents._arch_std_events = {}
    jevents.preprocess_arch_std_files(arch_root)
    fx = os.path.join(src, "tests", "fixtures")
    rows = pc.read_mapfile(os.path.join(src, "events", "mapfile.csv"))
    total = {"compared": 0, "differing": 0, "failing": 0}
    failures = []
    seen = set()
    for i, (pat, d, typ) in enumerate(rows):
        # a row names libpmu's own table of the CPU (its StdNames) and Intel's full one, "x86/A+x86/intel/B":
        # A's mappings are compared with perf's B, the directory perf serves the row's CPUs from
        own = d.split("+")[0]
        if not d.startswith("x86/") or own.startswith("x86/intel/") or d in seen:
            continue
        seen.add(d)
        name = d.split("+")[-1].rsplit("/", 1)[1]
        cpuid = pc.cpu_id_for(rows, i)
        if cpuid is None:
            failures.append("%s: no CPU id found for the mapfile pattern %s" % (d, pat))
            continue
        if not os.path.isdir(os.path.join(arch_root, name)):
            failures.append("%s: perf's tree has no directory %s to compare with" % (d, name))
            continue
        theirs = perf_events(jevents, arch_root, name)
        n = {"compared": 0, "differing": 0, "failing": 0}
        # the uncore machine of the directory: one box of each uncore PMU perf's events name (Intel: one made-up
        # format for all), or of the AMD PMUs whose kernel formats AMD_UNCORE gives
        upmus = sorted({u for (u, _) in theirs if u and u not in pc.CORE_UNITS})
        usys = None
        if cpuid.startswith("AuthenticAMD"):
            uroot = amd_machine(os.path.join(fx, "amd-zen3"),
                                os.path.join(build, "perf-corpus", "fixtures", "stdnames-amd-uncore"))
            usys = os.path.join(uroot, "sys")
            upmus = [u for u in upmus if os.path.isdir(os.path.join(usys, "bus/event_source/devices", dev_of(usys, u)))]
        elif upmus:
            uroot = pcb.uncore_machine(os.path.join(fx, "intel-icx"),
                                       os.path.join(build, "perf-corpus", "fixtures", "stdnames-uncore-" + name), upmus)
            usys = os.path.join(uroot, "sys")
        uctx = pmu.Context(cpuid=cpuid, sysfs_root=usys) if usys else None
        for fn in sorted(os.listdir(os.path.join(src, "events", own))):
            if not fn.endswith(".json"):
                continue
            with open(os.path.join(src, "events", own, fn)) as f:
                entries = json.load(f)
            for e in entries:
                if not e.get("StdNames") or "EventName" not in e:
                    continue
                unit = e.get("Unit", "")
                uncore = unit and unit not in pc.CORE_UNITS
                fixture = "amd-zen3" if cpuid.startswith("AuthenticAMD") else (
                    "intel-adl-hybrid" if unit in pc.CORE_UNITS else "intel-icx")
                sysfs = os.path.join(fx, fixture, "sys")
                pmu_name = jevents_pmu(jevents, unit) if uncore else unit or "cpu"
                if uncore:
                    # an uncore event: on the uncore machine, named bare (the standard name says no PMU)
                    sysfs = usys
                    if pmu_name not in upmus:
                        n["failing"] += 1
                        failures.append("%s %s: perf's %s names no event of Unit %s (PMU %s)" %
                                        (d, e["EventName"], name, unit, pmu_name))
                        continue
                fmt = pc.read_pmu(sysfs, dev_of(sysfs, pmu_name) if uncore else pmu_name)
                pe = theirs.get((pmu_name if uncore else unit, PERF_NAME.get(e["EventName"], e["EventName"]).lower()))
                union = pe is None and e["EventName"].lower() in UNIONS
                ctx = pmu.Context(cpuid=cpuid, sysfs_root=sysfs)
                for std in [s.strip() for s in e["StdNames"].split(",") if s.strip()]:
                    what = "%s %s -> %s%s" % (d, std, unit + "/" if unit else "", e["EventName"])
                    if pe is None and not union:
                        n["failing"] += 1
                        failures.append("%s: perf's %s has no such event (no oracle for its code)" % (what, name))
                        continue
                    try:
                        r = ctx.resolve(("%s/%s/" % (unit, std)) if unit and not uncore else std)
                    except pmu.PmuError as x:
                        n["failing"] += 1
                        failures.append("%s: libpmu does not resolve it: %s" % (what, x))
                        continue
                    # Intel's own event of the standard name itself (TOPDOWN.SLOTS, in x86/intel/) is the CPU's
                    # event of that name and comes first; it must still encode what perf's mapped event does
                    intels = "/intel/" in r["origin"] and r["origin"].endswith(": " + std)
                    if not (r["origin"].endswith(": " + e["EventName"]) or intels) or r["source"] != "table":
                        n["failing"] += 1
                        failures.append("%s: libpmu resolves it to another event (%s)" % (what, r["origin"]))
                        continue
                    mine = (r["type"], r["config"], r["config1"], r["config2"])
                    try:
                        if union:
                            want = union_attr(theirs, unit, e["EventName"].lower(), fmt)
                            perf_event = " | ".join(UNIONS[e["EventName"].lower()])
                        else:
                            want = pc.perf_terms_to_attr(pe.event, fmt)
                            perf_event = pe.event
                    except pc.CannotEncode as x:
                        n["failing"] += 1
                        failures.append("%s: perf's event string %s cannot be encoded: %s" %
                                        (what, pe.event if pe else e["EventName"], x))
                        continue
                    n["compared"] += 1
                    if mine != want:
                        n["differing"] += 1
                        failures.append("%s: libpmu type %d config %#x/%#x/%#x, perf (%s) %d %#x/%#x/%#x" %
                                        ((what,) + mine + (perf_event,) + want))
                    elif verbose:
                        print("  same  %s  %s" % (what, perf_event))
                ctx.close()
        print("%-24s %-26s standard names compared with perf's %s: %3d, differing %d, failing %d" %
              (d, cpuid, name, n["compared"], n["differing"], n["failing"]))
        if uctx:
            oracles = [("perf's", perf_metrics(jevents, os.path.join(arch_root, name))),
                       ("Intel's", perf_metrics(jevents, os.path.join(src, "events", d.split("+")[-1])))]
            c, dif, f, mapped = socket_numbers(uctx, pmu, pc_metric(), theirs, usys, oracles, d, failures)
            uctx.close()
            if name in SOCKET_UNMAPPED:
                if mapped:
                    n["failing"] += 1
                    failures.append("%s: in SOCKET_UNMAPPED but %d socket-wide names are mapped: take it out" %
                                    (d, mapped))
                else:
                    print("%-51s socket-wide names not mapped: %s" % ("", SOCKET_UNMAPPED[name]))
            print("%-51s socket-wide numbers compared with the oracle's metrics: %3d, differing %d, failing %d" %
                  ("", c, dif, f))
            n["compared"] += c
            n["differing"] += dif
            n["failing"] += f
        for k in total:
            total[k] += n[k]
    print("%-51s TOTAL compared %d, differing %d, failing %d" % ("", total["compared"], total["differing"],
                                                                   total["failing"]))
    for f in failures:
        print("FAIL: " + f)
    bad = bool(failures) or total["compared"] == 0
    print("perf-stdnames: %s" % ("FAIL" if bad else "PASS"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
