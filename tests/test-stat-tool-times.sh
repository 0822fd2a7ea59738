#!/bin/bash
# pmu stat's user_time and system_time of its command are the command's rusage from wait4(), the
# numbers of its own footer ("seconds user", "seconds sys"): the command with its waited-for
# children, in microseconds, as perf stat 6.1's rows are its footer's (issue 39, item 2: they were
# the command's own /proc/PID/stat, whole clock ticks, without its children: 490,000,000 ns against a
# footer of 0.762506 s). Oracles:
#  - the footer (wait4's rusage): each row equals it to the ns, with -r 2 too (both means);
#  - the workload's own times(2), the shell builtin `times` as its last command: its own and its
#    waited children's user and system time in clock ticks, each truncated: a row is at least their
#    sum and less than it + 2 ticks (+ 10 ms for the shell's exit after `times`);
#  - perf 6.1 on the same workload, where perf can count: its rows equal its footer (the rule
#    matched), and fall within its own run's times(2) the same way (children included).
set -u
PMU=${PMU_CLI:?}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/checks.sh" # check(), $checks, $fails

TICK=$((1000000000 / $(getconf CLK_TCK)))
# all the work in a child (a subshell the shell waits for): user time in its loop, system time in
# dd's 1-byte reads and writes; the shell itself does almost nothing, then reports times(2)
W='(i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done; dd if=/dev/zero of=/dev/null bs=1 count=30000 2>/dev/null); times'

row() { # file, event: its count in ns (perf prints 123456 ns, pmu 123,456 ns)
	sed -n "s/^ *\([0-9,]*\) *ns *$2\( .*\)*\$/\1/p" "$1" | tr -d , | head -1
}
footer() { # file, user|sys: "0.903520000 seconds user" (-r: "... seconds user (mean)") in ns
	local v
	v=$(sed -n "s/^ *\([0-9]*\)\.\([0-9]\{9\}\) seconds $2\( (mean)\)*\$/\1\2/p" "$1" | head -1)
	[ -n "$v" ] && echo $((10#$v))
}
times_ns() { # times output, column 1 (user) or 2 (system): own + children in ns ("0m0.120000s", bash's "0m0.120s")
	awk -v c="$2" 'NR <= 2 { split($c, a, /[ms]/); t += a[1] * 60 + a[2] } END { printf "%.0f\n", t * 1e9 }' "$1"
}
eq() { [ -n "$1" ] && [ -n "$2" ] && [ "$1" = "$2" ]; }
within() { # value, low: low <= value < low + 2 ticks + 10 ms
	[ -n "$1" ] && [ -n "$2" ] && [ "$1" -ge "$2" ] && [ "$1" -lt $(($2 + 2 * TICK + 10000000)) ]
}
against() { # tool, run's stderr, workload's stdout (times): rows equal the footer and fall within times(2)
	local t=$1 u s fu fs tu ts
	u=$(row "$2" user_time) s=$(row "$2" system_time) fu=$(footer "$2" user) fs=$(footer "$2" sys)
	tu=$(times_ns "$3" 1) ts=$(times_ns "$3" 2)
	echo "$t: user_time ${u:-?} ns, footer ${fu:-?}, times(2) $tu; system_time ${s:-?} ns, footer ${fs:-?}, times(2) $ts (tick $TICK ns)"
	check "$t: user_time is the footer's user" eq "$u" "$fu"
	check "$t: system_time is the footer's sys" eq "$s" "$fs"
	check "$t: user_time is the workload's times(2) user, children included" within "$u" "$tu"
	check "$t: system_time is the workload's times(2) system, children included" within "$s" "$ts"
}

"$PMU" stat -e user_time,system_time,duration_time -- sh -c "$W" > "$tmp/pmu.out" 2> "$tmp/pmu.err"
check "pmu stat ran" test $? = 0
against pmu "$tmp/pmu.err" "$tmp/pmu.out"

"$PMU" stat -r 2 -e user_time,system_time -- sh -c "$W" > /dev/null 2> "$tmp/r2.err"
u=$(row "$tmp/r2.err" user_time) fu=$(footer "$tmp/r2.err" user)
s=$(row "$tmp/r2.err" system_time) fs=$(footer "$tmp/r2.err" sys)
echo "pmu -r 2: user_time ${u:-?} ns, footer ${fu:-?}; system_time ${s:-?} ns, footer ${fs:-?}"
check "pmu -r 2: user_time is the footer's mean user" eq "$u" "$fu"
check "pmu -r 2: system_time is the footer's mean sys" eq "$s" "$fs"

# perf: 6.1's rows are its rusage of the workload (builtin-stat.c read_single_counter(): ru_stats);
# later versions (tools/perf/util/tool_pmu.c) may read /proc/PID/stat: only 6.1 is held to it here
if command -v perf > /dev/null && perf stat -e user_time,system_time -- sh -c "$W" > "$tmp/perf.out" 2> "$tmp/perf.err"; then
	case "$(perf version 2>/dev/null)" in
	"perf version 6.1."*) against "perf 6.1" "$tmp/perf.err" "$tmp/perf.out" ;;
	*) echo "note: $(perf version 2>/dev/null) is not 6.1: its user_time is not compared" ;;
	esac
else
	echo "note: perf cannot count user_time here: no perf comparison"
fi

echo "$checks checks, $fails failed"
[ $fails = 0 ]
