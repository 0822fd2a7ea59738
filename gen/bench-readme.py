#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The figures of bench/README.md (and of README.md and doc/*.md, where they hold any), copied from
the results files the benchmarks write (bench/results/*.md), so that no figure is typed by hand.

    bench-readme.py [ROOT]            rewrite every generated block of the pages
    bench-readme.py --check [ROOT]    exit 1 if a block differs from what its results file gives, or
                                      a figure stands outside the blocks

ROOT is the source tree (default: the one this file is in). A generated block is

    <!-- from results/read-cost.md: table "bare seqlock"; paragraph "The floor is" -->
    ...what this script writes...
    <!-- end -->

The path is relative to the page (a link, as the page's links are). After the colon, one or more
selections separated by ";", each copied in order as the file has it:

    table "TEXT"        the one table of the file whose header line holds TEXT
    paragraph "TEXT"    the one paragraph (lines up to a blank line) whose first line starts with TEXT

A block opens with a line naming its file and the file's title (the run's date and machine). A
selection that matches no part of the file, or more than one, is an error: a benchmark that changes
its file's layout makes the check fail, not the page go stale.

A figure, outside the blocks and ``` code blocks, inline `code` and HTML comments not counted: a
number followed by "x" (a ratio), "%", a time (ns, us, ms, s, min), or instructions, cycles, pages,
faults, bytes, KB, MB or GB, or a number with a "+" sign (an instruction count added). In doc/*.md
only a ratio, a cost (a time below a second, instructions, cycles, pages, faults) or a "+" count is
one: those pages give limits (64 MiB), tests' tolerances (1%) and durations (4 min), no benchmark's.
Counts in prose ("10 names", "7 repetitions") are method, not figures.
Python 3 standard library only.
"""
import glob
import os
import re
import sys

COSTS = r"ns|us|µs|ms|instructions?|cycles?|pages?|(?:page )?faults?"
UNITS = COSTS + r"|bytes|KB|kB|MB|GB|KiB|MiB|GiB"
SIGNED = r"|(?<![\w+])\+\d[\d,.]*"
FIGURE = re.compile(r"(?<![\w.])\d[\d,.]*(?:x\b|\s*%|\s*(?:" + UNITS + r"|s|min)\b)" + SIGNED)
FIGURE_DOC = re.compile(r"(?<![\w.])\d[\d,.]*(?:x\b|\s*(?:" + COSTS + r")\b)" + SIGNED)
OPEN = re.compile(r"^<!-- from (\S+): (.*) -->$")
END = "<!-- end -->"
SELECTION = re.compile(r'\s*(table|paragraph)\s+"([^"]+)"\s*$')


class Fail(Exception):
    pass


def pages(root):
    """The pages that may hold figures: (path relative to root, the figure rule)."""
    out = [("bench/README.md", FIGURE), ("README.md", FIGURE)]
    out += [(os.path.relpath(p, root), FIGURE_DOC) for p in sorted(glob.glob(os.path.join(root, "doc", "*.md")))]
    return [(p, rule) for p, rule in out if os.path.exists(os.path.join(root, p))]


def tables(lines):
    """The tables of a file: lists of consecutive lines that start with '|'."""
    out, cur = [], []
    for line in lines + [""]:
        if line.startswith("|"):
            cur.append(line)
        elif cur:
            out.append(cur)
            cur = []
    return out


def paragraphs(lines):
    out, cur = [], []
    for line in lines + [""]:
        if line.strip():
            cur.append(line)
        elif cur:
            out.append(cur)
            cur = []
    return out


def one(found, what, src):
    if len(found) != 1:
        raise Fail("%s: %s %s" % (src, "no" if not found else "%d parts match" % len(found), what))
    return found[0]


def select(spec, lines, src):
    """The lines one selection takes from a results file."""
    m = SELECTION.match(spec)
    if not m:
        raise Fail('%s: cannot read the selection %r (table "TEXT" or paragraph "TEXT")' % (src, spec.strip()))
    kind, text = m.groups()
    if kind == "paragraph":
        par = one([p for p in paragraphs(lines) if p[0].startswith(text)], 'paragraph starting "%s"' % text, src)
        if par[0].startswith("#"):
            raise Fail("%s: paragraph %r is a heading" % (src, text))
        return par
    tab = one([t for t in tables(lines) if text in t[0]], 'table whose header holds "%s"' % text, src)
    if len(tab) < 2 or not re.match(r"^\|(\s*:?-+:?\s*\|)+\s*$", tab[1]):
        raise Fail('%s: the table of "%s" has no |---| line under its header' % (src, text))
    return tab


def block(page_dir, src, specs, root):
    """The lines between a block's opening line and its end: the file named, then each part copied."""
    path = os.path.normpath(os.path.join(root, page_dir, src))
    if not os.path.isfile(path):
        raise Fail("%s: no such results file" % src)
    if os.path.relpath(path, os.path.join(root, "bench", "results")).startswith(os.pardir):
        raise Fail("%s: not a file of bench/results/" % src)
    lines = open(path, encoding="utf-8").read().split("\n")
    title = lines[0].lstrip("# ").strip() if lines and lines[0].startswith("# ") else ""
    out = ["", "*[%s](%s)%s*" % (src, src, ": " + title if title else ""), ""]
    for spec in specs.split(";"):
        out += select(spec, lines, src) + [""]
    return out


def generate(root, page):
    """The page with every block rewritten, and its lines outside blocks (number, text)."""
    text = open(os.path.join(root, page), encoding="utf-8").read()
    lines = text.split("\n")
    out, outside, i = [], [], 0
    while i < len(lines):
        line = lines[i]
        m = OPEN.match(line)
        if not m:
            if line == END:
                raise Fail("%s:%d: %s without a block opened before it" % (page, i + 1, END))
            if line.startswith("<!-- from"):
                raise Fail("%s:%d: %r is not a block's opening line (<!-- from results/X.md: SELECTION -->)"
                           % (page, i + 1, line))
            out.append(line)
            outside.append((i + 1, line))
            i += 1
            continue
        try:
            end = lines.index(END, i + 1)
        except ValueError:
            raise Fail("%s:%d: the block is never closed (%s)" % (page, i + 1, END))
        inner = [k for k in range(i + 1, end) if lines[k].startswith("<!-- from")]
        if inner:
            raise Fail("%s:%d: a block opens inside the block of line %d" % (page, inner[0] + 1, i + 1))
        try:
            out += [line] + block(os.path.dirname(page), m.group(1), m.group(2), root) + [END]
        except Fail as e:
            raise Fail("%s:%d: %s" % (page, i + 1, e))
        i = end + 1
    return "\n".join(out), outside


def figures(page, outside, rule):
    """The figures of a page's lines outside its blocks: failure messages."""
    fails, inside = [], False
    for no, line in outside:
        if line.startswith("```"):
            inside = not inside
            continue
        if inside:
            continue
        bare = re.sub(r"<!--.*?-->", "", re.sub(r"`[^`]*`", "", line))
        for m in rule.finditer(bare):
            fails.append("%s:%d: a figure typed by hand (%r): copy it from bench/results/ with a block "
                         "(gen/bench-readme.py)" % (page, no, m.group(0).strip()))
    return fails


def main(argv):
    check = bool(argv) and argv[0] == "--check"
    argv = argv[1:] if check else argv
    root = argv[0] if argv else os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
    fails, nblocks, stale = [], 0, []
    for page, rule in pages(root):
        try:
            text, outside = generate(root, page)
        except Fail as e:
            fails.append(str(e))
            continue
        nblocks += text.count("\n" + END)
        fails += figures(page, outside, rule)
        old = open(os.path.join(root, page), encoding="utf-8").read()
        if text != old:
            if check:
                a, b = old.split("\n"), text.split("\n")
                n = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
                stale.append("%s:%d: differs from its results files (%r, generated %r): run gen/bench-readme.py"
                             % (page, n + 1, a[n] if n < len(a) else "", b[n] if n < len(b) else ""))
            else:
                with open(os.path.join(root, page), "w", encoding="utf-8") as f:
                    f.write(text)
                print("bench-readme: %s rewritten" % page)
    fails = stale + fails
    for f in fails:
        print("FAIL: " + f)
    if fails:
        return 1
    print("ok: %d blocks copied from bench/results/, no figure outside them in %d pages" % (nblocks, len(pages(root))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
