#!/bin/bash
# Regions that see the socket (issue 43): socket-wide events (uncore, energy) in a region, counted for the
# process from a begin that finds no thread inside the name to the end that leaves none.
#   test-region-socket.sh model KMODEL.so PROG SRCDIR
#     tests/region-socket.c's fixed history on the written two-socket Sapphire Rapids, its kernel the model
#     (tests/kmodel.c), whose counters gain their count at each read: a region's socket-wide value is the
#     number of reads of the socket-wide set inside its intervals times the sum over boxes and sockets,
#     counted here by hand from the history; the metric against its formula on those sums; each box opened
#     once for the process (the model's log), and again in a forked child; the refusals (a group of both
#     kinds, the kernel refusing the PMU with EACCES) with their reasons.
#   test-region-socket.sh kernel PROG
#     the same history on this machine's kernel, with an event of a PMU that counts CPUs (a cpumask: RAPL's
#     power PMU where it has events): as root the intervals by hand; as uid 65534 the kernel's own rule
#     (perf_event_paranoid above 0 refuses counting a CPU without CAP_PERFMON) against the region's answer.
#     Skipped (77) without such a PMU, without root, or without setpriv.
set -u
MODE=${1:?model|kernel}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/checks.sh" # check(), $checks, $fails
. "$(dirname "$0")/kmodel.sh" # same(), near(), spr_model()
command -v python3 > /dev/null || { echo "FAIL: python3 is needed to read the JSON reports"; exit 1; }

# jq-like: a python expression over the report r (regions by name: g('alone'); their events: e(g(..), name))
js() {
	python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
g = lambda n: [x for x in r["regions"] if x["name"] == n][0]
e = lambda x, n: x["events"][n]
print(eval(sys.argv[2]))
PY
}
# the intervals of each region of tests/region-socket.c's history, and the reads of the socket-wide set
# inside them (after the interval's first read, up to and including its last): alone 3 intervals of 1
# read; both 2 of 3: A's begin reads, tick's begin and end read, B begins and ends inside (no read), A's
# end reads; then A's begin reads, B begins (none), A ends (none: B is inside), tick reads twice, B's end
# reads; tick 2 of 1; outer 1 interval of 3 (inner's begin, inner's end, its end); inner 1 of 1
declare -A INTERVALS=([alone]=3 [both]=2 [tick]=2 [outer]=1 [inner]=1) READS=([alone]=3 [both]=6 [tick]=2 [outer]=3 [inner]=1)
declare -A CALLS=([alone]=3 [both]=4 [tick]=2 [outer]=1 [inner]=1)

if [ "$MODE" = model ]; then
	KM=${2:?KMODEL.so} PROG=${3:?region-socket} SRC=${4:?srcdir}
	T=$SRC/tests/fixtures/intel-spr-2s
	D=$T/sys/bus/event_source/devices
	# the model (tests/kmodel.sh's spr_model): one read of the set adds RD 39600 CAS (36000 + 3600 over both
	# sockets' boxes), WR 396, RAPL's package 3.25 J + 1.50 J
	RD=39600 WR=396 PKG=$((13958643712 + 6442450944))
	spr_model > "$tmp/spr.model"
	run() { # events, then the program's output in $tmp/out, its report $tmp/r.json
		rm -f "$tmp/log" "$tmp/r.json" "$tmp/r.json.child"
		env LD_PRELOAD="$KM" PMU_KMODEL="$tmp/spr.model" PMU_KMODEL_LOG="$tmp/log" PMU_SYSFS_ROOT="$T/sys" \
			PMU_PROCFS_ROOT="$T/proc" PMU_EVENTS="$1" "$PROG" "$tmp/r.json" > "$tmp/out" 2>&1
	}
	run "MEM.DRAM.RW.BW,power/energy-pkg/,task-clock"
	check "the history runs (rc $?)" [ $? = 0 ]
	R=$tmp/r.json
	check "the socket-wide events named as such in the header" \
		same "$(js "$R" 'r["socket_wide"]')" "['MEM.DRAM.RD.BYTES', 'MEM.DRAM.WR.BYTES', 'power/energy-pkg/']"
	for n in alone both tick outer inner; do
		i=${INTERVALS[$n]} k=${READS[$n]}
		check "$n: ${CALLS[$n]} calls of the threads, $i socket-wide intervals" \
			same "$(js "$R" "(g('$n')['calls'], g('$n')['socket_intervals'])")" "(${CALLS[$n]}, $i)"
		check "$n: DRAM reads $k x $RD CAS, writes $k x $WR, package $k x $PKG (every box of both sockets)" \
			same "$(js "$R" "[e(g('$n'), x)['value'] for x in r['socket_wide']]")" "[$((k * RD)), $((k * WR)), $((k * PKG))]"
		check "$n: their wall time $k ms (the model's 1 ms a read)" \
			same "$(js "$R" "e(g('$n'), 'power/energy-pkg/')['enabled_ns']")" "$((k * 1000000))"
		check "$n: MEM.DRAM.RW.BW is (RD + WR) x 64 / 1e6 / the intervals' seconds" \
			near "$(js "$R" "g('$n')['metrics']['MEM.DRAM.RW.BW']")" \
			"$(python3 -c "print(($k * ($RD + $WR)) * 64 / 1e6 / ($k * 1e-3))")"
		check "$n: no thread row has a socket-wide value" \
			same "$(js "$R" "sorted(set(k for t in g('$n')['threads'] for k in t['events']))")" "['task-clock']"
	done
	check "alone: min = max = one interval's reads; both: 3 reads each" \
		same "$(js "$R" "[(e(g(n), 'MEM.DRAM.RD.BYTES')['min'], e(g(n), 'MEM.DRAM.RD.BYTES')['max']) for n in ('alone', 'both')]")" \
		"[($RD, $RD), ($((3 * RD)), $((3 * RD)))]"
	check "the counts carry their unit: 64 bytes a CAS, 2^-32 J" \
		same "$(js "$R" "[(e(g('alone'), x)['unit'], e(g('alone'), x)['unit_scale']) for x in r['socket_wide']]")" \
		"[('Bytes', 64.0), ('Bytes', 64.0), ('Joules', $(python3 -c 'print(2.0 ** -32)'))]"
	check "'left' (its thread exited inside it) is not reported, and the text says its interval was lost" \
		grep -q "region 'left': 1 socket-wide interval ended with the exit of every thread inside it" "$tmp/out"
	check "the report validates against its schema" python3 -c "
import json, jsonschema, sys
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))" "$R" "$SRC/tools/schemas/libpmu-regions-1.schema.json"
	check "text: [socket] columns, '-' in thread rows, the note saying what they count" \
		bash -c "grep -q 'MEM.DRAM.RD.BYTES (Bytes) \[socket\]' '$tmp/out' && grep -Eq '^   thread [0-9]+ +3 .* - +- +-$' '$tmp/out' &&
			grep -q 'socket-wide, not the thread' '$tmp/out' && grep -q '\[socket\] 3 intervals, 0.003000 s' '$tmp/out'"
	check "text: the energy in joules (3 x 4.75 J)" grep -Eq '^ alone .* 14\.25 $' "$tmp/out"
	# once for the process: uncore_imc_0's two events on its two sockets' CPUs (0, 4) in the parent, and
	# again in the forked child (pid -1: counting CPUs, not a task)
	check "each box opened once per process: imc_0 4 times in the parent, 4 in the child" \
		same "$(grep -c '^open pmu=uncore_imc_0 .* pid=-1 ' "$tmp/log")" 8
	check "the forked child's region: 1 interval of 1 read, on its own set" \
		same "$(js "$R.child" "(g('child')['socket_intervals'], e(g('child'), 'MEM.DRAM.RD.BYTES')['value'])")" "(1, $RD)"
	env LD_PRELOAD="$KM" PMU_KMODEL="$tmp/spr.model" PMU_SYSFS_ROOT="$T/sys" PMU_PROCFS_ROOT="$T/proc" \
		PMU_EVENTS=MEM.DRAM.RD.BYTES,task-clock "$PROG" "$tmp/r.csv" csv > /dev/null 2>&1
	check "CSV: the region's row of a socket-wide value with its scope and unit, none in thread rows" \
		bash -c "grep -Eq '^\"alone\",-1,3,\"MEM.DRAM.RD.BYTES\",$((3 * RD)),.*,0,socket,\"Bytes\",64$' '$tmp/r.csv' &&
			! grep -Eq '^\"[a-z]+\",[1-9][0-9]*,.*MEM.DRAM' '$tmp/r.csv' &&
			grep -Eq '^\"alone\",[1-9][0-9]*,3,\"task-clock\",.*,thread,\"\",1$' '$tmp/r.csv'"
	PMU=$(dirname "$PROG")/../tools/pmu
	check "pmu report of two such reports: the socket-wide column apart, labelled, with the note on summing them" \
		bash -c "'$PMU' report '$R' '$R' > '$tmp/rep' 2>&1 && grep -Eq '^ both +8 +[0-9]+ +$((2 * 6 * RD)) ' <(sed 's/,//g' '$tmp/rep') &&
			grep -q 'MEM.DRAM.RD.BYTES \[socket\]' '$tmp/rep' && grep -q 'note: columns marked \[socket\] are socket-wide' '$tmp/rep'"
	# a performance group in the list (group:FILE, LIKWID's shape): its events counted (RAPL's PWR0 socket-wide,
	# a software event the thread's), its metrics on the region's row: Energy = the package's joules by hand,
	# Power = those over the intervals' wall time, Runtime = that time (time is duration_time)
	printf 'SHORT region group\n\nEVENTSET\nSW0 task-clock\nPWR0 PWR_PKG_ENERGY\n\nMETRICS\n%s\n%s\n%s\n\nLONG\nx\n' \
		'Runtime [s] time' 'Energy [J] PWR0' 'Power [W] PWR0/time' > "$tmp/G.txt"
	PMU_CPUID=GenuineIntel-6-55-4 run "group:$tmp/G.txt"
	check "a group's events and metrics in regions (rc $?)" [ $? = 0 ]
	for n in alone both; do
		k=${READS[$n]}
		check "$n: the group's Energy [J] is $k reads of 4.75 J, Power [W] that over $k ms, Runtime [s] $k ms" \
			near "$(js "$R" "g('$n')['metrics']['Energy [J]'] + g('$n')['metrics']['Power [W]'] + g('$n')['metrics']['Runtime [s]']")" \
			"$(python3 -c "print($k * 4.75 + $k * 4.75 / ($k * 1e-3) + $k * 1e-3)")"
	done
	run "likwid:NO_SUCH_GROUP,task-clock"
	check "an unknown group: regions off, the sentence says where it looked (rc 3)" \
		bash -c "[ $? = 3 ] && grep -q 'NO_SUCH_GROUP' '$tmp/out'"
	# refusals, each with its reason: a group of both kinds; the kernel refusing the uncore PMU (as it
	# does at perf_event_paranoid > 0 without CAP_PERFMON)
	run "{MEM.DRAM.RD.BYTES,task-clock}"
	check "a group of a socket-wide and a thread's event: refused, saying to write them apart (rc 3)" \
		bash -c "[ $? = 3 ] && grep -q \"holds an event of a PMU that counts CPUs (uncore_imc_0) and one of the thread's\" '$tmp/out'"
	echo "fail $(cat "$D/uncore_imc_0/type") * errno=EACCES" >> "$tmp/spr.model"
	run "MEM.DRAM.RD.BYTES,task-clock"
	check "the kernel refusing the uncore PMU: regions off, the sentence naming perf_event_paranoid (rc 3)" \
		bash -c "[ $? = 3 ] && grep -q 'socket-wide events MEM.DRAM.RD.BYTES .* cannot be counted by this process: .*perf_event_paranoid' '$tmp/out'"
	echo "$checks checks, $fails failed"
	[ "$fails" = 0 ]
	exit
fi

# ---- this machine's kernel ----
PROG=${2:?region-socket}
ev=
for d in /sys/bus/event_source/devices/*/; do
	[ -r "$d/cpumask" ] || continue
	for f in "$d"events/*; do
		case $f in *.scale | *.unit | *\*) continue ;; esac
		ev="$(basename "$d")/$(basename "$f")/"
		break 2
	done
done
[ -n "$ev" ] || { echo "SKIP: no PMU that counts CPUs (a cpumask with events: RAPL's power, uncore) on this machine"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: counting CPUs needs root here (the lab runs it as root)"; exit 77; }
command -v setpriv > /dev/null || { echo "SKIP: setpriv (util-linux) is needed to drop to uid 65534"; exit 77; }
echo "the event: $ev"
PMU_EVENTS="$ev,task-clock" "$PROG" "$tmp/r.json" > "$tmp/out" 2>&1
check "as root, $ev in the regions (rc $?)" [ $? = 0 ]
for n in alone both tick outer inner; do
	check "$n: ${CALLS[$n]} calls, ${INTERVALS[$n]} intervals of $ev" \
		same "$(js "$tmp/r.json" "(g('$n')['calls'], g('$n')['socket_intervals'], r['socket_wide'])")" \
		"(${CALLS[$n]}, ${INTERVALS[$n]}, ['$ev'])"
done
# uid 65534 may not reach the build tree (a checkout under /root, mode 700): the program and its libpmu
# copied where it can, the library found there first
chmod 755 "$tmp"
mkdir "$tmp/u" && chmod 755 "$tmp/u"
lib=$(ldd "$PROG" | awk '$1 ~ /^libpmu\.so/ { print $3 }')
check "the program and its libpmu copied for uid 65534 ($lib)" \
	bash -c "[ -n '$lib' ] && cp '$PROG' '$tmp/u/' && cp '$lib' '$tmp/u/$(basename "${lib:-x}")' && chmod 755 '$tmp/u'/*"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
setpriv --reuid=65534 --regid=65534 --clear-groups env LD_LIBRARY_PATH="$tmp/u" PMU_EVENTS="$ev,task-clock" \
	"$tmp/u/$(basename "$PROG")" "$tmp/u.json" > "$tmp/out" 2>&1
rc=$?
if [ "$paranoid" -gt 0 ]; then
	check "uid 65534 at perf_event_paranoid $paranoid: refused, the sentence naming the level and CAP_PERFMON (rc $rc)" \
		bash -c "[ $rc = 3 ] && grep -q 'perf_event_paranoid' '$tmp/out' && grep -q 'CAP_PERFMON' '$tmp/out'"
else
	check "uid 65534 at perf_event_paranoid $paranoid: counted (rc $rc)" [ $rc = 0 ]
fi
[ "$fails" = 0 ] || cat "$tmp/out"
echo "$checks checks, $fails failed"
[ "$fails" = 0 ]
