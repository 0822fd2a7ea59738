# SPDX-License-Identifier: MIT
"""What gen-perfmon.py and gen-armdata.py share (a module they import, not a generator: a script's own
directory is on its sys.path): a vendor's published event data, read with git from clones at the commits
pinned in events/<table>/SOURCES.csv, written in perf's pmu-events schema into events/<table>/<dir>/ and
as rows of events/mapfile.csv, and compared with what is committed, with the clones or without them.

Each script makes one Vendor (its name, its table, SOURCES.csv's columns, which mapfile rows are its) and
hands Vendor.main what is its own: pin, the files it makes of a directory from the clones, the form of each
file, the line that says all is well."""
import csv
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EVENTS = os.path.join(ROOT, "events")
MAPFILE = os.path.join(EVENTS, "mapfile.csv")


def rel(path):
    """@path as the messages name it: from the source tree's top (events/...)."""
    return os.path.relpath(path, ROOT)


def dump(entries):
    """The text of a table file: what write writes and the check compares."""
    return json.dumps(entries, indent=4, sort_keys=True, ensure_ascii=True) + "\n"


def by_name(o):
    """Sort key of entries ordered by name (EventName, else MetricName), then Unit."""
    return (o.get("EventName") or o.get("MetricName"), o.get("Unit", ""))


def git_dir(repo):
    """The git directory of @repo: a bare clone (the directory itself) or a work tree's .git."""
    return os.path.join(repo, ".git") if os.path.exists(os.path.join(repo, ".git")) else repo


class Form:
    """What a table file that write makes is: a JSON array sorted by @key of objects with no key but
    @keys, each with every key of @need (the first names the entry in messages), whose value matches the
    pattern @need gives it, where it gives one."""

    def __init__(self, keys, need, key):
        self.keys, self.need, self.key = set(keys), need, key

    def odd(self, e):
        return not isinstance(e, dict) or set(e) - self.keys or any(
            k not in e or p and not (isinstance(e[k], str) and re.fullmatch(p, e[k])) for k, p in self.need.items())


class Vendor:
    def __init__(self, prog, table, columns, mapfile_rows, rows_name, mine=None):
        """@prog names the script in its messages ("gen-perfmon"); @table is the directory below events/
        ("x86/intel"), @columns its SOURCES.csv's; @mapfile_rows(sources) gives the (CPU id, version,
        directory) of each row of events/mapfile.csv that the sources make, in order, @rows_name what the
        check calls them; @mine(id) tells whether a mapfile row of that first column is one of them (to be
        replaced), by default when the id is one of those rows'."""
        self.prog, self.table, self.columns = prog, table, columns
        self.out = os.path.join(EVENTS, *table.split("/"))
        self.sources_csv = os.path.join(self.out, "SOURCES.csv")
        self.mapfile_rows, self.rows_name, self.mine = mapfile_rows, rows_name, mine

    def git(self, repo, *args, check=True):
        """git's output of @args in the clone @repo (nothing is checked out); where git fails, exit with
        its message, or None when not @check."""
        r = subprocess.run(["git", "--git-dir", git_dir(repo)] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        if r.returncode and check:
            sys.exit("%s: git %s: %s" % (self.prog, " ".join(args), r.stderr.decode().strip()))
        return r.stdout.decode("utf-8") if not r.returncode else None

    def sources(self):
        """SOURCES.csv's rows: one dict per directory, by its columns."""
        with open(self.sources_csv) as f:
            return list(csv.DictReader(f))

    def write_sources(self, rows):
        """Rewrite SOURCES.csv with @rows (pin's choices)."""
        os.makedirs(self.out, exist_ok=True)
        with open(self.sources_csv, "w", newline="") as f:
            w = csv.DictWriter(f, self.columns, lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
        print("%s: %d directories pinned in %s" % (self.prog, len(rows), rel(self.sources_csv)))
        return 0

    def check_file(self, path, form):
        """1 when @path is not a file of @form (said), else 0."""
        try:
            entries = json.load(open(path))
        except (OSError, ValueError) as x:
            print("%s: %s: %s" % (self.prog, rel(path), x))
            return 1
        name = next(iter(form.need))
        odd = [e.get(name, "?") if isinstance(e, dict) else "?" for e in entries if form.odd(e)]
        if odd or entries != sorted(entries, key=form.key):
            print("%s: %s is not what write makes (%s)" % (self.prog, rel(path), ", ".join(odd[:3]) or "order"))
            return 1
        return 0

    def offline_check(self, forms):
        """What the check can tell without the clones: each directory of SOURCES.csv (and no other) has the
        files @forms(source) says it must have ([(name, must, Form)]), each of its Form, and no file that
        @forms does not name. The number of problems (said)."""
        bad = 0
        srcs = self.sources()
        here = {d for d in os.listdir(self.out) if os.path.isdir(os.path.join(self.out, d))}
        for d in sorted(here - {s["Directory"] for s in srcs}):
            print("%s: %s is in no row of SOURCES.csv" % (self.prog, rel(os.path.join(self.out, d))))
            bad += 1
        for src in srcs:
            d = os.path.join(self.out, src["Directory"])
            may = forms(src)
            form = {fn: f for fn, _, f in may}
            must = [fn for fn, m, _ in may if m]
            for fn in must + sorted(set(os.listdir(d) if os.path.isdir(d) else []) - set(must)):
                path = os.path.join(d, fn)
                if fn not in form:
                    print("%s: %s is no file write makes" % (self.prog, rel(path)))
                    bad += 1
                elif not os.path.exists(path):
                    print("%s: %s is missing" % (self.prog, rel(path)))
                    bad += 1
                else:
                    bad += self.check_file(path, form[fn])
        return bad

    def write(self, check, clones, made, forms, ok, more_check=None):
        """Write (or, @check, compare with what is committed) each directory's files as @made(source,
        *@clones) gives them ([(file name, entries, what, commit)]; not without the first clone) and
        events/mapfile.csv's rows; @check: also offline_check(@forms) and @more_check(), and print
        @ok(*@clones) when all is well. 1 when the check found a problem, else 0."""
        bad = 0
        if check:
            bad = self.offline_check(forms) + (more_check() if more_check else 0)
        for src in self.sources() if clones[0] else []:
            for fn, entries, what, commit in made(src, *clones):
                path = os.path.join(self.out, src["Directory"], fn)
                text = dump(entries)
                if check:
                    old = open(path).read() if os.path.exists(path) else None
                    if old != text:
                        print("%s: %s differs from what %s %s gives" % (self.prog, rel(path), what, commit[:12]))
                        bad += 1
                    continue
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)
        text = self.mapfile_text()
        if check and open(MAPFILE).read() != text:
            print("%s: events/mapfile.csv's %s differ from SOURCES.csv's" % (self.prog, self.rows_name))
            bad += 1
        elif not check:
            with open(MAPFILE, "w") as f:
                f.write(text)
        if check and not bad:
            print(ok(*clones))
        return 1 if bad else 0

    def mapfile_text(self):
        """events/mapfile.csv with a row per (id, version, directory) of mapfile_rows: libpmu's own table of
        that CPU first where a row of that id had one (<arch>/<name>: StdNames, topdown, notes; the `+` of
        events/README.md), then the vendor's; the rows stand where the first row that is mine stood (else
        after the architecture's last row), every other row as it was."""
        lines = open(MAPFILE).read().splitlines()
        rows = self.mapfile_rows(self.sources())
        ids = {r[0] for r in rows}
        mine = self.mine or (lambda i: i in ids)
        arch = self.table.split("/")[0] + "/"
        own = {}
        for ln in lines[1:]:
            c = ln.split(",")
            if mine(c[0]) and c[2].startswith(arch) and not c[2].startswith(self.table + "/"):
                own[c[0]] = c[2].split("+")[0]
        new = ["%s,%s,%s,core" % (i, v, "+".join(([own[i]] if i in own else []) + [self.table + "/" + d]))
               for i, v, d in rows]
        out, at = [lines[0]], None
        for ln in lines[1:]:
            if mine(ln.split(",")[0]):
                if at is None:
                    at = len(out)
                continue
            out.append(ln)
        if at is None:
            last = [k for k, ln in enumerate(out) if "," + arch in ln]
            at = last[-1] + 1 if last else len(out)
        out[at:at] = new
        return "\n".join(out) + "\n"

    def main(self, argv, usage, pin, made, forms, ok, clones=1, more_check=None):
        """The modes: pin CLONE PERF [CLONE...], write CLONE [CLONE...], --check [CLONE...]; @clones is how
        many clones write and the check take (pin takes perf's path after the first); a missing one is
        None. Anything else: exit with @usage."""
        n = len(argv) - 1
        given = (argv[1:] + [None] * clones)[:clones]
        if argv[:1] == ["pin"] and 2 <= n <= clones + 1:
            return pin(*argv[1:])
        if argv[:1] == ["write"] and 1 <= n <= clones:
            return self.write(False, given, made, forms, ok)
        if argv[:1] == ["--check"] and n <= clones:
            return self.write(True, given, made, forms, ok, more_check)
        sys.exit(usage)
