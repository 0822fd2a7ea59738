#!/bin/bash
# SPDX-License-Identifier: MIT
# <pmu.h>'s inline fast path compiles cleanly (-Wall -Wextra -Werror
# -pedantic) at -O0, -O1, -O2, -O3, -Os and -Og with every compiler the
# project supports: gcc and clang as C99, g++ and clang++ as C++11, and the
# lab's cross compilers for arm64 and riscv64 (their own arch headers).
# gcc 12 once failed at -O1 only ("inlining failed in call to always_inline
# 'pmu_arch_time': indirect function call with a yet undetermined callee").
# A compiler that tests/deps.sh installs but that is missing is a failure.
#   test-header-levels.sh SOURCE_ROOT
src=${1:?usage: test-header-levels.sh SOURCE_ROOT}
file=$src/tests/header/inline-all.c
compilers=(
	"gcc -std=c99 -x c"
	"clang -std=c99 -x c"
	"g++ -std=c++11 -x c++"
	"clang++ -std=c++11 -x c++"
	"aarch64-linux-gnu-gcc -std=c99 -x c"
	"riscv64-linux-gnu-gcc -std=c99 -x c"
)
fail=0 ran=0
for c in "${compilers[@]}"; do
	cc=${c%% *}
	if ! command -v "$cc" >/dev/null 2>&1; then
		echo "FAIL: $cc not found (tests/deps.sh installs it: run tests/run-all.sh once)"
		fail=$((fail + 1))
		continue
	fi
	for o in -O0 -O1 -O2 -O3 -Os -Og; do
		# shellcheck disable=SC2086
		if out=$($c $o -Wall -Wextra -Werror -pedantic -I"$src/include" -c "$file" -o /dev/null 2>&1); then
			ran=$((ran + 1))
		else
			echo "FAIL: $c $o:"
			printf '%s\n' "$out" | grep -E 'error|note' | head -n 6 | sed 's/^/    /'
			fail=$((fail + 1))
		fi
	done
done
echo "header: $ran compilations clean, $fail failed (${#compilers[@]} compilers x 6 levels)"
[ $fail = 0 ]
