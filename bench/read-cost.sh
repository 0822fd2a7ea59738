#!/bin/bash
# Runs tests/lab/guest/bench-read-cost in both QEMU lab guests (instructions
# counted under -icount, exact) and writes bench/results/read-cost.md.
# The guest program checks its meter counter is live and prints no figure
# otherwise; this script then writes the reason instead of a table row.
set -euo pipefail
cd "$(dirname "$0")/.."
bdir=${PMU_LAB_BUILD:-$PWD/build-lab}
tests/lab/run --build-dir "$bdir" --test bench-read-cost >/dev/null
. bench/lib.sh
# read_cost_row ARCH COUNTERS: the libpmu table's row, from the fields in f
read_cost_row() {
	echo "| $1 | $2 | ${f[live]} | ${f[bare]} | ${f[bare_times]} | ${f[fast]} | ${f[set_read]} | ${f[syscall]} | ${f[plain_over_set_read]}x | ${f[plain_over_fast]}x | ${f[syscall_over_fast]}x |"
}
{
	echo "# bench/read-cost — $(date -u +%Y-%m-%d), QEMU lab guests (-icount shift=0)"
	echo
	echo "Instructions per read (user + kernel mode, measured by a separate counter that is first checked to"
	echo "count a loop of known length; the cost of an empty loop subtracted; minimum of 7 runs of 1,000 reads)."
	echo "See bench/README.md."
	echo
	echo "## Baseline: a plain read(2) of one descriptor, without libpmu"
	echo
	echo "| guest | read(2), value only (8 bytes) | read(2), value + enabled + running (24 bytes) |"
	echo "|---|---|---|"
	for arch in arm64 riscv64; do
		l=$(bench_lines "$arch" "read-cost-plain arch=$arch")
		case $l in
		*unavailable*|"") cell=${l#*arch=$arch }; [ -n "$l" ] || cell="no result"; echo "| $arch | $cell | |" ;;
		*) bench_fields "${l#*arch=$arch }"
		   echo "| $arch | ${f[plain]} | ${f[plain_times]} |" ;;
		esac
		m=$(bench_lines "$arch" "read-cost arch=all")
		[ -z "$m" ] || echo "| $arch | ${m#*arch=all counters=all } | |"
	done
	echo
	echo "## libpmu: a group of N counters"
	echo
	echo "\"live\": how many of the group's counters advance over a loop (QEMU's riscv PMU advances one counter per"
	echo "event type; a read costs the same either way). \"N plain reads / pmu_set_read\": the baseline above with"
	echo "times, once per counter, against libpmu's exported read; \"/ fast\" against the inline pmu_fast_read."
	echo
	echo "| guest | counters | live | bare seqlock + hw read | bare + times (the floor) | libpmu pmu_fast_read | libpmu pmu_set_read | libpmu read(2) of the group | N plain reads / pmu_set_read | N plain reads / fast | group read(2) / fast |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	for arch in arm64 riscv64; do
		bench_rows "$arch" "read-cost arch=$arch" 11 read_cost_row
	done
} > bench/results/read-cost.md
cat bench/results/read-cost.md
