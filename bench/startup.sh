#!/bin/bash
# Builds and runs bench/startup (x86 host, wall time), writes bench/results/startup.md.
#   bench/startup.sh                build here, run here, write bench/results/startup.md
#   bench/startup.sh --build DIR    build the programs into DIR, with the shared libraries they load
#                                   (libpmu.so, json-c, libpfm4, PAPI) in DIR/lib, and run nothing
#   bench/startup.sh --run DIR OUT  run DIR's programs here and write OUT: for a machine that has
#                                   neither a compiler nor these packages (python3 makes the large table)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=all out=bench/results/startup.md
usage() { echo "usage: bench/startup.sh [--build DIR | --run DIR OUT]" >&2; exit 2; }
case ${1:-} in
--build) [ $# = 2 ] || usage; mode=build bin=$2 ;;
--run) [ $# = 3 ] && [ -x "$2/startup" ] || usage; mode=run bin=$2 out=$3 ;;
'') bin=$(mktemp -d); trap 'rm -rf "$bin"' EXIT ;;
*) usage ;;
esac
if [ $mode != run ]; then
	. tests/deps.sh
	# the baselines: libpfm4 (a build dependency) and PAPI
	pmu_install "${PMU_BUILD_DEPS[@]}" libpapi-dev || echo "startup: could not install libpapi-dev: PAPI not compared" >&2
	[ -f build/build.ninja ] || meson setup build >/dev/null
	ninja -C build >/dev/null
	mkdir -p "$bin/lib"
	rpath=(-Wl,-rpath,'$ORIGIN/lib')
	cc -O2 -Iinclude bench/startup.c build/lib/libpmu.a -ljson-c -lpfm -lpthread -lm "${rpath[@]}" -o "$bin/startup"
	# whole programs, exec to exit: linked with libpmu.so, with libpfm4, with neither
	cc -O2 -Iinclude -DWITH_LIBPMU bench/startup-exec.c -Lbuild/lib -lpmu "${rpath[@]}" -o "$bin/exec-libpmu"
	cc -O2 -DWITH_LIBPFM bench/startup-exec.c -lpfm "${rpath[@]}" -o "$bin/exec-libpfm"
	cc -O2 bench/startup-exec.c -o "$bin/exec-neither"
	if [ -f /usr/include/papi.h ]; then
		cc -O2 -Iinclude bench/startup-papi.c build/lib/libpmu.a -lpapi -ljson-c -lpfm -lpthread -lm \
			"${rpath[@]}" -o "$bin/startup-papi" 2>/dev/null || rm -f "$bin/startup-papi"
	fi
	# the libraries they load, but the C library's own, beside them (DIR/lib, found through $ORIGIN)
	for p in "$bin"/startup* "$bin"/exec-*; do
		LD_LIBRARY_PATH="$PWD/build/lib" ldd "$p" | awk '$3 ~ /^\// { print $3 }'
	done | sort -u | grep -vE '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' | while read -r l; do
		cp -L "$l" "$bin/lib/"
	done
	[ $mode = build ] && exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; [ $mode = all ] && rm -rf "$bin"; true' EXIT
python3 bench/make-large-table.py "$tmp/large"
# libpmu.so's own json-c too (a library's RUNPATH serves its own needs, not those of what it loads)
export LD_LIBRARY_PATH="$bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
{
	echo "# bench/startup — $(date -u +%Y-%m-%d), $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
	echo
	if [ $mode = run ]; then
		echo "Programs built on another machine (bench/startup.sh --build DIR) and run on this one (--run DIR OUT)."
		echo
	fi
	"$bin/startup" "$tmp/large" "$bin/exec-libpmu" "$bin/exec-libpfm" "$bin/exec-neither"
	echo
	echo "Large table: $(du -sh "$tmp/large" | cut -f1) of perf-format JSON ($(cat "$tmp"/large/*.json | grep -c EventName) events, $(cat "$tmp"/large/*.json | grep -c MetricName) metrics)."
	echo
	if [ -x "$bin/startup-papi" ]; then
		"$bin/startup-papi"
	else
		echo "PAPI comparison not run: libpapi-dev is not installed (apt-get install libpapi-dev)."
	fi
} | tee "$out"
