#!/bin/bash
# Every test: install what is needed, build, run the unit/CLI/example tests,
# run them again under valgrind, then the QEMU real-PMU lab (arm64, riscv64).
set -uo pipefail
cd "$(dirname "$0")/.."
. tests/deps.sh
pmu_install "${PMU_BUILD_DEPS[@]}" valgrind python3 python3-pytest python3-jsonschema gcc-riscv64-linux-gnu qemu-system-misc || { echo "cannot install build dependencies" >&2; exit 1; }
status=0
[ -f build/build.ninja ] || meson setup build >/dev/null || exit 1
ninja -C build >/dev/null || exit 1

echo "== unit, CLI and example tests"
meson test -C build --print-errorlogs || status=1

echo "== the same under valgrind memcheck (leaks and invalid accesses fail)"
meson test -C build --print-errorlogs --suite unit --suite examples --no-rebuild \
	--wrapper 'valgrind --quiet --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect' \
	|| status=1

echo "== QEMU lab: real kernels with emulated PMUs"
if [ -x tests/lab/run ]; then
	tests/lab/run --arch all
	lab=$?
	case $lab in
	0) ;;
	77) echo "lab skipped (see the reason above): hardware tests did not run" ;;
	*) status=1 ;;
	esac
else
	echo "lab: tests/lab/run not present"
	status=1
fi
[ $status = 0 ] && echo "ALL TESTS PASSED" || echo "SOME TESTS FAILED"
exit $status
