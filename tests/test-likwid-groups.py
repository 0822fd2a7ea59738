#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""LIKWID's performance groups against libpmu (issue 44), read in place from Debian's likwid package
(/usr/share/likwid/perfgroups, or $PMU_LIKWID_GROUPS): never copied into this repository.

For every LIKWID arch directory whose CPU libpmu has tables for (events/mapfile.csv matched here by this
test against a CPU id of that arch), every group file is opened by libpmu (tests/test-likwid-eval.c, with
PMU_CPUID set to that CPU):
  - the arch libpmu picks for the CPU is the directory's;
  - every EVENTSET line maps to a libpmu event, or is listed in tests/test-likwid-unmapped.txt with its
    reason (an unmapped event not listed fails; a listed one that maps now fails too: the list is stale);
  - every METRIC whose events all map: libpmu's value (its translation evaluated by pmu_metric_eval()) equals
    LIKWID's formula evaluated by this test's own parser over the same made-up counts, to 1e-9 relative.
    RAPL counts are given raw (the driver's 2^-32 J units): LIKWID's PWR counters are joules, so this
    test's side multiplies by 2^-32; 'time' is the seconds given as duration_time; 'inverseClock' is 1 / the
    TSC frequency given as #system_tsc_freq.
And lib/likwid-map.c's aliases[] (LIKWID's own names with LIKWID's encoding of each), for every arch of
each row: a SAME row's event, resolved by libpmu ($PMU_CLI resolve --json, PMU_CPUID of the arch), is
LIKWID's recorded encoding bit for bit (the x86 PERFEVTSEL layout: event, umask, edge, any, inv, cmask;
AMD's event bits 8-11 at 32-35), and no other event of the arch's perf table has that encoding; a NONE
or ELSEWHERE row's encoding is no event's of the arch's table, and an ELSEWHERE row's event has it in
the table of the arch it names.
Prints a table per arch: groups, groups fully mapped, events not mapped (and why), metrics compared;
doc/migration-likwid.md's coverage table and totals must be these figures.
  test-likwid-groups.py TEST-LIKWID-EVAL SRCDIR [--write-unmapped]
"""
import json, math, os, random, re, subprocess, sys

EVAL, SRC = sys.argv[1], sys.argv[2]
WRITE = "--write-unmapped" in sys.argv
ROOT = os.environ.get("PMU_LIKWID_GROUPS") or "/usr/share/likwid/perfgroups"
UNMAPPED = os.path.join(SRC, "tests", "test-likwid-unmapped.txt")

# a CPU of each LIKWID arch (LIKWID's topology table: family 6 models, AMD families, arm64 MIDRs)
CPUS = {
    "nehalem": "GenuineIntel-6-1A-5", "nehalemEX": "GenuineIntel-6-2E-6", "westmere": "GenuineIntel-6-2C-2",
    "westmereEX": "GenuineIntel-6-2F-2", "sandybridge": "GenuineIntel-6-2A-7", "sandybridgeEP": "GenuineIntel-6-2D-7",
    "ivybridge": "GenuineIntel-6-3A-9", "ivybridgeEP": "GenuineIntel-6-3E-4", "haswell": "GenuineIntel-6-3C-3",
    "haswellEP": "GenuineIntel-6-3F-2", "broadwell": "GenuineIntel-6-3D-4", "broadwellD": "GenuineIntel-6-56-3",
    "broadwellEP": "GenuineIntel-6-4F-1", "skylake": "GenuineIntel-6-5E-3", "skylakeX": "GenuineIntel-6-55-4",
    "CLX": "GenuineIntel-6-55-7", "ICX": "GenuineIntel-6-6A-6", "ICL": "GenuineIntel-6-7E-5",
    "TGL": "GenuineIntel-6-8C-1", "RKL": "GenuineIntel-6-A7-1", "knl": "GenuineIntel-6-57-1",
    "silvermont": "GenuineIntel-6-4D-8", "goldmont": "GenuineIntel-6-5C-9",
    "zen": "AuthenticAMD-23-1-1", "zen2": "AuthenticAMD-23-31-0", "zen3": "AuthenticAMD-25-1-1",
    "arm8_n1": "0x00000000413fd0c1", "arm8": "0x00000000410fd083", "arm64fx": "0x00000000461f0010",
    "arm8_tx2": "0x00000000431f0af1",
}


def mapfile_dirs(cpuid):
    """The table directories events/mapfile.csv gives @cpuid (perf's matching: the row's pattern matches the
    id whole, or its Vendor-Family-Model prefix), [] if none. Tables x86/intel/* are perf's own."""
    out = []
    for line in open(os.path.join(SRC, "events", "mapfile.csv")):
        if line.startswith("#") or line.startswith("CPUID"):
            continue
        pat, _, dirs, typ = line.rstrip("\n").split(",")[:4]
        if typ != "core":
            continue
        keys = [cpuid, "-".join(cpuid.split("-")[:3])] if not cpuid.startswith("0x") else [cpuid]
        if cpuid.startswith("0x"):  # arm64: the MIDR without variant and revision
            v = int(cpuid, 16) & ~0xf00000 & ~0xf
            keys = ["0x%016x" % v]
        pat = pat.replace("[[:xdigit:]]", "[0-9A-Fa-f]")
        try:
            if any(re.fullmatch(pat, k, re.I) for k in keys):
                out.append(dirs)
        except re.error:
            pass
    return out


# ---- LIKWID's formula language, parsed here: numbers, names, + - * / and parentheses ----
TOK = re.compile(r"\s*(?:(\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*(?::[A-Za-z][A-Za-z0-9_=]*)*)|(.))")


def likwid_eval(formula, env):
    toks = []
    for m in TOK.finditer(formula):
        if m.group(1):
            toks.append(("num", float(m.group(1))))
        elif m.group(2):
            toks.append(("name", m.group(2)))
        elif m.group(3) and not m.group(3).isspace():
            toks.append(("op", m.group(3)))
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else ("end", None)

    def take():
        t = peek()
        pos[0] += 1
        return t

    def div(a, b):
        if b == 0:
            return math.nan
        return a / b

    def primary():
        k, v = take()
        if k == "num":
            return v
        if k == "name":
            if v not in env:
                raise KeyError(v)
            return env[v]
        if (k, v) == ("op", "("):
            x = expr()
            if take() != ("op", ")"):
                raise SyntaxError("')' expected in " + formula)
            return x
        if (k, v) == ("op", "-"):
            return -primary()
        if (k, v) == ("op", "+"):
            return primary()
        raise SyntaxError("unexpected %r in %s" % (v, formula))

    def term():
        x = primary()
        while peek() in (("op", "*"), ("op", "/")):
            op = take()[1]
            y = primary()
            x = x * y if op == "*" else div(x, y)
        return x

    def expr():
        x = term()
        while peek() in (("op", "+"), ("op", "-")):
            op = take()[1]
            y = term()
            x = x + y if op == "+" else x - y
        return x

    v = expr()
    if peek()[0] != "end":
        raise SyntaxError("trailing %r in %s" % (peek()[1], formula))
    return v


# ---- lib/likwid-map.c's aliases[]: each row checked against libpmu's encoding and the perf tables ----
def alias_rows():
    """aliases[] of lib/likwid-map.c as dicts: archs (LIKWID arch names), likwid, perf, how, code, umask,
    cmask, flags (INV, EDGE, ANY), where."""
    text = open(os.path.join(SRC, "lib", "likwid-map.c")).read()
    start = text.index("} aliases[] = {")
    body = text[start + len("} aliases[] = {"):text.index("\n};", start)]
    rows = []
    for m in re.finditer(r"\{([^{}]*)\}", body):
        f = [x.strip() for x in m.group(1).split(",")]
        if len(f) != 9:
            raise SyntaxError("aliases[] row of %d fields, not 9: %s" % (len(f), m.group(0)))
        rows.append(dict(archs=re.findall(r"A\((\w+)\)", f[0]), likwid=f[1].strip('"'), perf=f[2].strip('"'),
                         how=f[3], code=int(f[4], 0), umask=int(f[5], 0), cmask=int(f[6], 0),
                         flags=set(f[7].split("|")) - {"0"}, where=f[8][2:] if f[8] != "L_NONE" else None))
    if not rows:
        raise SyntaxError("no rows in lib/likwid-map.c's aliases[]")
    return rows


def table_encodings(cpuid):
    """(event, umask, cmask, inv, edge, any) -> names of the core events of @cpuid's perf table (the first
    row of events/mapfile.csv that matches, as perf takes it), events with an extra MSR left out."""
    out = {}
    dirs = mapfile_dirs(cpuid)
    for d in dirs[0].split("+") if dirs else []:
        folder = os.path.join(SRC, "events", d)
        for f in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            if not f.endswith(".json"):
                continue
            for e in json.load(open(os.path.join(folder, f))):
                if not isinstance(e, dict) or "EventName" not in e or "EventCode" not in e or \
                        "," in str(e["EventCode"]) or e.get("Unit", "cpu") not in ("cpu", "cpu_core", "cpu_atom"):
                    continue
                n = lambda k: int(str(e.get(k) or 0), 0)
                if any(str(e.get(k) or "0").strip() not in ("0", "0x0", "0x00") for k in ("MSRIndex", "MSRValue")):
                    continue
                key = (n("EventCode"), n("UMask"), n("CounterMask"), n("Invert"), n("EdgeDetect"), n("AnyThread"))
                out.setdefault(key, set()).add(e["EventName"])
    return out


def check_aliases(fails):
    """Each row of aliases[] for each of its archs; the number of (arch, row) checks."""
    cli = os.environ.get("PMU_CLI")
    if not cli:
        fails.append("PMU_CLI is not set (meson's test environment sets it): the aliases' encodings are not checked")
        return 0
    tables = {}
    checked = 0
    for r in alias_rows():
        key = (r["code"], r["umask"], r["cmask"], int("INV" in r["flags"]), int("EDGE" in r["flags"]),
               int("ANY" in r["flags"]))
        for arch in r["archs"]:
            if arch not in CPUS:
                fails.append("aliases[] %s: arch %s has no CPU in this test's CPUS" % (r["likwid"], arch))
                continue
            if arch not in tables:
                tables[arch] = table_encodings(CPUS[arch])
            have = tables[arch].get(key, set())
            what = "aliases[] %s on %s (LIKWID's encoding %s)" % (r["likwid"], arch, key)
            checked += 1
            if r["how"] == "SAME":
                if have != {r["perf"]}:
                    fails.append("%s: the events of that encoding in %s's perf table are %s, not %s alone" %
                                 (what, CPUS[arch], sorted(have) or "none", r["perf"]))
                p = subprocess.run([cli, "resolve", "--json", r["perf"]], capture_output=True, text=True,
                                   env=dict(os.environ, PMU_CPUID=CPUS[arch]))
                if p.returncode != 0:
                    fails.append("%s: pmu resolve %s with PMU_CPUID=%s: exit %d: %s" %
                                 (what, r["perf"], CPUS[arch], p.returncode, p.stderr.strip()))
                    continue
                ev = json.loads(p.stdout)[0]
                want = ((r["code"] & 0xff) | (r["umask"] << 8) | ("EDGE" in r["flags"]) << 18 |
                        ("ANY" in r["flags"]) << 21 | ("INV" in r["flags"]) << 23 | (r["cmask"] << 24) |
                        (r["code"] >> 8) << 32)
                got = (ev["pmu"], int(ev["config"], 0), int(ev["config1"], 0))
                if got != ("cpu", want, 0):
                    fails.append("%s: libpmu encodes %s as %s config %#x config1 %#x, LIKWID's encoding is cpu "
                                 "config %#x" % (what, r["perf"], got[0], got[1], got[2], want))
            elif r["how"] in ("NONE", "ELSEWHERE"):
                if have:
                    fails.append("%s: row %s, yet %s's perf table has it: %s" % (what, r["how"], CPUS[arch], sorted(have)))
                if r["how"] == "ELSEWHERE":
                    if r["where"] not in tables:
                        tables[r["where"]] = table_encodings(CPUS[r["where"]])
                    if r["perf"] not in tables[r["where"]].get(key, set()):
                        fails.append("%s: row ELSEWHERE names %s of %s, whose perf table has no such event of that "
                                     "encoding" % (what, r["perf"], r["where"]))
            elif r["how"] != "ABSENT":
                fails.append("%s: unknown kind of row %s" % (what, r["how"]))
    return checked


def run(mode, path, cpuid, stdin=None, fixture=None):
    env = dict(os.environ, PMU_CPUID=cpuid, PMU_LIKWID_GROUPS=ROOT,
               PMU_GROUPS_DIR=os.path.join(SRC, "events", "groups"))
    if fixture:  # a written machine: its PMUs, so that the events resolve there
        env.update(PMU_SYSFS_ROOT=os.path.join(SRC, "tests", "fixtures", fixture, "sys"),
                   PMU_PROCFS_ROOT=os.path.join(SRC, "tests", "fixtures", fixture, "proc"))
    p = subprocess.run([EVAL, mode, path], env=env, input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s %s %s: exit %d: %s" % (EVAL, mode, path, p.returncode, p.stderr))
    return [json.loads(l) for l in p.stdout.splitlines() if l.strip()]


def main():
    if not os.path.isdir(ROOT):
        print("SKIP: no LIKWID groups at %s (Debian's likwid package; tests/deps.sh installs it)" % ROOT)
        return 77
    listed = {}
    if os.path.exists(UNMAPPED):
        for line in open(UNMAPPED):
            if line.startswith("#") or not line.strip():
                continue
            arch, ev, why = line.rstrip("\n").split("\t", 2)
            listed[(arch, ev)] = why.strip()
    fails = []
    seen_unmapped = {}
    rng = random.Random(44)
    rows = []
    total_metrics = 0
    for arch in sorted(os.listdir(ROOT)):
        d = os.path.join(ROOT, arch)
        if not os.path.isdir(d):
            continue
        cpuid = CPUS.get(arch)
        dirs = mapfile_dirs(cpuid) if cpuid else []
        if not dirs:
            rows.append((arch, "-", "no libpmu tables for this CPU" if cpuid else "not a CPU libpmu knows"))
            continue
        groups = sorted(f for f in os.listdir(d) if f.endswith(".txt"))
        full, compared, unm = check_groups(arch, [(f, os.path.join(d, f)) for f in groups], cpuid, None, listed,
                                           seen_unmapped, rng, fails)
        total_metrics += compared
        rows.append((arch, "%d/%d" % (full, len(groups)), "%d unmapped, %d metrics compared" % (len(unm), compared)))
    # libpmu's own groups (events/groups/): on a written machine of each CPU they are for, every event maps
    # and resolves, every metric equals its formula
    own = os.path.join(SRC, "events", "groups")
    for fixture, arch in (("arm64-neoverse-n1", "arm64"), ("arm64-neoverse-v1-cmn", "arm64"),
                          ("arm64-biglittle", "arm64"), ("riscv-jh7110", "riscv")):
        cpuid = [l.split("=", 1)[1].strip() for l in open(os.path.join(SRC, "tests", "fixtures", fixture, "EXPECT"))
                 if l.startswith("cpuid=")][0]
        files = [(f, os.path.join(own, sub, f)) for sub in ("standard", arch) if os.path.isdir(os.path.join(own, sub))
                 for f in sorted(os.listdir(os.path.join(own, sub))) if f.endswith(".txt")]
        nf = len(fails)
        full, compared, unm = check_groups("libpmu " + arch, files, cpuid, fixture, {}, {}, rng, fails, own=True)
        total_metrics += compared
        rows.append(("libpmu:" + fixture, "%d/%d" % (full, len(files)), "%d unmapped, %d metrics compared%s" %
                     (len(unm), compared, "" if len(fails) == nf else ", FAILED")))
        if full != len(files):
            fails.append("libpmu's own groups on %s: %d of %d fully mapped" % (fixture, full, len(files)))
    nf = len(fails)
    n = check_aliases(fails)
    rows.append(("aliases[]", "-", "%d (arch, name) rows checked%s" % (n, "" if len(fails) == nf else ", FAILED")))
    return finish(rows, listed, seen_unmapped, fails, total_metrics)


def check_groups(arch, files, cpuid, fixture, listed, seen_unmapped, rng, fails, own=False):
    """Each group file of @files opened for @cpuid: (groups fully mapped, metrics compared, unmapped events)."""
    full = compared = 0
    unm = set()
    for f, path in files:
        out = run("map", path, cpuid, fixture=fixture)
        if "error" in out[0]:
            fails.append("%s/%s: libpmu refused the file: %s" % (arch, f, out[0]["message"]))
            continue
        head, items = out[0], out[1:]
        if not own and head["arch"] != arch:
            fails.append("%s/%s: libpmu chose arch %s for CPU %s, LIKWID %s" % (arch, f, head["arch"], cpuid, arch))
        events = [x for x in items if "counter" in x]
        metrics = [x for x in items if "metric" in x]
        ok = True
        for e in events:
            if e["event"] is None:
                ok = False
                name = e["likwid"]
                unm.add(name)
                seen_unmapped[(arch, name)] = e["why"]
                if not e["why"]:
                    fails.append("%s/%s: %s %s not mapped, with no reason" % (arch, f, e["counter"], name))
                elif own or ((arch, name) not in listed and not WRITE):
                    fails.append("%s/%s: %s %s not mapped and not listed in %s: %s" %
                                 (arch, f, e["counter"], name, os.path.basename(UNMAPPED), e["why"]))
            elif own and e["event"] and e.get("resolve") != "ok":
                ok = False
                fails.append("%s/%s: %s %s maps to %s, which does not resolve on %s: %s" %
                             (arch, f, e["counter"], e["likwid"], e["event"], fixture, e.get("resolve")))
        full += ok
        # made-up counts, one per distinct event; LIKWID's side gets each counter's
        counts = {}
        env = {}
        for e in events:
            if not e["event"]:
                continue
            if e["event"] not in counts:
                counts[e["event"]] = float(rng.randint(1, 10**9))
            c = counts[e["event"]]
            env[e["counter"]] = c * 2.0**-32 if e["counter"].startswith("PWR") else c
        seconds = rng.uniform(0.1, 10.0)
        tsc = float(rng.randint(1000, 4000)) * 1e6
        env["time"] = seconds
        env["inverseClock"] = 1.0 / tsc
        stdin = "".join("%s\t%r\n" % (k, v) for k, v in counts.items())
        stdin += "duration_time\t%r\n#tsc\t%r\n" % (seconds, tsc)
        got = run("eval", path, cpuid, stdin, fixture=fixture)
        if len(got) != len(metrics):
            fails.append("%s/%s: %d metrics evaluated, %d in the file" % (arch, f, len(got), len(metrics)))
            continue
        for m, g in zip(metrics, got):
            if m["expr"] is None:
                # an event of it not mapped (listed above), or a counter the EVENTSET lacks
                try:
                    likwid_eval(m["formula"], env)
                    if all(e["event"] is not None for e in events):
                        fails.append("%s/%s: metric '%s' has no expression, yet this test evaluates it: %s" %
                                     (arch, f, m["metric"], m.get("why")))
                except KeyError:
                    pass
                continue
            try:
                want = likwid_eval(m["formula"], env)
            except KeyError as k:
                fails.append("%s/%s: metric %s names %s, which the test has no count for" % (arch, f, m["metric"], k))
                continue
            if "value" not in g:
                fails.append("%s/%s: metric '%s' = %s: libpmu: %s" % (arch, f, m["metric"], m["expr"], g.get("error")))
                continue
            v = g["value"]
            same = (math.isnan(v) and math.isnan(want)) or (v == want) or \
                (not math.isnan(v) and not math.isnan(want) and abs(v - want) <= 1e-9 * abs(want))
            if not same:
                fails.append("%s/%s: metric '%s': libpmu %r, LIKWID's formula %r (%s vs %s)" %
                             (arch, f, m["metric"], v, want, m["expr"], m["formula"]))
            compared += 1
    return full, compared, unm


def check_doc(rows, total_metrics, fails):
    """doc/migration-likwid.md's Coverage: its table row per arch and its totals are this run's figures."""
    doc = os.path.join(SRC, "doc", "migration-likwid.md")
    text = open(doc).read()
    ours = {r[0]: r for r in rows if r[1] != "-" and not r[0].startswith("libpmu") and "/" in r[1]}
    theirs = {m.group(1): m.groups() for m in
              re.finditer(r"^\| `([^`]+)` \| (\d+/\d+) \| (\d+) \| (\d+) \|$", text, re.M)}
    for arch, (_, groups, rest) in sorted(ours.items()):
        want = (arch, groups) + tuple(re.match(r"(\d+) unmapped, (\d+) metrics", rest).groups())
        if theirs.get(arch) != want:
            fails.append("%s: the Coverage table's row of %s is %s, this run's is %s: copy the table this test "
                         "prints" % ("doc/migration-likwid.md", arch, theirs.get(arch) and "| %s |" % " | ".join(theirs[arch]),
                                     "| %s |" % " | ".join(want)))
    for arch in set(theirs) - set(ours):
        fails.append("%s: the Coverage table has a row of %s, which this run has no groups of" %
                     ("doc/migration-likwid.md", arch))
    full = sum(int(r[1].split("/")[0]) for r in ours.values())
    groups = sum(int(r[1].split("/")[1]) for r in ours.values())
    unmapped = sum(int(r[2].split()[0]) for r in ours.values())
    for what, pat, n in (("groups fully mapped", r"(\d+) of the \d+ groups map every event", full),
                         ("groups", r"\d+ of the (\d+) groups map every event", groups),
                         ("metrics compared", r"\((\d+) metrics, libpmu's own groups included\)", total_metrics),
                         ("pairs not mapped", r"(\d+) \(arch, event\) pairs", unmapped)):
        m = re.search(pat, text.replace("\n", " "))
        if not m or int(m.group(1)) != n:
            fails.append("%s: its Coverage says %s %s, this run counts %d: write this run's figure" %
                         ("doc/migration-likwid.md", m.group(1) if m else "no figure of", what, n))


def finish(rows, listed, seen_unmapped, fails, total_metrics):
    for key, why in listed.items():
        if key not in seen_unmapped and key[0] in [r[0] for r in rows if r[1] != "-"]:
            fails.append("%s %s is listed as not mapped but maps now: remove it from %s" %
                         (key[0], key[1], os.path.basename(UNMAPPED)))
    if WRITE:
        with open(UNMAPPED, "w") as o:
            o.write("# LIKWID events libpmu does not map, per arch, with the reason libpmu gives (tests/test-likwid-groups.py;\n"
                    "# regenerate with --write-unmapped after a change to lib/likwid-map.c, and read the diff)\n")
            for (arch, ev), why in sorted(seen_unmapped.items()):
                o.write("%s\t%s\t%s\n" % (arch, ev, why))
    print("%-14s %-14s %s" % ("arch", "groups mapped", "events and metrics"))
    for r in rows:
        print("%-14s %-14s %s" % r)
    print("metrics compared: %d" % total_metrics)
    if total_metrics == 0:
        fails.append("no metric was compared")
    if not os.environ.get("PMU_LIKWID_GROUPS"):  # the doc's figures are Debian's likwid's
        check_doc(rows, total_metrics, fails)
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


sys.exit(main())
