#!/bin/bash
# The regions' bookkeeping against the number of names and of threads (bench/region-names.c), for this
# tree's library and, in the same run, for the library before the name index and the per-name slot
# lists (the baseline revision, built in a temporary worktree); writes bench/results/region-names.md.
#   bench/region-names.sh [BASELINE_REV]   (default 4f19217, main before issue 40's region rework)
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-4f19217}
out=bench/results/region-names.md
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
[ -f build/build.ninja ] || meson setup build >/dev/null
ninja -C build >/dev/null
git worktree add -q --detach "$tmp/base" "$base"
meson setup "$tmp/base-build" "$tmp/base" >/dev/null
ninja -C "$tmp/base-build" lib/libpmu.so.0.1.0 >/dev/null
cc -O2 -Iinclude bench/region-names.c -Lbuild/lib -lpmu -lpthread -o "$tmp/region-names"
names=(10 100 1000 10000 100000)
threads=(1 10 100 1000)
# run LIBDIR MODE ARGS...: the BENCH lines, task-clock counted (no hardware PMU needed), no report at exit
run() {
	local lib=$1; shift
	PMU_EVENTS=task-clock PMU_CALIBRATE=0 PMU_OUTPUT=/dev/null LD_LIBRARY_PATH=$lib PMU_BENCH_BUDGET_S=60 \
		"$tmp/region-names" "$@"
}
now_names=$(run build/lib names "${names[@]}")
base_names=$(run "$tmp/base-build/lib" names "${names[@]}")
now_report=$(run build/lib report "${threads[@]}")
base_report=$(run "$tmp/base-build/lib" report "${threads[@]}")
# field LINES KEY MATCH: KEY's value on the line holding MATCH (" n=10 ", " threads=1 "), or the line's
# "over budget" text
field() {
	local line
	line=$(grep -- "$3" <<<"$1" || true)
	if [ -z "$line" ]; then echo "not reached"; elif [[ $line == *"over budget"* ]]; then echo "over ${PMU_BENCH_BUDGET_S:-60} s"
	else sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$line"; fi
}
{
	echo "# bench/region-names — $(date +%F), $(uname -m), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	echo
	echo "The regions' bookkeeping, wall time through the public API (bench/region-names.c; PMU_EVENTS=task-clock,"
	echo "PMU_CALIBRATE=0). \"now\": this tree; \"before\": revision $base, built and run in the same run. Roughly linear"
	echo "means a flat column: the cost per name (per slot) does not grow with the names (the slots)."
	echo
	echo "| names used for the first time | now: ns per name, first use | now: ns per name, used again | before: ns per name, first use | before: used again |"
	echo "|---|---|---|---|---|"
	for n in "${names[@]}"; do
		echo "| $n | $(field "$now_names" first_ns " n=$n ") | $(field "$now_names" again_ns " n=$n ") | $(field "$base_names" first_ns " n=$n ") | $(field "$base_names" again_ns " n=$n ") |"
	done
	echo
	echo "| threads alive, 100 names each | slots | now: report (pmu_region_foreach, per-thread rows), ns per slot | before: ns per slot | now: whole report (ms) | before (ms) |"
	echo "|---|---|---|---|---|---|"
	for t in "${threads[@]}"; do
		nf=$(field "$now_report" foreach_ns " threads=$t ")
		bf=$(field "$base_report" foreach_ns " threads=$t ")
		ms() { [[ $1 =~ ^[0-9]+$ ]] && awk -v v="$1" 'BEGIN { printf "%.2f", v / 1e6 }' || echo "$1"; }
		echo "| $t | $((t * 100)) | $(field "$now_report" per_slot_ns " threads=$t ") | $(field "$base_report" per_slot_ns " threads=$t ") | $(ms "$nf") | $(ms "$bf") |"
	done
} > "$out"
cat "$out"
