#!/usr/bin/env python3
"""Issue 41: each file of lib/ sees what it uses, and a set's layout is seen by the set's own files only.
The include graph of the private headers (lib/*.h) checked by symbols, in lib/, tests/ and bench/:
  1. every private header a file includes declares something the file uses (a function, variable,
     macro, enum constant, typedef, or a struct whose layout the file reads: a member, sizeof, a
     value of it), else the include is needless;
  2. a file that uses a private header's declaration includes that header itself, not through another;
  3. lib/README.md (the tour) names each module's header: the headers it names exist, a .c named with
     a header includes it, and a function a private header declares is defined by a .c named with it
     (or named on the header's line);
  4. a header the tour says is "owned by" some files (set-layout.h: struct pmu_set's layout) is
     included, directly or through another header, by those files only.
The command (tools/) includes no private header but its helpers': tests/test-tool-private.sh.
  tests/lib-includes.py SRCDIR [-v]    (-v: what each include is used for)
  tests/lib-includes.py --selftest     (a needless include, an indirect one and a stray owner found)"""
import fnmatch, glob, os, re, sys

KEYWORDS = set('''auto break case char const continue default do double else enum extern float for goto if
inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void
volatile while _Bool _Atomic _Static_assert __attribute__ __thread __typeof__ __extension__ bool'''.split())


def strip(s):
    """Comments, strings and character constants blanked (line breaks kept); continued lines joined."""
    s = s.replace('\\\n', ' ')
    out, i, n = [], 0, len(s)
    while i < n:
        c = s[i]
        if s.startswith('/*', i):
            j = s.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', s[i:j])); i = j
        elif s.startswith('//', i):
            j = s.find('\n', i)
            j = n if j < 0 else j
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and s[j] != c:
                j += 2 if s[j] == '\\' else 1
            out.append(c + c if c == '"' else '0'); i = j + 1
        else:
            out.append(c); i += 1
    return ''.join(out)


def balanced(s, i, o, c):
    """The index past the bracket that closes s[i] (== o)."""
    d = 0
    for j in range(i, len(s)):
        if s[j] == o:
            d += 1
        elif s[j] == c:
            d -= 1
            if d == 0:
                return j + 1
    return len(s)


def drop_attributes(s):
    while True:
        m = re.search(r'\b(__attribute__|PMU_PRINTF|__asm__)\s*\(', s)
        if not m:
            return s
        s = s[:m.start()] + ' ' + s[balanced(s, m.end() - 1, '(', ')'):]


class Src:
    """One file: its includes, what it declares at file scope, and what it uses."""

    def __init__(self, path, text):
        self.path = path
        self.includes = [m.group(1) for m in re.finditer(r'^\s*#\s*include\s*"([^"]+)"',
                                                         re.sub(r'/\*.*?\*/', '', text, flags=re.S), re.M)]
        self.raw = strip(text)
        self.macros = {}
        code, pp = [], []
        guard = None
        for line in self.raw.split('\n'):
            m = re.match(r'\s*#\s*(\w+)\s*(.*)', line)
            if not m:
                code.append(line)
                continue
            code.append('')
            if m.group(1) == 'ifndef' and guard is None:
                guard = m.group(2).strip()
            elif m.group(1) == 'define':
                d = re.match(r'(\w+)(\([^)]*\))?\s*(.*)', m.group(2))
                if d.group(1) != guard:
                    self.macros[d.group(1)] = d.group(3)
            if m.group(1) in ('if', 'elif', 'define'):  # a macro's body uses what it names
                pp.append(m.group(2) if m.group(1) != 'define' else re.sub(r'^\w+(\([^)]*\))?', '', m.group(2)))
        self.code = '\n'.join(code)
        self.pp = ';\n'.join(pp)
        self.decls = {}      # name -> kind ('fn', 'var', 'macro', 'enum', 'typedef', 'tag')
        self.fn_defs = set() # functions defined here (with a body)
        self.returns = {}    # function -> struct tag it returns a pointer to
        self.members = {}    # struct tag -> {member: struct tag of the member, or None}
        self.static = set()  # names declared static here
        self.fn_spans = []   # (start, end) of each function definition in code
        for name in self.macros:
            self.decls[name] = 'macro'
        self._top_level(self.code)
        self._struct_bodies(self.code)

    def _top_level(self, s):
        stmt, i, n, start = [], 0, len(s), 0
        while i < n:
            c = s[i]
            if c == '{':
                j = balanced(s, i, '{', '}')
                head = ''.join(stmt)
                if re.search(r'\)\s*$', drop_attributes(head)) and not re.search(r'=\s*$', head):
                    self._statement(head, body=s[i:j])       # a function definition
                    self.fn_spans.append((start, j))
                    stmt = []
                    i = start = j
                    continue
                stmt.append(s[i:j])                          # struct/enum body, initialiser
                i = j
                continue
            if c == ';':
                self._statement(''.join(stmt))
                stmt = []
                start = i + 1
            else:
                stmt.append(c)
            i += 1

    def _statement(self, st, body=None):
        st = drop_attributes(st).strip()
        if not st:
            return
        for m in re.finditer(r'\b(struct|union|enum)\s+(\w+)\s*\{', st):
            self.decls[m.group(2)] = 'tag'
        for m in re.finditer(r'\benum\b\s*\w*\s*\{', st):
            inner = st[m.end():balanced(st, m.end() - 1, '{', '}') - 1]
            for item in inner.split(','):
                e = re.match(r'\s*([A-Za-z_]\w*)', item)
                if e:
                    self.decls[e.group(1)] = 'enum'
        flat = st
        while re.search(r'\{[^{}]*\}', flat):
            flat = re.sub(r'\{[^{}]*\}', '\x01', flat)
        flat = flat.replace('\x01', '{}')
        flat = re.sub(r'=.*', '', flat, flags=re.S)
        if re.fullmatch(r'(typedef\s+)?(struct|union|enum)\s*\w*\s*(\{\})?', flat):
            return                                           # a tag alone (or a forward declaration)
        if flat.startswith('typedef'):
            m = re.search(r'\(\s*\*\s*(\w+)\s*\)', flat) or re.search(r'(\w+)\s*(\[[^\]]*\]\s*)*$', flat)
            if m:
                self.decls[m.group(1)] = 'typedef'
            return
        m = re.match(r'[^(]*\(\s*\*\s*(\w+)\s*\)\s*\(', flat)
        if m:
            self.decls[m.group(1)] = 'var'                   # a pointer to a function
            return
        m = re.match(r'[^(]*?(\w+)\s*\(', flat)
        if m and m.group(1) not in KEYWORDS:
            self.decls[m.group(1)] = 'fn' if body is None else 'inline' if re.search(r'\binline\b', flat) else 'fn'
            if re.search(r'\bstatic\b', flat):
                self.static.add(m.group(1))
            r = re.search(r'\bstruct\s+(\w+)\s*\*+\s*' + m.group(1) + r'\s*\(', flat)
            if r:
                self.returns[m.group(1)] = r.group(1)
            if body is not None:
                self.fn_defs.add(m.group(1))
            return
        for part in flat.split(','):
            m = re.search(r'(\w+)\s*(\[[^\]]*\]\s*)*$', part)
            if m and m.group(1) not in KEYWORDS:
                self.decls[m.group(1)] = 'var'
                if re.search(r'\bstatic\b', flat):
                    self.static.add(m.group(1))

    def _struct_bodies(self, s):
        for m in re.finditer(r'\b(?:struct|union)\s+(\w+)\s*\{', s):
            body = s[m.end():balanced(s, m.end() - 1, '{', '}') - 1]
            mem = self.members.setdefault(m.group(1), {})
            for d in re.finditer(r'\s*(?:(?:const\s+)?\bstruct\s+(\w+)\s*(?:\{[^{}]*\})?)?([^;{}]*);', body):
                for part in d.group(2).split(','):
                    nm = re.search(r'(\w+)\s*(\[[^\]]*\]\s*)*(:\s*\d+\s*)?$', part)
                    if nm:
                        mem[nm.group(1)] = d.group(1)


class Tree:
    def __init__(self, root):
        self.root = root
        self.files = {}
        for pat in ('lib/*.c', 'lib/*.h', 'tests/*.c', 'tests/*.h', 'tests/fuzz/*.c', 'tests/fuzz/*.h',
                    'bench/*.c', 'bench/*.h'):
            for p in sorted(glob.glob(os.path.join(root, pat))):
                rel = os.path.relpath(p, root)
                self.files[rel] = Src(rel, open(p, encoding='utf-8', errors='replace').read())
        self.private = {f for f in self.files if f.startswith('lib/') and f.endswith('.h')}
        self.returns = {}
        for g in self.files.values():
            self.returns.update(g.returns)
        # every struct's members, and which header defines each tag
        self.members, self.tag_home = {}, {}
        for f in sorted(self.files):
            for t, mem in self.files[f].members.items():
                self.members.setdefault(t, {}).update(mem)
        for h in sorted(self.private):
            for name, kind in self.files[h].decls.items():
                if kind == 'tag':
                    self.tag_home[name] = h

    def resolve(self, f, inc):
        """The file of the tree #include "inc" in f names (tests and fuzz targets have lib/ on their path)."""
        here = os.path.normpath(os.path.join(os.path.dirname(f), inc))
        if here in self.files or os.path.exists(os.path.join(self.root, here)):
            return here
        if f.startswith('tests/') and 'lib/' + inc in self.files:
            return 'lib/' + inc
        return None

    def private_includes(self, f):
        out = []
        for inc in self.files[f].includes:
            r = self.resolve(f, inc)
            if r in self.private:
                out.append(r)
        return out

    def closure(self, f, seen=None):
        seen = set() if seen is None else seen
        for h in self.private_includes(f) if f in self.files else []:
            if h not in seen:
                seen.add(h)
                self.closure(h, seen)
        return seen

    def uses(self, f):
        """What f uses: identifiers (not member names), and the struct tags whose layout it reads."""
        src = self.files[f]
        idents = set()
        for code in (src.code, src.pp):
            toks = re.findall(r'->|[A-Za-z_]\w*|\S', code)
            for k, t in enumerate(toks):
                if re.match(r'[A-Za-z_]', t) and not (k and toks[k - 1] in ('.', '->', 'struct', 'union', 'enum')):
                    idents.add(t)
        layout = set()
        code = src.code
        # scopes: each function definition, and what is outside them (its variables seen by all)
        spans, at = [], 0
        for a, b in src.fn_spans:
            spans.append((at, a, False))
            spans.append((a, b, True))
            at = b
        spans.append((at, len(code), False))
        glob_env, glob_decl = self._vars(code, [(a, b) for a, b, fn in spans if not fn], layout)
        for a, b, fn in spans:
            env, decl = (glob_env, glob_decl) if not fn else self._vars(code, [(a, b)], layout, glob_env)
            self._chains(code, a, b, env, decl, layout)
        self._chains(src.pp, 0, len(src.pp), glob_env, set(), layout)
        for m in re.finditer(r'\b(?:sizeof|offsetof|_Alignof|__alignof__)\s*\(\s*(?:const\s+)?(?:struct|union)\s+(\w+)\b'
                             r'\s*(\*?)', code):
            if not m.group(2):
                layout.add(m.group(1))
        for m in re.finditer(r'\(\s*(?:const\s+)?(?:struct|union)\s+(\w+)\b\s*\)\s*\{', code):
            layout.add(m.group(1))                           # a compound literal
        return idents, layout

    def _vars(self, code, ranges, layout, base=None):
        """Names typed struct T (or a pointer to one) declared in @ranges of @code: name -> tags, and
        the positions of their declarators; a value of T declared there reads T's layout."""
        env = {k: set(v) for k, v in (base or {}).items()}
        local = {}
        decl = set()
        for a, b in ranges:
            part = code[a:b]
            if base is None:                                 # file scope: a prototype's parameters are no variables
                part = re.sub(r'\([^()]*\)', lambda m: ' ' * len(m.group()), part)
                while re.search(r'\([^()]*\)', part):
                    part = re.sub(r'\([^()]*\)', lambda m: ' ' * len(m.group()), part)
            for m in re.finditer(r'\b(?:struct|union)\s+(\w+)\b((?:\s*(?:\*|\bconst\b|\brestrict\b))*)\s*'
                                 r'([A-Za-z_]\w*)\s*(\[[^\]]*\])?\s*([,;=)\[:]?)', part):
                tag, ptr, name = m.group(1), m.group(2), m.group(3)
                if name in KEYWORDS:
                    continue
                local.setdefault(name, set()).add(tag)
                decl.add(a + m.start(3))
                if '*' not in ptr and m.group(5) != ')' and not re.match(r'\s*\(', part[m.end(3):]) and \
                        not re.search(r'\bextern\s+(const\s+)?$', part[max(0, m.start() - 20):m.start()]):
                    layout.add(tag)                          # a value of it (a local, a member, an array)
                at = m.end(3)                                # more declarators: ", *b", ", c[4]"
                while True:
                    d = re.match(r'\s*(?:\[[^\]]*\])?\s*,\s*(\**)\s*([A-Za-z_]\w*)\s*(?=[,;=\[])', part[at:])
                    if not d:
                        break
                    local.setdefault(d.group(2), set()).add(tag)
                    decl.add(a + at + d.start(2))
                    at += d.end()
        env.update(local)                                    # a local name hides a global one
        return env, decl

    def _chains(self, code, a, b, env, decl, layout):
        """Member accesses in code[a:b]: a variable of @env, or a call of a function that returns a
        struct T *, then -> . [ ] ++ --: each struct whose member is read, or whose size is used."""
        toks = [(m.start(), m.group()) for m in re.finditer(r'->|\+\+|--|\+=|-=|[A-Za-z_]\w*|\S', code[a:b])]
        n = len(toks)
        k = 0
        while k < n:
            pos, t = toks[k]
            types = None
            if re.match(r'[A-Za-z_]', t) and not (k and toks[k - 1][1] in ('.', '->')) and a + pos not in decl:
                if t in env:
                    types = set(env[t]); k += 1
                elif t in self.returns and k + 1 < n and toks[k + 1][1] == '(':
                    d, k = 0, k + 1
                    while k < n:
                        d += toks[k][1] == '('; d -= toks[k][1] == ')'; k += 1
                        if d == 0:
                            break
                    types = {self.returns[t]}
            if types is None:
                if t == 'sizeof':                            # sizeof *p, sizeof(*p), sizeof(p[0])
                    j = k + 1
                    while j < n and toks[j][1] in ('(', '*'):
                        j += 1
                    if j < n and toks[j][1] in env and (toks[k + 1][1] == '*' or toks[min(k + 2, n - 1)][1] == '*'
                                                        or (j + 1 < n and toks[j + 1][1] == '[')):
                        layout |= env[toks[j][1]]
                k += 1
                continue
            while k < n and types:
                t = toks[k][1]
                if t == '[':
                    layout |= types                          # an element: its size
                    d = 0
                    while k < n:
                        d += toks[k][1] == '['; d -= toks[k][1] == ']'; k += 1
                        if d == 0:
                            break
                elif t in ('->', '.') and k + 1 < n:
                    m = toks[k + 1][1]
                    have = {ty for ty in types if m in self.members.get(ty, {})}
                    layout |= have
                    types = {self.members[ty][m] for ty in have if self.members[ty][m]}
                    k += 2
                elif t in ('++', '--', '+=', '-='):
                    layout |= types
                    break
                else:
                    break

    def declared_by(self, h):
        """What private header h declares itself: name -> kind."""
        return self.files[h].decls


def check(root, verbose=False):
    tr = Tree(root)
    fails = []
    owners = tour_owners(root)
    fails += tour(root, tr)
    home = {}
    for h in sorted(tr.private):
        for name, kind in tr.declared_by(h).items():
            if kind != 'tag':
                home.setdefault(name, []).append(h)
    for f in sorted(tr.files):
        incs = tr.private_includes(f)
        if not incs and f not in tr.private and not f.startswith('lib/'):
            continue
        idents, layout = tr.uses(f)
        own = tr.files[f].decls
        # 1. each include used
        for h in incs:
            d = tr.declared_by(h)
            used = sorted(x for x in idents if x in d and d[x] != 'tag') + \
                sorted('struct ' + t for t in layout if tr.tag_home.get(t) == h)
            if not used:
                fails.append(f'{f} includes "{os.path.basename(h)}" and uses nothing it declares: a needless include')
            elif verbose:
                print(f'{f}: {os.path.basename(h)} for {" ".join(used[:6])}{" ..." if len(used) > 6 else ""}')
        # 2. what it uses of a private header, included directly
        for x in sorted(idents):
            if x not in home or (x in own and (x in tr.files[f].static or x not in tr.files[f].fn_defs)):
                continue
            hs = home[x]
            if f in hs or any(h in incs for h in hs):
                continue
            fails.append(f'{f} uses {x} of "{os.path.basename(hs[0])}" without including it{through(tr, f, hs[0])}')
        for t in sorted(layout):
            h = tr.tag_home.get(t)
            if h and h != f and h not in incs and t not in tr.files[f].members:
                fails.append(f'{f} reads the layout of struct {t} ("{os.path.basename(h)}") without including '
                             f'it{through(tr, f, h)}')
    # 4. owned headers
    for h, who in owners.items():
        if h not in tr.files:
            fails.append(f'lib/README.md says {h} is owned by some files, but there is no {h}')
            continue
        for f in sorted(tr.files):
            if f != h and h in tr.closure(f) and f not in who:
                how = ' (it includes it)' if h in tr.private_includes(f) else through(tr, f, h)
                fails.append(f'{f} sees "{os.path.basename(h)}"{how}, which the tour says '
                             f'only {", ".join(os.path.basename(x) if x.startswith("lib/") else x for x in sorted(who))} may')
    return tr, fails


def through(tr, f, h):
    """How f sees h: " (it sees it through read.h -> set-layout.h)", or "" when it does not."""
    path = {f: None}
    todo = [f]
    while todo:
        g = todo.pop(0)
        for i in tr.private_includes(g) if g in tr.files else []:
            if i not in path:
                path[i] = g
                todo.append(i)
    if h not in path:
        return ''
    chain = [h]
    while path[chain[-1]] != f:
        chain.append(path[chain[-1]])
    return ' (it sees it through ' + ' -> '.join(os.path.basename(x) for x in reversed(chain)) + ')'


def tour_lines(root):
    for line in open(os.path.join(root, 'lib', 'README.md'), encoding='utf-8'):
        m = re.match(r'^- (`.*?) — (.*)', line)
        if m:
            yield re.findall(r'`([^`]*)`', m.group(1)), m.group(2)


def tour_owners(root):
    """Headers the tour says are "owned by" files: header -> those files (paths from the root)."""
    out = {}
    for names, text in tour_lines(root):
        m = re.search(r'owned by (.*?)(;|$)', text)
        if m:
            who = {('lib/' + w if '/' not in w else w) for w in re.findall(r'`([^`]*)`', m.group(1))}
            for h in names:
                if h.endswith('.h'):
                    out['lib/' + h] = who
    return out


def tour(root, tr):
    """3. The tour names each module's header."""
    fails, own, line_of = [], {}, {}
    for names, text in tour_lines(root):
        hs = ['lib/' + x for x in names if x.endswith('.h')]
        for x in names:
            line_of['lib/' + x] = (names, text)
            if x.endswith('.h') and 'lib/' + x not in tr.files:
                fails.append(f'lib/README.md names {x} as a header, and there is no lib/{x}')
        for x in names:
            if x.endswith('.c') and hs:
                own['lib/' + x] = hs
                if 'lib/' + x in tr.files and not set(hs) & set(tr.private_includes('lib/' + x)):
                    fails.append(f'lib/{x} does not include its own header ({", ".join(os.path.basename(h) for h in hs)}, '
                                 'as lib/README.md names it)')
    for f in sorted(x for x in tr.files if x.startswith('lib/') and x.endswith('.c')):
        for fn in sorted(tr.files[f].fn_defs):
            for h in sorted(tr.private):
                if tr.declared_by(h).get(fn) != 'fn' or h in own.get(f, []):
                    continue
                hl = line_of.get(h, ([], ''))
                if any(fnmatch.fnmatch(os.path.basename(f), x) for x in re.findall(r'`([^`]*)`', hl[1])):
                    continue                                 # the header's line names the file
                fails.append(f'{f} defines {fn} of "{os.path.basename(h)}", and lib/README.md does not name '
                             f'{os.path.basename(h)} on {os.path.basename(f)}\'s line (nor {os.path.basename(f)} on its)')
    return fails


def selftest():
    import shutil, subprocess, tempfile
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, 'lib'))
        def w(p, s):
            open(os.path.join(d, p), 'w').write(s)
        w('lib/README.md', '- `a.c` + `a.h` — a\n- `b.c` + `b.h` + `b-layout.h` — b; `b-layout.h` owned by `b.c`\n'
          '- `c.c` — c\n')
        w('lib/a.h', '#ifndef A_H\n#define A_H\nint pmu__a(void);\n#define A_MAX 3\n#endif\n')
        w('lib/b-layout.h', '#ifndef BL_H\n#define BL_H\nstruct b { int n; };\n#endif\n')
        w('lib/b.h', '#ifndef B_H\n#define B_H\n#include "a.h"\nstruct b;\nint pmu__b(struct b *x);\n#endif\n')
        w('lib/a.c', '#include "a.h"\nint pmu__a(void)\n{\n\treturn A_MAX;\n}\n')
        w('lib/b.c', '#include "b.h"\n#include "b-layout.h"\nint pmu__b(struct b *x)\n{\n\treturn x->n;\n}\n')
        w('lib/c.c', '#include "b.h"\n#include "b-layout.h"\nint c(struct b *x)\n{\n\treturn pmu__a() + x->n;\n}\n')
        r = subprocess.run([sys.executable, __file__, d], capture_output=True, text=True)
        want = ['lib/b.h includes "a.h" and uses nothing it declares: a needless include',
                'lib/c.c uses pmu__a of "a.h" without including it (it sees it through b.h -> a.h)',
                'lib/c.c sees "b-layout.h" (it includes it), which the tour says only b.c may']
        missing = [x for x in want if 'FAIL: ' + x not in r.stdout]
        print('selftest:', 'ok (the needless include, the indirect one and the stray owner found)'
              if r.returncode == 1 and not missing else 'FAILED: ' + r.stdout + '\nmissing: ' + '\n'.join(missing))
        return 0 if r.returncode == 1 and not missing else 1


if __name__ == '__main__':
    if sys.argv[1:2] == ['--selftest']:
        sys.exit(selftest())
    tr, fails = check(sys.argv[1], '-v' in sys.argv)
    for x in fails:
        print('FAIL: ' + x)
    n = sum(len(tr.private_includes(f)) for f in tr.files)
    print(f'{len(tr.files)} files, {len(tr.private)} private headers, {n} includes of them: '
          f'{len(fails)} problems' if fails else
          f'ok: {len(tr.files)} files, {len(tr.private)} private headers, {n} includes of them, each used, '
          'each use included directly; owned layouts seen by their owners only')
    sys.exit(1 if fails else 0)
