#!/bin/bash
# Instructions to open one list of 10 events on 1, 16 and 256 targets (threads), counted exactly under
# callgrind in bench/plan-open.c's open_all() (user space only: the kernel's perf_event_open is not
# counted): each target resolving the list again (pmu_set_open per target, as pmu stat and the regions
# did before plans), against a plan resolved once (pmu_plan_new, then pmu_plan_open per target), and
# the baseline revision's pmu_set_open (built in a temporary worktree) in the same run; writes
# bench/results/plan-open.md.
#   bench/plan-open.sh [BASELINE_REV]   (default ac2fd60, main before plans)
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-ac2fd60}
out=bench/results/plan-open.md
. bench/baseline.sh
bench_baseline plan-open.sh "$base"
cc -O2 -Iinclude -Ibuild/include bench/plan-open.c -Lbuild/lib -lpmu -lpthread -o "$tmp/now"
cc -O2 -DPLAN_OPEN_EACH_ONLY -I"$tmp/base/include" -I"$tmp/base-build/include" bench/plan-open.c \
	-L"$tmp/base-build/lib" -lpmu -lpthread -o "$tmp/before"
# count LIBDIR PROGRAM MODE N: the instructions of open_all(), after the program said its sets were live
count() {
	local log=$tmp/cg.log line
	if ! LD_LIBRARY_PATH=$1 valgrind --tool=callgrind --toggle-collect=open_all \
		--callgrind-out-file="$tmp/cg.out" "$2" "$3" "$4" >"$tmp/out" 2>"$log"; then
		echo "plan-open.sh: $3 on $4 targets failed:" >&2
		cat "$tmp/out" "$log" >&2
		exit 1
	fi
	grep -q "^BENCH plan-open mode=$3 targets=$4 .*live=yes" "$tmp/out" || { echo "plan-open.sh: no live figure" >&2; exit 1; }
	line=$(grep 'Collected :' "$log")
	echo "${line##* }"
}
per() { awk -v a="$1" -v n="$2" 'BEGIN { printf "%.0f", a / n }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
group() { sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta' <<<"$1"; }
{
	echo "# bench/plan-open — $(date +%F), $(uname -m), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	echo
	echo "Instructions of user space (callgrind, exact) to open one list of 10 software events"
	echo "(task-clock,cpu-clock,page-faults,minor-faults,major-faults,context-switches,cpu-migrations,"
	echo "alignment-faults,emulation-faults,dummy) on N targets, the threads of a process (bench/plan-open.c;"
	echo "the kernel's work in perf_event_open is not counted, and is the same either way). Each figure comes"
	echo "from a run whose sets were all checked live: every event opened, each set's task-clock counted."
	echo "\"before\": pmu_set_open per target in revision $base (main before plans), built and run in the same"
	echo "run; \"now, each\": the same calls on this tree; \"now, plan\": pmu_plan_new once, pmu_plan_open per target."
	echo
	echo "| targets | before: each (instructions) | now: each | now: plan | before per target | plan per target | before / plan |"
	echo "|---|---|---|---|---|---|---|"
	for n in 1 16 256; do
		b=$(count "$tmp/base-build/lib" "$tmp/before" each $n)
		e=$(count build/lib "$tmp/now" each $n)
		p=$(count build/lib "$tmp/now" plan $n)
		echo "| $n | $(group "$b") | $(group "$e") | $(group "$p") | $(group "$(per "$b" $n)") | $(group "$(per "$p" $n)") | $(ratio "$b" "$p") |"
	done
} > "$out"
cat "$out"
