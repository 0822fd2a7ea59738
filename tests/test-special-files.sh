#!/bin/bash
# Issue 40 item 5: a special file in a written tree (PMU_SYSFS_ROOT, PMU_PROCFS_ROOT) is refused, not
# waited on. Each file of a fixture (tests/fixtures/intel-icx: its PMUs' type, format/ and events/ files,
# cpuinfo, perf_event_paranoid) and the CPUs' online list is replaced, one at a time, by a FIFO with no
# writer: the open of a FIFO for reading, and its read, wait for a writer forever. pmu info, pmu stat -e
# task-clock and pmu stat -C 0 must each end within 20 s (the oracle is the clock: timeout's 124 is the
# hang), and not by a signal. Before the fix every context waited forever at the first such file.
set -u
PMU=${PMU_CLI:?}
SRC=${PMU_TEST_SRCDIR:?}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/checks.sh" # check(), $checks, $fails
cp -r "$SRC/tests/fixtures/intel-icx" "$tmp/tree"
mkdir -p "$tmp/tree/sys/devices/system/cpu" && echo 0-1 > "$tmp/tree/sys/devices/system/cpu/online"
files=$(cd "$tmp/tree" && find . -type f ! -name EXPECT | sort)
n=0
for f in $files; do
	rm -rf "$tmp/t" && cp -r "$tmp/tree" "$tmp/t" && rm "$tmp/t/$f" && mkfifo "$tmp/t/$f" || { echo "FAIL (setup): $f"; exit 1; }
	for cmd in "info" "stat -x, -e task-clock true" "stat -x, -C 0 -e cpu-clock true"; do
		PMU_SYSFS_ROOT=$tmp/t/sys PMU_PROCFS_ROOT=$tmp/t/proc timeout -s KILL 20 "$PMU" $cmd > /dev/null 2> "$tmp/e"
		st=$?
		check "${f#./} a FIFO: pmu $cmd ended by itself (exit $st; 137: killed after 20 s)" test $st -lt 128
	done
	n=$((n + 1))
done
echo "test-special-files: $n files of the tree made FIFOs one at a time, $checks checks, $fails failed"
[ "$n" -gt 40 ] || { echo "FAIL: only $n files in the fixture"; exit 1; }
[ $fails = 0 ]
