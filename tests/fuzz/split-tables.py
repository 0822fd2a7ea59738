#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The fuzz-tables seeds: the table files named on stdin (one path a line), each cut into
tables of at most N entries, written to OUTDIR as seed-1.json, seed-2.json, ...

    find events tests/tables -name '*.json' | sort | split-tables.py OUTDIR [N]

A perf array [...] is cut into arrays, an Intel perfmon file {"Header": ..., "Events": [...]}
(or "Metrics") into files with the same other keys; a file that is not JSON, or has N entries
or fewer, is copied as it is. Why: an execution costs in proportion to its input, and libFuzzer
mutates its seeds at their size: with the whole files (up to 110 KB; 10 ms an execution for a
22 KB metrics file) fuzz-tables ran about 1,600 executions per CPU second, with pieces of 8
entries (10 KB at most) 3,800, and reached more of the code in the same 30 s. The whole files
stay in the replay test (tests/fuzz/meson.build)."""
import json
import os
import sys


def main():
    out = sys.argv[1]
    k = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    n = 0
    for path in sys.stdin.read().splitlines():
        with open(path, encoding='utf-8', errors='surrogateescape') as f:
            text = f.read()
        pieces = [text]
        try:
            doc = json.loads(text)
        except ValueError:
            doc = None
        key = None
        items = doc
        if isinstance(doc, dict):
            key = next((x for x in ('Events', 'Metrics') if isinstance(doc.get(x), list)), None)
            items = doc[key] if key else None
        if isinstance(items, list) and len(items) > k:
            pieces = []
            for i in range(0, len(items), k):
                part = items[i:i + k]
                if key:
                    part = dict(doc, **{key: part})
                pieces.append(json.dumps(part, indent=2, ensure_ascii=False) + '\n')
        for p in pieces:
            n += 1
            with open(os.path.join(out, 'seed-%d.json' % n), 'w', encoding='utf-8',
                      errors='surrogateescape') as f:
                f.write(p)


main()
