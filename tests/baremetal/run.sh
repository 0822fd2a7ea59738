#!/bin/bash
# SPDX-License-Identifier: MIT
# Builds the bare-metal counter test (start.S, main.c, link.ld) for RV32
# machine mode and runs it on QEMU's riscv32 virt machine with -icount
# shift=0, where minstret is exact; parses its "PASS|FAIL name ..." lines and
# its final "N passed, M failed" line. Also builds it (without running it)
# as RV64 code and at -O0, -Os and -O3.
#
#   run.sh [SOURCE_ROOT [GENERATED_INCLUDE_DIR [WORK_DIR]]]
#
# GENERATED_INCLUDE_DIR holds pmu/ibex-events.h (the build tree's include/);
# without it the header is generated into WORK_DIR with gen/gen-csr-header.py.
# Exit: 0 pass, 1 fail, 77 skip (only when the cross compiler or
# qemu-system-riscv32 is missing: apt-get install gcc-riscv64-linux-gnu
# qemu-system-misc).
set -u

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${1:-$here/../..}" && pwd)
geninc=${2:-}
work=${3:-}
CC=${PMU_RISCV_CC:-riscv64-linux-gnu-gcc}
QEMU=${PMU_QEMU_RV32:-qemu-system-riscv32}

command -v "$CC" >/dev/null 2>&1 ||
	{ echo "SKIP: $CC not found (Debian: apt-get install gcc-riscv64-linux-gnu)"; exit 77; }
command -v "$QEMU" >/dev/null 2>&1 ||
	{ echo "SKIP: $QEMU not found (Debian: apt-get install qemu-system-misc)"; exit 77; }

if [ -z "$work" ]; then
	work=$(mktemp -d) || exit 1
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work" || exit 1

if [ -z "$geninc" ]; then
	geninc=$work/include
	mkdir -p "$geninc/pmu" || exit 1
	python3 "$src/gen/gen-csr-header.py" --standard "$src/events/standard" ibex \
		"$src/events/riscv/ibex/events.json" "$geninc/pmu/ibex-events.h" || exit 1
fi
[ -f "$geninc/pmu/ibex-events.h" ] || { echo "FAIL: no $geninc/pmu/ibex-events.h"; exit 1; }

inc=(-I"$src/include" -I"$geninc")
warn=(-std=c99 -pedantic -Wall -Wextra -Werror)
rv32=(-march=rv32imac_zicsr -mabi=ilp32)
fw=(-nostdlib -ffreestanding -fno-pic -no-pie -static -Wl,--build-id=none)
# one RWX segment is what a bare-metal image is; binutils >= 2.39 warns about it
if echo 'void _start(void){}' | "$CC" "${rv32[@]}" -nostdlib -x c - -o /dev/null \
	-Wl,--no-warn-rwx-segments >/dev/null 2>&1; then
	fw+=(-Wl,--no-warn-rwx-segments)
fi

# the header as RV64 code and at other optimisation levels: compiled and
# linked without libgcc (an RV32 64-bit shift or divide could need it), not run
for variant in "-march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany -O2" \
	"-march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany -O0" \
	"${rv32[*]} -O0" "${rv32[*]} -Os" "${rv32[*]} -O3"; do
	# shellcheck disable=SC2086
	if ! "$CC" $variant "${warn[@]}" "${fw[@]}" "${inc[@]}" -T "$here/link.ld" \
		"$here/start.S" "$here/main.c" -o "$work/build-check.elf"; then
		echo "FAIL: <pmu/riscv-csr.h> does not build with: $variant"
		exit 1
	fi
	echo "build ok: $variant"
done

# the test program
if ! "$CC" "${rv32[@]}" -O2 "${warn[@]}" "${fw[@]}" "${inc[@]}" -T "$here/link.ld" \
	"$here/start.S" "$here/main.c" -o "$work/prog.elf"; then
	echo "FAIL: cannot build the bare-metal program"
	exit 1
fi

out=$work/output.txt
timeout 60 "$QEMU" -M virt -bios none -icount shift=0 -nographic -monitor none -nic none \
	-kernel "$work/prog.elf" </dev/null >"$out" 2>&1
qemu_rc=$?
tr -d '\r' <"$out"
echo "qemu exit status: $qemu_rc"

if [ $qemu_rc = 124 ]; then
	echo "FAIL: qemu did not power off within 60 s"
	exit 1
fi
summary=$(tr -d '\r' <"$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
if [ -z "$summary" ]; then
	echo "FAIL: no summary line in the output"
	exit 1
fi
npass=$(tr -d '\r' <"$out" | grep -c '^PASS ')
nfail=$(tr -d '\r' <"$out" | grep -c '^FAIL ')
read -r spass _ sfail _ <<<"$summary"
if [ "$spass" != "$npass" ] || [ "$sfail" != "$nfail" ]; then
	echo "FAIL: summary ($summary) disagrees with the lines ($npass PASS, $nfail FAIL)"
	exit 1
fi
if [ "$nfail" != 0 ] || [ "$npass" -lt 10 ] || [ $qemu_rc != 0 ]; then
	echo "FAIL: $npass passed, $nfail failed (expected at least 10 and none failed)"
	exit 1
fi
echo "riscv32 bare metal: all $npass checks passed"
exit 0
