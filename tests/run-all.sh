#!/bin/bash
# Every test: install what is needed, build, run the unit/CLI/example/Python
# tests, again under valgrind, under ASan+UBSan and (threaded tests) TSan,
# a short libFuzzer run, then the QEMU real-PMU lab (arm64, riscv64).
# PMU_FUZZ_SECONDS (default 10) sets the fuzz time per target.
set -uo pipefail
cd "$(dirname "$0")/.."
. tests/deps.sh
pmu_install "${PMU_BUILD_DEPS[@]}" valgrind clang libclang-rt-14-dev python3 python3-pytest python3-jsonschema \
	gcc-riscv64-linux-gnu qemu-system-misc procps || { echo "cannot install build dependencies" >&2; exit 1; }
status=0
step() { echo; echo "== $*"; }
fail() { echo "FAILED: $*"; status=1; }

[ -f build/build.ninja ] || meson setup build >/dev/null || exit 1
ninja -C build >/dev/null || exit 1

step "unit, CLI, example, Python and bare-metal RISC-V tests"
meson test -C build --print-errorlogs || fail "meson test"

step "the same C tests under valgrind memcheck (leaks and invalid accesses fail)"
meson test -C build --print-errorlogs --suite unit --suite examples --no-suite python --no-rebuild \
	--wrapper 'valgrind --quiet --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect' \
	--timeout-multiplier 4 || fail "valgrind"
PMU_CLI_WRAPPER="valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect" \
	meson test -C build --print-errorlogs --no-rebuild --timeout-multiplier 4 test-cli || fail "valgrind (pmu command)"

step "ASan + UBSan build (clang)"
if [ -f build-asan/build.ninja ] || CC=clang meson setup build-asan -Db_sanitize=address,undefined \
	-Db_lundef=false -Dbuildtype=debug >/dev/null; then
	if ninja -C build-asan >/dev/null; then
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
			meson test -C build-asan --print-errorlogs --suite unit --suite cli --suite examples \
			--no-suite python || fail "ASan/UBSan"
	else
		fail "ASan build"
	fi
else
	fail "ASan setup"
fi

step "TSan build (clang): the threaded tests"
if [ -f build-tsan/build.ninja ] || CC=clang meson setup build-tsan -Db_sanitize=thread -Db_lundef=false \
	-Dbuildtype=debug >/dev/null; then
	if ninja -C build-tsan >/dev/null; then
		TSAN_OPTIONS=halt_on_error=1 meson test -C build-tsan --print-errorlogs \
			test-region test-region-nocal test-region-handle test-fast-sim test-sw-events test-stress example-threads || fail "TSan"
	else
		fail "TSan build"
	fi
else
	fail "TSan setup"
fi

step "fuzzing (libFuzzer, ${PMU_FUZZ_SECONDS:-10} s per target)"
tests/fuzz/run.sh "${PMU_FUZZ_SECONDS:-10}"
case $? in
0) ;;
77) echo "fuzzing skipped (see above)" ;;
*) fail "fuzzing" ;;
esac

step "QEMU lab: real kernels with emulated PMUs"
if [ -x tests/lab/run ]; then
	tests/lab/run --arch all
	case $? in
	0) ;;
	77) echo "lab skipped (see the reason above): hardware tests did not run" ;;
	*) fail "lab" ;;
	esac
else
	fail "tests/lab/run missing"
fi
echo
[ $status = 0 ] && echo "ALL TESTS PASSED" || echo "SOME TESTS FAILED"
exit $status
