#!/usr/bin/env python3
"""Issue 15's rule "no dependency circle between files of lib/", checked: the file-level call graph
of lib/*.c through pmu__* (and pmu_* exported) functions and global data — which file defines a
symbol (a definition at column 0), which files use it — and every strongly connected component of
more than one file (a circle) printed with the calls that make it. Exit 1 when there is one.
  tests/lib-deps.py SRCDIR [-v]     (-v: every edge)
  tests/lib-deps.py --selftest      (two files calling each other must be found)"""
import re, sys, os, glob, tempfile
if sys.argv[1:2] == ['--selftest']:
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, 'lib'))
        open(os.path.join(d, 'lib', 'a.c'), 'w').write('int pmu__a(void)\n{\n\treturn pmu__b();\n}\n')
        open(os.path.join(d, 'lib', 'b.c'), 'w').write('/* pmu__a() */\nPMU_EXPORT int pmu__b(void)\n{\n\treturn 0;\n}\n'
                                                      'int pmu__c(void)\n{\n\treturn pmu__a();\n}\n')
        import subprocess
        r = subprocess.run([sys.executable, __file__, d], capture_output=True, text=True)
        ok = r.returncode == 1 and 'CIRCLE: a.c b.c' in r.stdout
        print('selftest:', 'ok (a.c <-> b.c found)' if ok else 'FAILED: ' + r.stdout)
        sys.exit(0 if ok else 1)
root = sys.argv[1]
files = sorted(glob.glob(os.path.join(root, 'lib', '*.c')))
text = {}
for f in files:
    s = open(f).read()
    s = re.sub(r'/\*.*?\*/', ' ', s, flags=re.S)       # comments
    s = re.sub(r'//[^\n]*', ' ', s)
    s = re.sub(r'"(\\.|[^"\\])*"', '""', s)             # strings
    text[os.path.basename(f)] = s
defs = {}
for f, s in text.items():
    # a function defined at column 0: "type name(" ... ")\n{"  or data "type name[] ="
    for m in re.finditer(r'^(?!static)[A-Za-z_][^;{}()\n]*?\b(pmu_{1,2}[A-Za-z0-9_]+)\s*\([^;{]*?\)\s*\n\{', s, re.M):
        defs.setdefault(m.group(1), set()).add(f)
    for m in re.finditer(r'^(?!static|extern)(?:const\s+)?(?:struct\s+)?[A-Za-z_][A-Za-z0-9_ *]*\b(pmu__[A-Za-z0-9_]+)\s*(\[[^\]]*\])?\s*=', s, re.M):
        defs.setdefault(m.group(1), set()).add(f)
edges = {f: set() for f in text}
why = {}
for f, s in text.items():
    for sym in set(re.findall(r'\b(pmu_{1,2}[A-Za-z0-9_]+)\b', s)):
        for d in defs.get(sym, ()):
            if d != f:
                edges[f].add(d); why.setdefault((f, d), set()).add(sym)
# Tarjan
index = {}; low = {}; st = []; on = set(); sccs = []; c = [0]
def sc(v):
    index[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
    for w in edges[v]:
        if w not in index: sc(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = st.pop(); on.discard(w); comp.append(w)
            if w == v: break
        sccs.append(comp)
sys.setrecursionlimit(10000)
for v in text:
    if v not in index: sc(v)
if '-v' in sys.argv:
    for f in sorted(edges):
        for d in sorted(edges[f]):
            print(f'{f} -> {d}: {" ".join(sorted(why[(f, d)]))}')
circles = [sorted(x) for x in sccs if len(x) > 1]
for comp in circles:
    print('CIRCLE:', ' '.join(comp))
    for a in comp:
        for b in comp:
            if b in edges[a]:
                print(f'   {a} -> {b}: {" ".join(sorted(why[(a, b)]))}')
print(f'{len(text)} files, {sum(len(e) for e in edges.values())} edges, {len(circles)} circles')
sys.exit(1 if circles else 0)
