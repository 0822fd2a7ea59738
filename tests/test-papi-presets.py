#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PAPI's presets, CPU by CPU, with PAPI's own table and libpfm4 as the oracle.

PAPI 7's papi_events.csv (Debian's libpapi7.0, read in place, never copied) defines each preset per
libpfm4 PMU: a block of CPU lines, then PRESET lines (NOT_DERIVED: one native event; DERIVED_ADD,
DERIVED_SUB: the first event plus or less the others; DERIVED_POSTFIX: a formula over N0, N1, ...). For
each CPU block whose libpfm4 PMU libpmu has a table for (the CPU chosen with PMU_CPUID), and each preset
PAPI defines there:

- PAPI's side: each native event encoded by libpfm4 itself (ctypes, LIBPFM_FORCE_PMU=<pmu> in a process
  of its own), the formula turned into a linear combination {encoding: coefficient};
- libpmu's side: its built-in mapping (events/papi/presets.json; PMU_PAPI_EVENTS set empty so that the
  csv is not read), each standard name of the formula resolved by `pmu resolve --json` on that CPU, the
  same combination built.

Both combinations are compared (config in libpfm4's compared bits, config1; Intel's instructions retired
on fixed counter 0, 0x100, is 0xc0). Per CPU the test prints the presets matched, different (both
encodings), different because libpmu has only the kernel's generic event for the standard name there,
missing (the mapping's standard name cannot be counted on that CPU), PAPI's event unknown to libpfm4, and
the presets PAPI offers there that no standard name covers (the breadth of the standard vocabulary).

It fails on a difference not listed in KNOWN with its reason; on a mapping whose formula names an unknown
name; on a not-derived preset whose `pmu resolve PAPI_X` differs from its standard name's; on a derived
one that resolves as one event; and where libpmu reads the csv itself (PMU_PAPI_EVENTS=the csv), on a
not-derived preset whose encoding is not libpfm4's of PAPI's event, and on a derived one whose metric
(pmu_metric_info, through ctypes) is not PAPI's formula over the same encodings.
Skips (77) where the csv or libpfm4 is not installed (tests/deps.sh installs both).
"""
import ctypes
import glob
import json
import os
import re
import subprocess
import sys

PMU = os.environ.get("PMU_CLI")
SRC = os.environ.get("PMU_TEST_SRCDIR", os.path.join(os.path.dirname(__file__), ".."))
CSV = os.environ.get("PAPI_EVENTS_CSV") or next(iter(sorted(glob.glob("/usr/share/papi/*/papi_events.csv"),
                                                           reverse=True)), None)
PRESETS = os.path.join(SRC, "events", "papi", "presets.json")
MASK = 0xFFFA4FFFF  # libpfm4's compared bits (lib/pfm.h): no USR, OS, INT, EN

# a CPU of each libpfm4 PMU that libpmu has a table for (events/mapfile.csv's rows)
CPUS = {
    "atom": "GenuineIntel-6-1C", "slm": "GenuineIntel-6-37", "nhm": "GenuineIntel-6-1A",
    "nhm_ex": "GenuineIntel-6-2E", "wsm": "GenuineIntel-6-25", "wsm_dp": "GenuineIntel-6-2C",
    "snb": "GenuineIntel-6-2A", "snb_ep": "GenuineIntel-6-2D", "ivb": "GenuineIntel-6-3A",
    "ivb_ep": "GenuineIntel-6-3E", "hsw": "GenuineIntel-6-3C", "hsw_ep": "GenuineIntel-6-3F",
    "bdw": "GenuineIntel-6-3D", "bdw_ep": "GenuineIntel-6-4F", "skl": "GenuineIntel-6-5E",
    "skx": "GenuineIntel-6-55-4", "clx": "GenuineIntel-6-55-7", "icx": "GenuineIntel-6-6A",
    "knl": "GenuineIntel-6-57", "amd64_fam17h_zen2": "AuthenticAMD-23-31",
    "amd64_fam19h_zen3": "AuthenticAMD-25-21",
}
# libpfm4 PMUs of other architectures (this libpfm4 has only its own architecture's): not compared here
OTHER_ARCH = ("arm_", "power", "mips_", "ultra", "niagara", "itanium", "ppc", "qcom", "bgq", "bgp")

# (libpfm4 PMU, preset) -> why libpmu's mapping counts something else than PAPI's event there
INTEL_SKL = ("skl", "skx", "clx")
KNOWN = {}
for _p in INTEL_SKL + ("icx",):
    KNOWN[(_p, "PAPI_L1_ICM")] = ("both count L1I misses, at two places: PAPI the code reads that reach the L2 "
                                 "(L2_RQSTS.ALL_CODE_RD, the L1I's prefetches included), libpmu's table the L1I's "
                                 "tag misses (ICACHE_64B.IFTAG_MISS)")
    KNOWN[(_p, "PAPI_L1_TCM")] = "its instruction part, as PAPI_L1_ICM"
    KNOWN[(_p, "PAPI_LST_INS")] = ("PAPI adds the loads and the stores (an instruction that does both counted "
                                  "twice); libpmu's INST.LDST.RET counts instructions that load or store once "
                                  "(MEM_INST_RETIRED.ANY, umask 0x83)")
    KNOWN[(_p, "PAPI_L2_TCR")] = ("PAPI adds the L2's demand data and code reads; libpmu's table maps "
                                 "CACHE.L2.RD to every L2 request on Skylake (L2_RQSTS.REFERENCES: RFOs and "
                                 "prefetches too) and to the demand data reads alone on Ice Lake-X")
for _p in INTEL_SKL:
    KNOWN[(_p, "PAPI_TLB_IM")] = ("a first-level ITLB miss either hits the STLB or walks: PAPI counts the walks "
                                 "(ITLB_MISSES.MISS_CAUSES_A_WALK), libpmu's table maps TLB.L1I.CODE.MISS to the "
                                 "STLB hits (ITLB_MISSES.STLB_HIT)")
for _p in ("amd64_fam17h_zen2", "amd64_fam19h_zen3"):
    KNOWN[(_p, "PAPI_TLB_IM")] = ("PAPI adds both kinds of first-level ITLB miss (L2 ITLB hit and miss); libpmu's "
                                 "table maps TLB.L1I.CODE.MISS to the L2 ITLB hits alone "
                                 "(bp_l1_tlb_miss_l2_tlb_hit)")
    KNOWN[(_p, "PAPI_BR_MSP")] = ("the preset is conditional branches mispredicted; PAPI's AMD lines count every "
                                 "mispredicted branch (0xc3), libpmu's table the conditional ones")
KNOWN[("amd64_fam17h_zen2", "PAPI_FP_INS")] = ("PAPI counts x87, MMX and SSE instructions (unit mask 0x7); "
                                               "libpmu's table maps INST.FP.RET to the SSE/AVX ones (0x4)")
KNOWN[("amd64_fam19h_zen3", "PAPI_FP_INS")] = ("PAPI counts floating-point operations (RETIRED_SSE_AVX_FLOPS), "
                                               "not instructions; libpmu's INST.FP.RET counts the SSE/AVX "
                                               "instructions (ex_ret_mmx_fp_instr.sse_instr)")
KNOWN[("amd64_fam17h_zen2", "PAPI_L1_ICM")] = ("PAPI counts the instruction cache's reads that reach the L2 "
                                               "(prefetches included); libpmu's table the instruction cache's "
                                               "misses (ic_fetch_stall... event 0x81: its misses)")


def parse_csv(path):
    """{pmu: {preset: (kind, [events], postfix or None)}}: a run of CPU lines opens a block whose PRESET
    lines apply to each PMU it names; a later definition replaces an earlier one."""
    out, block, in_cpus = {}, [], False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split(",")]
            if fields[0] == "CPU":
                if not in_cpus:
                    block = []
                in_cpus = True
                block.append(fields[1])
                continue
            in_cpus = False
            if fields[0] != "PRESET" or len(fields) < 4:
                continue
            name, kind, rest = fields[1], fields[2], fields[3:]
            if "NOTE" in rest:
                rest = rest[:rest.index("NOTE")]
            postfix = None
            if kind == "DERIVED_POSTFIX":
                postfix, rest = rest[0], rest[1:]
            for cpu in block:
                out.setdefault(cpu, {})[name] = (kind, rest, postfix)
    return out


VIA_ARCH = set()  # PAPI's native names libpfm4 encodes as ix86arch's


def pfm_encode(pmu, names):
    """libpfm4's encoding of each name for PMU @pmu, in a process of its own (LIBPFM_FORCE_PMU is read
    once, at pfm_initialize): {name: (type, config, config1) or error text}."""
    # the kernel's events (perf::...) are libpfm4's on every host: libpfm4 without a forced PMU
    out = pfm_encode_one(pmu, [n for n in names if "::" not in n])
    out.update(pfm_encode_one(None, [n for n in names if "::" in n]))
    # an Intel core PMU's architectural events (LLC_REFERENCES): libpfm4 finds them in its ix86arch PMU,
    # which it activates beside the model's on Intel hardware
    arch = [n for n in names if not isinstance(out.get(n), tuple) and "::" not in n and not pmu.startswith("amd")]
    if arch:
        for n, enc in pfm_encode_one("ix86arch", arch).items():
            if isinstance(enc, tuple):
                out[n] = enc
                VIA_ARCH.add(n)
    return out


def pfm_encode_one(force, names):
    """libpfm4's encodings of @names in a process of its own, with LIBPFM_FORCE_PMU=@force (None: unset)."""
    env = dict(os.environ)
    env.pop("LIBPFM_FORCE_PMU", None)
    if force:
        env["LIBPFM_FORCE_PMU"] = force
    r = subprocess.run([sys.executable, __file__, "--encode", force or "-"], input="\n".join(names), text=True,
                       capture_output=True, env=env, check=True)
    out = {}
    for line in r.stdout.splitlines():
        name, _, enc = line.partition(" ")
        out[name] = tuple(int(x, 0) for x in enc.split()) if not enc.startswith("!") else enc[1:]
    return out


def encode_main(pmu):
    lib = ctypes.CDLL("libpfm.so.4")

    class Arg(ctypes.Structure):
        _fields_ = [("attr", ctypes.c_void_p), ("fstr", ctypes.c_void_p), ("size", ctypes.c_size_t),
                    ("idx", ctypes.c_int), ("cpu", ctypes.c_int), ("flags", ctypes.c_int), ("pad0", ctypes.c_int)]
    if lib.pfm_initialize() != 0:
        print("pfm_initialize failed", file=sys.stderr)
        return 1
    lib.pfm_strerror.restype = ctypes.c_char_p
    for name in sys.stdin.read().split("\n"):
        if not name:
            continue
        attr = ctypes.create_string_buffer(512)
        arg = Arg(ctypes.cast(attr, ctypes.c_void_p), None, ctypes.sizeof(Arg), 0, -1, 0, 0)
        full = name if "::" in name else "%s::%s" % (pmu, name)
        # PFM_PLM0 | PFM_PLM3 (user and kernel); PFM_OS_PERF_EVENT_EXT = 2
        ret = lib.pfm_get_os_event_encoding(full.encode(), 0x1 | 0x8, 2, ctypes.byref(arg))
        if ret != 0:
            print("%s !%s" % (name, lib.pfm_strerror(ret).decode()))
            continue
        raw = attr.raw
        typ = int.from_bytes(raw[0:4], "little")
        config = int.from_bytes(raw[8:16], "little")
        config1 = int.from_bytes(raw[56:64], "little")
        print("%s %d %#x %#x" % (name, typ, config, config1))
    return 0


def metrics_main():
    """Each name of stdin: libpmu's metric of that name (pmu_metric_info's expression), for the CPU and csv
    of the environment; "name<TAB>expr", or "name<TAB>!" where libpmu has none."""
    lib = ctypes.CDLL(os.path.join(os.environ["PMU_TEST_BUILDDIR"], "lib", "libpmu.so"))

    class Info(ctypes.Structure):
        _fields_ = [(n, ctypes.c_char_p) for n in ("name", "expr", "desc", "group", "scale_unit", "threshold",
                                                   "params", "file")]
    ctx = ctypes.c_void_p()
    if lib.pmu_ctx_new(ctypes.byref(ctx), None) != 0:
        return 1
    for name in sys.stdin.read().split():
        mi = Info()
        r = lib.pmu_metric_info(ctx, name.encode(), ctypes.byref(mi))
        print("%s\t%s" % (name, mi.expr.decode() if r == 0 else "!"))
    return 0


def metrics(cpuid, names):
    env = dict(os.environ, PMU_CPUID=cpuid, PMU_PAPI_EVENTS=CSV)
    r = subprocess.run([sys.executable, __file__, "--metrics"], input="\n".join(names), text=True,
                       capture_output=True, env=env, check=True)
    return dict(line.split("\t", 1) for line in r.stdout.splitlines())


def parse_expr(expr, enc):
    """A MetricExpr of names, numbers, + - * / and parentheses as {encoding: coefficient}, each name's
    encoding from @enc(name) (None: not resolved, then None is returned); a product needs a constant side."""
    toks = re.findall(r"(?:[A-Za-z_\\](?:\\.|[A-Za-z0-9_.:@])*)|\d+(?:\.\d+)?|[-+*/()]", expr)
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else None

    def take():
        pos[0] += 1
        return toks[pos[0] - 1]

    def atom():
        t = take()
        if t == "(":
            v = add()
            take()
            return v
        if re.fullmatch(r"\d+(?:\.\d+)?", t):
            return {"1": float(t)}
        e = enc(re.sub(r"\\(.)", r"\1", t))
        if e is None:
            raise LookupError(t)
        return {e: 1}

    def mul():
        v = atom()
        while peek() in ("*", "/"):
            op, w = take(), atom()
            if op == "*" and set(v) == {"1"}:
                v = {k: x * v["1"] for k, x in w.items()}
            elif set(w) == {"1"}:
                v = {k: (x * w["1"] if op == "*" else x / w["1"]) for k, x in v.items()}
            else:
                raise ValueError("not linear: " + expr)
        return v

    def add():
        v = mul()
        while peek() in ("+", "-"):
            op, w = take(), mul()
            for k, x in w.items():
                v[k] = v.get(k, 0) + (x if op == "+" else -x)
        return {k: x for k, x in v.items() if x}
    try:
        return add()
    except LookupError:
        return None


def norm(typ, config, config1):
    if typ == 4:
        config &= MASK
        if config == 0x100:  # Intel's fixed-counter pseudo-encoding of instructions retired
            config = 0xC0
    return (typ, config, config1)


def linear(kind, parts, postfix, encs):
    """The formula as {encoding: coefficient}; None where it is not linear."""
    def add(a, b, s=1):
        out = dict(a)
        for k, v in b.items():
            out[k] = out.get(k, 0) + s * v
        return {k: v for k, v in out.items() if v}
    vec = [{e: 1} for e in encs]
    if kind == "NOT_DERIVED":
        if len(vec) != 1:  # PAPI sums several events of a NOT_DERIVED line too
            kind = "DERIVED_ADD"
        else:
            return vec[0]
    if kind == "DERIVED_ADD":
        acc = {}
        for v in vec:
            acc = add(acc, v)
        return acc
    if kind == "DERIVED_SUB":
        acc = vec[0]
        for v in vec[1:]:
            acc = add(acc, v, -1)
        return acc
    if kind == "DERIVED_POSTFIX":
        st = []
        for tok in [t for t in postfix.split("|") if t]:
            if re.fullmatch(r"N\d+", tok):
                st.append(vec[int(tok[1:])])
            elif re.fullmatch(r"\d+", tok):
                st.append({"1": int(tok)})
            else:
                b, a = st.pop(), st.pop()
                if tok in "+-":
                    st.append(add(a, b, 1 if tok == "+" else -1))
                elif tok == "*" and (set(a) == {"1"} or set(b) == {"1"}):
                    c, v = (a["1"], b) if set(a) == {"1"} else (b["1"], a)
                    st.append({k: c * x for k, x in v.items()})
                else:
                    return None
        return st[0] if len(st) == 1 else None
    return None


def expr_linear(expr, encs):
    """libpmu's formula (standard names joined by + and -, as presets.json writes them)."""
    toks = expr.split()
    acc, sign = {}, 1
    for t in toks:
        if t in "+-":
            sign = 1 if t == "+" else -1
            continue
        k = encs[t]
        acc[k] = acc.get(k, 0) + sign
    return {k: v for k, v in acc.items() if v}


def resolve(cpuid, names, papi_csv=""):
    """pmu resolve --json of each name on CPU @cpuid: {name: info dict or error text}."""
    env = dict(os.environ, PMU_CPUID=cpuid, PMU_PAPI_EVENTS=papi_csv)
    out = {}
    r = subprocess.run([PMU, "resolve", "--json"] + names, capture_output=True, text=True, env=env)
    if r.returncode == 0:
        for n, info in zip(names, json.loads(r.stdout)):
            out[n] = info
        return out
    for n in names:  # one failed: each alone, for its message
        r = subprocess.run([PMU, "resolve", "--json", n], capture_output=True, text=True, env=env)
        out[n] = json.loads(r.stdout)[0] if r.returncode == 0 else r.stderr.strip()
    return out


def enc_of(info):
    return norm(info["type"], int(info["config"], 16), int(info["config1"], 16))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--encode":
        return encode_main(sys.argv[2])
    if len(sys.argv) == 2 and sys.argv[1] == "--metrics":
        return metrics_main()
    if not PMU:
        print("PMU_CLI is not set (run through meson test)")
        return 1
    if not CSV or not os.path.exists(CSV):
        print("SKIP: PAPI's papi_events.csv is not installed (Debian: libpapi7.0; tests/deps.sh)")
        return 77
    try:
        ctypes.CDLL("libpfm.so.4")
    except OSError:
        print("SKIP: libpfm4 (libpfm.so.4) is not installed (Debian: libpfm4)")
        return 77
    failures = []
    # refusals: each names the preset, why, and the fix
    env = dict(os.environ, PMU_CPUID=CPUS["skx"])
    for args, csv, want in ((["PAPI_FMA_INS"], CSV, ["PAPI_FMA_INS", "no standard name", "libpapi7.0"]),
                            (["PAPI_FP_OPS"], "", ["PAPI_FP_OPS", "is not installed", "PMU_PAPI_EVENTS"]),
                            (["PAPI_L1_TCM"], "", ["derived PAPI preset", "pmu stat -M PAPI_L1_TCM"]),
                            (["PAPI_L1_TCM"], CSV, ["derived PAPI preset", "DERIVED_ADD", "pmu stat -M PAPI_L1_TCM"]),
                            (["PAPI_TOT_INX"], CSV, ["unknown event 'PAPI_TOT_INX'"])):
        r = subprocess.run([PMU, "resolve"] + args, capture_output=True, text=True, env=dict(env, PMU_PAPI_EVENTS=csv))
        if r.returncode == 0 or not all(w in r.stderr for w in want):
            failures.append("pmu resolve %s (PMU_PAPI_EVENTS=%r): want an error saying %s, got %r"
                            % (" ".join(args), csv, want, r.stderr.strip()))
    papi = parse_csv(CSV)
    with open(PRESETS, encoding="utf-8") as f:
        mapping = {o["MetricName"]: o["MetricExpr"] for o in json.load(f)}
    std_names = sorted({t for e in mapping.values() for t in e.split() if t not in "+-"})
    totals = {}
    csv_checked, csv_arch, csv_formulas, csv_differ = 0, [], 0, []
    print("PAPI's table: %s; libpmu's mapping: %d presets (%s)" % (CSV, len(mapping), PRESETS))
    for pmu in sorted(papi):
        if pmu not in CPUS:
            if pmu.startswith(OTHER_ARCH):
                print("%s: not compared (libpfm4 here has no %s PMU)" % (pmu, pmu))
            continue
        cpuid, presets = CPUS[pmu], papi[pmu]
        natives = sorted({n for kind, parts, _ in presets.values() for n in parts})
        pfm = pfm_encode(pmu, natives)
        std = resolve(cpuid, std_names)
        own = resolve(cpuid, sorted(set(mapping) & set(presets)))
        single = sorted(n for n in presets if presets[n][0] == "NOT_DERIVED" and len(presets[n][1]) == 1)
        # PAPI's formula where libpmu maps the preset to one standard name: that name, with the csv read
        formula_one = sorted(n for n in presets if n not in single and n in mapping and len(mapping[n].split()) == 1)
        via_csv = resolve(cpuid, single + formula_one, CSV)
        for name in formula_one:
            g, w = via_csv[name], std[mapping[name]]
            if isinstance(w, dict) and (not isinstance(g, dict) or enc_of(g) != enc_of(w)):
                failures.append("%s %s: PAPI's line is a formula and libpmu's mapping %s, but with the csv read "
                                "libpmu gives %s" % (pmu, name, mapping[name], g))
        # libpmu reading PAPI's table itself: each not-derived preset as libpfm4 encodes PAPI's event
        for name in single:
            ev, g = presets[name][1][0], via_csv[name]
            if not isinstance(pfm.get(ev), tuple):
                continue
            if not isinstance(g, dict) and ev in VIA_ARCH and "libpfm4 cannot encode" in g:
                csv_arch.append("%s %s" % (pmu, name))  # libpfm4 has ix86arch where its hardware is
                continue
            csv_checked += 1
            if not isinstance(g, dict) or enc_of(g) != norm(*pfm[ev]):
                failures.append("%s %s: with PMU_PAPI_EVENTS=%s libpmu gives %s, libpfm4 encodes PAPI's %s as %s"
                                % (pmu, name, CSV, g if not isinstance(g, dict) else enc_of(g), ev, norm(*pfm[ev])))
        # libpmu reading PAPI's table itself: each derived preset a metric of PAPI's formula over its events
        derived = sorted(n for n in presets if n not in single)
        formulas = metrics(cpuid, derived)
        encs = resolve(cpuid, sorted({t for n in derived if formulas.get(n, "!") != "!" for t in
                                      re.findall(r"(?:[A-Za-z_\\](?:\\.|[A-Za-z0-9_.:@])*)", formulas[n])}), CSV)
        for name in derived:
            kind, parts, postfix = presets[name]
            if any(not isinstance(pfm.get(p), tuple) for p in parts):
                continue
            theirs = linear(kind, parts, postfix, [norm(*pfm[p]) for p in parts])
            f = formulas.get(name, "!")
            ours = None if f == "!" else parse_expr(f, lambda n: enc_of(encs[re.sub(r"\\(.)", r"\1", n)])
                                                      if isinstance(encs.get(re.sub(r"\\(.)", r"\1", n)), dict) else None)
            if ours is None and f != "!" and any(p in VIA_ARCH for p in parts):
                csv_arch.append("%s %s" % (pmu, name))
                continue
            if ours is None and f != "!" and any(re.sub(r"\\(.)", r"\1", n) in encs and
                                                 not isinstance(encs[re.sub(r"\\(.)", r"\1", n)], dict) and
                                                 "they differ" in encs[re.sub(r"\\(.)", r"\1", n)]
                                                 for n in re.findall(r"(?:[A-Za-z_\\](?:\\.|[A-Za-z0-9_.:@])*)", f)):
                csv_differ.append("%s %s" % (pmu, name))  # libpmu refuses a libpfm4 name its table encodes otherwise
                continue
            csv_formulas += 1
            if ours is None or {k: float(v) for k, v in ours.items()} != {k: float(v) for k, v in theirs.items()}:
                failures.append("%s %s: with PMU_PAPI_EVENTS=%s libpmu's metric is %s, PAPI's %s %s"
                                % (pmu, name, CSV, f, kind, ",".join(([postfix] if postfix else []) + parts)))
        # pmu list: every preset of PAPI's line for this CPU and of the mapping, each saying where it comes from
        r = subprocess.run([PMU, "list", "--json", "PAPI_"], capture_output=True, text=True,
                           env=dict(os.environ, PMU_CPUID=cpuid, PMU_PAPI_EVENTS=CSV))
        listed = {e["name"]: e["long_desc"] for e in json.loads(r.stdout)} if r.returncode == 0 else {}
        for name in sorted(set(presets) | set(mapping)):
            ld = listed.get(name, "")
            if (name in presets and "%s for %s: %s " % (CSV, pmu, presets[name][0]) not in ld) or \
               (name in mapping and "presets.json): " + mapping[name] not in ld):
                failures.append("%s: pmu list PAPI_ does not say where %s comes from: %r" % (pmu, name, ld))
        res = {k: [] for k in ("matched", "different", "generic", "missing", "unknown to libpfm4", "not covered")}
        for name in sorted(presets):
            kind, parts, postfix = presets[name]
            if name not in mapping:
                res["not covered"].append(name)
                continue
            bad = [p for p in parts if not isinstance(pfm.get(p), tuple)]
            if bad:
                res["unknown to libpfm4"].append("%s (%s: %s)" % (name, bad[0], pfm.get(bad[0])))
                continue
            theirs = linear(kind, parts, postfix, [norm(*pfm[p]) for p in parts])
            names = [t for t in mapping[name].split() if t not in "+-"]
            errs = [n for n in names if not isinstance(std[n], dict)]
            if errs:
                msg = std[errs[0]]
                if "unknown event" in msg or "did you mean" in msg.lower():
                    failures.append("%s %s: the mapping names %s, which libpmu does not know: %s"
                                    % (pmu, name, errs[0], msg))
                res["missing"].append("%s (%s)" % (name, errs[0]))
                continue
            ours = expr_linear(mapping[name], {n: enc_of(std[n]) for n in names})
            # the preset itself through libpmu: the standard name's encoding, or a derived preset refused
            got = own.get(name)
            if len(names) == 1 and (not isinstance(got, dict) or enc_of(got) != enc_of(std[names[0]])):
                failures.append("%s %s: pmu resolve gives %s, its standard name %s gives %s"
                                % (pmu, name, got if not isinstance(got, dict) else enc_of(got), names[0],
                                   enc_of(std[names[0]])))
            if len(names) > 1 and (isinstance(got, dict) or "pmu stat -M" not in got):
                failures.append("%s %s: a derived preset must be refused as one event, naming -M: %s"
                                % (pmu, name, got))
            if theirs == ours:
                res["matched"].append(name)
                continue
            show = lambda d: " + ".join("%s*(type %d, %#x, %#x)" % ((v,) + k) if v != 1 else "(type %d, %#x, %#x)" % k
                                        for k, v in sorted(d.items(), key=str)) if d else str(d)
            line = "%s: PAPI %s %s = %s; libpmu %s = %s" % (name, kind, ",".join(parts), show(theirs),
                                                         mapping[name], show(ours))
            if any(std[n]["source"] == "generic" for n in names):
                res["generic"].append(line)
            elif (pmu, name) in KNOWN or ("*", name) in KNOWN:
                res["different"].append(line + " [known: %s]" % KNOWN.get((pmu, name), KNOWN.get(("*", name))))
            else:
                res["different"].append(line + " [NOT EXPLAINED]")
                failures.append("%s %s differs: %s" % (pmu, name, line))
        print("\n%s (PMU_CPUID=%s): %d presets in PAPI's table; %s" % (
            pmu, cpuid, len(presets), ", ".join("%s %d" % (k, len(v)) for k, v in res.items())))
        for k, v in res.items():
            totals[k] = totals.get(k, 0) + len(v)
            if k == "matched" or not v:
                continue
            print("  %s:" % k)
            for x in v:
                print("    " + x)
    print("\ntotal: " + ", ".join("%s %d" % kv for kv in totals.items()))
    print("libpmu reading PAPI's table itself (PMU_PAPI_EVENTS): %d not-derived presets, each encoded as libpfm4 "
          "encodes PAPI's event" % csv_checked)
    print("  and %d derived presets, each a metric of PAPI's formula over the events libpfm4 encodes as PAPI's"
          % csv_formulas)
    if csv_differ:
        print("  refused, as libpmu refuses a libpfm4 name whose encoding its CPU table gives otherwise (the error names "
              "the table's event): %d: %s" % (len(csv_differ), ", ".join(csv_differ)))
    if csv_arch:
        print("  not compared: %d whose event libpfm4 has in ix86arch, which it sets up only on Intel hardware "
              "(libpmu says so): %s" % (len(csv_arch), ", ".join(csv_arch)))
    if not csv_checked or not csv_formulas:
        failures.append("no preset was resolved, or no derived one evaluated, through PAPI's table")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
