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
# read_cost_goals ARCH < BENCH lines: the goals row, from the first (1 counter)
# and the last available (most counters) line and the plain read(2) line
read_cost_goals() {
	local first last p
	IFS= read -r first || return 0
	last=$(cat)
	last=${last##*$'\n'}
	[ -n "$last" ] || last=$first
	p=$(bench_lines "$1" "read-cost-plain arch=$1")
	{ echo "$first"; echo "$last"; echo "$p"; } | tr ' ' '\n' | awk -v arch="$1" -F= '
		/^counters=/ { k++ } /=/ { v[k, $1] = $2 } /^plain_times=/ { plain = $2 }
		END {
			d = v[1, "fast"] - v[1, "bare_times"]
			c1 = v[1, "counters"]; c2 = v[2, "counters"]
			if (c2 > c1) {
				sr = (v[2, "set_read"] - v[1, "set_read"]) / (c2 - c1)
				fl = (v[2, "bare_times"] - v[1, "bare_times"]) / (c2 - c1)
				member = sprintf("%.1f / %.1f: %s", sr, fl, sr <= fl + 4 ? "met" : "not met")
			} else
				member = "one group size only"
			sr1 = v[1, "set_read"]
			if (sr1 <= 40) one = sprintf("%.1f: met", sr1)
			else if (v[1, "bare_times"] > 40) one = sprintf("%.1f: out of reach, the floor is %.1f (pmu_set_read - floor %.1f)", sr1, v[1, "bare_times"], sr1 - v[1, "bare_times"])
			else one = sprintf("%.1f: not met", sr1)
			# a read at the floor is the most any read can save against read(2)
			ratio = plain != "" && sr1 > 0 ? sprintf("%.1fx: %s", plain / sr1, plain / sr1 >= 40 ? "met" : \
				plain / v[1, "bare_times"] < 40 ? sprintf("out of reach, a read at the floor would be %.1fx", \
				plain / v[1, "bare_times"]) : "not met") : "no plain read(2) figure"
			printf "| %s | %.1f: %s | %s | %s | %s |\n", arch, d, d <= 12 ? "met" : "not met", member, one, ratio
		}'
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
	echo
	echo "## Against issue 16's goals (computed from the rows above by this script)"
	echo
	echo "The floor is \"bare + times\": the seqlock loop with the time fields and the clock, what any read that"
	echo "returns enabled/running executes. \"Further member\": the slope from 1 counter to the largest group"
	echo "measured, libpmu's pmu_set_read against the floor's."
	echo
	echo "| guest | pmu_fast_read - floor, 1 counter (goal <= 12) | further member: pmu_set_read / floor (goal <= floor + 4) | pmu_set_read, 1 event (goal <= 40) | plain read(2) / pmu_set_read, 1 event (goal >= 40x) |"
	echo "|---|---|---|---|---|"
	for arch in arm64 riscv64; do
		bench_lines "$arch" "read-cost arch=$arch" | grep -v unavailable | read_cost_goals "$arch" || true
	done
} > bench/results/read-cost.md
cat bench/results/read-cost.md
