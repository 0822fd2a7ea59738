#!/bin/bash
# pmu resolve and pmu stat with an uncore unit of several boxes (issue 43), on a written machine:
# resolve names every box with its own encoding (box 1's umask placed by its own format: worked out by
# hand below), the JSON gives each box as a part of the name; a box lacking a format term is named in
# the error. With root and the msr PMU (the boxes written as this machine's msr PMU, tsc, cpumask 0),
# pmu stat counts the name as one row labelled as written, PMU "uncore_imc" (not one box's), its
# count about twice a raw CPU 0 msr tsc of the same length (pmu stat -C 0 -e msr/tsc/; tests/test-boxes
# compares the library's sums with the kernel's own counts closely).
set -u
PMU=${PMU_CLI:?}
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/checks.sh" # check(), $checks, $fails
has() { grep -q -- "$2" "$1"; }
json() { $PY -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"; }

machine() { # root, type of box 0 (box b: type + b; "" for each the same), cpumask, umask of box 1
	local root=$1 type=$2 mask=$3 um1=$4 b d t
	for b in 0 1 2; do
		d=$root/sys/bus/event_source/devices/uncore_imc_$b
		mkdir -p "$d/format" "$d/events"
		t=$type; [ -n "${5:-}" ] || t=$((type + b))
		echo "$t" > "$d/type"; echo "$mask" > "$d/cpumask"
		echo config:0-7 > "$d/format/event"
		if [ $b = 1 ]; then echo "$um1" > "$d/format/umask"; else echo config:8-15 > "$d/format/umask"; fi
		echo "event=0x00" > "$d/events/tsc"
	done
	mkdir -p "$root/sys/devices/system/cpu" "$root/tables"
	echo 0-1 > "$root/sys/devices/system/cpu/online"
	cat > "$root/tables/events.json" <<'JSON'
[{"EventName": "BOX.READS", "EventCode": "0x04", "UMask": "0x03", "Unit": "iMC", "BriefDescription": "reads of each box"},
 {"EventName": "BOX.TSC", "EventCode": "0x00", "Unit": "iMC", "BriefDescription": "tsc of each box"}]
JSON
}
on() { # root, args...: pmu on that machine
	local root=$1; shift
	PMU_SYSFS_ROOT=$root/sys PMU_PROCFS_ROOT=$root/proc PMU_EVENTS_PATH=$root/tables "$PMU" "$@"
}

m=$tmp/written
machine "$m" 30 0 config:16-23
mkdir -p "$m/proc/sys/kernel"; echo -1 > "$m/proc/sys/kernel/perf_event_paranoid"
on "$m" resolve BOX.READS > "$tmp/o" 2> "$tmp/e"
check "resolve BOX.READS: exit 0" test $? = 0
check "... says the unit's 3 boxes are summed" has "$tmp/o" "^BOX.READS: counted on each of the 3 boxes of an uncore unit (PMUs uncore_imc_0 ... uncore_imc_2), its count the sum of theirs"
# by hand: event 0x04 at config 0-7; umask 0x03 at 8-15 (0x304), box 1 at 16-23 (0x30004)
check "... box 0: type 30, config 0x304" grep -A1 -q "^uncore_imc_0/BOX.READS/" "$tmp/o"
check "... box 0's encoding" has "$tmp/o" "pmu uncore_imc_0, type 30, config 0x304$"
check "... box 1's encoding, its own format" has "$tmp/o" "pmu uncore_imc_1, type 31, config 0x30004$"
check "... box 2's encoding" has "$tmp/o" "pmu uncore_imc_2, type 32, config 0x304$"
for name in 'uncore_imc/event=0x4,umask=0x3/' 'imc/event=0x4,umask=0x3/' 'uncore_imc/BOX.READS/'; do
	on "$m" resolve --json "$name" > "$tmp/j" 2> "$tmp/e"
	check "resolve --json $name: 3 parts, each box's encoding" json "$tmp/j" \
		"[(e['pmu'], e['type'], e['config'], e['part_of']) for e in d] == [('uncore_imc_0', 30, '0x304', '$name'), ('uncore_imc_1', 31, '0x30004', '$name'), ('uncore_imc_2', 32, '0x304', '$name')]"
done
on "$m" resolve uncore_imc_1/BOX.READS/ > "$tmp/o" 2> "$tmp/e"
check "resolve uncore_imc_1/BOX.READS/: that box alone" has "$tmp/o" "pmu uncore_imc_1, type 31, config 0x30004$"
check "... no sum said" test "$(grep -c 'counted on each' "$tmp/o")" = 0

m2=$tmp/lacking
machine "$m2" 30 0 ""
rm -f "$m2/sys/bus/event_source/devices/uncore_imc_1/format/umask"
on "$m2" resolve BOX.READS > "$tmp/o" 2> "$tmp/e"
check "a box without umask: resolve fails" test $? = 1
check "... naming the box and the term" grep -q "box uncore_imc_1 cannot count it.*umask" "$tmp/e"

type=$(cat /sys/bus/event_source/devices/msr/type 2>/dev/null)
if [ "$(id -u)" != 0 ] || [ -z "$type" ] || [ ! -r /sys/bus/event_source/devices/msr/events/tsc ]; then
	echo "$checks checks, $fails failed"
	[ "$fails" = 0 ] || exit 1
	echo "SKIP: pmu stat of the boxes needs root and this machine's msr PMU (tsc); resolve checked"
	exit 77
fi
k=$tmp/msr
machine "$k" "$type" 0 config:8-15 same
ln -s /proc "$k/proc"
on "$k" stat --json -e BOX.TSC -- sleep 0.2 2> "$tmp/s" # stat writes to stderr, as perf
check "stat -e BOX.TSC: exit 0" test $? = 0
check "... one row, labelled as written, PMU uncore_imc (not a box)" json "$tmp/s" \
	"[(e['name'], e['pmu']) for e in d['events']] == [('BOX.TSC', 'uncore_imc')]"
"$PMU" stat --json -C 0 -e msr/tsc/ -- sleep 0.2 2> "$tmp/r"
check "stat -C 0 -e msr/tsc/: exit 0" test $? = 0
# 3 boxes of cpumask 0: each counts CPU 0's tsc; a separate run of the same length is the scale
check "... BOX.TSC about 3x the CPU 0 tsc of a run as long (2.4x to 3.6x)" $PY -c "
import json, sys
b = json.load(open(sys.argv[1]))['events'][0]; r = json.load(open(sys.argv[2]))['events'][0]
x = (b['value'] / b['enabled_ns']) / (r['value'] / r['enabled_ns'])
print('BOX.TSC per ns enabled: %.3f x msr/tsc/ of CPU 0' % x)
sys.exit(0 if 2.4 <= x <= 3.6 else 1)" "$tmp/s" "$tmp/r"
echo "$checks checks, $fails failed"
[ "$fails" = 0 ]
