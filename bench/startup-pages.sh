#!/bin/bash
# Counts the pages libpmu's first context and 10 names touch for the first time in a fresh program, and
# libpfm4's initialisation and 10 encodings in the same run (valgrind lackey: exact, whatever the
# machine); writes bench/results/startup-pages.md. Where a page touched for the first time is costly
# (a virtual machine that backs guest memory on demand), this is what a first context's time follows.
set -euo pipefail
cd "$(dirname "$0")/.."
. tests/deps.sh
pmu_install "${PMU_BUILD_DEPS[@]}" valgrind
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# not position-independent: the markers' addresses are the symbol table's
cc -O2 -no-pie -Iinclude -DWITH_LIBPMU bench/startup-exec.c -Lbuild/lib -lpmu -Wl,-rpath,"$PWD/build/lib" -o "$tmp/libpmu"
cc -O2 -no-pie -DWITH_LIBPFM bench/startup-exec.c -lpfm -o "$tmp/libpfm"
count() { # program -> one JSON line
	local b e
	b=$(nm "$1" | awk '$3 == "pages_begin" { print $1 }')
	e=$(nm "$1" | awk '$3 == "pages_end" { print $1 }')
	PAGES_MAPS="$tmp/maps" valgrind --tool=lackey --trace-mem=yes --log-file="$tmp/trace" "$1" >/dev/null
	python3 bench/startup-pages.py "$tmp/trace" "$tmp/maps" "$b" "$e"
	rm -f "$tmp/trace"
}
pmu=$(count "$tmp/libpmu")
pfm=$(count "$tmp/libpfm")
python3 - "$pmu" "$pfm" <<'PY' | tee bench/results/startup-pages.md
import datetime, json, platform, sys
runs = [("libpmu: ctx + 10 resolutions", json.loads(sys.argv[1])), ("libpfm4: init + 10 encodings", json.loads(sys.argv[2]))]
kinds = ["libc", "libpmu", "libpfm", "other library", "program", "heap and anonymous", "stack", "unmapped at exit"]
print("# bench/startup-pages — %s, %s (valgrind lackey: exact)" % (datetime.date.today(), platform.machine()))
print()
print("Pages touched for the first time in a fresh program, from just before the context (pmu_ctx_new,")
print("pfm_initialize) to just after the 10th name (bench/startup-exec.c), by the mapping they lie in.")
for what in ("code", "read", "written"):
    head = {"code": "first executed", "read": "first read (not written)", "written": "first written"}[what]
    print()
    print("| pages %s | total | %s |" % (head, " | ".join(kinds)))
    print("|---|---|%s" % ("---|" * len(kinds)))
    for name, r in runs:
        c = r[what]
        print("| %s | %d | %s |" % (name, sum(c.values()), " | ".join(str(c.get(k, 0)) for k in kinds)))
PY
