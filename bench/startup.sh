#!/bin/bash
# Builds and runs bench/startup (x86 host, wall time), writes bench/results/startup.md.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 bench/make-large-table.py "$tmp/large"
cc -O2 -Iinclude bench/startup.c build/lib/libpmu.a -ljson-c -lpfm -lpthread -lm -o "$tmp/startup"
{
	echo "# bench/startup — $(date -u +%Y-%m-%d), $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
	echo
	"$tmp/startup" "$tmp/large"
	echo
	echo "Large table: $(du -sh "$tmp/large" | cut -f1) of perf-format JSON ($(cat "$tmp"/large/*.json | grep -c EventName) events, $(cat "$tmp"/large/*.json | grep -c MetricName) metrics)."
} | tee bench/results/startup.md
