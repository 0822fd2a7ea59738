#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Section 3 manual pages for libpmu, generated from the doc comments of its headers.

    gen-man3.py --list HEADER...                 names of the pages it writes
    gen-man3.py --outdir DIR [--version V] [--see-also-1 PAGE]... HEADER...
    gen-man3.py --check HEADER...                functions without a doc comment (exit 1 if any)

HEADER is include/pmu.h, then the headers it includes whose inline functions
belong to the API (include/pmu/fast.h). A doc comment is a C comment opened
with "/**" right above a declaration; it reads

    /**
     * pmu_name - what it does.
     * @arg: what the argument is.
     *
     * Paragraphs. Returns 0 or a negative errno.
     */

or is one sentence ("Start counting (all groups). Returns ..."). Prototypes
that follow a documented one without a blank line share its comment and its
page (pmu_region_begin / pmu_region_end): the first names the page, the
others get a page that is a ".so" link to it. A comment "Exported twin of
pmu_x()." puts the function on pmu_x()'s page. Each page has NAME, SYNOPSIS
(the prototypes and the definitions of the structs, enums, typedefs and
constants they use), DESCRIPTION, RETURN VALUE (the part of the text from
"Returns" on) and SEE ALSO (the functions the text names and those of the
same section of pmu.h). libpmu.3 lists every page by section. Standard
library only; run by meson (doc/man3/meson.build), so the pages cannot drift
from the header.
"""

import argparse
import os
import re
import sys

FUNC_RE = re.compile(r'\b(pmu_[a-z0-9_]+)\s*\(')
REF_RE = re.compile(r'\b(pmu_[a-z0-9_]+)\(\)')
TYPE_REF_RE = re.compile(r'\b(?:struct|enum)\s+(pmu_[a-z0-9_]+)|\b(pmu_[a-z0-9_]+_(?:fn|cb))\b')
CONST_RE = re.compile(r'\b(PMU_[A-Z0-9_]+)\b')
HEAD_RE = re.compile(r'^(pmu_[a-z0-9_]+(?:\s*/\s*pmu_[a-z0-9_]+)*)\s+-\s+(.*)$', re.S)
TWIN_RE = re.compile(r'^Exported twin of (pmu_[a-z0-9_]+)\(\)')
PARAM_RE = re.compile(r'^@([A-Za-z_][A-Za-z0-9_]*):\s*(.*)$')
ABBREV = ('e.g.', 'i.e.', 'etc.', 'vs.', 'cf.')


class Func:
    def __init__(self, name, proto, params, header, section, inline):
        self.name, self.proto, self.params = name, proto, params
        self.header, self.section, self.inline = header, section, inline
        self.doc = None           # list of lines (the comment's text), shared within a group
        self.group = None


class Type:
    def __init__(self, name, kind, code):
        self.name, self.kind, self.code = name, kind, code   # kind: struct, enum, typedef, define


class Header:
    """Functions, types and constants of one header, in order."""

    def __init__(self, path, first_section):
        self.path = path
        self.funcs = []
        self.types = {}
        self.top = []             # the file's first comment (pmu.h: the conventions)
        self.groups = []          # lists of Func sharing one comment
        self._parse(open(path, encoding='utf-8').read().split('\n'), first_section)

    def _parse(self, lines, section):
        i, n = 0, len(lines)
        doc = None                # the last doc comment, until a blank line or a declaration
        group = None              # the group a prototype on the next line joins
        while i < n:
            line = lines[i]
            s = line.strip()
            if s.startswith('/**') and not s.startswith('/***'):
                j = i
                while '*/' not in lines[j]:
                    j += 1
                doc = comment_text(lines[i:j + 1])
                group = None
                i = j + 1
                continue
            if s.startswith('/*'):
                j = i
                while '*/' not in lines[j]:
                    j += 1
                text = comment_text(lines[i:j + 1])
                if not self.top and i < 5 and 'SPDX-License-Identifier' not in s:
                    self.top = text
                m = re.match(r'^/\* (\S.*\S) +\*/$', s)
                if m and i > 0 and lines[i - 1].strip().startswith('/* ---') and not m.group(1).startswith('-'):
                    section = m.group(1)
                doc, group = None, None
                i = j + 1
                continue
            if s == '' or s in ('}', 'extern "C" {'):
                doc, group = None, None
                i += 1
                continue
            if s.startswith('#'):
                m = re.match(r'^#define\s+(PMU_[A-Z0-9_]+)\s+(\S.*)$', s)
                code = [line.rstrip()]
                j = i
                while lines[j].rstrip().endswith('\\'):
                    j += 1
                    code.append(lines[j].rstrip())
                if m and '/*' in s and '*/' not in s:
                    while '*/' not in lines[j]:
                        j += 1
                        code.append(lines[j].rstrip())
                if m and not m.group(1).startswith('PMU__') and not m.group(1).endswith('_H'):
                    self.types[m.group(1)] = Type(m.group(1), 'define', code)
                doc, group = None, None
                i = j + 1
                continue
            # a declaration: up to ';' at brace depth 0, or a function body
            j, text = i, ''
            while True:
                text += lines[j] + '\n'
                code = re.sub(r'/\*.*?(\*/|$)', '', text, flags=re.S).rstrip()   # comments out
                depth = code.count('{') - code.count('}')
                if j + 1 >= n or (depth == 0 and (code.endswith(';') or (code.endswith('}') and '{' in code))):
                    break
                j += 1
            decl = text
            m = FUNC_RE.search(decl)
            is_type = re.match(r'\s*(typedef|struct|enum|union)\b', decl)
            if m and not is_type:
                name = m.group(1)
                head = decl[:decl.index('{')] if '{' in decl else decl
                body = '{' in decl
                proto = ' '.join(head.replace(';', '').split())
                proto = proto.replace('PMU_HOT', 'static inline')
                inline = proto.startswith('static inline')
                if not name.startswith('pmu__'):
                    f = Func(name, proto, proto_params(proto), self.path, section, inline)
                    self.funcs.append(f)
                    if doc is not None:
                        f.doc = doc
                        group = [f]
                        self.groups.append(group)
                    elif group is not None and not body:
                        f.doc = group[0].doc
                        group.append(f)
                    else:
                        group = [f]
                        self.groups.append(group)
                    f.group = group
            elif is_type:
                code = [ln.rstrip() for ln in decl.rstrip('\n').split('\n')]
                kind = is_type.group(1)
                if kind == 'typedef':
                    tm = re.search(r'\(\s*\*\s*(pmu_[a-z0-9_]+)\s*\)', decl) or \
                        re.search(r'\b(pmu_[a-z0-9_]+)\s*;', decl)
                    if tm:
                        self.types[tm.group(1)] = Type(tm.group(1), 'typedef', code)
                elif '{' in decl:
                    tm = re.match(r'\s*(?:struct|enum|union)\s+(pmu_[a-z0-9_]+)', decl)
                    if tm:
                        self.types[tm.group(1)] = Type(tm.group(1), kind, code)
                group = None
            doc = None
            i = j + 1


def comment_text(lines):
    """The text of a C comment: '/**', '*/' and the ' * ' margin removed, indentation kept."""
    out = []
    for k, ln in enumerate(lines):
        t = ln.strip() if k == 0 else ln.rstrip()
        if k == 0:
            t = re.sub(r'^/\*+', '', t)
        if t.endswith('*/'):
            t = t[:-2].rstrip()
        if k > 0:
            t = re.sub(r'^\s*\*(?: |$)', '', t, count=1)
        out.append(t.rstrip() if k == 0 else t)
    while out and out[0].strip() == '':
        out.pop(0)
    while out and out[-1].strip() == '':
        out.pop()
    return [ln if k else ln.lstrip() for k, ln in enumerate(out)]


def proto_params(proto):
    """Parameter names of a prototype (for @name references)."""
    inside = proto[proto.index('(') + 1:proto.rindex(')')]
    names = []
    for p in split_params(inside):
        m = re.search(r'([A-Za-z_][A-Za-z0-9_]*)\s*(\[\s*\])?$', p.strip())
        if m and p.strip() not in ('void', '...'):
            names.append(m.group(1))
    return names


def split_params(inside):
    parts, depth, cur = [], 0, ''
    for ch in inside:
        if ch == '(':
            depth += 1
        elif ch == ')':
            depth -= 1
        if ch == ',' and depth == 0:
            parts.append(cur)
            cur = ''
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return parts


# ---------------------------------------------------------------------------
# troff
# ---------------------------------------------------------------------------

def esc(s):
    """Text for troff: backslash, hyphen (Debian's man renders \\- as '-': names stay
    copyable) and every character outside ASCII as \\[uXXXX]."""
    out = []
    for ch in s:
        if ch == '\\':
            out.append('\\e')
        elif ch == '-':
            out.append('\\-')
        elif ord(ch) > 126 or (ord(ch) < 32 and ch != '\t'):
            out.append('\\[u%04X]' % ord(ch))
        else:
            out.append(ch)
    return ''.join(out)


def safe_line(s):
    """A text line never starts with a control character."""
    return '\\&' + s if s[:1] in ('.', "'") else s


INLINE_RE = re.compile(r'@([A-Za-z_][A-Za-z0-9_]*)|\b(pmu_[a-z0-9_]+)\(\)|`([^`]+)`')


def fmt(text, params):
    """Prose: parameters in italics, functions and `code` in bold."""
    out, pos = [], 0
    for m in INLINE_RE.finditer(text):
        if m.group(1) is not None and m.group(1) not in params:
            continue
        out.append(esc(text[pos:m.start()]))
        if m.group(1) is not None:
            out.append('\\fI%s\\fP' % esc(m.group(1)))
        elif m.group(2) is not None:
            out.append('\\fB%s\\fP()' % esc(m.group(2)))
        else:
            out.append('\\fB%s\\fP' % esc(m.group(3)))
        pos = m.end()
    out.append(esc(text[pos:]))
    return ''.join(out)


def plain(text, params):
    """Text for the NAME line: no fonts (whatis and apropos read it)."""
    text = re.sub(r'@([A-Za-z_][A-Za-z0-9_]*)',
                  lambda m: m.group(1) if m.group(1) in params else m.group(0), text)
    return esc(text.replace('`', ''))


def sentences(text):
    """Split at '. ' before a capital (not after e.g., i.e., ...)."""
    out, start = [], 0
    for m in re.finditer(r'[.!?]\s+(?=[A-Z("@]|pmu_)', text):
        before = text[start:m.start() + 1]
        if any(before.endswith(a) for a in ABBREV):
            continue
        out.append(before.strip())
        start = m.end()
    rest = text[start:].strip()
    if rest:
        out.append(rest)
    return out


def text_lines(text, params):
    """A paragraph as troff input: one sentence per line."""
    return [safe_line(fmt(s, params)) for s in sentences(text)]


# ---------------------------------------------------------------------------
# Doc comments -> parts
# ---------------------------------------------------------------------------

class Doc:
    """A doc comment taken apart: head names, summary, parameters, paragraphs."""

    def __init__(self, lines):
        self.names, self.summary, self.params, self.paras = [], '', [], []
        paras, cur = [], []
        for ln in lines or []:
            if ln.strip() == '':
                if cur:
                    paras.append(cur)
                cur = []
            else:
                cur.append(ln)
        if cur:
            paras.append(cur)
        first = True
        for p in paras:
            items = []            # ['text', str] or ['param', name, str]
            for ln in p:
                m = PARAM_RE.match(ln)
                if m:
                    items.append(['param', m.group(1), m.group(2)])
                elif ln.startswith((' ', '\t')) and items:
                    items[-1][-1] += ' ' + ln.strip()
                elif ln.lstrip().startswith('- ') and items and items[-1][0] == 'text':
                    items.append(['text', ln.strip()])
                elif items and items[-1][0] == 'text':
                    items[-1][-1] += ' ' + ln.strip()
                else:
                    items.append(['text', ln.strip()])
            for it in items:
                if it[0] == 'param':
                    more = re.findall(r'[;,]\s*@([A-Za-z_][A-Za-z0-9_]*):', it[2])
                    self.params.append((', '.join([it[1]] + more), it[2]))
                    continue
                text = it[1]
                if first:
                    first = False
                    m = HEAD_RE.match(text)
                    if m:
                        self.names = [x.strip() for x in m.group(1).split('/')]
                        text = m.group(2)
                    sents = sentences(text)
                    self.summary = short(sents[0].rstrip('.') if sents else '')
                    if not self.names:
                        self.summary = lowerfirst(self.summary)
                    self.lead = text
                    continue
                self.paras.append(text)
        if first:
            self.lead = ''


class Page:
    def __init__(self, group):
        self.funcs = list(group)
        self.name = group[0].name
        self.doc = Doc(group[0].doc)
        self.twins = []           # (Func, Doc)

    @property
    def members(self):
        return self.funcs + [t for t, _ in self.twins]

    def params(self):
        ps = set()
        for f in self.members:
            ps.update(f.params)
        return ps


def build_pages(headers):
    pages, by_func = [], {}
    for h in headers:
        for g in h.groups:
            pages.append(Page(g))
    for p in pages:
        for f in p.funcs:
            by_func[f.name] = p
    merged = []
    for p in pages:
        m = TWIN_RE.match(' '.join(p.funcs[0].doc or []))
        target = by_func.get(m.group(1)) if m else None
        if target is not None and target is not p and len(p.funcs) == 1:
            target.twins.append((p.funcs[0], p.doc))
            by_func[p.name] = target
            merged.append(p)
    pages = [p for p in pages if p not in merged]
    return pages, by_func


def used_types(protos, types):
    """Types named by the prototypes, and those their definitions name, in header order."""
    want, todo = set(), []
    for pr in protos:
        for m in TYPE_REF_RE.finditer(pr):
            todo.append(m.group(1) or m.group(2))
    while todo:
        t = todo.pop()
        if t in want or t not in types:
            continue
        want.add(t)
        for ln in types[t].code:
            for m in TYPE_REF_RE.finditer(ln):
                todo.append(m.group(1) or m.group(2))
    consts = set()
    for t in want:
        for ln in types[t].code:
            consts.update(c for c in CONST_RE.findall(ln) if c in types and types[c].kind == 'define')
    return [t for t in types if t in want or t in consts]


def synopsis_proto(f, params):
    """A prototype in bold with its parameter names in italics, wrapped after commas."""
    head, inside = f.proto[:f.proto.index('(')], f.proto[f.proto.index('(') + 1:f.proto.rindex(')')]
    parts = [p.strip() for p in split_params(inside)]
    rendered = []
    for p in parts:
        m = re.search(r'([A-Za-z_][A-Za-z0-9_]*)(\s*\[\s*\])?$', p)
        if m and p not in ('void', '...') and m.start() > 0:
            rendered.append(('\\fB%s\\fP\\fI%s\\fP%s' % (esc(p[:m.start()]), esc(m.group(1)),
                                                          esc(m.group(2) or '')), len(p)))
        else:
            rendered.append(('\\fB%s\\fP' % esc(p), len(p)))
    lines, cur, width = [], '\\fB%s(\\fP' % esc(head), len(head) + 1
    indent = ' ' * (len(head) + 1)
    for k, (r, n) in enumerate(rendered):
        sep = '\\fB,\\fP ' if k < len(rendered) - 1 else '\\fB);\\fP'
        if width + n + 2 > 72 and k > 0:
            lines.append(cur.rstrip())
            cur, width = indent, len(indent)
        cur += r + sep
        width += n + 2
    lines.append(cur)
    return [safe_line(ln) for ln in lines]


def man_page(page, types, by_func, version, sections):
    d = page.doc
    params = page.params()
    out = ['.\\" Generated by gen/gen-man3.py from %s; edit the header, not this file.' %
           ', '.join(sorted({os.path.basename(f.header) for f in page.members})),
           '.TH %s 3 "" "libpmu %s" "libpmu Programmer\'s Manual"' % (esc(page.name.upper()), version),
           '.nh', '.ad l',
           '.SH NAME',
           '%s \\- %s' % (', '.join(esc(f.name) for f in page.members),
                          plain(d.summary, params) if d.summary else 'undocumented')]
    out += ['.SH SYNOPSIS', '.nf', '.B #include <pmu.h>', '.PP']
    for f in page.members:
        out += synopsis_proto(f, params)
    tnames = used_types([f.proto for f in page.members], types)
    if tnames:
        out.append('.PP')
        for k, t in enumerate(tnames):
            if k:
                out.append('')
            out += [safe_line(esc(ln.replace('\t', '    '))) if ln else '' for ln in types[t].code]
    out += ['.fi']
    out.append('.SH DESCRIPTION')
    desc, ret = [('p', d.lead)], []
    desc += [('tp', name, text) for name, text in d.params]
    desc += [('p', para) for para in d.paras]
    for tw, td in page.twins:
        desc.append(('p', '%s(): %s' % (tw.name, lowerfirst(td.lead + (' ' + ' '.join(td.paras) if td.paras else '')))))
    if not (page.doc.lead or page.doc.paras):
        desc = [('p', 'This function has no doc comment in <pmu.h>.')]
    # RETURN VALUE: each paragraph from the sentence starting "Returns" on
    kept = []
    for item in desc:
        if item[0] != 'p':
            kept.append(item)
            continue
        sents = sentences(item[1])
        k = next((i for i, s in enumerate(sents) if re.match(r'Returns?\b', s)), None)
        if k is None:
            kept.append(item)
            continue
        tail = sents[k:]
        stay = [s for s in tail if re.match(r'(Not )?[Tt]hread-safe', s)]
        ret.append(' '.join(s for s in tail if s not in stay))
        if sents[:k] or stay:
            kept.append(('p', ' '.join(sents[:k] + stay)))
    if not ret and any(not re.match(r'(static inline )?void ', f.proto) for f in page.members):
        # no sentence starts with "Returns": those that say what it returns, but never the first
        kept2 = []
        for item in kept:
            if item[0] != 'p':
                kept2.append(item)
                continue
            sents = sentences(item[1])
            keep = [s for k, s in enumerate(sents)
                    if (item is kept[0] and k == 0) or not re.search(r'\b[Rr]eturns?\b', s)]
            ret += [s for s in sents if s not in keep]
            if keep:
                kept2.append(('p', ' '.join(keep)))
        kept = kept2
        ret = [' '.join(ret)] if ret else []
    for k, item in enumerate(kept):
        if item[0] == 'tp':
            out += ['.TP', '.I %s' % esc(item[1])] + text_lines(item[2], params)
            continue
        if k:
            out.append('.PP')
        if k == 0 and d.names:
            out.append(', '.join('\\fB%s\\fP()' % esc(n) for n in d.names) + ':')
        out += text_lines(item[1], params)
    if ret:
        out.append('.SH RETURN VALUE')
        for k, r in enumerate(ret):
            if k:
                out.append('.PP')
            out += text_lines(r, params)
    # SEE ALSO
    refs = set()
    texts = [' '.join(d.lead.split())] + d.paras + [t for _, t in d.params] + \
            [td.lead + ' ' + ' '.join(td.paras) for _, td in page.twins]
    for t in texts:
        for m in REF_RE.finditer(t):
            if m.group(1) in by_func:
                refs.add(by_func[m.group(1)].name)
    sec = page.funcs[0].section
    if sec:
        refs.update(p.name for p in sections.get(sec, []))
    refs.discard(page.name)
    also = ['\\fB%s\\fP(3)' % esc(r) for r in sorted(refs)] + ['\\fBlibpmu\\fP(3)']
    out += ['.SH SEE ALSO', ',\n'.join(also)]
    return '\n'.join(out) + '\n'


def short(s):
    """A NAME line of a long first sentence: up to its first ': ' or '; ' outside parentheses."""
    if len(s) <= 80:
        return s
    depth = 0
    for k, ch in enumerate(s):
        depth += ch == '('
        depth -= ch == ')'
        if depth == 0 and k >= 15 and ch in ':;' and s[k + 1:k + 2] == ' ':
            return s[:k]
    return s


def lowerfirst(s):
    return s[0].lower() + s[1:] if len(s) > 1 and s[0].isupper() and s[1].islower() else s


def overview_page(pages, headers, version, see_also_1):
    top = headers[0].top
    params = set()
    out = ['.\\" Generated by gen/gen-man3.py from %s; edit the header, not this file.' %
           os.path.basename(headers[0].path),
           '.TH LIBPMU 3 "" "libpmu %s" "libpmu Programmer\'s Manual"' % version,
           '.nh', '.ad l',
           '.SH NAME',
           'libpmu \\- hardware performance counters from user space',
           '.SH SYNOPSIS', '.nf', '.B #include <pmu.h>', '.fi', '.PP',
           'Link with \\fB$(pkg\\-config \\-\\-cflags \\-\\-libs libpmu)\\fP.',
           '.SH DESCRIPTION']
    # the header's first comment: a title line, then text and "- " items
    body = [ln for ln in top[1:]] if top else []
    items, cur = [], None
    for ln in body:
        s = ln.strip()
        if not s:
            cur = None
            continue
        if s.startswith('- '):
            cur = ['item', s[2:]]
            items.append(cur)
        elif cur is not None and ln.startswith((' ', '\t')) and cur[0] == 'item' and not s.endswith(':'):
            cur[1] += ' ' + s
        elif cur is not None and cur[0] == 'text':
            cur[1] += ' ' + s
        else:
            cur = ['text', s]
            items.append(cur)
    for it in items:
        if it[0] == 'item':
            out += ['.IP \\(bu 2'] + text_lines(it[1], params)
        else:
            out += ['.PP'] + text_lines(it[1], params)
    order, by_sec = [], {}
    for p in pages:
        sec = p.funcs[0].section
        if sec not in by_sec:
            order.append(sec)
            by_sec[sec] = []
        by_sec[sec].append(p)
    out.append('.SH FUNCTIONS')
    for sec in order:
        out += ['.SS %s' % esc(sec)]
        for p in by_sec[sec]:
            out += ['.TP', ', '.join('\\fB%s\\fP(3)' % esc(f.name) if f.name == p.name else
                                     '\\fB%s\\fP()' % esc(f.name) for f in p.members),
                    safe_line(plain(p.doc.summary, p.params()) or 'undocumented')]
    also = ['\\fB%s\\fP(1)' % esc(n) for n in see_also_1] + \
           ['\\fB%s\\fP(3)' % esc(p.name) for p in sorted(pages, key=lambda p: p.name)]
    out += ['.SH SEE ALSO', ',\n'.join(also)]
    return '\n'.join(out) + '\n'


def page_files(pages):
    """(file name, primary page name or None for a page of its own)."""
    files = [('libpmu.3', None)]
    for p in pages:
        files.append((p.name + '.3', None))
        for f in p.members[1:]:
            files.append((f.name + '.3', p.name))
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('headers', nargs='+')
    ap.add_argument('--list', action='store_true', help='print the names of the pages and exit')
    ap.add_argument('--check', action='store_true', help='list functions without a doc comment')
    ap.add_argument('--outdir', help='write the pages here')
    ap.add_argument('--version', default='', help='libpmu version for the page footers')
    ap.add_argument('--see-also-1', action='append', default=[], help='a section 1 page for libpmu(3)')
    a = ap.parse_args()
    headers = []
    for path in a.headers:
        # functions before pmu.h's first section banner are 'General'; another
        # header's functions form one section named after it
        inc = path.split('include/', 1)[-1]
        headers.append(Header(path, 'General' if not headers else 'Inline functions of <%s>' % inc))
    types = {}
    for h in headers:
        types.update(h.types)
    pages, by_func = build_pages(headers)
    files = page_files(pages)
    undocumented = [f.name for h in headers for f in h.funcs if not f.doc]
    if a.list:
        print('\n'.join(name for name, _ in files))
        return 0
    if a.check:
        for n in undocumented:
            print('%s: no doc comment' % n)
        return 1 if undocumented else 0
    if not a.outdir:
        ap.error('--outdir, --list or --check')
    for n in undocumented:
        print('gen-man3: warning: %s has no doc comment' % n, file=sys.stderr)
    sections = {}
    for p in pages:
        if p.funcs[0].section:
            sections.setdefault(p.funcs[0].section, []).append(p)
    os.makedirs(a.outdir, exist_ok=True)
    by_name = {p.name: p for p in pages}
    for name, primary in files:
        if name == 'libpmu.3':
            text = overview_page(pages, headers, a.version, a.see_also_1)
        elif primary:
            text = '.so man3/%s.3\n' % primary
        else:
            text = man_page(by_name[name[:-2]], types, by_func, a.version, sections)
        with open(os.path.join(a.outdir, name), 'w', encoding='ascii') as fp:
            fp.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
