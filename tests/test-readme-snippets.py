#!/usr/bin/env python3
"""Every ```c and ```python block of README.md, read from README.md itself (no copy), built and run.

A C block without main() is a fragment, wrapped mechanically: its #include lines first, then the
definitions WRAP gives for what the README leaves to the reader (work(), solve(grid), ...), keyed by
the block's "## " heading, then its other lines as the body of int main(void), which returns 0. A
line that is only "..." (the reader's own code) is dropped. A Python block gets WRAP's definitions
before it. A block under a heading WRAP does not know fails, naming the heading to add.

Each program runs (under valgrind where it is installed: any error, uninitialised reads first, fails
it). A block WRAP marks as counting hardware events must, where no hardware PMU is exposed (pmu info
--json: hw_pmu false), exit non-zero (not by a signal) with a message on stderr: it is checked that
it fails cleanly, and the test then exits 77 saying so, never 0 because the hardware is missing.
Every other block must exit 0 and print what WRAP expects. Issue 39, item 8: the "Measuring code"
block went on after a failed pmu_set_open() with an unwritten set (valgrind: uninitialised reads in
four calls) and exited 0 having printed nothing.
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


def blocks(path):
    """(language, heading, first line number, lines) of each ```c / ```python block."""
    heading, out, cur = None, [], None
    for no, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if cur is None:
            if line.startswith("## "):
                heading = line[3:].strip()
            m = re.match(r"^```(c|python)\s*$", line)
            if m:
                cur = (m.group(1), heading, no + 1, [])
        elif line.startswith("```"):
            out.append(cur)
            cur = None
        else:
            cur[3].append(line)
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


def main():
    readme = os.path.join(SRC, "README.md")
    valgrind = shutil.which("valgrind")
    hw = has_pmu()
    tmp = tempfile.mkdtemp()
    fails, refused, n = [], [], 0
    env = dict(os.environ, PMU_LIBRARY=os.path.join(BUILD, "lib", "libpmu.so"),
               PYTHONPATH=os.path.join(SRC, "bindings", "python"))
    if not valgrind:
        print("note: valgrind is not installed: the programs run without it (no check for uninitialised reads)")
    for lang, heading, line, lines in blocks(readme):
        n += 1
        what = "README.md:%d (%s, ```%s)" % (line, heading, lang)
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
            cmd = [valgrind, "-q", "--error-exitcode=99", "--leak-check=no"] + cmd
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
    print("%d blocks of README.md, %d failed, %d refused for want of a hardware PMU" % (n, len(fails), len(refused)))
    if fails:
        return 1
    if refused:
        print("SKIP: no hardware PMU is exposed: %s checked only to fail cleanly" % ", ".join(refused))
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
