#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Build the event tables (events/**/*.json and events/mapfile.csv) into the
library: every JSON entry compiled to C data (a record of the fields it has:
RECORD below), so that loading a built-in table costs no JSON parsing, and
mapfile.csv embedded as text. The compiled fields follow lib/tables.c's
parse_entry() exactly; test-tables-compiled checks them against what the
loader makes of events/.

  gen-tables.py --list EVENTS_DIR          print the files (for meson)
  gen-tables.py EVENTS_DIR OUTPUT.c        write the C file
The entries of a directory are copied into a context's table (borrowing
the strings) only when the detected CPU needs that directory."""
import json
import os
import sys


def table_files(root):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for f in sorted(filenames):
            if f.endswith('.json') or f == 'mapfile.csv':
                out.append(os.path.relpath(os.path.join(dirpath, f), root))
    return out


def c_string(data):
    lines = []
    for line in data.splitlines(keepends=True):
        esc = []
        for ch in line:
            o = ord(ch)
            if ch == '\\':
                esc.append('\\\\')
            elif ch == '"':
                esc.append('\\"')
            elif ch == '\n':
                esc.append('\\n')
            elif ch == '\t':
                esc.append('\\t')
            elif o < 32 or o == 127:
                esc.append('\\%03o' % o)
            elif o > 127:
                esc.append(''.join('\\%03o' % b for b in ch.encode('utf-8')))
            else:
                esc.append(ch)
        lines.append('\t"' + ''.join(esc) + '"')
    return '\n'.join(lines) if lines else '\t""'


# an entry's string fields (a record holds their pool offsets)
STRINGS = {"name", "file", "dir", "desc", "pdesc", "notes", "stdnames", "approx_note", "topdown", "aliases",
           "generic", "source", "unit", "expr", "group", "scale_unit", "threshold", "params", "counter_csr",
           "pfm_name", "approx_names", "terms"}
KEYS = {"desc": "BriefDescription", "pdesc": "PublicDescription", "notes": "Notes", "stdnames": "StdNames",
        "approx_note": "ApproxNote", "topdown": "TopdownRole", "aliases": "Aliases", "generic": "Generic",
        "source": "Source", "unit": "Unit", "expr": "MetricExpr", "group": "MetricGroup",
        "scale_unit": "ScaleUnit", "threshold": "MetricThreshold", "params": "MetricParams",
        "counter_csr": "CounterCSR", "pfm_name": "PfmName", "approx_names": "ApproxNames"}
NUMS = [("EventCode", 1 << 0, "event"), ("UMask", 1 << 1, "umask"), ("CounterMask", 1 << 2, "cmask"),
        ("Invert", 1 << 3, "inv"), ("EdgeDetect", 1 << 4, "edge"), ("AnyThread", 1 << 5, "any"),
        ("MSRIndex", 1 << 6, "msr_index"), ("ConfigCode", 1 << 7, "config_code")]


def text_of(v):
    """A JSON value as lib/tables.c's field() sees it (json-c's strings)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, str)):
        return str(v)
    return None


def parse_u64(s):
    """pmu__parse_u64: strtoull base 0, no sign or leading space, fully consumed."""
    if not s or s[0] in "+- \t\n":
        raise ValueError(s)
    if s[:2].lower() == "0x":
        v = int(s[2:], 16)
    elif len(s) > 1 and s[0] == "0":
        v = int(s[1:], 8)
    else:
        v = int(s, 10)
    if v >= 1 << 64:
        raise ValueError(s)
    return v


def first_number(s):
    n = s.split(",", 1)[0].rstrip()
    return parse_u64(n)


def number_of(o, key, path, name, lo=0, hi=(1 << 64) - 1):
    """The number under @key, as the loader reads it; a bad one stops the build naming the file, the
    entry, the key and what is allowed (the loader refuses the same entries with the same rules)."""
    t = text_of(o.get(key)) if key in o else None
    if not t:
        return None
    try:
        v = first_number(t)
    except ValueError:
        raise SystemExit("%s: %s: %s '%s' is not a number (decimal, 0x hex or 0 octal, below 2^64)"
                         % (path, name, key, t))
    if not lo <= v <= hi:
        raise SystemExit("%s: %s: %s %d is not %d..%d" % (path, name, key, v, lo, hi))
    return v


METRIC_KEYS = ("expr", "group", "threshold", "params")


def compile_entries(o, path, d):
    """An object's entries: an event or a metric, or both for an object with EventName and MetricName
    (as perf's jevents.py and the loader make it: the event, then the metric)."""
    en, mn = (text_of(o.get(k)) if k in o else None for k in ("EventName", "MetricName"))
    if en and mn:
        return [compile_entry(o, path, d, as_metric=False), compile_entry(o, path, d, as_metric=True)]
    return [compile_entry(o, path, d)]


def compile_entry(o, path, d, as_metric=None):
    en, mn, arch = (text_of(o.get(k)) if k in o else None for k in ("EventName", "MetricName", "ArchStdEvent"))
    if not en and not mn and arch:
        raise SystemExit("%s: ArchStdEvent in a built-in table is not supported by the compiler" % path)
    if not en and not mn:
        raise SystemExit("%s: an entry needs EventName or MetricName" % path)
    event_half = as_metric is False
    if as_metric is not None:
        en, mn = (None, mn) if as_metric else (en, None)
    e = {"kind": 1 if en else 3, "name": en or mn, "file": path, "dir": d, "have": 0, "approx": 0,
         "counter_width": 0, "mhpmevent_bit": -1}
    if en and d == "standard":
        e["kind"] = 2
    for f, k in KEYS.items():
        t = text_of(o.get(k)) if k in o else None
        e[f] = t if t and not (event_half and f in METRIC_KEYS) else None
    if not e["notes"]:
        t = text_of(o.get("Errata")) if "Errata" in o else None
        e["notes"] = t if t else None
    if e["notes"] and e["notes"].lower() in ("null", "none"):
        e["notes"] = None
    a = text_of(o.get("Approximate")) if "Approximate" in o else None
    e["approx"] = 1 if a and (a == "1" or a.lower() == "true") else 0
    for key, bit, f in NUMS:
        e[f] = 0
        if e["kind"] != 1:
            continue
        v = number_of(o, key, path, e["name"])
        if v is not None:
            e[f] = v
            e["have"] |= bit
    e["terms"] = event_terms(o) if e["kind"] == 1 else None
    e["msr_value"] = 0
    if e["have"] & (1 << 6):
        v = number_of(o, "MSRValue", path, e["name"])
        if v is not None:
            e["msr_value"] = v
    for key, f, lo, hi in (("CounterWidth", "counter_width", 1, 64), ("MhpmeventBit", "mhpmevent_bit", 0, 63)):
        v = number_of(o, key, path, e["name"], lo, hi)
        if v is not None:
            e[f] = v
    return e


# perf's keys that jevents.py turns into a PMU's format terms, in its order (tables-load.c's event_terms())
TERM_KEYS = (("PortMask", "ch_mask="), ("FCMask", "fc_mask="), ("RdWrMask", "rdwrmask="), ("EnAllCores", "enallcores="),
             ("EnAllSlices", "enallslices="), ("SliceId", "sliceid="), ("ThreadMask", "threadmask="))


def event_terms(o):
    """The terms perf's jevents.py adds after an event's event and umask, in its order: those of TERM_KEYS
    (each unless zero), then the Filter field as written (tables-load.c's event_terms(), for tables
    loaded at run time)."""
    out = ["%s%s" % (t, text_of(o[k])) for k, t in TERM_KEYS if k in o and text_of(o[k]) and int(text_of(o[k]), 0)]
    if "Filter" in o and text_of(o["Filter"]):
        out.append(text_of(o["Filter"]))
    return ",".join(out) or None


class Pool:
    """Every string of the compiled entries, once, in one array: an entry holds offsets into it (0 for
    none), not pointers, so that the entries are constant data the dynamic loader need not relocate
    (18,500 pointers were relocated, 780 KB written, at the start of every program linked with the
    library, whether or not it ever loaded a table)."""

    def __init__(self):
        self.at = {}
        self.parts = ['\t"\\0"']  # offset 0 is no string
        self.size = 1

    def offset(self, v):
        if v is None:
            return 0
        if v not in self.at:
            self.at[v] = self.size
            self.size += len(v.encode("utf-8")) + 1
            self.parts.append(c_string(v).strip().replace("\n\t", "")[:-1] + '\\0"')
        return self.at[v]

    def c(self):
        if self.size >= 1 << 24:
            raise SystemExit("the compiled tables' strings exceed 16 MiB: a record holds a string's offset in "
                             "3 bytes (lib/tables.h, RECORD below)")
        return "const char pmu__builtin_pool[] =\n%s;\n" % "\n".join(self.parts)


def index_key(name, kind, order):
    """tables-index.c's pmu__tables_cmp_order as a sort key: the name as strcasecmp orders it, events
    before metrics (kind 3), native before standard (kind 2), then load order."""
    return (name.encode("ascii").lower(), kind == 3, kind == 2, order)


def aliases_of(entries):
    """(entry index, alias) for each alias of each entry, as tables-index.c's push_aliases splits an
    Aliases list: at commas, blanks (C isspace) trimmed, empty ones dropped."""
    return [(j, t.strip(" \t\n\v\f\r")) for j, e in enumerate(entries) if e["aliases"]
            for t in e["aliases"].split(",") if t.strip(" \t\n\v\f\r")]


def merged(cpu, std):
    """The name index of a table holding directory @cpu's entries, then the standard names' (@cpu
    empty: those alone): (run, name) in index order, the run each name comes from being 0 the CPU
    directory's names, 1 the standard names, 2 the CPU directory's aliases, 3 the standard aliases,
    each run in its own index order."""
    n = len(cpu)
    els = [(index_key(e["name"], e["kind"], j), 0, e["name"]) for j, e in enumerate(cpu)]
    els += [(index_key(e["name"], e["kind"], n + j), 1, e["name"]) for j, e in enumerate(std)]
    els += [(index_key(t, cpu[j]["kind"], j), 2, t) for j, t in aliases_of(cpu)]
    els += [(index_key(t, std[j]["kind"], n + j), 3, t) for j, t in aliases_of(std)]
    return [(r, name) for _, r, name in sorted(els, key=lambda x: x[0])]  # stable: ties keep the runs' order


def same_bits(index):
    """Bit k (8 to a byte, first in the low bit) set when name k of @index (merged()) equals name k - 1
    as strcasecmp compares them: the index's duplicate check (tables-index.c) reads these bits, not the
    strings, for a table that follows the merge script (test-tables-compiled: each bit against
    strcasecmp, and the index against the one built by comparing)."""
    out = [0] * ((len(index) + 7) // 8)
    for k in range(1, len(index)):
        if index[k][1].encode("ascii").lower() == index[k - 1][1].encode("ascii").lower():
            out[k // 8] |= 1 << (k % 8)
    return out


def merge_script(index):
    """@index (merged()) as the sequence of the runs its names come from. Returns how many names, and
    the runs four to a byte, 2 bits each, first in the low bits. tables-index.c follows it instead of
    merging (test-tables-compiled: equal to sorting, name by name, for every directory)."""
    out = [0] * ((len(index) + 3) // 4)
    for k, (r, _) in enumerate(index):
        out[k // 4] |= r << (2 * (k % 4))
    return len(index), out


ENCODING = ("event", "umask", "cmask", "inv", "edge", "any", "msr_index", "msr_value", "config_code")


# perf encodes these by name whatever a file says (lib/tables-load.c: perf_event_rules)
BY_NAME = {"INST_RETIRED.ANY", "INST_RETIRED.ANY_P", "CPU_CLK_UNHALTED.REF", "CPU_CLK_UNHALTED.THREAD",
           "CPU_CLK_UNHALTED.CORE", "CPU_CLK_UNHALTED.THREAD_ANY"}


def show(e):
    return ", ".join("%s %#x" % (f, e[f]) for f in ENCODING if e[f]) or "event 0"


def override_key(e):
    """What an entry defines: its name (as strcasecmp compares), its PMU and whether it is a metric."""
    return (e["name"].encode("ascii").lower(), (e["unit"] or "").lower(), e["kind"] == 3)


def combine(root, by_dir):
    """The directories a mapfile row names together, "A+B" (libpmu's own table of a CPU, then Intel's
    full one: events/README.md), compiled as one directory named so: A's entries, then each of B's that
    A does not define for the same PMU. An entry of A that hides one of B must encode the same event
    (the build stops naming both otherwise): the standard names' mappings re-checked against the vendor's
    data. A directory named only inside such rows is not compiled alone."""
    with open(os.path.join(root, "mapfile.csv"), encoding="utf-8") as f:
        named = [c[2] for c in (ln.split(",") for ln in f.read().splitlines()[1:]) if len(c) >= 3]
    rows = sorted(set(d for d in named if "+" in d))
    alone = set(d for d in named if "+" not in d)
    inside = set()
    for spec in rows:
        parts = spec.split("+")
        missing = [p for p in parts if p not in by_dir]
        if missing:
            raise SystemExit("mapfile.csv: %s: no table directory %s" % (spec, ", ".join(missing)))
        out, defined = [], {}
        for p in parts:
            for e in by_dir[p]:
                k = override_key(e)
                if k in defined:
                    first = defined[k]
                    if (e["kind"] == 1 and first["dir"] != e["dir"] and e["name"].upper() not in BY_NAME and
                            any(first[f] != e[f] for f in ENCODING)):
                        raise SystemExit("%s: %s: %s, and %s: %s; the table named first in mapfile.csv row %s "
                                         "would hide the other's encoding" % (first["file"], first["name"], show(first),
                                                                              e["file"], show(e), spec))
                    continue
                defined[k] = e
                out.append(dict(e, dir=spec))
        by_dir[spec] = out
        inside.update(parts[1:])
    for p in inside - alone:
        del by_dir[p]


# The fields of a compiled record, by their bits in its mask (lib/tables.h's enum pmu_bfield, which the
# generated file checks): a record is a mask, bit f set when field f differs from its default (-1 for
# mhpmevent_bit, 0 for the others), then the values of the strings set (each its pool offset in 3
# bytes, low first), then those of the numbers set (unsigned LEB128: 7 bits a byte, low first, as the
# mask), each in field order. An Intel event's usual fields have the low bits, so that its mask is one
# byte. Not in the record: the kind (the directory's kinds array holds it) and the directory (every
# entry's is the one it is compiled in).
RECORD = ["name", "file", "desc", "pdesc", "have", "event", "umask", "cmask", "inv", "edge", "any", "msr_index",
          "msr_value", "config_code", "stdnames", "unit", "notes", "approx_note", "topdown", "aliases", "generic",
          "source", "expr", "group", "scale_unit", "threshold", "params", "counter_csr", "pfm_name",
          "approx_names", "approx", "counter_width", "mhpmevent_bit", "terms"]


def leb128(v):
    """@v (0 <= v < 2^64) as unsigned LEB128 bytes."""
    if not 0 <= v < 1 << 64:
        raise SystemExit("a compiled field's value %d is not 0..2^64-1" % v)
    out = []
    while v > 0x7f:
        out.append(v & 0x7f | 0x80)
        v >>= 7
    return out + [v]


def records(d, entries, pool):
    """Directory @d's entries as records (RECORD): the bytes of each, and where each begins in the
    directory's array of them, one more for where the last ends."""
    rec, at, size = [], [], 0
    for e in entries:
        if e["dir"] != d:
            raise SystemExit("%s: %s: directory %s: a built-in entry's directory is the one it is compiled in"
                             % (e["file"], e["name"], e["dir"]))
        mask, strs, nums = 0, [], []
        for b, f in enumerate(RECORD):
            v = pool.offset(e[f]) if f in STRINGS else e[f]
            if v != (-1 if f == "mhpmevent_bit" else 0):
                mask |= 1 << b
                if f in STRINGS:
                    strs += [v & 0xff, v >> 8 & 0xff, v >> 16]
                else:
                    nums += leb128(v)
        r = leb128(mask) + strs + nums
        at.append(size)
        rec.append(r)
        size += len(r)
    if size >= 1 << 32:
        raise SystemExit("%s: the compiled records exceed 4 GB" % d)
    return rec, at + [size]


def compiled(root, files):
    """C arrays of compiled entries, one per built-in table directory."""
    by_dir = {}
    for f in files:
        if not f.endswith(".json"):
            continue
        d = os.path.dirname(f).replace(os.sep, "/")
        with open(os.path.join(root, f), encoding="utf-8") as fh:
            try:
                data = json.load(fh)
            except ValueError as e:
                raise SystemExit("%s: not valid JSON: %s (check it with `pmu check-tables`)" % (f, e))
        if isinstance(data, dict) and isinstance(data.get("Events"), list):
            data = data["Events"]
        if not isinstance(data, list) or not all(isinstance(o, dict) for o in data):
            raise SystemExit("%s: expected an array of objects (perf's pmu-events format)" % f)
        by_dir.setdefault(d, []).extend(e for o in data for e in compile_entries(o, f.replace(os.sep, "/"), d))
    combine(root, by_dir)
    out = []
    names = []
    pool = Pool()
    dirs = sorted(by_dir.items())
    std = by_dir.get("standard", [])
    # the names first, each directory's in its index order, then the aliases, then the StdNames lists:
    # what a first context reads in full (its index's duplicate check, the search for a standard
    # name's native event) lies in a few pages, not spread among the descriptions
    for d, entries in dirs:
        for j in sorted(range(len(entries)), key=lambda j: index_key(entries[j]["name"], entries[j]["kind"], j)):
            pool.offset(entries[j]["name"])
    for d, entries in dirs:
        for _, t in aliases_of(entries):
            pool.offset(t)
    for d, entries in dirs:
        for e in entries:
            pool.offset(e["stdnames"])
    for i, (d, entries) in enumerate(dirs):
        if len(entries) > 0xffff:
            raise SystemExit("%s: more than 65535 entries in one directory (its indexes are unsigned short: "
                             "lib/tables.h's struct pmu_builtin_dir)" % d)
        rec, at = records(d, entries, pool)
        out.append("static const unsigned char dir_%d_rec[] = {" % i)
        out.extend("\t%s," % ", ".join(map(str, r)) for r in rec)
        out.append("\t0\n};" if not rec else "};")
        out.append("static const uint32_t dir_%d_at[] = { %s };" % (i, ", ".join(map(str, at))))
        # the entries in the index's order (tables-index.c: pmu__tables_cmp_order within one directory:
        # names as strcasecmp orders them, events before metrics, native before standard, then load
        # order), so that the index merges sorted runs instead of sorting at every start
        order = sorted(range(len(entries)), key=lambda j: index_key(entries[j]["name"], entries[j]["kind"], j))
        out.append("static const unsigned short dir_%d_order[] = { %s };" % (i, ", ".join(map(str, order)) or "0"))
        out.append("static const uint32_t dir_%d_order_name[] = { %s };" %
                   (i, ", ".join(str(pool.offset(entries[j]["name"])) for j in order) or "0"))
        # the native entries with StdNames, in load order: the only ones a standard name's search reads
        with_std = [j for j, e in enumerate(entries) if e["kind"] == 1 and e["stdnames"]]
        out.append("static const unsigned short dir_%d_with_std[] = { %s };" % (i, ", ".join(map(str, with_std)) or "0"))
        # the kinds alone, a byte each: all that the index's build reads of every entry
        if any(not 0 <= e["kind"] <= 255 for e in entries):
            raise SystemExit("%s: an entry's kind does not fit a byte" % d)
        out.append("static const unsigned char dir_%d_kind[] = { %s };" % (i, ", ".join(str(e["kind"]) for e in entries) or "0"))
        als = sorted(aliases_of(entries), key=lambda a: index_key(a[1], entries[a[0]]["kind"], a[0]))
        out.append("static const struct pmu_builtin_alias dir_%d_aliases[] = { %s };" %
                   (i, ", ".join("{ %d, %d }" % (pool.offset(t), j) for j, t in als) or "{ 0, 0 }"))
        index = merged(entries if d != "standard" else [], std)
        nm, script = merge_script(index)
        out.append("static const unsigned char dir_%d_merge[] = { %s };" % (i, ", ".join(map(str, script)) or "0"))
        same = same_bits(index)
        out.append("static const unsigned char dir_%d_same[] = { %s };" % (i, ", ".join(map(str, same)) or "0"))
        names.append((d, i, len(entries), len(als), nm, len(with_std)))
    out.append("const struct pmu_builtin_dir pmu__builtin_dirs[] = {")
    for d, i, n, na, nm, ns in names:
        out.append('\t{ "%s", %d, dir_%d_rec, dir_%d_at, %d, dir_%d_order, dir_%d_order_name, dir_%d_aliases, %d, '
                   'dir_%d_merge, dir_%d_same, %d, dir_%d_with_std, %d, dir_%d_kind },' %
                   (d, pool.offset(d), i, i, n, i, i, i, na, i, i, nm, i, ns, i))
    out.append("};")
    # lib/tables.h's field numbers are RECORD's: a record written in one order is not read in another
    out.extend("_Static_assert(PMU_BF_%s == %d, \"gen-tables.py's RECORD\");" % (f.upper(), b)
               for b, f in enumerate(RECORD))
    out.append("_Static_assert(PMU_BF_N == %d, \"gen-tables.py's RECORD\");" % len(RECORD))
    out.append("_Static_assert(PMU_BF_STRINGS == %#xull, \"gen-tables.py's STRINGS\");" %
               sum(1 << b for b, f in enumerate(RECORD) if f in STRINGS))
    out.append("const size_t pmu__builtin_ndirs = %d;" % len(names))
    return pool.c() + "\n" + "\n".join(out) + "\n"


SPECIAL = ".[]()*+?{}|^$\\"


def top_alternative(p):
    """tables-cpumap.c's map_top_alternative(): a '|' outside parentheses and bracket expressions."""
    depth, i = 0, 0
    while i < len(p):
        c = p[i]
        if c == "\\" and i + 1 < len(p):
            i += 1
        elif c == "[":
            i += 2 if p[i + 1:i + 2] == "^" else 1  # a ']' right after '[' or '[^' is a member
            if p[i:i + 1] == "]":
                i += 1
            while i < len(p) and p[i] != "]":
                i += 1
            if i >= len(p):
                return True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth <= 0:
            return True
        i += 1
    return False


def map_start(p):
    """tables-cpumap.c's pmu__tables_map_start(): (lit, group), the pattern's literal start (what every key
    it matches begins with) and the end of a group of plain alternatives after it (0 if none);
    test-mapfile compares the two for every row."""
    if top_alternative(p):
        return 0, 0
    n = next((i for i, c in enumerate(p) if c in SPECIAL), len(p))
    g = 0
    if n and n < len(p) and p[n] in "*?{":
        n -= 1
    elif p[n:n + 1] == "(":
        g = next((i for i in range(n + 1, len(p)) if p[i] in SPECIAL.replace("|", "")), len(p))
        if p[g:g + 1] != ")" or p[g + 1:g + 2] in ("*", "?", "{", "+"):
            g = 0
    return n, g


def map_rows(text):
    """The data rows of a mapfile's text as tables-cpumap.c's pmu__tables_map_next() reads them: (line,
    pattern, directory); comments, blank lines, lines of 512 bytes or more and the header skipped, the
    columns split at commas (empty ones dropped, as strtok does)."""
    rows = []
    for lineno, line in enumerate(text.split("\n"), 1):
        if not line or len(line.encode("utf-8")) >= 512 or line.startswith("#"):
            continue
        if line.endswith("\r"):
            line = line[:-1]
        cols = [c for c in line.split(",") if c][:3]
        if len(cols) < 3 or cols[1].lower() == "version":
            continue
        rows.append((lineno, cols[0], cols[2]))
    return rows


def compiled_map(text):
    """The built-in mapfile's rows as C data (struct pmu_builtin_maprow): each pattern's literal start
    computed here, so that the library skips the rows of other CPUs without reading their patterns."""
    out = ["const struct pmu_builtin_maprow pmu__builtin_maprows[] = {"]
    rows = map_rows(text)
    for lineno, pat, d in rows:
        lit, group = map_start(pat)
        if max(lineno, lit, group) > 0xffff:
            raise SystemExit("mapfile.csv line %d: too long a file or pattern for struct pmu_builtin_maprow" % lineno)
        out.append("\t{ %s, %s, %d, %d, %d }," % (c_string(pat).strip(), c_string(d).strip(), lineno, lit, group))
    if not rows:
        out.append("\t{ NULL, NULL, 0, 0, 0 },")
    out.append("};")
    out.append("const size_t pmu__builtin_nmaprows = %d;" % len(rows))
    return "\n".join(out) + "\n\n"


def main():
    if len(sys.argv) == 3 and sys.argv[1] == '--list':
        for f in table_files(sys.argv[2]):
            print(os.path.join(sys.argv[2], f))
        return 0
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    root, out = sys.argv[1], sys.argv[2]
    files = table_files(root)
    with open(out, 'w', encoding='utf-8') as o:
        o.write('/* Generated by gen/gen-tables.py from events/. Do not edit. */\n')
        o.write('#include <stddef.h>\n#include "tables.h"\n\n')
        # JSON files are compiled below; only the other files (mapfile.csv) are embedded as text, the
        # mapfile compiled too (its text the oracle of its rows: test-mapfile)
        texts = [f for f in files if not f.endswith('.json')]
        for i, f in enumerate(texts):
            with open(os.path.join(root, f), encoding='utf-8') as fh:
                data = fh.read()
            o.write('static const char file_%d[] =\n%s;\n\n' % (i, c_string(data)))
            if f == "mapfile.csv":
                o.write(compiled_map(data))
        o.write('const struct pmu_builtin_file pmu__builtin_files[] = {\n')
        for i, f in enumerate(texts):
            o.write('\t{ "%s", file_%d, sizeof(file_%d) - 1 },\n' % (f.replace(os.sep, '/'), i, i))
        o.write('};\n')
        o.write('const size_t pmu__builtin_nfiles = %d;\n\n' % len(texts))
        o.write(compiled(root, files))
    return 0


if __name__ == '__main__':
    sys.exit(main())
