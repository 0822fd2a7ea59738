#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The perf-tree corpus test: libpmu against perf's own tables and code.

perf's pmu-events tree (Debian's linux-source-6.12, tools/perf/pmu-events/)
is extracted into the build directory once and read in place; nothing of it
is copied into this repository. For every CPU directory of perf's x86, arm64
and riscv trees that has core PMU events:

* Events. libpmu resolves each core PMU event of the directory
  (PMU_EVENTS_PATH=<arch root>, PMU_CPUID=<an id of the directory's mapfile
  line>, PMU_SYSFS_ROOT=<a fixture machine of that architecture>). The
  oracle: perf's jevents.py, imported from the extracted tree, turns the
  JSON entry into perf's event string (JsonEvent(...).event, e.g.
  "event=0xd1,umask=0x1,period=100003"); the fixture's sysfs format/ files
  (the kernel's word on where each term goes) turn the terms into config
  bits, with the small format parser below. type, config, config1 and
  config2 must be equal.
* Metrics. libpmu evaluates each metric as pmu stat does: the events
  pmu_metric_events() lists get counts, pmu_metric_eval() computes. The
  counts are made up: a seeded hash of the event's name, so both sides get
  the same count for the same event; #constants get the same values on both
  sides (pmu_ctx_set_param). The oracle: perf's metric.py parses the
  expression (what jevents.py ships: JsonEvent's ParsePerfJson + Simplify),
  and the evaluator below walks that tree with perf's evaluation rules
  (tools/perf/util/expr.y: division by zero is NaN, d_ratio(x, 0) is 0, 'if'
  takes the else branch only for 0, '|' and '&' as there), resolving metric
  references among the metrics of the metric's own PMU as perf's
  metricgroup.c does. perf's has_event(X) and source_count(X) ask the
  machine: the oracle answers from the fixture as it reads it itself (its
  sysfs PMU directories and core events/, perf's event list of the
  directory), libpmu from its context on the same fixture; the Intel
  fixture has TSX events and four CHA boxes, the hybrid one neither.
  Equal within 1e-9 (relative), NaN equal to NaN.
* Hybrid directories (events with "Unit": "cpu_core"/"cpu_atom", on the Alder
  Lake fixture): each PMU's definitions as PMU/NAME/; then every name perf
  defines for both PMUs, written bare: an event must be refused by
  pmu_event_resolve naming both spellings (one encoding cannot count it) and
  counted as perf counts it, on each PMU that defines it with that PMU's own
  event (pmu_event_resolve_each: its parts equal the PMU/NAME/ encodings,
  each compared with perf's above); a metric given one PMU's counts must
  equal that PMU's formula.

* libpfm4 (x86). pmu_tables_check compares the encodings of each directory
  of perf's x86 tree that libpfm4 knows with libpfm4's for the same name.
  Every directory it compares must compare some, and the differences must
  be those tests/perf-corpus-libpfm4.txt lists, with the same two encodings.
  That file also gives Intel's perfmon encoding of each, a third source:
  with the entry's own fields in perf's file (read here) it sorts each
  difference into a kind (libpfm4 differs from Intel's and perf's file;
  perf's jevents encodes the name by its fixed-counter rule).

Each event is "same encoding", "DIFFERENT encoding", "not resolved by
libpmu (reason)" or "skipped (why)"; each metric "equal", "DIFFERENT",
"libpmu cannot evaluate (reason)" or "oracle cannot evaluate (why)". One line
per directory (a hybrid directory once per core PMU), then a total and what
issues 12 and 14 require ("Required:"): every core event with perf's
encoding; on every core-PMU directory at least 99 % of perf's metrics equal
perf's value, none different; loading perf's unmodified directories without
a warning and pmu_tables_check of each unmodified tree without a problem
(notes apart); the metrics' PMU@EVENT,TERMS@ names as perf builds them; the
CPU directories of arm64/riscv named alone; has_event()/source_count()/
strcmp_cpuid_str() metrics equal. Any DIFFERENT fails the test, and so does
a bare hybrid name resolved to one PMU or a Required line not met; gaps are
listed with their reasons and do not.

Usage: perf-corpus.py [--verbose] [--only ARCH/DIR,...]   (run by meson test;
PMU_TEST_SRCDIR, PMU_TEST_BUILDDIR, PMU_LIBRARY, PYTHONPATH=bindings/python)
"""
import argparse
import errno
import hashlib
import itertools
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict

TARBALL = "/usr/src/linux-source-6.12.tar.xz"
TOP = "linux-source-6.12"
PE = TOP + "/tools/perf/pmu-events"
SEED = "libpmu-perf-corpus-1"
REL = 1e-9

# ---------------------------------------------------------------------------
# setup
# ---------------------------------------------------------------------------


def fail_setup(msg):
    print("perf-corpus: FAIL (setup): " + msg)
    sys.exit(1)


def start(drop_events_path=True):
    """What each of the perf-tree tests starts with: PMU_TEST_SRCDIR and PMU_TEST_BUILDDIR (meson test sets
    them), the Python binding, perf's tree extracted once into the build directory and on sys.path (its
    jevents.py and metric.py are the oracle); PMU_EVENTS_PATH dropped from the environment unless
    @drop_events_path is false. (src, build, the pmu module, the extracted pmu-events directory), or a
    setup failure."""
    src = os.environ.get("PMU_TEST_SRCDIR")
    build = os.environ.get("PMU_TEST_BUILDDIR")
    if not src or not build:
        fail_setup("PMU_TEST_SRCDIR / PMU_TEST_BUILDDIR are not set: run it through meson test")
    if drop_events_path:
        os.environ.pop("PMU_EVENTS_PATH", None)
    try:
        import pmu
    except ImportError as x:
        fail_setup("cannot import the Python binding: %s" % x)
    root = extract(build)
    if root not in sys.path:
        sys.path.insert(0, root)
    return src, build, pmu, root


def extract(builddir):
    """perf's pmu-events tree under <build>/perf-corpus, extracted once."""
    cache = os.path.join(builddir, "perf-corpus")
    root = os.path.join(cache, PE)
    done = os.path.join(cache, ".extracted")
    if os.path.exists(done) and os.path.isdir(os.path.join(root, "arch")):
        return root
    if not os.path.exists(TARBALL):
        fail_setup("%s is missing: install Debian's linux-source-6.12 package "
                   "(tests/deps.sh lists it in PMU_TEST_DEPS)" % TARBALL)
    tmp = cache + ".tmp%d" % os.getpid()
    os.makedirs(tmp, exist_ok=True)
    t = time.time()
    r = subprocess.run(["tar", "xJf", TARBALL, "-C", tmp, "--wildcards", PE + "/*"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        fail_setup("tar xJf %s failed: %s" % (TARBALL, r.stdout.strip()))
    os.makedirs(cache, exist_ok=True)
    if os.path.isdir(os.path.join(cache, TOP)):
        subprocess.run(["rm", "-rf", os.path.join(cache, TOP)], check=True)
    os.rename(os.path.join(tmp, TOP), os.path.join(cache, TOP))
    os.rmdir(tmp)
    open(done, "w").close()
    print("perf-corpus: extracted %s from %s in %.0f s" % (PE, TARBALL, time.time() - t))
    return root


# ---------------------------------------------------------------------------
# CPU ids from mapfile patterns
# ---------------------------------------------------------------------------

POSIX_CLASSES = {"[:xdigit:]": "0123456789abcdef", "[:digit:]": "0123456789"}


def posix_to_python(pat):
    for k, v in POSIX_CLASSES.items():
        pat = pat.replace(k, "0-9a-fA-F" if k == "[:xdigit:]" else "0-9")
    return pat


def _parse_alt(p, i):
    """Regex (the subset mapfiles use) -> list of alternatives, each a list of
    (choices-generator) items. Returns (node, next index)."""
    alts, seq = [], []
    while i < len(p) and p[i] not in "|)":
        c = p[i]
        if c == "(":
            node, i = _parse_alt(p, i + 1)
            if i >= len(p) or p[i] != ")":
                raise ValueError("unbalanced '(' in " + p)
            i += 1
            item = node
        elif c == "[":
            j = i + 1
            chars = ""
            while p[j] != "]" or j == i + 1:
                if p.startswith("[:", j):
                    k = p.index(":]", j) + 2
                    chars += POSIX_CLASSES[p[j:k]]
                    j = k
                elif j + 2 < len(p) and p[j + 1] == "-" and p[j + 2] != "]":
                    chars += "".join(chr(x) for x in range(ord(p[j]), ord(p[j + 2]) + 1))
                    j += 3
                else:
                    chars += p[j]
                    j += 1
            i = j + 1
            item = ("set", chars)
        elif c == "\\":
            item = ("set", p[i + 1])
            i += 2
        elif c == ".":
            item = ("set", "0")
            i += 1
        else:
            item = ("set", c)
            i += 1
        if i < len(p) and p[i] in "+*?":
            item = ("rep", item, {"+": (1, 2), "*": (0, 1), "?": (0, 1)}[p[i]])
            i += 1
        seq.append(item)
    alts.append(seq)
    if i < len(p) and p[i] == "|":
        more, i = _parse_alt(p, i + 1)
        alts.extend(more[1])
    return ("alt", alts), i


def _strings(node):
    kind = node[0]
    if kind == "set":
        yield from node[1]
    elif kind == "rep":
        lo, hi = node[2]
        for n in range(lo, hi + 1):
            yield from ("".join(t) for t in itertools.product(*[list(_strings(node[1]))] * n))
    else:
        for seq in node[1]:
            yield from ("".join(t) for t in itertools.product(*[list(_strings(x)) for x in seq]))


def example_ids(pattern, limit=5000):
    node, i = _parse_alt(pattern, 0)
    if i != len(pattern):
        raise ValueError("cannot read pattern " + pattern)
    return itertools.islice(_strings(node), limit)


def read_mapfile(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            cols = line.split(",")
            if len(cols) < 4 or cols[1] == "Version":
                continue
            rows.append((cols[0], cols[2], cols[3]))
    return rows


def canonical_id(cand):
    """x86 ids as the kernel's cpuid gives them and perf prints them
    (Vendor-%u-%X[-%X]: no leading zeros); others unchanged."""
    m = re.fullmatch(r"([A-Za-z]+)-(\d+)-([0-9A-Fa-f]+)(?:-([0-9A-Fa-f]+))?", cand)
    if not m:
        return cand
    out = "%s-%d-%X" % (m.group(1), int(m.group(2)), int(m.group(3), 16))
    return out + ("-%X" % int(m.group(4), 16) if m.group(4) else "")


def cpu_id_for(rows, index):
    """An id that the mapfile line @index matches before any earlier line."""
    pat = rows[index][0]
    for cand in map(canonical_id, example_ids(pat)):
        first = next((k for k, r in enumerate(rows)
                      if re.fullmatch(posix_to_python(r[0]), cand, re.I)), None)
        if first == index:
            return cand
    return None


# ---------------------------------------------------------------------------
# the kernel's format files: perf's terms -> config bits
# ---------------------------------------------------------------------------

class CannotEncode(Exception):
    pass


def read_pmu(sysfs, name):
    d = os.path.join(sysfs, "bus/event_source/devices", name)
    with open(os.path.join(d, "type")) as f:
        typ = int(f.read())
    formats = {}
    fd = os.path.join(d, "format")
    for fn in os.listdir(fd):
        with open(os.path.join(fd, fn)) as f:
            spec = f.read().strip()
        field, _, ranges = spec.partition(":")
        if field not in ("config", "config1", "config2"):
            raise ValueError("%s/%s: '%s'" % (fd, fn, spec))
        bits = []
        for r in ranges.split(","):
            lo, _, hi = r.partition("-")
            bits.extend(range(int(lo), int(hi or lo) + 1))
        formats[fn] = (field, sorted(bits))
    return {"name": name, "type": typ, "formats": formats}


def perf_terms_to_attr(event, pmu):
    """perf's event string -> (type, config, config1, config2), each term's
    value spread over the format's bits lowest first (perf's pmu_format_value)."""
    cfg = {"config": 0, "config1": 0, "config2": 0}
    for term in event.split(","):
        key, eq, val = term.partition("=")
        if not eq:
            raise CannotEncode("term '%s' without a value" % term)
        try:
            v = int(val, 0)
        except ValueError:
            raise CannotEncode("perf's own event string has '%s', which perf cannot parse either" % term)
        if key == "period":
            continue                     # sampling period: not part of the encoding
        if key in cfg:
            cfg[key] = v
            continue
        if key not in pmu["formats"]:
            raise CannotEncode("the fixture's %s/format has no '%s'" % (pmu["name"], key))
        field, bits = pmu["formats"][key]
        if v >> len(bits):
            raise CannotEncode("%s=%#x does not fit %s's %d-bit format" % (key, v, pmu["name"], len(bits)))
        for k, b in enumerate(bits):
            if v >> k & 1:
                cfg[field] |= 1 << b
    return (pmu["type"], cfg["config"], cfg["config1"], cfg["config2"])


# ---------------------------------------------------------------------------
# perf's metric trees, evaluated with perf's rules (tools/perf/util/expr.y)
# ---------------------------------------------------------------------------

class OracleCannot(Exception):
    pass


def canon(name):
    """One spelling per event for both sides: no escapes, '@' for perf's
    PMU separator ('cpu_core@X@' and 'cpu_core/X/' are the same event),
    lower case (names are case-insensitive on both sides)."""
    n = name.replace("\\", "")
    m = re.fullmatch(r"([^@/]+)[@/](.+)[@/](.*)", n)
    if m:
        n = "%s@%s@%s" % m.groups()
    return n.lower()


def count_for(name):
    """The made-up count of an event: a seeded hash of its name, 1 .. 2^32."""
    h = hashlib.sha256((SEED + canon(name)).encode()).digest()
    return float(int.from_bytes(h[:4], "little") + 1)


CONSTANTS = {"smt_on": 1.0, "num_cores": 8.0, "num_packages": 1.0, "num_dies": 1.0,
             "num_cpus": 16.0, "num_cpus_online": 16.0, "system_tsc_freq": 2.5e9,
             "slots": 6.0, "core_wide": 0.0, "has_pmem": 1.0}


def constant_for(name):
    """#constants: the same value on both sides (libpmu's set with
    pmu_ctx_set_param). perf reads #SMT_on and #system_tsc_freq in any case."""
    name = name.lower()
    if name in CONSTANTS:
        return CONSTANTS[name]
    h = hashlib.sha256((SEED + "#" + name).encode()).digest()
    return float(int.from_bytes(h[:2], "little") + 1)


class Machine:
    """What the fixture machine has, as the oracle reads it itself: the PMU
    directories of its sysfs and their events/ (perf looks a bare name up
    among them), and perf's own event list of the CPU directory (jevents'
    entries, each with the PMU perf's unit_to_pmu gives it). perf's
    has_event(X) is 1 when X parses as an event there; source_count(X) is the
    number of PMUs X is counted on: an uncore event on each instance of its
    PMU (uncore_cha_0, uncore_cha_1, ...), another event on one."""
    answers = Counter()                             # what the oracle was told, over the whole run

    def __init__(self, sysfs, core_pmus, entries, arch=None, cpuid=None):
        self.arch, self.cpuid = arch, cpuid
        root = os.path.join(sysfs, "bus/event_source/devices")
        self.devs = sorted(os.listdir(root))
        self.core = list(core_pmus)
        self.sysfs_events = {}
        for d in self.devs:
            ed = os.path.join(root, d, "events")
            self.sysfs_events[d] = set(n.lower() for n in os.listdir(ed)) if os.path.isdir(ed) else set()
        self.table = defaultdict(set)                   # lower name -> perf PMUs defining it
        for e in entries:
            if e.name:
                self.table[e.name.lower()].add(e.pmu)

    def instances(self, pmu):
        if pmu in ("default_core",) + CORE_UNITS:
            return 1 if (pmu in self.core or pmu == "default_core") and self.core else 0
        return sum(1 for d in self.devs if d == pmu or re.fullmatch(re.escape(pmu) + r"_[0-9]+", d))

    def cpuid_is(self, test):
        """perf's strcmp_cpuid_str(test) on arm64 (tools/perf/arch/arm64/util/header.c):
        the same MIDR but for variant (bits 20-23) and revision (0-3), and the
        CPU's variant.revision at least test's."""
        if self.arch != "arm64":
            raise OracleCannot("strcmp_cpuid_str() on %s" % self.arch)
        want, have = int(test, 16), int(self.cpuid, 16)
        other = 0xffffffff & ~0xf0000f
        if want & other != have & other:
            return 0
        return 1 if ((have >> 20) & 0xf, have & 0xf) >= ((want >> 20) & 0xf, want & 0xf) else 0

    def sources(self, metric_pmu, name):
        n = name.replace("\\", "").lower()
        if "@" in n or "/" in n:
            raise OracleCannot("has_event()/source_count() of a PMU-qualified name")
        if n in self.table:
            pmus = self.table[n]
            pmu = metric_pmu if metric_pmu in pmus else sorted(pmus)[0]
            return self.instances(pmu)
        if any(n in self.sysfs_events[c] for c in self.core):
            return 1
        return 0


class Oracle:
    """Evaluates perf's parsed metrics of one directory (metric.py trees)."""

    def __init__(self, metric_mod, metrics, counts=count_for, machine=None):
        self.m = metric_mod
        self.metrics = metrics            # (pmu, lower name) -> (name, tree)
        self.memo = {}
        self.counts = counts
        self.machine = machine            # has_event(), source_count(): a Machine

    def names(self, pmu, tree, seen=None):
        """(events, #constants) the metric uses, metric references followed."""
        seen = seen if seen is not None else set()
        ev, lit = set(), set()
        stack = [tree]
        while stack:
            e = stack.pop()
            if isinstance(e, self.m.Event):
                key = (pmu, e.name.replace("\\", "").lower())
                if key in self.metrics:
                    if key not in seen:
                        seen.add(key)
                        a, b = self.names(pmu, self.metrics[key][1], seen)
                        ev |= a
                        lit |= b
                else:
                    ev.add(e.name.replace("\\", ""))
            elif isinstance(e, self.m.Literal):
                lit.add(e.value.lstrip("#"))
            elif isinstance(e, self.m.Constant):
                pass
            else:
                for a in ("lhs", "rhs", "true_val", "cond", "false_val"):
                    x = getattr(e, a, None)
                    if x is not None:
                        stack.append(x)
        return ev, lit

    def value(self, pmu, name, depth=0):
        key = (pmu, name.lower())
        if key not in self.memo:
            if depth > 64:
                raise OracleCannot("metric references nest deeper than 64")
            self.memo[key] = self.eval(pmu, self.metrics[key][1], depth + 1)
        return self.memo[key]

    def eval(self, pmu, e, depth=0):
        m = self.m
        if isinstance(e, m.Constant):
            return float(e.value)
        if isinstance(e, m.Literal):
            return constant_for(e.value.lstrip("#"))
        if isinstance(e, m.Event):
            n = e.name.replace("\\", "")
            if re.fullmatch(r"0x[0-9a-fA-F]+", n):
                return float(int(n, 16))
            if (pmu, n.lower()) in self.metrics:
                return self.value(pmu, n, depth)
            return self.counts(n)
        if isinstance(e, m.Select):
            c = self.eval(pmu, e.cond, depth)
            return self.eval(pmu, e.false_val, depth) if c == 0 else self.eval(pmu, e.true_val, depth)
        if isinstance(e, m.Function) and e.fn == "strcmp_cpuid_str" and self.machine:
            v = self.machine.cpuid_is(e.lhs.name if isinstance(e.lhs, m.Event) else str(e.lhs.value))
            Machine.answers["strcmp_cpuid_str()=%d" % v] += 1
            return float(v)
        if isinstance(e, m.Function) and e.fn in ("has_event", "source_count") and self.machine:
            if not isinstance(e.lhs, m.Event):
                raise OracleCannot("%s() of %s" % (e.fn, type(e.lhs).__name__))
            n = self.machine.sources(pmu, e.lhs.name)
            Machine.answers["%s()=%d" % (e.fn, n if e.fn == "source_count" else n > 0)] += 1
            if e.fn == "has_event":
                return 1.0 if n else 0.0
            if not n:
                raise OracleCannot("source_count() of an event the machine does not have (perf drops the metric)")
            return float(n)
        if isinstance(e, m.Function):
            if e.fn not in ("min", "max", "d_ratio"):
                raise OracleCannot("%s() depends on the machine perf runs on" % e.fn)
            a, b = self.eval(pmu, e.lhs, depth), self.eval(pmu, e.rhs, depth)
            if e.fn == "d_ratio":
                return 0.0 if b == 0 else a / b
            if e.fn == "min":
                return a if a < b else b
            return a if a > b else b
        if isinstance(e, m.Operator):
            a, b = self.eval(pmu, e.lhs, depth), self.eval(pmu, e.rhs, depth)
            op = e.operator
            fin_a, fin_b = math.isfinite(a), math.isfinite(b)
            if op == "|":
                if fin_a and fin_b:
                    return 0.0 if a == 0 and b == 0 else 1.0
                if fin_a:
                    return b if a == 0 else 1.0
                if fin_b:
                    return a if b == 0 else 1.0
                return math.nan
            if op == "&":
                if fin_a and fin_b:
                    return 1.0 if a != 0 and b != 0 else 0.0
                if fin_a:
                    return b if a != 0 else 0.0
                if fin_b:
                    return a if b != 0 else 0.0
                return math.nan
            if op == "^":
                if fin_a and fin_b:
                    return 1.0 if (a == 0) != (b == 0) else 0.0
                return math.nan
            if op == "/":
                return math.nan if b == 0 else a / b
            if op == "%":
                if b == 0:
                    raise OracleCannot("perf stops on a modulo by zero")
                return float(math.fmod(int(a), int(b)))
            if math.isnan(a) or math.isnan(b):
                return math.nan
            if op == "<":
                return 1.0 if a < b else 0.0
            if op == ">":
                return 1.0 if a > b else 0.0
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            raise OracleCannot("operator '%s'" % op)
        raise OracleCannot("node %s" % type(e).__name__)


def oracle_selftest(metric_mod):
    """The evaluator against values worked out by hand from expr.y's rules."""
    counts = {"a": 6.0, "b": 0.0, "c": 4.0}
    cases = [("a / c", 1.5), ("a / b", math.nan), ("d_ratio(a, b)", 0.0), ("d_ratio(a, c)", 1.5),
             ("a if b else c", 4.0), ("a if c else b", 6.0), ("(a / b) if c else 1", math.nan),
             ("min(a, c) + max(a, c)", 10.0), ("b | 0", 0.0), ("a | b", 1.0), ("a & b", 0.0), ("a & c", 1.0),
             ("a > c", 1.0), ("a < c", 0.0), ("(a / b) + 1", math.nan), ("#smt_on * a", 6.0),
             ("a - c * 2", -2.0), ("m1 * 2", 3.0)]
    trees = {("p", "m1"): ("m1", metric_mod.ParsePerfJson("a / c").Simplify())}
    bad = []
    for expr, want in cases:
        o = Oracle(metric_mod, trees, counts=lambda n: counts[n])
        got = o.eval("p", metric_mod.ParsePerfJson(expr).Simplify())
        if not same_number(got, want):
            bad.append("%s = %r, by hand %r" % (expr, got, want))
    return bad


def same_number(a, b):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= REL * max(abs(a), abs(b)) or a == b


# ---------------------------------------------------------------------------
# one CPU directory
# ---------------------------------------------------------------------------

CORE_UNITS = ("cpu_core", "cpu_atom")


class Tally:
    def __init__(self):
        self.ev = Counter()
        self.mt = Counter()
        self.reasons = defaultdict(list)     # (what, reason) -> names
        self.diffs = []

    def note(self, kind, what, reason, name):
        self.reasons[(kind, what, reason)].append(name)


def short_reason(msg):
    """Group libpmu's messages by their shape: names and numbers out."""
    s = re.sub(r"'[^']*'", "'…'", msg)
    s = re.sub(r"0x[0-9a-fA-F]+|\b\d+\b", "N", s)
    return s[:160]


class Corpus:
    def __init__(self, root, src, build, pmu_mod, args):
        self.root = root
        self.src = src
        self.build = build
        self.pmu = pmu_mod
        self.args = args
        sys.path.insert(0, root)
        import jevents  # perf's own, in place
        import metric
        self.jevents = jevents
        self.metric = metric
        self.total = Tally()
        self.total.others = 0
        self.bare = {}
        self.lines = []
        self.failures = []
        self.results = {}                     # (dir, pmu) -> {name: (status, detail)}
        self.machine_fns = Counter()          # metrics using has_event()/source_count(), by status
        self.alone_tally = Counter()          # arm64/riscv CPU directories named alone
        self.at_tally = Counter()             # the metrics' PMU@EVENT,TERMS@ names
        self.load_warnings = []               # warnings loading perf's directories
        self.per_dir = []                     # (label, events Counter, metrics Counter) per core PMU
        self.checked = {}                     # arch -> (problems, notes) of check-tables on perf's tree

    # The kernel's TSX events of Intel core PMUs (arch/x86/events/intel/core.c: EVENT_ATTR_STR
    # tx-*/el-*/cycles-t/cycles-ct, no trailing newline) and the format terms they use
    # (PMU_FORMAT_ATTR in_tx config:32, in_tx_cp config:33).
    TSX_EVENTS = {"tx-start": "event=0xc9,umask=0x1", "tx-commit": "event=0xc9,umask=0x2",
                  "tx-abort": "event=0xc9,umask=0x4", "el-start": "event=0xc8,umask=0x1",
                  "el-commit": "event=0xc8,umask=0x2", "el-abort": "event=0xc8,umask=0x4",
                  "cycles-t": "event=0x3c,in_tx=1", "cycles-ct": "event=0x3c,in_tx=1,in_tx_cp=1"}
    CHA_BOXES = 4

    def intel_machine(self, anythread):
        """The Ice Lake-SP fixture with what perf's metrics ask the machine
        about (has_event(), source_count()) or name by PMU: TSX (the kernel's
        tx-/el-/cycles-t events and in_tx/in_tx_cp formats), four CHA boxes
        (uncore_cha_0..3, as the kernel's uncore driver names its boxes, with
        its event/umask format) and the cstate_core/cstate_pkg PMUs; and for the directories whose events use AnyThread the 'any'
        format term (config:21), which the kernel's Intel PMUs before perfmon
        v5 (Ice Lake, Tremont) expose (intel_arch3_formats_attr's
        format_attr_any). Made in the build tree."""
        name = "intel-icx+tsx+cha+cstate" + ("+any" if anythread else "")
        dst = os.path.join(self.build, "perf-corpus", "fixtures", name)
        devs = os.path.join(dst, "sys/bus/event_source/devices")
        done = os.path.join(dst, ".made")
        if os.path.exists(done):
            return dst
        subprocess.run(["rm", "-rf", dst], check=True)
        shutil.copytree(os.path.join(self.src, "tests", "fixtures", "intel-icx"), dst)
        cpu = os.path.join(devs, "cpu")
        for ev, terms in self.TSX_EVENTS.items():
            with open(os.path.join(cpu, "events", ev), "w") as f:
                f.write(terms)
        for fmt, bits in (("in_tx", "config:32"), ("in_tx_cp", "config:33")) + ((("any", "config:21"),)
                                                                               if anythread else ()):
            with open(os.path.join(cpu, "format", fmt), "w") as f:
                f.write(bits + "\n")
        # the kernel's cstate PMUs (arch/x86/events/intel/cstate.c: format event config:0-63, events
        # PMU_EVENT_ATTR_STRING "event=0x%02x" with a newline)
        for pmu, typ, evs in (("cstate_core", 50, ("c1", "c3", "c6", "c7")),
                              ("cstate_pkg", 51, ("c2", "c3", "c6", "c7", "c8", "c9", "c10"))):
            d = os.path.join(devs, pmu)
            os.makedirs(os.path.join(d, "format"))
            os.makedirs(os.path.join(d, "events"))
            with open(os.path.join(d, "type"), "w") as f:
                f.write("%d\n" % typ)
            with open(os.path.join(d, "format", "event"), "w") as f:
                f.write("config:0-63\n")
            for k, ev in enumerate(evs):
                with open(os.path.join(d, "events", ev + "-residency"), "w") as f:
                    f.write("event=0x%02x\n" % k)
        for box in range(self.CHA_BOXES):
            d = os.path.join(devs, "uncore_cha_%d" % box)
            os.makedirs(os.path.join(d, "format"))
            with open(os.path.join(d, "type"), "w") as f:
                f.write("%d\n" % (40 + box))
            with open(os.path.join(d, "cpumask"), "w") as f:
                f.write("0\n")
            for fmt, bits in (("event", "config:0-7"), ("umask", "config:8-15")):
                with open(os.path.join(d, "format", fmt), "w") as f:
                    f.write(bits + "\n")
        open(done, "w").close()
        return dst

    # fixtures: a machine whose core PMU format fits the directory's vendor
    def fixture(self, arch, cpuid, hybrid, anythread):
        fx = os.path.join(self.src, "tests", "fixtures")
        if arch == "x86":
            if cpuid.startswith("AuthenticAMD"):
                return os.path.join(fx, "amd-zen3"), ["cpu"]
            if hybrid:
                return os.path.join(fx, "intel-adl-hybrid"), list(CORE_UNITS)
            return self.intel_machine(anythread), ["cpu"]
        if arch == "arm64":
            return os.path.join(fx, "arm64-neoverse-n1"), ["armv8_pmuv3_0"]
        return os.path.join(fx, "riscv-jh7110"), ["cpu"]

    def perf_entries(self, arch_root, d):
        """perf's JsonEvent objects of directory @d (jevents' own reading)."""
        path = os.path.join(arch_root, d)
        out = []
        for fn in sorted(os.listdir(path)):
            if fn.endswith(".json") and fn != "metricgroups.json":  # jevents skips it too
                out.extend(self.jevents.read_json_events(os.path.join(path, fn), topic=fn[:-5]))
        return out

    def run_arch(self, arch):
        arch_root = os.path.join(self.root, "arch", arch)
        rows = read_mapfile(os.path.join(arch_root, "mapfile.csv"))
        self.jevents._arch_std_events = {}
        self.jevents.preprocess_arch_std_files(arch_root)
        seen = set()
        for i, (pat, d, typ) in enumerate(rows):
            if d in seen or typ != "core":
                continue
            seen.add(d)
            if self.args.only and "%s/%s" % (arch, d) not in self.args.only:
                continue
            cpuid = cpu_id_for(rows, i)
            if cpuid is None:
                self.failures.append("%s/%s: no CPU id found for the mapfile pattern %s" % (arch, d, pat))
                continue
            self.run_dir(arch, arch_root, d, cpuid)

    def core_entries(self, label, arch_root, d):
        """perf's entries of directory @d and those of its core PMUs; None when jevents refuses it."""
        try:
            entries = self.perf_entries(arch_root, d)
        except Exception as x:  # jevents itself refuses the directory
            self.failures.append("%s: perf's jevents.py cannot read it: %s" % (label, x))
            return None
        return entries, [e for e in entries if e.name and (e.pmu == "default_core" or e.pmu in CORE_UNITS)]

    def machine(self, arch, cpuid, events):
        """The fixture for @events' CPU: (its root, its sys, its core PMUs, their formats, hybrid)."""
        hybrid = any(e.pmu in CORE_UNITS for e in events)
        anythread = any(re.search(r"(^|,)any=", e.event or "") for e in events)
        sysfs_dir, core_pmus = self.fixture(arch, cpuid, hybrid, anythread)
        sysfs = os.path.join(sysfs_dir, "sys")
        return sysfs_dir, sysfs, core_pmus, {n: read_pmu(sysfs, n) for n in core_pmus}, hybrid

    def run_dir(self, arch, arch_root, d, cpuid):
        label = "%s/%s" % (arch, d)
        got = self.core_entries(label, arch_root, d)
        if not got:
            return
        entries, events = got
        others = sum(1 for e in entries if e.name) - len(events)
        if not events:
            self.lines.append("%-28s no core PMU events in perf's tables (%d of other PMUs): nothing compared" %
                              (label, others))
            return
        sysfs_dir, sysfs, core_pmus, pmus, hybrid = self.machine(arch, cpuid, events)
        ctx = self.pmu.Context(cpuid=cpuid, sysfs_root=sysfs, procfs_root=os.path.join(sysfs_dir, "proc"),
                               events_path=arch_root)
        caps = ctx.caps()
        self.load_warnings.extend("%s: %s" % (label, w) for w in ctx.warnings)
        if caps.get("events_table") != d:
            self.failures.append("%s: libpmu chose table '%s' for %s (mapfile says %s)" %
                                 (label, caps.get("events_table"), cpuid, d))
            ctx.close()
            return
        metrics = [e for e in entries if e.metric_name and e.metric_expr is not None]
        trees = {(m.pmu, m.metric_name.lower()): (m.metric_name, m.metric_expr) for m in metrics}
        oracle = Oracle(self.metric, trees, machine=Machine(sysfs, core_pmus, entries, arch, cpuid))
        # a hybrid directory once per core PMU, then its metrics without a Unit
        units = list(CORE_UNITS) + ["default_core"] if hybrid else [""]
        for unit in units:
            t = Tally()
            t.others = others if unit in ("", CORE_UNITS[0]) else 0
            res = self.results.setdefault((label, unit), {})
            pmu_info = pmus[unit] if unit in CORE_UNITS else pmus[core_pmus[0]]
            for e in events:
                if not hybrid or e.pmu == unit:
                    self.one_event(ctx, t, res, e, "%s/%%s/" % unit if hybrid else "%s", pmu_info)
            for m in metrics:
                if not hybrid or m.pmu == unit:
                    self.one_metric(ctx, t, res, oracle, trees, m, unit if unit in CORE_UNITS else "")
            self.report(label + {"": "", "default_core": " (no Unit)"}.get(unit, " " + unit),
                        os.path.basename(sysfs_dir), cpuid, t)
        if hybrid:
            self.bare_names(ctx, label, events, metrics, oracle, trees)
        self.at_names(ctx, sysfs, entries, metrics)
        ctx.close()
        if arch in ("arm64", "riscv"):
            self.alone(arch, arch_root, d, cpuid, sysfs_dir, events, pmus[core_pmus[0]])

    def at_names(self, ctx, sysfs, entries, metrics):
        """The PMU@EVENT,TERMS@ (and EVENT@TERMS@) names perf's metrics of the
        directory use, resolved by libpmu as PMU/EVENT,TERMS/. The oracle, as
        perf builds the event: the named event's terms (perf's jevents.py
        string of the table event, or the PMU's sysfs events/ file), then the
        extra terms (a bare term is term=1), every term's value spread over its
        format bits and ORed in (tools/perf/util/pmu.c: pmu_format_value with
        zero false on these PMUs). perf names an uncore PMU without its
        "uncore_" too (cha_0). Names of a PMU the fixture lacks are counted
        apart."""
        root = os.path.join(sysfs, "bus/event_source/devices")
        devs = set(os.listdir(root))
        table = {}
        for e in entries:
            if e.name:
                table.setdefault((e.pmu, e.name.lower()), e)
        names = set()
        for mt in metrics:
            stack = [mt.metric_expr]
            while stack:
                x = stack.pop()
                if isinstance(x, self.metric.Event) and "@" in x.name:
                    names.add((mt.pmu, x.name.replace("\\", "")))
                for a in ("lhs", "rhs", "true_val", "cond", "false_val"):
                    y = getattr(x, a, None)
                    if y is not None and not isinstance(y, (int, float, str)):
                        stack.append(y)
        t = self.at_tally
        for mpmu, raw in sorted(names):
            m = re.fullmatch(r"([^@]+)@(.+)@([a-zA-Z]*)", raw)
            if not m:
                t["other forms"] += 1
                continue
            head, inner, mods = m.groups()
            if set(mods) - set("ukh"):
                # perf's R (retirement latency, read by sampling): a value libpmu does not count
                t["modifier %s" % mods] += 1
                continue
            terms = inner.split(",")
            norm = lambda ts: [x if "=" in x else x + "=1" for x in ts]
            pmu = head if head in devs else "uncore_" + head if "uncore_" + head in devs else None
            core = "default_core" if mpmu in ("default_core",) else mpmu
            if pmu is None and (core, head.lower()) in table:
                ev = table[(core, head.lower())]      # EVENT@TERMS@ on the event's core PMU
                pmu = head_pmu = None
                for c in ("cpu", "cpu_core", "cpu_atom", "armv8_pmuv3_0"):
                    if c in devs and (c == mpmu or mpmu == "default_core"):
                        head_pmu = c
                if head_pmu is None:
                    t["PMU not on the fixture"] += 1
                    continue
                want_terms, pmu = [ev.event] + norm(terms), head_pmu
            elif pmu is None:
                t["PMU not on the fixture"] += 1
                continue
            else:
                first = terms[0]
                evfile = os.path.join(root, pmu, "events", first)
                tev = table.get((pmu if pmu in CORE_UNITS else "default_core", first.lower()))
                if "=" not in first and tev is not None and (pmu in CORE_UNITS or pmu in ("cpu", "armv8_pmuv3_0")):
                    want_terms = [tev.event] + norm(terms[1:])
                elif "=" not in first and os.path.exists(evfile):
                    with open(evfile) as f:
                        want_terms = [f.read().strip()] + norm(terms[1:])
                else:
                    want_terms = norm(terms)
            try:
                want = perf_terms_to_attr(",".join(want_terms), read_pmu(os.path.join(sysfs), pmu))
            except CannotEncode:
                t["oracle cannot encode"] += 1
                continue
            spec = "%s/%s/%s" % (head, inner, mods)
            try:
                got = ctx.resolve(spec)
            except self.pmu.PmuError as x:
                t["not resolved"] += 1
                self.total.diffs.append("%s: %s not resolved: %s" % (head, spec, x))
                continue
            have = (got["type"], got["config"], got["config1"], got["config2"])
            if have == want:
                t["same"] += 1
            else:
                t["DIFFERENT"] += 1
                self.total.diffs.append("%s: libpmu type=%d config=%#x config1=%#x, perf (%s on %s) type=%d config=%#x "
                                        "config1=%#x" % ((spec,) + have[:3] + (",".join(want_terms), pmu) + want[:3]))

    def alone(self, arch, arch_root, d, cpuid, sysfs_dir, events, pmu_info):
        """The CPU directory named alone (PMU_EVENTS_PATH=<arch root>/<dir>, as
        a user points at one): its ArchStdEvent references are filled from the
        tree's architecture-level files all the same; each core event must
        encode as perf's jevents.py + the format files say."""
        ctx = self.pmu.Context(cpuid=cpuid, sysfs_root=os.path.join(sysfs_dir, "sys"),
                               procfs_root=os.path.join(sysfs_dir, "proc"), events_path=os.path.join(arch_root, d))
        t = self.alone_tally
        for e in events:
            name = e.name.upper() if e.name.islower() else e.name
            try:
                want = perf_terms_to_attr(e.event, pmu_info)
            except CannotEncode:
                continue
            try:
                got = ctx.resolve(name)
                have = (got["type"], got["config"], got["config1"], got["config2"])
                t["same" if have == want else "DIFFERENT"] += 1
                if have != want:
                    self.total.diffs.append("%s/%s alone: event %s: libpmu config=%#x, perf config=%#x" %
                                            (arch, d, name, have[1], want[1]))
            except self.pmu.PmuError as x:
                t["not resolved"] += 1
                self.total.reasons[("event", "not resolved (directory alone)", short_reason(str(x)))].append(
                    "%s/%s:%s" % (arch, d, name))
        t["directories"] += 1
        t["warnings"] += len(ctx.warnings)
        ctx.close()

    def one_event(self, ctx, t, res, e, spelling, pmu_info):
        # perf's name (jevents lower-cases it; libpmu is case-insensitive)
        name = e.name.upper() if e.name.islower() else e.name
        try:
            want = perf_terms_to_attr(e.event, pmu_info)
        except CannotEncode as x:
            t.ev["skipped"] += 1
            t.note("event", "skipped", "oracle cannot encode: %s" % x, name)
            res[name] = ("skipped", str(x))
            return
        spec = spelling % name
        try:
            got = ctx.resolve(spec)
        except self.pmu.PmuError as x:
            t.ev["not resolved"] += 1
            t.note("event", "not resolved", short_reason(str(x)), name)
            res[name] = ("not resolved", str(x))
            return
        have = (got["type"], got["config"], got["config1"], got["config2"])
        if have == want:
            t.ev["same"] += 1
            res[name] = ("same", have)
        else:
            t.ev["DIFFERENT"] += 1
            t.diffs.append("event %s: libpmu type=%d config=%#x config1=%#x config2=%#x, perf (%s) "
                           "type=%d config=%#x config1=%#x config2=%#x" % ((spec,) + have + (e.event,) + want))
            res[name] = ("DIFFERENT", have, want)

    def libpmu_metric(self, ctx, m, spec, trees, lit, own=None):
        """libpmu's value, as pmu stat gets it: counts for the events
        libpmu's own list names (pmu_metric_events of @own, default @spec)
        and the run's duration_time, except names perf knows as metrics of
        this PMU (libpmu must evaluate those); the same #constants."""
        for c in lit:
            ctx.set_param(c, constant_for(c))
        need = ctx.metric_events(own or spec) + ["duration_time"]
        values = {n: count_for(n) for n in need if (m.pmu, canon(n)) not in trees}
        return ctx.metric(spec, values)

    def one_metric(self, ctx, t, res, oracle, trees, m, unit):
        self.one_metric_status(ctx, t, res, oracle, trees, m, unit)
        if re.search(r"\b(has_event|source_count|strcmp_cpuid_str)\(", m.metric_expr.ToPerfJson()):
            self.machine_fns[res["metric " + m.metric_name][0]] += 1

    def one_metric_status(self, ctx, t, res, oracle, trees, m, unit):
        name = m.metric_name
        key = "metric " + name
        try:
            _, lit = oracle.names(m.pmu, m.metric_expr)
            want = oracle.value(m.pmu, name)
        except OracleCannot as x:
            t.mt["oracle cannot"] += 1
            t.note("metric", "oracle cannot evaluate", str(x), name)
            res[key] = ("oracle cannot", str(x))
            return
        # a metric defined once per PMU is named with its PMU (see bare_names for the bare name)
        spec = "%s/%s/" % (unit, name) if unit and sum(k[1] == name.lower() for k in trees) > 1 else name
        try:
            got = self.libpmu_metric(ctx, m, spec, trees, lit)
        except self.pmu.PmuError as x:
            t.mt["libpmu cannot"] += 1
            t.note("metric", "libpmu cannot evaluate", short_reason(str(x)), name)
            res[key] = ("libpmu cannot", str(x))
            return
        if same_number(got, want):
            t.mt["equal"] += 1
            res[key] = ("equal", got)
        else:
            t.mt["DIFFERENT"] += 1
            t.diffs.append("metric %s: libpmu %r, perf's formula %r (%s)" %
                           (spec, got, want, m.metric_expr.ToPerfJson()[:200]))
            res[key] = ("DIFFERENT", got, want)

    def bare_names(self, ctx, label, events, metrics, oracle, trees):
        """Hybrid directories: a name perf defines for both core PMUs, written
        without one. An event must be refused naming both spellings (perf
        counts it on each; one encoding cannot); a metric must be evaluated
        with the formula of the PMU whose counts it is given."""
        per = defaultdict(set)
        for e in events:
            per[e.name.lower()].add(e.pmu)
        refused = resolved = each = 0
        for n, us in sorted(per.items()):
            if len(us) < 2:
                continue
            name = n.upper()
            try:
                got = ctx.resolve(name)
                self.total.diffs.append("%s: bare event %s, defined for %s, resolved silently to %s config=%#x" %
                                        (label, name, " and ".join(sorted(us)), got["pmu"], got["config"]))
                resolved += 1
            except self.pmu.PmuError as x:
                if x.errno == errno.EINVAL and all(("%s/%s/" % (u, name)).lower() in str(x).lower() for u in us):
                    refused += 1
                else:
                    self.failures.append("%s: bare event %s: %s" % (label, name, x))
            # counted as perf counts it: on each PMU that defines it, each part that PMU's event (the
            # encodings of PMU/NAME/, which one_event compares with perf's)
            try:
                parts = ctx.resolve_each(name)
                have = sorted((p["pmu"], p["type"], p["config"], p["config1"]) for p in parts)
                want = []
                for u in sorted(us):
                    w = ctx.resolve("%s/%s/" % (u, name))
                    want.append((u, w["type"], w["config"], w["config1"]))
                if have == sorted(want) and all("hybrid-part" in p["flags"] for p in parts):
                    each += 1
                else:
                    self.total.diffs.append("%s: bare event %s: parts %s, the PMUs' own events %s" %
                                            (label, name, have, sorted(want)))
            except self.pmu.PmuError as x:
                self.failures.append("%s: bare event %s, counted on each PMU: %s" % (label, name, x))
        mper = defaultdict(list)
        for m in metrics:
            mper[m.metric_name.lower()].append(m)
        t = Counter()
        for n, ms in sorted(mper.items()):
            if len(ms) < 2:
                continue
            for m in ms:
                try:
                    _, lit = oracle.names(m.pmu, m.metric_expr)
                    want = oracle.value(m.pmu, m.metric_name)
                except OracleCannot:
                    t["oracle cannot"] += 1
                    continue
                try:
                    got = self.libpmu_metric(ctx, m, m.metric_name, trees, lit,
                                             own="%s/%s/" % (m.pmu, m.metric_name))
                except self.pmu.PmuError as x:
                    t["libpmu cannot"] += 1
                    self.total.reasons[("metric", "libpmu cannot evaluate (bare name)", short_reason(str(x)))].append(
                        "%s:%s %s" % (label, m.pmu, m.metric_name))
                    continue
                if same_number(got, want):
                    t["equal"] += 1
                else:
                    t["DIFFERENT"] += 1
                    self.total.diffs.append("%s: bare metric %s with %s's counts: libpmu %r, perf's %s formula %r" %
                                            (label, m.metric_name, m.pmu, got, m.pmu, want))
        self.lines.append("%-28s bare names defined for both PMUs: events %d refused by one encoding naming both, "
                          "%d resolved to one, %d counted on each PMU as its own event | metrics with one PMU's "
                          "counts: %d equal, %d DIFFERENT, %d libpmu cannot, %d oracle cannot" %
                          (label + " (bare)", refused, resolved, each, t["equal"], t["DIFFERENT"],
                           t["libpmu cannot"], t["oracle cannot"]))
        self.bare[label] = (refused, resolved, each, t)

    def check_tree(self, arch):
        """pmu_tables_check of perf's unmodified tree of @arch, on the architecture's fixture: real
        problems apart from notes (what the fixture machine cannot tell)."""
        fx = os.path.join(self.src, "tests", "fixtures")
        sysfs_dir = self.intel_machine(False) if arch == "x86" else os.path.join(
            fx, "arm64-neoverse-n1" if arch == "arm64" else "riscv-jh7110")
        ctx = self.pmu.Context(sysfs_root=os.path.join(sysfs_dir, "sys"), procfs_root=os.path.join(sysfs_dir, "proc"),
                               log_level=self.pmu.LOG_INFO)
        found = ctx.check_tables(os.path.join(self.root, "arch", arch), notes=True)
        ctx.close()
        problems = [p for p in found if not p["note"]]
        if arch == "x86":
            problems = [p for p in problems if not PFM_DIFF.search(p["message"])]
            self.libpfm4_differences(found, ctx.log)
        self.checked[arch] = (problems, sum(1 for p in found if p["note"]))
        for p in problems[:20]:
            self.failures.append("check-tables %s: %s: %s: %s" % (arch, p["file"], p["entry"], p["message"]))

    def libpfm4_differences(self, found, log):
        """check-tables' comparison of perf's x86 encodings with libpfm4's: each directory it compared
        (its info line), and each difference against tests/perf-corpus-libpfm4.txt, sorted into a kind by
        the entry's own fields in perf's file (read here, not by libpmu)."""
        t = self.pfm = {"dirs": {}, "kinds": Counter(), "failures": [], "differ": 0}
        for _, msg in log:
            m = re.match(r"(\S+): (\d+) encodings compared with libpfm4 \((\S+)\), (\d+) events unknown", msg)
            if m:
                t["dirs"][m.group(1)] = (int(m.group(2)), m.group(3), int(m.group(4)))
        expected = {}
        with open(os.path.join(self.src, "tests", "perf-corpus-libpfm4.txt")) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    d, name, ours, pfm, intel = line.split()
                    expected[(d, name)] = (int(ours, 16), int(pfm, 16), int(intel, 16))
        seen = set()
        for p in found:
            m = PFM_DIFF.search(p["message"])
            if not m:
                continue
            d = os.path.basename(os.path.dirname(p["file"]))
            key, ours, pfm = (d, p["entry"]), int(m.group(1), 16), int(m.group(4), 16)
            seen.add(key)
            t["differ"] += 1
            if key not in expected:
                t["failures"].append("%s %s: libpmu 0x%x, libpfm4 0x%x, not listed" % (d, p["entry"], ours, pfm))
                continue
            e_ours, e_pfm, intel = expected[key]
            if (e_ours, e_pfm) != (ours, pfm):
                t["failures"].append("%s %s: libpmu 0x%x, libpfm4 0x%x, listed as 0x%x, 0x%x" %
                                     (d, p["entry"], ours, pfm, e_ours, e_pfm))
                continue
            own = file_config(p["file"], p["entry"])
            if ours == own == intel != pfm:
                kind = "where libpfm4 differs from perf's file and Intel's data"
            elif ours != own and pfm == own:
                kind = "perf's fixed-counter rule for the name (jevents), libpfm4 as perf's file"
            elif ours != own and pfm != own and own == intel:
                kind = "perf's fixed-counter rule, and libpfm4 differs from perf's file and Intel's data"
            else:
                kind = "of no kind this test knows"
                t["failures"].append("%s %s: libpmu 0x%x, libpfm4 0x%x, perf's file 0x%x, Intel 0x%x: not a kind "
                                     "this test knows" % (d, p["entry"], ours, pfm, own, intel))
            t["kinds"][kind] += 1
        for key in sorted(set(expected) - seen):
            t["failures"].append("%s %s: listed, but check-tables no longer reports it" % key)

    def report(self, label, fixture, cpuid, t):
        self.per_dir.append((label, Counter(t.ev), Counter(t.mt)))
        self.lines.append(
            "%-28s events: %5d same, %d DIFFERENT, %3d not resolved, %3d skipped (%4d of other PMUs) | "
            "metrics: %4d equal, %d DIFFERENT, %3d libpmu cannot, %3d oracle cannot  [%s on %s]" %
            (label, t.ev["same"], t.ev["DIFFERENT"], t.ev["not resolved"], t.ev["skipped"], t.others,
             t.mt["equal"], t.mt["DIFFERENT"], t.mt["libpmu cannot"], t.mt["oracle cannot"], cpuid, fixture))
        self.total.ev.update(t.ev)
        self.total.mt.update(t.mt)
        self.total.others += t.others
        for k, v in t.reasons.items():
            self.total.reasons[k].extend("%s:%s" % (label.split()[0], n) for n in v)
        self.total.diffs.extend("%s: %s" % (label, s) for s in t.diffs)


PFM_DIFF = re.compile(r"encoding config=(0x[0-9a-f]+) config1=(0x[0-9a-f]+) differs from libpfm4's (\S+): "
                      r"config=(0x[0-9a-f]+) config1=(0x[0-9a-f]+)$")


def file_config(path, name):
    """The compared bits (event, umask, edge, any, inv, cmask) of event @name as its JSON file writes them,
    no rule applied (the first code where a file gives two)."""
    with open(path) as f:
        for o in json.load(f):
            if o.get("EventName") == name:
                def num(k):
                    v = str(o.get(k, "0")).split(",")[0].strip()
                    return int(v, 0) if v else 0
                return (num("EventCode") | num("UMask") << 8 | (num("EdgeDetect") & 1) << 18 |
                        (num("AnyThread") & 1) << 21 | (num("Invert") & 1) << 23 | (num("CounterMask") & 0xff) << 24)
    return -1


def required(c):
    """What issue 12 items 4 and 5 and issue 14 require, read from the results above."""
    out = []
    # issue 14: every core event with perf's encoding; on every core-PMU directory at least 99 % of
    # perf's metrics equal perf's value on the same counts, none different
    ev = c.total.ev
    compared = ev["same"] + ev["DIFFERENT"] + ev["not resolved"]
    out.append(("core events of every x86/arm64/riscv directory: %d of %d resolve with perf's encoding (%.2f %%), "
                "%d DIFFERENT, %d not resolved (%d skipped: perf's own string cannot be encoded)" %
                (ev["same"], compared, 100.0 * ev["same"] / max(compared, 1), ev["DIFFERENT"], ev["not resolved"],
                 ev["skipped"]), compared > 0 and ev["same"] == compared, dict(ev)))
    worst, low, ndirs = None, [], 0
    for label, _, mt in c.per_dir:
        n = sum(mt.values())
        if not n:
            continue
        ndirs += 1
        share = 100.0 * mt["equal"] / n
        if worst is None or share < worst[1]:
            worst = (label, share, mt["equal"], n)
        if share < 99.0 or mt["DIFFERENT"]:
            low.append("%s %d/%d (%.1f %%, %d DIFFERENT)" % (label, mt["equal"], n, share, mt["DIFFERENT"]))
    mt = c.total.mt
    out.append(("metrics: >= 99 %% equal perf's value on each of the %d core-PMU directories with metrics, none "
                "DIFFERENT (total %d of %d, %.2f %%; lowest %s %.2f %%)%s" %
                (ndirs, mt["equal"], sum(mt.values()), 100.0 * mt["equal"] / max(sum(mt.values()), 1),
                 worst[0] if worst else "-", worst[1] if worst else 0, "; below: " + ", ".join(low) if low else ""),
                ndirs > 0 and not low and not mt["DIFFERENT"], low))
    out.append(("loading perf's unmodified directories: %d load-time warnings%s" %
                (len(c.load_warnings), " (" + "; ".join(c.load_warnings[:3]) + ")" if c.load_warnings else ""),
                not c.load_warnings, c.load_warnings[:10]))
    for arch, (problems, notes) in sorted(c.checked.items()):
        out.append(("check-tables of perf's unmodified %s tree: %d problems (%d notes: what the fixture machine "
                    "cannot tell)" % (arch, len(problems), notes), not problems, problems[:5]))
    pf = getattr(c, "pfm", None)
    with open(os.path.join(c.build, "config.h")) as f:
        with_pfm = "HAVE_LIBPFM 1" in f.read()
    if pf is not None and not with_pfm:
        out.append(("check-tables of perf's x86 tree against libpfm4: not compared, this build has no libpfm4 "
                    "(-Dlibpfm=disabled)", not pf["dirs"], sorted(pf["dirs"])))
    elif pf is not None:
        dirs = pf["dirs"]
        empty = sorted(d for d, (n, _, _) in dirs.items() if n == 0)
        out.append(("check-tables of perf's x86 tree against libpfm4: %d encodings compared in %d directories "
                    "(with no encoding compared: %s), %d differ; %d mismatches with tests/perf-corpus-libpfm4.txt; "
                    "by kind: %s" %
                    (sum(n for n, _, _ in dirs.values()), len(dirs), ", ".join(empty) or "none", pf["differ"],
                     len(pf["failures"]), "; ".join("%d %s" % (n, k) for k, n in pf["kinds"].most_common())),
                    len(dirs) > 0 and not empty and not pf["failures"], pf["failures"][:10]))
    res = c.results.get(("x86/alderlake", "cpu_core"))
    if res is not None:
        st = res.get("metric tma_fetch_bandwidth", ("absent",))
        out.append(("x86/alderlake cpu_core tma_fetch_bandwidth equals perf's cpu_core formula", st[0] == "equal",
                    st))
    n = bad = 0
    for (label, unit), r in sorted(c.results.items()):
        st = r.get("INST_RETIRED.ANY")
        if st is None or label.startswith(("arm64", "riscv")):
            continue
        n += 1
        if st[0] != "same" or st[1][1] != 0xc0:
            bad += 1
            out.append(("%s %s INST_RETIRED.ANY is 0xc0 as perf encodes it" % (label, unit), False, st))
    out.append(("INST_RETIRED.ANY encoded 0xc0 in %d of the %d x86 directories (core PMUs) that define it" %
                (n - bad, n), n > 0 and bad == 0, n))
    at = c.at_tally
    out.append(("metrics' PMU@EVENT,TERMS@ names (cpu@UOPS_ISSUED.ANY\\,cmask\\=1@, msr@aperf@, cstate_core@c6\\-"
                "residency@, ...): %d as perf builds them, %d DIFFERENT, %d not resolved (%d of a PMU the fixture lacks, "
                "%d the oracle cannot encode)" % (at["same"], at["DIFFERENT"], at["not resolved"],
                                                  at["PMU not on the fixture"], at["oracle cannot encode"]),
                at["same"] > 0 and not (at["DIFFERENT"] or at["not resolved"] or at["other forms"]), dict(at)))
    if at.get("modifier R"):
        out.append(("  (%d more use perf's R modifier, the retirement latency perf samples: not counted by libpmu)" %
                    at["modifier R"], True, None))
    a = c.alone_tally
    out.append(("arm64/riscv CPU directories named alone in PMU_EVENTS_PATH (ArchStdEvent from the tree above): "
                "%d directories, %d events as perf encodes them, %d DIFFERENT, %d not resolved, %d warnings" %
                (a["directories"], a["same"], a["DIFFERENT"], a["not resolved"], a["warnings"]),
                a["directories"] > 0 and a["same"] > 0 and not (a["DIFFERENT"] or a["not resolved"] or a["warnings"]),
                dict(a)))
    mf = c.machine_fns
    out.append(("metrics using has_event()/source_count()/strcmp_cpuid_str() (the fixture's TSX events and CHA "
                "boxes, or none; the directory's CPU id): "
                "%d of %d equal perf's value (oracle's answers: %s)" %
                (mf["equal"], sum(mf.values()), ", ".join("%s %d times" % kv for kv in sorted(Machine.answers.items()))),
                sum(mf.values()) > 0 and mf["equal"] == sum(mf.values()), dict(mf)))
    for label, (refused, resolved, each, _) in sorted(c.bare.items()):
        out.append(("%s: bare event names defined for both PMUs refused by one encoding (%d), none resolved to "
                    "one (%d), every one counted on each PMU as that PMU's event (%d)" %
                    (label, refused, resolved, each), refused > 0 and resolved == 0 and each == refused, None))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    args.only = set(x for x in args.only.split(",") if x)
    src, build, pmu, root = start(drop_events_path=False)
    t0 = time.time()
    c = Corpus(root, src, build, pmu, args)
    bad = oracle_selftest(c.metric)
    if bad:
        fail_setup("the metric oracle disagrees with perf's rules worked by hand: " + "; ".join(bad))
    for arch in ("x86", "arm64", "riscv"):
        c.run_arch(arch)
        if not args.only:
            c.check_tree(arch)
    print("libpmu against perf's own tables (%s): events compared as perf's jevents.py + the fixture's "
          "format files encode them, metrics as perf's metric.py parses them, evaluated with perf's rules" % PE)
    for line in c.lines:
        print(line)
    tot = c.total
    print("%-28s events: %5d same, %d DIFFERENT, %3d not resolved, %3d skipped (%4d of other PMUs) | "
          "metrics: %4d equal, %d DIFFERENT, %3d libpmu cannot, %3d oracle cannot  (%.0f s)" %
          ("TOTAL", tot.ev["same"], tot.ev["DIFFERENT"], tot.ev["not resolved"], tot.ev["skipped"], tot.others,
           tot.mt["equal"], tot.mt["DIFFERENT"], tot.mt["libpmu cannot"], tot.mt["oracle cannot"],
           time.time() - t0))
    print("\nGaps and skips, by reason (count, examples):")
    for (kind, what, reason), names in sorted(tot.reasons.items(), key=lambda kv: -len(kv[1])):
        print("  %5d %s %s: %s  [%s%s]" % (len(names), kind, what, reason, ", ".join(names[:3]),
                                           ", ..." if len(names) > 3 else ""))
    if not args.only:
        print("\nRequired:")
        for what, ok, detail in required(c):
            print("  %s %s" % ("ok  " if ok else "FAIL", what))
            if not ok:
                c.failures.append("%s: %s" % (what, detail))
    if tot.diffs:
        print("\nDIFFERENT (%d): a number libpmu gives that perf does not" % len(tot.diffs))
        for line in tot.diffs[: (None if args.verbose else 60)]:
            print("  " + line)
    for f in c.failures:
        print("FAIL: " + f)
    bad = bool(tot.diffs or c.failures)
    print("perf-corpus: %s" % ("FAIL" if bad else "PASS"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
