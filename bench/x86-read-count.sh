#!/bin/bash
# Counts the x86 user-space read's instructions exactly with valgrind's
# callgrind on a machine without a PMU (bench/x86-read-count.c says how) and
# writes bench/results/x86-read-count.md. Needs a build in build/ (meson
# setup build && ninja -C build) and valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
b=${PMU_BUILD:-build}
[ -f "$b/lib/libpmu.a" ] || { echo "x86-read-count: no $b/lib/libpmu.a (meson setup $b && ninja -C $b)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the project's optimisation (buildtype debugoptimized: -O2 -g)
gcc -O2 -g -std=gnu11 -Iinclude -I"$b" bench/x86-read-count.c -o "$tmp/count" "$b/lib/libpmu.a" \
	$(pkg-config --libs json-c) -lpfm -lm -lpthread
{
	echo "# bench/x86-read-count — $(date -u +%Y-%m-%d), $(gcc --version | head -n 1), valgrind $(valgrind --version)"
	echo
	echo "Instructions per read of a group of N counters on x86-64, counted exactly by callgrind over 1,000 reads"
	echo "(an empty loop subtracted), with rdpmc and rdtsc each replaced by one mov (see bench/x86-read-count.c)."
	echo "\"bare\": seqlock, counter, sign extension; \"bare + times\": pmu_page_read() of the leader (with the"
	echo "enabled/running extrapolation) and bare reads of the others: the floors."
	echo
	echo "| counters | bare | bare + times | pmu_fast_read | pmu_fast_read - (bare + times) |"
	echo "|---|---|---|---|---|"
	for n in 1 2 4 8; do
		valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$n" "$tmp/count" "$n" >/dev/null 2>&1
		ir() { callgrind_annotate --inclusive=yes "$tmp/cg.$n" 2>/dev/null | awk -v f="$1" '!done && ($0 ~ (":" f " ") || $0 ~ (":" f "$")) { gsub(",", "", $1); print $1; done = 1 }'; }
		e=$(ir measure_empty) b=$(ir measure_bare) t=$(ir measure_bare_times) f=$(ir measure_fast)
		awk -v n="$n" -v e="$e" -v b="$b" -v t="$t" -v f="$f" 'BEGIN {
			printf "| %d | %.1f | %.1f | %.1f | %+.1f |\n", n, (b - e) / 1000, (t - e) / 1000, (f - e) / 1000, (f - t) / 1000 }'
	done
} > bench/results/x86-read-count.md
cat bench/results/x86-read-count.md
