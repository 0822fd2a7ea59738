#!/bin/bash
# Every test: install what is needed, build, run the unit/CLI/example/Python
# tests, again under valgrind, under ASan+UBSan and (threaded tests) TSan,
# a short libFuzzer run, then the QEMU real-PMU lab (riscv32 bare metal,
# arm64 and riscv64 Linux guests).
# PMU_FUZZ_SECONDS (default 10) sets the fuzz time per target.
#
# The last line names every suite that passed, failed or was skipped, with
# its counts. It says ALL TESTS PASSED only when every suite ran and passed:
# a suite that could not be set up (an install, download or build failed)
# is a failure, and one that cannot run on this kind of host (the lab on a
# host that is not amd64 Debian) is a skip, which that line names.
set -uo pipefail
cd "$(dirname "$0")/.."
. tests/deps.sh

PASSED=() FAILED=() SKIPPED=()
step() { echo; echo "== $*"; }
# passed/failed/skipped SUITE [DETAIL]: the outcome of one suite
passed() { PASSED+=("$1${2:+ ($2)}"); }
failed() { FAILED+=("$1${2:+ ($2)}"); echo "FAILED: $1${2:+ ($2)}"; }
skipped() { SKIPPED+=("$1${2:+ ($2)}"); echo "SKIPPED: $1${2:+ ($2)}"; }
join() { local IFS=';'; local s="$*"; echo "${s//;/, }"; }
finish() {
	local n=$((${#PASSED[@]} + ${#FAILED[@]} + ${#SKIPPED[@]})) head
	if [ ${#FAILED[@]} -gt 0 ]; then
		head="SOME TESTS FAILED"
	elif [ ${#SKIPPED[@]} -gt 0 ]; then
		head="TESTS PASSED, BUT NOT ALL SUITES RAN"
	else
		head="ALL TESTS PASSED"
	fi
	echo
	echo "$head: $n suites: ${#PASSED[@]} passed${PASSED[*]:+: $(join "${PASSED[@]}")}; ${#FAILED[@]} failed${FAILED[*]:+: $(join "${FAILED[@]}")}; ${#SKIPPED[@]} skipped${SKIPPED[*]:+: $(join "${SKIPPED[@]}")}"
	[ ${#FAILED[@]} = 0 ]
	exit $?
}

# meson_suite NAME LOG RC: record a `meson test` run whose output is in LOG
# and whose exit status is RC, with the counts of its summary.
meson_suite() {
	local name=$1 log=$2 rc=$3 ok fail skip to
	ok=$(awk '/^Ok:/ { print $2 }' "$log" | tail -n 1)
	fail=$(awk '/^Fail:/ { print $2 }' "$log" | tail -n 1)
	skip=$(awk '/^Skipped:/ { print $2 }' "$log" | tail -n 1)
	to=$(awk '/^Timeout:/ { print $2 }' "$log" | tail -n 1)
	local counts="${ok:-0} ok${skip:+, $skip skipped}"
	[ "${skip:-0}" = 0 ] && counts="${ok:-0} ok"
	if [ $rc = 0 ] && [ "${ok:-0}" -gt 0 ]; then
		passed "$name" "$counts"
	elif [ $rc = 0 ]; then
		failed "$name" "no test ran"
	else
		failed "$name" "$counts, ${fail:-?} failed${to:+, $to timed out}"
	fi
}

LOGS=$(mktemp -d)
trap 'rm -rf "$LOGS"' EXIT

step "installing build and test dependencies (Debian packages)"
if ! pmu_install "${PMU_BUILD_DEPS[@]}" "${PMU_TEST_DEPS[@]}"; then
	failed "dependencies" "apt-get could not install them"
	finish
fi
# a build directory configured before the test packages were installed (README command 1 makes one)
# is configured again, so that what they bring (an MPI for test-mpi) is found, not skipped
if { if [ -f build/build.ninja ]; then meson setup --reconfigure build >/dev/null; else meson setup build >/dev/null; fi; } &&
	ninja -C build >/dev/null; then
	passed "build"
else
	failed "build"
	finish
fi

step "unit, CLI, example and Python tests"
meson test -C build --print-errorlogs --no-suite lab 2>&1 | tee "$LOGS/unit"
meson_suite "tests" "$LOGS/unit" "${PIPESTATUS[0]}"
# the concurrency tests' iteration counts (issue 40), from their logs
grep -hE '^test-(fork-stress|region-race|region-reclaim|dlclose): ' build/meson-logs/testlog.txt

step "the same C tests under valgrind memcheck (leaks and invalid accesses fail)"
# suite 'script' (tests written in shell) is left out: valgrind would check bash, whose own
# parser leaks, and a setuid program does not run under valgrind at all
meson test -C build --print-errorlogs --suite unit --suite examples --no-suite python --no-rebuild \
	--wrapper 'valgrind --quiet --vgdb=no --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect' \
	--timeout-multiplier 4 2>&1 | tee "$LOGS/valgrind"
meson_suite "valgrind" "$LOGS/valgrind" "${PIPESTATUS[0]}"
PMU_CLI_WRAPPER="valgrind --quiet --vgdb=no --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect" \
	meson test -C build --print-errorlogs --no-rebuild --timeout-multiplier 4 test-cli 2>&1 | tee "$LOGS/valgrind-cli"
meson_suite "valgrind-pmu" "$LOGS/valgrind-cli" "${PIPESTATUS[0]}"

step "ASan + UBSan build (clang)"
if { [ -f build-asan/build.ninja ] || CC=clang meson setup build-asan -Db_sanitize=address,undefined \
	-Db_lundef=false -Dbuildtype=debug >/dev/null; } && ninja -C build-asan >/dev/null; then
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
		meson test -C build-asan --print-errorlogs --suite unit --suite cli --suite examples \
		--no-suite python 2>&1 | tee "$LOGS/asan"
	meson_suite "asan+ubsan" "$LOGS/asan" "${PIPESTATUS[0]}"
else
	failed "asan+ubsan" "build failed"
fi

step "TSan build (clang): the threaded tests"
if { [ -f build-tsan/build.ninja ] || CC=clang meson setup build-tsan -Db_sanitize=thread -Db_lundef=false \
	-Dbuildtype=debug >/dev/null; } && ninja -C build-tsan >/dev/null; then
	# test-fork-stress: fewer rounds (each child is slower) and a longer alarm; its races fail, its hangs
	# are the plain build's to judge (the file's header says why)
	TSAN_OPTIONS=halt_on_error=1 PMU_FORK_ROUNDS=700 PMU_FORK_CHILD_SECONDS=10 meson test -C build-tsan --print-errorlogs \
		test-region test-region-nocal test-region-handle test-region-names test-region-misconfig test-fast-sim \
		test-sw-events test-stress test-sysfs-lazy test-tables-lazy test-fork-stress \
		example-threads 2>&1 | tee "$LOGS/tsan"
	meson_suite "tsan" "$LOGS/tsan" "${PIPESTATUS[0]}"
	grep -hE '^test-fork-stress: ' build-tsan/meson-logs/testlog.txt
else
	failed "tsan" "build failed"
fi

step "fuzzing (libFuzzer, ${PMU_FUZZ_SECONDS:-10} s per target)"
tests/fuzz/run.sh "${PMU_FUZZ_SECONDS:-10}" 2>&1 | tee "$LOGS/fuzz"
case ${PIPESTATUS[0]} in
0) passed "fuzz" "$(grep -c 'no crash' "$LOGS/fuzz") targets, ${PMU_FUZZ_SECONDS:-10} s each" ;;
*) failed "fuzz" ;;
esac

step "QEMU lab: riscv32 bare metal (machine-mode counters, exact minstret)"
meson test -C build --print-errorlogs --suite lab 2>&1 | tee "$LOGS/lab32"
rc=${PIPESTATUS[0]}
if grep -qE '^Skipped:[[:space:]]+[1-9]' "$LOGS/lab32"; then
	failed "lab-riscv32" "skipped: its cross compiler or QEMU is missing although installed above"
else
	meson_suite "lab-riscv32" "$LOGS/lab32" "$rc"
fi

step "QEMU lab: arm64 (one PMU, and two PMU clusters) and riscv64 Linux guests, real kernels with emulated PMUs"
if [ -x tests/lab/run ]; then
	tests/lab/run --arch all | tee "$LOGS/lab"
	rc=${PIPESTATUS[0]}
	counts=$(sed -n 's/^lab: \([0-9]* passed, [0-9]* failed, [0-9]* skipped\).*/\1/p' "$LOGS/lab" | tail -n 1)
	case $rc in
	0) passed "lab" "arm64 + arm64-hetero + riscv64: $counts" ;;
	77) skipped "lab" "$(sed -n 's/^lab: 0 passed, 0 failed, 0 skipped (lab not run: \(.*\))$/\1/p' "$LOGS/lab")" ;;
	*) failed "lab" "arm64 + arm64-hetero + riscv64: ${counts:-no result}" ;;
	esac
else
	failed "lab" "tests/lab/run missing"
fi
finish
