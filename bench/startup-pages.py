#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Pages a program touches for the first time in a span, from valgrind lackey's memory trace.

usage: startup-pages.py TRACE MAPS BEGIN END
TRACE: the log of `valgrind --tool=lackey --trace-mem=yes` (lines "I  addr,size", " L addr,size",
" S addr,size", " M addr,size"); MAPS: the program's /proc/self/maps; BEGIN, END: the addresses of the
span's marker functions (hex; the span runs from the first instruction fetched at BEGIN to the next
fetched at END). Prints one line of JSON: for code (first executed), read (first read, not written in
the span) and written (first written), the pages counted by the mapping they lie in: 'libc', 'libpmu',
'libpfm', 'other library', 'program', 'heap and anonymous', 'stack'.

A page is counted when the span is the first time the program touches it, in the way counted (a
page read before the span and written in it counts as written: its first write is what costs a fresh
page). Valgrind runs the program in its own address space layout, but the pages the program itself
touches, and their mappings, are the program's.
"""
import collections
import json
import sys


def mappings(path):
    out = []
    with open(path) as f:
        for line in f:
            p = line.split()
            lo, hi = (int(x, 16) for x in p[0].split("-"))
            name = p[5] if len(p) > 5 else ""
            out.append((lo, hi, name))
    return out


def kind_of(name):
    base = name.rsplit("/", 1)[-1]
    if base.startswith("libc.so"):
        return "libc"
    if base.startswith("libpmu.so"):
        return "libpmu"
    if base.startswith("libpfm.so"):
        return "libpfm"
    if name == "[stack]":
        return "stack"
    if name in ("", "[heap]") or name.startswith("[anon"):
        return "heap and anonymous"
    if ".so" in base:
        return "other library"
    return "program"


def main():
    trace, maps, begin, end = sys.argv[1], mappings(sys.argv[2]), int(sys.argv[3], 16), int(sys.argv[4], 16)
    where = {}

    def kind(page):
        if page not in where:
            a = page << 12
            where[page] = next((kind_of(n) for lo, hi, n in maps if lo <= a < hi), "unmapped at exit")
        return where[page]

    touched, written = set(), set()
    first = {"code": collections.Counter(), "read": collections.Counter(), "written": collections.Counter()}
    new_read = set()
    inside = done = False
    with open(trace, errors="replace") as f:
        for line in f:
            if line.startswith("=="):
                continue
            p = line.split()
            if len(p) != 2 or p[0] not in ("I", "L", "S", "M"):
                continue
            addr = int(p[1].split(",")[0], 16)
            if p[0] == "I":
                if addr == begin and not inside:
                    inside = True
                elif addr == end and inside:
                    done = True
                    break
            page = addr >> 12
            if inside:
                if p[0] == "I" and page not in touched:
                    first["code"][kind(page)] += 1
                elif p[0] == "L" and page not in touched:
                    new_read.add(page)
                elif p[0] in ("S", "M") and page not in written:
                    first["written"][kind(page)] += 1
                    new_read.discard(page)
            touched.add(page)
            if p[0] in ("S", "M"):
                written.add(page)
    if not done:
        sys.exit("startup-pages: the span's markers were not both seen in %s" % trace)
    for page in new_read:
        first["read"][kind(page)] += 1
    print(json.dumps({k: dict(v) for k, v in first.items()}, sort_keys=True))


if __name__ == "__main__":
    main()
