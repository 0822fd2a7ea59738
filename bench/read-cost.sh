#!/bin/bash
# Runs tests/lab/guest/bench-read-cost in both QEMU lab guests (instructions
# counted under -icount, exact) and writes bench/results/read-cost.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bdir=${PMU_LAB_BUILD:-$PWD/build-lab}
tests/lab/run --build-dir "$bdir" --test bench-read-cost >/dev/null
{
	echo "# bench/read-cost — $(date -u +%Y-%m-%d), QEMU lab guests (-icount shift=0)"
	echo
	echo "Instructions per read of a group of N counters (user + kernel mode, measured by a separate counter;"
	echo "the cost of an empty loop subtracted; minimum of 7 runs of 1,000 reads). See bench/README.md."
	echo
	echo "| guest | counters | bare seqlock + hw read | libpmu pmu_fast_read | libpmu pmu_set_read | read(2) path | read(2) / fast |"
	echo "|---|---|---|---|---|---|---|"
	for arch in arm64 riscv64; do
		grep -h "^BENCH read-cost arch=$arch" "$bdir/$arch/console.txt" | tr -d '\r' | while read -r _ _ a n rest; do
			a=${a#arch=}; n=${n#counters=}
			if [[ $rest == unavailable* ]]; then
				echo "| $a | $n | ${rest:0:72} | | | | |"
				continue
			fi
			declare -A f=()
			for kv in $rest; do f[${kv%%=*}]=${kv#*=}; done
			echo "| $a | $n | ${f[bare]} | ${f[fast]} | ${f[set_read]} | ${f[syscall]} | ${f[syscall_over_fast]}x |"
		done
	done
} > bench/results/read-cost.md
cat bench/results/read-cost.md
