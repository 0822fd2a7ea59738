#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Build step: the exported twins of <pmu.h>'s inline functions, from one list.

  gen-twins.py --list twins.list --template libpmu.sym.in --c OUT.c --sym OUT.sym HEADER...

For every line "name node nonnull..." of the list, OUT.c defines
name_fn() with the inline's own prototype (read from the HEADERs), calling
the inline; arguments given as "arg:what" are refused when NULL with -EINVAL
and "name_fn: NULL what or what". OUT.sym is the version script: the
template with each "@TWINS@" line replaced by the twins of the node it stands
in. Fails, naming the fix, when the list and the HEADERs' inline functions
(static inline or PMU_HOT, names without "pmu__") differ, so a new inline
function cannot be left without a twin. Standard library only."""
import argparse
import re
import sys

INLINE_RE = re.compile(r'(?:\bstatic\s+inline\b|\bPMU_HOT\b)\s+([A-Za-z_][\w\s*]*?)\b(pmu_[a-z0-9_]+)\s*'
                       r'\(([^()]*)\)\s*\{')
NODE_RE = re.compile(r'^([A-Za-z0-9_.]+)\s*\{')


def fail(msg):
    sys.exit('gen-twins.py: ' + msg)


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def header_inlines(paths):
    """name -> (return type, [parameter declarations], [parameter names])"""
    found = {}
    for path in paths:
        with open(path, encoding='utf-8') as f:
            text = strip_comments(f.read())
        for m in INLINE_RE.finditer(text):
            ret, name, params = ' '.join(m.group(1).split()), m.group(2), m.group(3)
            if name.startswith('pmu__'):
                continue
            decls = [' '.join(p.split()) for p in params.split(',')]
            if decls == ['void'] or decls == ['']:
                decls = []
            names = []
            for d in decls:
                a = re.search(r'(\w+)$', d)
                if not a or a.group(1) == d:
                    fail(f'{path}: cannot name parameter "{d}" of {name}(): give it a name')
                names.append(a.group(1))
            if name in found and found[name] != (ret, decls, names):
                fail(f'{path}: {name}() is defined twice with different prototypes')
            found[name] = (ret, decls, names)
    return found


def read_list(path):
    twins = []
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.split('#', 1)[0].split()
            if not line:
                continue
            if len(line) < 3:
                fail(f'{path}:{n}: want "name node nonnull..." ("-" for no NULL check)')
            checks = [] if line[2:] == ['-'] else [c.split(':', 1) for c in line[2:]]
            if any(len(c) != 2 for c in checks):
                fail(f'{path}:{n}: a NULL check is "argument:what"')
            twins.append((line[0], line[1], [(a, w.replace('_', ' ')) for a, w in checks]))
    names = [t[0] for t in twins]
    if len(set(names)) != len(names):
        fail(f'{path}: a name is listed twice')
    return twins


def declarator(ret, name, decls):
    sep = '' if ret.endswith('*') else ' '
    return f'{ret}{sep}{name}({", ".join(decls) or "void"})'


def twin_c(name, inline, checks):
    ret, decls, names = inline
    twin = name + '_fn'
    out = [f'PMU_EXPORT {declarator(ret, twin, decls)}', '{']
    if checks:
        for arg, _ in checks:
            if arg not in names:
                fail(f'twins.list: {name}() has no argument "{arg}" to check')
        if ret != 'int':
            fail(f'twins.list: {name}() returns {ret}, not int: its twin cannot refuse a NULL argument')
        cond = ' || '.join('!' + a for a, _ in checks)
        what = ' or '.join(w for _, w in checks)
        out += [f'\tif ({cond})', f'\t\treturn pmu__err(NULL, -EINVAL, "{twin}: NULL {what}");']
    call = f'{name}({", ".join(names)})'
    out += [f'\t{call};' if ret == 'void' else f'\treturn {call};', '}', '']
    return '\n'.join(out)


def version_script(template, twins):
    by_node = {}
    for name, node, _ in twins:
        by_node.setdefault(node, []).append(name + '_fn')
    out, node, used = [], None, set()
    for line in template.splitlines():
        m = NODE_RE.match(line)
        if m:
            node = m.group(1)
        if line.strip() == '@TWINS@':
            if node is None:
                fail('libpmu.sym.in: @TWINS@ outside a version node')
            out += [f'\t{t};' for t in sorted(by_node.get(node, []))]
            used.add(node)
            continue
        out.append(line)
    missing = sorted(set(by_node) - used)
    if missing:
        fail(f'libpmu.sym.in has no @TWINS@ line in node(s) {", ".join(missing)} that twins.list names')
    listed = set(re.findall(r'^\s+([a-z_0-9]+);', template, re.M))
    twice = sorted(listed & {t for ts in by_node.values() for t in ts})
    if twice:
        fail(f'libpmu.sym.in lists {", ".join(twice)} by hand: twins.list makes them; drop the line')
    return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--list', required=True)
    ap.add_argument('--template', required=True)
    ap.add_argument('--c', required=True)
    ap.add_argument('--sym', required=True)
    ap.add_argument('headers', nargs='+')
    a = ap.parse_args()

    twins = read_list(a.list)
    inlines = header_inlines(a.headers)
    listed = {t[0] for t in twins}
    unlisted = sorted(set(inlines) - listed)
    if unlisted:
        fail(f'{", ".join(n + "()" for n in unlisted)}: inline in the public headers without an exported twin; '
             'add a line to lib/twins.list and declare <name>_fn in include/pmu.h (or name it pmu__ if no '
             'program may call it)')
    gone = sorted(listed - set(inlines))
    if gone:
        fail(f'lib/twins.list names {", ".join(gone)}, which no public header defines inline; drop the line '
             '(its twin stays exported only if the library defines it by hand)')

    with open(a.template, encoding='utf-8') as f:
        sym = version_script(f.read(), twins)
    c = ['/* Generated by gen/gen-twins.py from lib/twins.list and the inline functions of <pmu.h>: */',
         '/* the exported twin of each, for programs and bindings that cannot inline. Do not edit. */',
         '#include <errno.h>', '#include "pmu.h"', '#include "common.h"', '#include "error.h"', '']
    c += [twin_c(name, inlines[name], checks) for name, _, checks in twins]
    with open(a.c, 'w', encoding='utf-8') as f:
        f.write('\n'.join(c))
    with open(a.sym, 'w', encoding='utf-8') as f:
        f.write('/* Generated by gen/gen-twins.py from lib/libpmu.sym.in and lib/twins.list. */\n' + sym)


if __name__ == '__main__':
    main()
