#!/usr/bin/env python3
"""Every ```c and ```python block of README.md and doc/*.md, read from the pages themselves (no copy),
built and run; the pages' other promises checked (issue 41).

A C block without main() is a fragment, wrapped mechanically: its #include lines first, then the
definitions WRAP gives for what the README leaves to the reader (work(), solve(grid), ...), keyed by
the block's "# " or "## " heading, then its other lines as the body of int main(void), which returns 0. A
line that is only "..." (the reader's own code) is dropped. A Python block gets WRAP's definitions
before it. A block under a heading WRAP does not know fails, naming the heading to add.

Each program runs (under valgrind where it is installed: any error, uninitialised reads first, fails
it). A block WRAP marks as counting hardware events must, where no hardware PMU is exposed (pmu info
--json: hw_pmu false), exit non-zero (not by a signal) with a message on stderr: it is checked that
it fails cleanly, and the test then exits 77 saying so, never 0 because the hardware is missing.
Every other block must exit 0 and print what WRAP expects. Issue 39, item 8: the "Measuring code"
block went on after a failed pmu_set_open() with an unwritten set (valgrind: uninitialised reads in
four calls) and exited 0 having printed nothing.

Issue 41 moved most of the README to doc/*.md and the figures to bench/. Also checked, each a FAIL
(before any SKIP): README.md has at most 200 lines; its "## Two commands" block holds exactly the two
commands, examples/run-demo.sh and tests/run-all.sh, which .ci/run and tests/fresh-debian.sh run as
written; every ```json block of the pages parses; every relative link of README.md, doc/*.md, bench/,
tests/ and tools/README.md names a file that exists; tools/README.md names every file of tools/ and no
other; tests/README.md names every directory of tests/. That the pages' prose holds no performance
figure (those are copied into bench/README.md from bench/results/) is test-bench-readme's check
(gen/bench-readme.py --check), one rule for README.md, doc/*.md and bench/README.md.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SRC = os.environ["PMU_TEST_SRCDIR"]
BUILD = os.environ["PMU_TEST_BUILDDIR"]
PMU = os.environ["PMU_CLI"]
CC = os.environ.get("CC") or shutil.which("cc") or "gcc"

# heading -> what the block needs around it: C or Python definitions, extra compiler flags, whether it
# counts hardware events, and a pattern its output (stdout + stderr) must hold when it exits 0
WRAP = {
    ("c", "Measuring code"): {
        "defs": "static void work(void) { volatile unsigned long x = 0; for (int i = 0; i < 1000000; i++) x += i; }",
        "hardware": True,
        "expect": r"instructions",
    },
    ("c", "One list, many targets"): {
        "cflags": ["-pthread"],
        "hardware": False,
        "expect": r"thread \d+: task-clock [1-9]\d* ns",
    },
    ("c", "Regions"): {
        "defs": "static int grid = 2;\n"
                "static void solve(int g) { volatile unsigned long x = 0; for (int i = 0; i < 1000000 * g; i++) x += i; }",
        "hardware": False,
        "expect": r"\bsolve\s+1\b",
    },
    # bare-metal RISC-V: built for the host with the header's simulated CSRs (PMU_CSR_SIM), a CSR file
    # in an array whose counters (the low halves, 0xB00-0xB1F) advance at each read
    ("c", "Firmware (bare-metal RISC-V)"): {
        "cflags": ["-DPMU_CSR_SIM"],
        "defs": "static pmu_csr_reg_t csr[4096];\n"
                "pmu_csr_reg_t pmu_csr_sim_read(unsigned c) { return (c & 0xfe0) == 0xb00 ? csr[c]++ : csr[c]; }\n"
                "void pmu_csr_sim_write(unsigned c, pmu_csr_reg_t v) { csr[c] = v; }\n"
                "static char buf[64]; static int n = 64;\n"
                "static void filter(char *b, int len) { for (int i = 0; i < len; i++) b[i] ^= 1; }",
        "after": 'printf("calls %u\\n", (unsigned)r.calls);',
        "hardware": False,
        "expect": r"calls 100\b",
    },
    ("python", "Python"): {
        "defs": "def primes(n):\n"
                "    return [p for p in range(2, n) if all(p % d for d in range(2, int(p ** 0.5) + 1))]\n"
                "def work():\n"
                "    sum(range(100000))\n",
        "hardware": False,
        "expect": r"task-clock",
    },
}


def blocks(path, langs=("c", "python")):
    """(language, heading, first line number, lines) of each ```LANG block, LANG one of langs; a heading
    is a "# " or "## " line outside every ``` block."""
    heading, out, cur, fenced = None, [], None, False
    for no, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if fenced:
            if line.startswith("```"):
                fenced = False
                if cur is not None:
                    out.append(cur)
                    cur = None
            elif cur is not None:
                cur[3].append(line)
            continue
        m = re.match(r"^##? (.*)", line)
        if m:
            heading = m.group(1).strip()
        if line.startswith("```"):
            fenced = True
            m = re.match(r"^```(%s)\s*$" % "|".join(langs), line)
            if m:
                cur = (m.group(1), heading, no + 1, [])
    return out


def c_program(lines, wrap):
    if any(re.search(r"\bmain\s*\(", l) for l in lines):
        return "\n".join(lines) + "\n"
    inc = [l for l in lines if l.startswith("#include")]
    body = [l for l in lines if not l.startswith("#include") and l.strip() != "..."]
    return "\n".join(inc + ["#include <stdio.h>", wrap.get("defs", ""), "int main(void)", "{"] + body +
                     [wrap.get("after", ""), "return 0;", "}"]) + "\n"


def has_pmu():
    r = subprocess.run([PMU, "info", "--json"], capture_output=True, text=True)
    return r.returncode == 0 and json.loads(r.stdout).get("hw_pmu") is True


PAGES = ["README.md"] + sorted(os.path.join("doc", f) for f in os.listdir(os.path.join(SRC, "doc"))
                              if f.endswith(".md"))
README_MAX_LINES = 200
TWO_COMMANDS = ["examples/run-demo.sh", "tests/run-all.sh"]


def prose(path):
    """(line number, line) of the text outside ``` blocks."""
    inside = False
    for no, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if line.startswith("```"):
            inside = not inside
        elif not inside:
            yield no, line


def tour(readme, names):
    """The names of `names` that readme does not mention as `name` or [name](...)."""
    text = open(readme, encoding="utf-8").read()
    return [n for n in names if "`%s`" % n not in text and "[%s]" % n not in text]


def page_checks():
    """The pages' promises other than their snippets: a list of failures."""
    fails = []
    readme = os.path.join(SRC, "README.md")
    lines = open(readme, encoding="utf-8").read().split("\n")
    nlines = len(lines) - (lines[-1] == "")
    if nlines > README_MAX_LINES:
        fails.append("README.md has %d lines, more than %d: move a section to doc/" % (nlines, README_MAX_LINES))
    else:
        print("ok: README.md has %d lines (at most %d)" % (nlines, README_MAX_LINES))
    sh = [b for b in blocks(readme, ("sh",)) if b[1] == "Two commands"]
    cmds = [l.split("#")[0].strip() for b in sh for l in b[3] if l.split("#")[0].strip()]
    if len(sh) != 1 or cmds != TWO_COMMANDS:
        fails.append("README.md's \"## Two commands\" must hold one ```sh block of exactly %s, found %s" %
                     (TWO_COMMANDS, cmds))
    else:
        ci = open(os.path.join(SRC, ".ci", "run"), encoding="utf-8").read()
        fresh = open(os.path.join(SRC, "tests", "fresh-debian.sh"), encoding="utf-8").read()
        if "exec %s\n" % TWO_COMMANDS[1] not in ci:
            fails.append(".ci/run does not exec the README's test command %s" % TWO_COMMANDS[1])
        for c in TWO_COMMANDS:
            if '"%s"' % c not in fresh:
                fails.append("tests/fresh-debian.sh does not run the README's command %s" % c)
        print("ok: README.md's two commands are %s, run by .ci/run and tests/fresh-debian.sh" % " and ".join(TWO_COMMANDS))
    for page in PAGES:
        fences = [no for no, line in enumerate(open(os.path.join(SRC, page), encoding="utf-8"), 1)
                  if line.startswith("```")]
        if len(fences) % 2:
            fails.append("%s: the ``` block opened at line %d is never closed" % (page, fences[-1]))
        for lang, heading, line, body in blocks(os.path.join(SRC, page), ("json",)):
            try:
                json.loads("\n".join(body))
            except ValueError as e:
                fails.append("%s:%d (%s, ```json) does not parse: %s" % (page, line, heading, e))
    linked = 0
    for page in PAGES + ["bench/README.md", "tests/README.md", "tools/README.md"]:
        path = os.path.join(SRC, page)
        if not os.path.exists(path):
            fails.append("%s is missing" % page)
            continue
        for no, line in prose(path):
            for target in re.findall(r"\]\(([^)\s]+)\)", line):
                if re.match(r"[a-z]+:", target) or target.startswith("#"):
                    continue
                linked += 1
                if not os.path.exists(os.path.join(os.path.dirname(path), target.split("#")[0])):
                    fails.append("%s:%d links to %s, which does not exist" % (page, no, target))
    print("ok: %d relative links checked in the pages" % linked)
    tools = sorted(f + "/" * os.path.isdir(os.path.join(SRC, "tools", f))
                   for f in os.listdir(os.path.join(SRC, "tools")) if f not in ("README.md", "__pycache__"))
    missing = tour(os.path.join(SRC, "tools", "README.md"), tools)
    if missing:
        fails.append("tools/README.md does not name %s" % ", ".join(missing))
    text = open(os.path.join(SRC, "tools", "README.md"), encoding="utf-8").read()
    for item in re.findall(r"^- (`.*?) — ", text, re.M):
        for name in re.findall(r"`([^`]+)`", item):
            if not os.path.exists(os.path.join(SRC, "tools", name.rstrip("/"))):
                fails.append("tools/README.md names %s, which is not in tools/" % name)
    dirs = sorted(d + "/" for d in os.listdir(os.path.join(SRC, "tests"))
                  if os.path.isdir(os.path.join(SRC, "tests", d)) and not d.startswith(".") and d != "__pycache__")
    missing = tour(os.path.join(SRC, "tests", "README.md"), dirs)
    if missing:
        fails.append("tests/README.md does not name %s" % ", ".join(missing))
    print("ok: tools/README.md checked against the %d files of tools/, tests/README.md against the %d directories of tests/"
          % (len(tools), len(dirs)))
    return fails


def main():
    valgrind = shutil.which("valgrind")
    hw = has_pmu()
    tmp = tempfile.mkdtemp()
    fails, refused, n = page_checks(), [], 0
    env = dict(os.environ, PMU_LIBRARY=os.path.join(BUILD, "lib", "libpmu.so"),
               PYTHONPATH=os.path.join(SRC, "bindings", "python"))
    if not valgrind:
        print("note: valgrind is not installed: the programs run without it (no check for uninitialised reads)")
    snippets = [(page, b) for page in PAGES for b in blocks(os.path.join(SRC, page))]
    for page, (lang, heading, line, lines) in snippets:
        n += 1
        what = "%s:%d (%s, ```%s)" % (page, line, heading, lang)
        wrap = WRAP.get((lang, heading))
        if wrap is None:
            fails.append("%s: no wrapper for this block: add (%r, %r) to WRAP in %s" %
                         (what, lang, heading, os.path.basename(__file__)))
            continue
        if lang == "c":
            src, exe = os.path.join(tmp, "s%d.c" % n), os.path.join(tmp, "s%d" % n)
            open(src, "w").write(c_program(lines, wrap))
            cc = subprocess.run([CC, "-std=gnu11", "-g", "-Wall", "-Werror", "-I", os.path.join(SRC, "include"),
                                 "-I", os.path.join(BUILD, "include")] + wrap.get("cflags", []) +
                                [src, "-o", exe, "-L", os.path.join(BUILD, "lib"), "-lpmu",
                                 "-Wl,-rpath," + os.path.join(BUILD, "lib")], capture_output=True, text=True)
            if cc.returncode != 0:
                fails.append("%s does not compile as %s:\n%s" % (what, src, cc.stderr))
                continue
            cmd = [exe]
        else:
            src = os.path.join(tmp, "s%d.py" % n)
            open(src, "w").write(wrap.get("defs", "") + "\n".join(lines) + "\n")
            cmd = [sys.executable, src]
        # valgrind follows C programs only: the Python interpreter's own reports are not the snippet's
        if valgrind and lang == "c":
            cmd = [valgrind, "-q", "--vgdb=no", "--error-exitcode=99", "--leak-check=no"] + cmd
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
        except subprocess.TimeoutExpired:
            fails.append("%s still ran after 60 s (%s)" % (what, " ".join(cmd)))
            continue
        out = r.stdout + r.stderr
        said = "%s exited %d; it printed:\n%s" % (what, r.returncode, out.rstrip() or "(nothing)")
        if r.returncode == 99 and valgrind and lang == "c":
            fails.append("valgrind reports errors in %s" % said)
        elif r.returncode < 0 or r.returncode > 128:
            fails.append("killed by a signal: " + said)
        elif wrap["hardware"] and not hw:
            if r.returncode == 0:
                fails.append("no hardware PMU here, yet it succeeded: " + said)
            elif not r.stderr.strip():
                fails.append("failed without a message: " + said)
            else:
                refused.append(what)
                print("ok: %s fails cleanly without a hardware PMU (exit %d): %s" %
                      (what, r.returncode, r.stderr.strip().splitlines()[0]))
        elif r.returncode != 0:
            fails.append(said)
        elif not re.search(wrap["expect"], out):
            fails.append("output without /%s/: %s" % (wrap["expect"], said))
        else:
            print("ok: %s ran%s" % (what, " under valgrind" if valgrind and lang == "c" else ""))
    shutil.rmtree(tmp)
    for f in fails:
        print("FAIL: " + f)
    print("%d blocks of README.md and doc/*.md, %d failed, %d refused for want of a hardware PMU" % (n, len(fails), len(refused)))
    if fails:
        return 1
    if refused:
        print("SKIP: no hardware PMU is exposed: %s checked only to fail cleanly" % ", ".join(refused))
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
