#!/bin/bash
# gen/gen-tables.py (the build step that compiles events/ into the library) refuses a built-in
# table entry the run-time loader refuses, with one line naming the file, the entry, the key and
# what is allowed; before, a bad number stopped the build with a Python traceback and an
# out-of-range CounterWidth or MhpmeventBit was compiled in. The oracle for each case is the
# loader: 'pmu check-tables' on the same directory reports a problem for that entry.
set -u
GEN=${1:?gen-tables.py}
PMU=${PMU_CLI:?}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0 checks=0
case_of() { # label, entry JSON, expected text of the build's message
	local label=$1 entry=$2 want=$3 out
	rm -rf "$tmp/ev"; mkdir -p "$tmp/ev/riscv/t"
	printf 'CPUID,Version,Directory,Type\n0x1-0x2-0x3,v1,riscv/t,core\n' > "$tmp/ev/mapfile.csv"
	printf '[%s]\n' "$entry" > "$tmp/ev/riscv/t/e.json"
	checks=$((checks + 2))
	out=$(python3 "$GEN" "$tmp/ev" "$tmp/out.c" 2>&1)
	if [ $? = 0 ] || [ "$(printf '%s\n' "$out" | wc -l)" != 1 ] || ! grep -qF -- "$want" <<< "$out"; then
		echo "FAIL: $label: the build said: $out (wanted one line with: $want)"; fails=$((fails + 1))
	fi
	if "$PMU" check-tables "$tmp/ev/riscv/t" > "$tmp/ct" 2>&1; then
		echo "FAIL: $label: the loader (pmu check-tables) accepts what the build refuses:"; sed 's/^/  | /' "$tmp/ct"
		fails=$((fails + 1))
	fi
}
case_of "CounterWidth 0" '{"EventName": "A", "EventCode": "0x1", "CounterWidth": "0"}' "e.json: A: CounterWidth 0 is not 1..64"
case_of "CounterWidth 65" '{"EventName": "A", "EventCode": "0x1", "CounterWidth": "65"}' "CounterWidth 65 is not 1..64"
case_of "MhpmeventBit 64" '{"EventName": "A", "EventCode": "0x1", "MhpmeventBit": "64"}' "MhpmeventBit 64 is not 0..63"
case_of "EventCode not a number" '{"EventName": "B", "EventCode": "0xzz"}' "B: EventCode '0xzz' is not a number"
case_of "UMask beyond 64 bits" '{"EventName": "C", "EventCode": "1", "UMask": "0x10000000000000000"}' "C: UMask '0x10000000000000000' is not a number"
# and a good entry still compiles
rm -rf "$tmp/ev"; mkdir -p "$tmp/ev/riscv/t"
printf 'CPUID,Version,Directory,Type\n0x1-0x2-0x3,v1,riscv/t,core\n' > "$tmp/ev/mapfile.csv"
printf '[{"EventName": "A", "EventCode": "0x1", "CounterWidth": "48", "MhpmeventBit": "63"}]\n' > "$tmp/ev/riscv/t/e.json"
checks=$((checks + 1))
python3 "$GEN" "$tmp/ev" "$tmp/out.c" || { echo "FAIL: a good entry does not compile"; fails=$((fails + 1)); }
echo "test-gen-tables: $checks checks, $fails failed"
[ "$fails" = 0 ]
