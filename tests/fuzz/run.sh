#!/bin/bash
# Runs the libFuzzer targets (clang, ASan + UBSan) for SECONDS each.
#   tests/fuzz/run.sh [SECONDS] [TARGET...]     default 20 s, every target
#   tests/fuzz/run.sh --merge SECONDS [TARGET...]
#   tests/fuzz/run.sh --runs N SECONDS [TARGET...]   stop each after N executions (or SECONDS)
# The test command uses a short run; a long one is e.g. `tests/fuzz/run.sh
# 3600`. Every target starts from its seeds (tests/fuzz/seeds/<target>; the
# tables target also every JSON table in events/ and tests/tables, cut into
# tables of 8 entries by split-tables.py), the
# inputs that once crashed it (tests/fuzz/regressions/<target>) and the
# corpus kept in the repository (tests/fuzz/corpus/<target>), and grows a
# working corpus in $PMU_FUZZ_BUILD/corpus-<target> that later runs on this
# machine go on from. --merge then minimises what the run found into
# tests/fuzz/corpus/<target> (libFuzzer -merge=1: only inputs that add
# coverage), to be committed, so the corpus every run starts from grows.
# Inputs may be long (-max_len 256 KiB; libFuzzer grows lengths gradually).
# A crash fails the run and leaves the input in $PMU_FUZZ_BUILD/crashes/:
# add it to tests/fuzz/regressions/<target>/ with the fix, so it is
# replayed forever (the replay tests run it in every build).
# The last line per target gives its executions, executions per second, and
# executions per CPU second (what the target costs, whatever the load).
set -uo pipefail
cd "$(dirname "$0")/../.."
merge=0 runs_max=-1
while [ "${1:-}" = --merge ] || [ "${1:-}" = --runs ]; do
	if [ "$1" = --merge ]; then
		merge=1
		shift
	else
		runs_max=${2:?--runs needs a number of executions}
		shift 2
	fi
done
secs=${1:-20}
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(tables eventlist expr mapfile tabledir metric report)
bdir=${PMU_FUZZ_BUILD:-$PWD/build-fuzz}
if ! command -v clang >/dev/null; then
	echo "fuzz: clang is not installed: fuzzers not run" >&2
	exit 77
fi
if [ ! -f "$bdir/build.ninja" ]; then
	CC=clang meson setup "$bdir" -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
		-Dexamples=false -Dbuildtype=debugoptimized >"$bdir.setup.log" 2>&1 ||
		{ tail -20 "$bdir.setup.log"; exit 1; }
fi
ninja -C "$bdir" >"$bdir/build.log" 2>&1 || { tail -20 "$bdir/build.log"; exit 1; }
mkdir -p "$bdir/crashes"
# CPU seconds (user + system) of the commands this script has waited for: on a loaded machine
# exec/s (wall clock) says more about the load than about the target, executions per CPU second not
# (`times` in this shell: in a $(...) subshell it would count that subshell's children)
cpu_mark() {
	times >"$bdir/times-$1"  # per target: two runs of this script may share $bdir
}
cpu_seconds() {
	awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); print u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$bdir/times-$1"
}
status=0
# ASAN_OPTIONS may add settings (a long run: malloc_context_size=0, no allocation stacks in reports, ~17 %
# faster; detection is the same); leaks are always detected
export PMU_TEST_SRCDIR=$PWD UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1
for t in "${targets[@]}"; do
	exe="$bdir/tests/fuzz/fuzz-$t"
	if [ ! -x "$exe" ]; then
		echo "fuzz: $t FAILED: no target $exe (a target of this list was not built)" >&2
		status=1
		continue
	fi
	work="$bdir/corpus-$t"
	mkdir -p "$work"
	inputs=("$work")
	for d in tests/fuzz/seeds/$t tests/fuzz/regressions/$t tests/fuzz/corpus/$t; do
		[ -d "$d" ] && inputs+=("$d")
	done
	[ "$t" = report ] && inputs+=(tests/reports) # the hand-written reports are seeds too
	if [ "$t" = tables ]; then
		# every table file of the repository, cut into tables of 8 entries (split-tables.py says why)
		seeds="$bdir/seeds-tables"
		rm -rf "$seeds" && mkdir -p "$seeds"
		find events tests/tables -name '*.json' | sort | tests/fuzz/split-tables.py "$seeds" 8 ||
			{ echo "fuzz: tables: tests/fuzz/split-tables.py failed" >&2; exit 1; }
		inputs+=("$seeds")
	fi
	echo "fuzz: $t for ${secs}s$([ "$runs_max" -ge 0 ] && echo " or $runs_max executions")" >&2
	cpu_mark "$t-start"
	# the first directory receives what the run finds; the others are read
	if ! "$exe" -max_total_time="$secs" -runs="$runs_max" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
		-artifact_prefix="$bdir/crashes/$t-" -print_final_stats=1 "${inputs[@]}" >"$bdir/fuzz-$t.log" 2>&1; then
		echo "fuzz: $t FAILED (input in $bdir/crashes/):" >&2
		grep -E "ERROR|runtime error|SUMMARY|Test unit written" "$bdir/fuzz-$t.log" | head -8 >&2
		status=1
		continue
	fi
	runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$bdir/fuzz-$t.log")
	rate=$(awk '/stat::average_exec_per_sec/ {print $2}' "$bdir/fuzz-$t.log")
	cpu_mark "$t-end"
	cpu=$(awk -v a="$(cpu_seconds "$t-start")" -v b="$(cpu_seconds "$t-end")" -v n="${runs:-0}" 'BEGIN { if (b > a) printf "%.0f", n / (b - a); else print "?" }')
	echo "fuzz: $t: ${runs:-?} runs, ${rate:-?} exec/s ($cpu per CPU second), no crash" >&2
	if [ $merge = 1 ]; then
		mkdir -p "tests/fuzz/corpus/$t"
		"$exe" -merge=1 -timeout=10 -rss_limit_mb=2048 -max_len=262144 "tests/fuzz/corpus/$t" "$work" \
			>"$bdir/merge-$t.log" 2>&1 || { echo "fuzz: $t: merge FAILED (see $bdir/merge-$t.log)" >&2; status=1; }
		echo "fuzz: $t: tests/fuzz/corpus/$t has $(find "tests/fuzz/corpus/$t" -type f | wc -l) inputs" >&2
	fi
done
exit $status
