#!/bin/bash
# Builds and runs bench/startup (x86 host, wall time), writes bench/results/startup.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. tests/deps.sh
# the baselines: libpfm4 (a build dependency) and PAPI
pmu_install "${PMU_BUILD_DEPS[@]}" libpapi-dev || echo "startup: could not install libpapi-dev: PAPI not compared" >&2
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 bench/make-large-table.py "$tmp/large"
cc -O2 -Iinclude bench/startup.c build/lib/libpmu.a -ljson-c -lpfm -lpthread -lm -o "$tmp/startup"
# whole programs, exec to exit: linked with libpmu.so, with libpfm4, with neither
cc -O2 -Iinclude -DWITH_LIBPMU bench/startup-exec.c -Lbuild/lib -lpmu -Wl,-rpath,"$PWD/build/lib" -o "$tmp/exec-libpmu"
cc -O2 -DWITH_LIBPFM bench/startup-exec.c -lpfm -o "$tmp/exec-libpfm"
cc -O2 bench/startup-exec.c -o "$tmp/exec-neither"
papi=0
if [ -f /usr/include/papi.h ] && cc -O2 -Iinclude bench/startup-papi.c build/lib/libpmu.a -lpapi -ljson-c -lpfm -lpthread -lm \
	-o "$tmp/startup-papi" 2>/dev/null; then
	papi=1
fi
{
	echo "# bench/startup — $(date -u +%Y-%m-%d), $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
	echo
	"$tmp/startup" "$tmp/large" "$tmp/exec-libpmu" "$tmp/exec-libpfm" "$tmp/exec-neither"
	echo
	echo "Large table: $(du -sh "$tmp/large" | cut -f1) of perf-format JSON ($(cat "$tmp"/large/*.json | grep -c EventName) events, $(cat "$tmp"/large/*.json | grep -c MetricName) metrics)."
	echo
	if [ $papi = 1 ]; then
		"$tmp/startup-papi"
	else
		echo "PAPI comparison not run: libpapi-dev is not installed (apt-get install libpapi-dev)."
	fi
} | tee bench/results/startup.md
