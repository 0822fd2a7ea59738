#!/bin/bash
# Runs the libFuzzer targets (clang, ASan + UBSan) for SECONDS each
# (default 20; the test command uses a short run, a longer one is e.g.
# `tests/fuzz/run.sh 3600`). Seeds: the shipped tables, tests/tables,
# tests/fuzz/seeds and tests/fuzz/regressions. A crash fails the run and
# leaves the input in build-fuzz/crashes/: add it to
# tests/fuzz/regressions/<target>/ with the fix, so it is replayed forever.
set -uo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-20}
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
status=0
export PMU_TEST_SRCDIR=$PWD UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1
for t in tables eventlist expr; do
	corpus="$bdir/corpus-$t"
	mkdir -p "$corpus"
	case $t in
	tables) find events tests/tables -name '*.json' -exec cp -t "$corpus" {} + 2>/dev/null
		i=0; for f in $(find events tests/tables -name '*.json'); do i=$((i + 1)); cp "$f" "$corpus/seed-$i.json"; done ;;
	*) cp tests/fuzz/seeds/$t/* "$corpus/" ;;
	esac
	cp tests/fuzz/regressions/$t/* "$corpus/" 2>/dev/null
	echo "fuzz: $t for ${secs}s" >&2
	if ! "$bdir/tests/fuzz/fuzz-$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-artifact_prefix="$bdir/crashes/$t-" -print_final_stats=1 "$corpus" >"$bdir/fuzz-$t.log" 2>&1; then
		echo "fuzz: $t FAILED (input in $bdir/crashes/):" >&2
		grep -E "ERROR|runtime error|SUMMARY|Test unit written" "$bdir/fuzz-$t.log" | head -8 >&2
		status=1
	else
		echo "fuzz: $t: $(grep -E 'stat::number_of_executed_units' "$bdir/fuzz-$t.log" | awk '{print $2}') runs, no crash" >&2
	fi
done
exit $status
