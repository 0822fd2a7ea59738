#!/bin/bash
# The built-in tables' cost, before and after Intel's data came in (issue 42): the library's size, the
# instructions of a first context and 10 names for a CPU (bench/tables-cost.c's first_context(), counted
# exactly by callgrind, user space), and of one lookup of a table event (lookup() / 1000), for this tree
# and the baseline revision built in a temporary worktree in the same run; writes
# bench/results/tables-cost.md.
#   bench/tables-cost.sh [BASELINE_REV]   (default 48a5216: main before issue 42's tables)
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-48a5216}
out=bench/results/tables-cost.md
. bench/baseline.sh
bench_baseline tables-cost.sh "$base"
cc -O2 -Iinclude -Ibench bench/tables-cost.c -Lbuild/lib -lpmu -o "$tmp/now"
cc -O2 -I"$tmp/base/include" -Ibench bench/tables-cost.c -L"$tmp/base-build/lib" -lpmu -o "$tmp/before"
fx=tests/fixtures/intel-icx/sys
# count LIBDIR PROGRAM FUNCTION CPUID EVENT: the instructions of FUNCTION; for lookup, "-" when the event
# is not known to that library (its 1000 lookups did not all succeed)
count() {
	local line
	if ! LD_LIBRARY_PATH=$1 valgrind --tool=callgrind --toggle-collect="$3" --callgrind-out-file="$tmp/cg.out" \
		"$2" "$4" "$fx" "$5" >"$tmp/out" 2>"$tmp/log"; then
		echo "tables-cost.sh: $4 failed:" >&2
		cat "$tmp/out" "$tmp/log" >&2
		exit 1
	fi
	grep -q "^BENCH tables-cost .*resolved=10" "$tmp/out" || { echo "tables-cost.sh: no figure" >&2; exit 1; }
	if [ "$3" = lookup ] && ! grep -q "lookups=1000$" "$tmp/out"; then
		echo "-"
		return
	fi
	line=$(grep 'Collected :' "$tmp/log")
	echo "${line##* }"
}
table() { LD_LIBRARY_PATH=$1 "$2" "$3" "$fx" "$4" 2>/dev/null | sed -n 's/.* table=\([^ ]*\) .*/\1/p'; }
per() { [ "$1" = - ] && echo - || awk -v a="$1" 'BEGIN { printf "%.0f", a / 1000 }'; }
group() { sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta' <<<"$1"; }
sizes() { size "$1" | awk 'NR == 2 { print $1, $2 }'; }
{
	echo "# bench/tables-cost — $(date +%F), $(uname -m), $(gcc --version | head -n 1), valgrind $(valgrind --version)"
	echo
	echo "\"before\": revision $base (libpmu's own tables alone), built in the same run; \"now\": this tree (Intel's core"
	echo "and uncore events of 37 CPUs and its metrics of 24, Arm's core events of 18 directories and its Neoverse"
	echo "metrics of 3 built in, libpmu's own tables on top (with the socket-wide standard names of the servers),"
	echo "entries compiled as variable-length records; Zen 3's table is libpmu's own in both). Instructions of user"
	echo "space, counted exactly by"
	echo "callgrind (bench/tables-cost.c): the first context for the CPU id (PMU_CPUID's spelling, on the"
	echo "tests/fixtures/intel-icx machine) and 10 names (bench/startup-names.h; libpfm4's spelling where a"
	echo "built-in table lacks one), then one lookup of a table event (1000 lookups / 1000). Each figure comes"
	echo "from a run that resolved all 10 names and every lookup to one encoding; \"-\": the name is not known."
	echo "Rocket Lake had no table before: its names resolved through libpfm4 (loaded and initialised within the"
	echo "count), and still do for the standard names its table (Intel's alone) does not map, as INST.LOAD.DSRC.L2.RET."
	echo
	read -r bt bd < <(sizes "$tmp/base-build/lib/libpmu.so.0.1.0")
	read -r nt nd < <(sizes build/lib/libpmu.so.0.1.0)
	echo "| libpmu.so | before | now |"
	echo "|---|---|---|"
	echo "| file bytes | $(group "$(stat -c %s "$tmp/base-build/lib/libpmu.so.0.1.0")") | $(group "$(stat -c %s build/lib/libpmu.so.0.1.0)") |"
	echo "| text bytes (code and read-only data) | $(group "$bt") | $(group "$nt") |"
	echo "| data bytes | $(group "$bd") | $(group "$nd") |"
	echo
	echo "| CPU | table before | table now | first context + 10 names: before | now | lookup of the event: before | now |"
	echo "|---|---|---|---|---|---|---|"
	for c in "Skylake-X GenuineIntel-6-55-4 MEM_LOAD_RETIRED.L3_MISS" \
		"Sapphire-Rapids GenuineIntel-6-8F-8 MEM_LOAD_RETIRED.L3_MISS" \
		"Rocket-Lake GenuineIntel-6-A7-1 MEM_LOAD_RETIRED.L3_MISS" \
		"Zen-3 AuthenticAMD-25-1-1 ex_ret_instr"; do
		read -r name id ev <<<"$c"
		b=$(count "$tmp/base-build/lib" "$tmp/before" first_context "$id" "$ev")
		n=$(count build/lib "$tmp/now" first_context "$id" "$ev")
		lb=$(count "$tmp/base-build/lib" "$tmp/before" lookup "$id" "$ev")
		ln=$(count build/lib "$tmp/now" lookup "$id" "$ev")
		tb=$(table "$tmp/base-build/lib" "$tmp/before" "$id" "$ev")
		tn=$(table build/lib "$tmp/now" "$id" "$ev")
		echo "| ${name/-/ } ($id; $ev) | ${tb:-none} | ${tn:-none} | $(group "$b") | $(group "$n") | $(group "$(per "$lb")") | $(group "$(per "$ln")") |"
	done
} > "$out"
cat "$out"
