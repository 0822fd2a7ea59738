#!/bin/bash
# pmu stat --per-socket, --per-die, --per-cluster, --per-cache[=LEVEL], --per-core, --per-node with the real
# kernel's counts of CPUs 0 and 1, placed by the written trees of tests/topology/ (PMU_SYSFS_ROOT): two
# sockets, one socket of two cores sharing an L3, one socket of two dies, a kernel before dies.
# The oracles: the groups each tree makes, written here from its files by hand; the kernel's cpu-clock,
# which counts each CPU's time while enabled, idle or not (a group of N CPUs: about N times the wall time
# of its duration_time row); the run's total, summed apart from the groups (--json: each group's cpu-clock
# adds up to it exactly); perf 6.12's line formats (util/stat-display.c: print_aggr_id_std/csv/json,
# aggr_header_lens; tests/shell/lib/perf_json_output_lint.py: 9 keys per -j line of a --per-X run), written
# here as patterns; and where perf runs here, perf itself on the same tree (its SYSFS_PATH), which has to
# name the same groups with the same CPU counts and the same -j keys.
set -u
PMU=${PMU_CLI:?}
SRC=${PMU_TEST_SRCDIR:?}
T=$SRC/tests/topology
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/checks.sh" # check(), $checks, $fails

# pmu ARGS with the tree $tree: stdout to $tmp/o, stderr to $tmp/e, the status in $rc
tree=two-sockets
pmu() { PMU_SYSFS_ROOT=$T/$tree/sys "$PMU" "$@" > "$tmp/o" 2> "$tmp/e"; rc=$?; }
has() { grep -q -e "$2" "$1" || { echo "  (not in $1:)"; sed 's/^/  | /' "$1" | head -5; false; }; }

# ---- refusals (no counting)
pmu stat --per-socket -- true
check "--per-socket without -a or -C: exit 2 ($rc)" test $rc = 2
check "--per-socket without -a or -C: says to count CPUs" has "$tmp/e" "--per-socket sums the counts of CPUs: count CPUs with -a (all) or -C CPUS"
pmu stat -a --per-socket --per-core -- true
check "two --per-X: exit 2, choose one" has "$tmp/e" "each group the CPUs their own way: choose one"
pmu stat -a -A --per-core -- true
check "-A with --per-core: refused" has "$tmp/e" "--per-core sums the CPUs of each core; -A gives a row per CPU: choose one"
pmu stat -p $$ --per-thread --per-node --timeout 10
check "--per-thread with --per-node: refused" has "$tmp/e" "--per-thread a row per thread of -p or -t: choose one"
pmu stat -a --per-cache=L9 -- true
check "--per-cache=L9: exit 2 ($rc), perf's levels named" test $rc = 2
check "--per-cache=L9: says the form" has "$tmp/e" "--per-cache wants a cache level L1 to L4 (or l1 ...), as --per-cache=L3"
"$PMU" stat --help > "$tmp/o"
check "stat --help: --per-cache[=LEVEL] and the five others" test "$(grep -c -e '--per-socket\|--per-die\|--per-cluster\|--per-cache\[=LEVEL\]\|--per-core\|--per-node' "$tmp/o")" = 6

if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
	echo "skip: the trees describe CPUs 0 and 1; this machine has one CPU online"
	[ $fails = 0 ] && exit 77 || exit 1
fi
if ! "$PMU" stat -C 0,1 -e cpu-clock -- true > /dev/null 2> "$tmp/e"; then
	echo "skip: CPU-wide counting is not permitted here (perf_event_paranoid > 0 without CAP_PERFMON): $(head -1 "$tmp/e")"
	echo "test-stat-aggr: $checks checks (refusals only), $fails failed"
	[ $fails = 0 ] && exit 77 || exit 1
fi
have_perf=0
command -v perf > /dev/null && perf stat -x, -C 0 -e cpu-clock -- true > /dev/null 2>&1 && have_perf=1
[ $have_perf = 1 ] || echo "note: perf cannot count CPUs here: pmu's lines not compared with perf's"

# The oracle of one run of each format (kind, want, files...); want: "ID:CPU,CPU ID:CPU" in perf's order
cat > "$tmp/oracle.py" <<'PYEOF'
import json, re, sys

kind, mode, want = sys.argv[1], sys.argv[2], sys.argv[3]
groups = [(g.split(':')[0], [int(c) for c in g.split(':')[1].split(',')]) for g in want.split()]
ids = [g[0] for g in groups]
ncpu = dict((g[0], len(g[1])) for g in groups)
# perf 6.12's aggr_header_lens, by mode
width = {'socket': 6, 'die': 12, 'cluster': 20, 'cache': 22, 'core': 18, 'node': 6}[mode]
EVENTS = ['cpu-clock', 'task-clock', 'duration_time']
ok = True

def fail(msg):
    global ok
    ok = False
    print('FAIL:', msg)

def near(what, value, want, lo=0.9, hi=1.1):
    if not lo * want <= value <= hi * want:
        fail('%s: %s, want %s (x %.2f .. %.2f)' % (what, value, want, lo, hi))

if kind == 'json':                      # the libpmu-stat/1 document
    d = json.load(open(sys.argv[4]))
    units = d.get('units', [])
    got = [(u['aggregation']['id'], u['aggregation']['cpus']) for u in units]
    if got != groups:
        fail('groups %s, want %s' % (got, groups))
    for u in units:
        a = u['aggregation']
        if a['mode'] != mode:
            fail('mode %s' % a['mode'])
        ev = dict((e['name'], e) for e in u['events'])
        n = len(a['cpus'])
        wall = ev['duration_time']['value']
        if not 0.1e9 <= wall <= d['elapsed_ns'] * 1.02 + 2e6:
            fail('%s: duration_time %d: the wall time of a 0.1 s run, at most the elapsed %d' % (a['id'], wall, d['elapsed_ns']))
        for name in ('cpu-clock', 'task-clock'):
            if ev[name]['cpus'] != n:
                fail('%s %s: cpus %s, want %d' % (a['id'], name, ev[name]['cpus'], n))
            near('%s %s' % (a['id'], name), ev[name]['value'], n * wall)
    tot = dict((e['name'], e['value']) for e in d['events'])
    for name in ('cpu-clock', 'task-clock'):
        s = sum(e['value'] for u in units for e in u['events'] if e['name'] == name)
        if s != tot[name]:
            fail('%s: the groups sum to %d, the total is %d' % (name, s, tot[name]))
    near('cpu-clock of CPUs 0 and 1', tot['cpu-clock'], 2 * d['elapsed_ns'], 0.85, 1.05)
elif kind == 'csv':                     # perf's print_aggr_id_csv(): ID,NR, then the counter's fields
    rows = [l.rstrip('\n') for l in open(sys.argv[4]) if l.strip()]
    expect = [(i, e) for i in ids for e in EVENTS]    # perf's print_aggr(): per group, every event
    if len(rows) != len(expect):
        fail('%d rows, want %d: %s' % (len(rows), len(expect), rows))
    for line, (i, e) in zip(rows, expect):
        unit = 'ns' if e == 'duration_time' else 'msec'
        ratio = r'[0-9.]*,(CPUs utilized)?' if e != 'duration_time' else ','
        pat = r'^%s,%d,[0-9.]+,%s,%s,[0-9]+,[0-9.]+,%s$' % (re.escape(i), ncpu[i], unit, e, ratio)
        if not re.match(pat, line):
            fail('line %r is not %r' % (line, pat))
elif kind == 'jsonl':                   # perf's print_aggr_id_json(): "socket" : "S0", "aggregate-number" : N
    rows = [json.loads(l) for l in open(sys.argv[4]) if l.startswith('{')]
    keys = {mode, 'aggregate-number', 'counter-value', 'unit', 'event', 'event-runtime', 'pcnt-running',
            'metric-value', 'metric-unit'}
    expect = [(i, e) for i in ids for e in EVENTS]
    if [(r.get(mode), r.get('event')) for r in rows] != expect:
        fail('rows %s, want %s' % ([(r.get(mode), r.get('event')) for r in rows], expect))
    for r in rows:
        if set(r) != keys:                # perf_json_output_lint.py: 9 items with --per-X
            fail('keys %s, want %s' % (sorted(r), sorted(keys)))
        if r.get('aggregate-number') != ncpu.get(r.get(mode)):
            fail('%s: aggregate-number %s' % (r.get(mode), r.get('aggregate-number')))
elif kind == 'text':                    # print_aggr_id_std(): "%-*s %4d " then the count
    lines = [l for l in open(sys.argv[4]) if re.match(r'^[SN][0-9]', l)]
    expect = [(i, e) for i in ids for e in EVENTS]
    if len(lines) != len(expect):
        fail('%d rows, want %d' % (len(lines), len(expect)))
    for line, (i, e) in zip(lines, expect):
        head = '%-*s %4d ' % (width, i, ncpu[i])
        if not line.startswith(head) or not re.match(r'^ +[0-9.,]+ (msec|ns) +%s\b' % e, line[len(head):]):
            fail('line %r does not begin %r and the count of %s' % (line, head, e))
elif kind == 'perf':                    # perf's -x, on the same tree: its groups and their CPU counts
    mine = [l.split(',')[:2] + l.split(',')[3:5] for l in open(sys.argv[4]) if l.strip()]
    perf = [l.split(',')[:2] + l.split(',')[3:5] for l in open(sys.argv[5]) if re.match(r'^[SN][0-9]', l)]
    mine = [r for r in mine if r[3] != 'duration_time']
    print('pmu:', mine, '\nperf:', perf)
    if mine != perf:
        fail('pmu and perf differ')
elif kind == 'perf-keys':               # perf's -j on the same tree: the same keys on each line
    mine = [json.loads(l) for l in open(sys.argv[4]) if l.startswith('{')]
    perf = [json.loads(l) for l in open(sys.argv[5]) if l.startswith('{')]
    mine = [r for r in mine if r['event'] != 'duration_time']
    if [sorted(r) for r in mine] != [sorted(r) for r in perf] or \
       [(r[mode], r['aggregate-number']) for r in mine] != [(r[mode], r['aggregate-number']) for r in perf]:
        fail('pmu %s\nperf %s' % (mine[:1], perf[:1]))
sys.exit(0 if ok else 1)
PYEOF

# each tree, each mode: the groups its files make (hand-read: tests/topology/README.md)
cases="
two-sockets socket    S0:0 S1:1
two-sockets die       S0-D0:0 S1-D0:1
two-sockets cluster   S0-D0-CLS0:0 S1-D0-CLS0:1
two-sockets cache     S0-D0-L3-ID0:0 S1-D0-L3-ID1:1
two-sockets core      S0-D0-C0:0 S1-D0-C0:1
two-sockets node      N0:0 N1:1
one-socket  socket    S0:0,1
one-socket  die       S0-D0:0,1
one-socket  cluster   S0-D0-CLS0:0,1
one-socket  cache     S0-D0-L3-ID0:0,1
one-socket  cache=L2  S0-D0-L2-ID0:0 S0-D0-L2-ID1:1
one-socket  cache=l1  S0-D0-L1-ID0:0 S0-D0-L1-ID1:1
one-socket  core      S0-D0-C0:0 S0-D0-C1:1
one-socket  node      N0:0,1
two-dies    socket    S0:0,1
two-dies    die       S0-D0:0 S0-D1:1
two-dies    cluster   S0-D0-CLS0:0 S0-D1-CLS1:1
two-dies    cache     S0-D0-L2-ID0:0 S0-D1-L2-ID1:1
two-dies    core      S0-D0-C0:0 S0-D1-C0:1
two-dies    node      N0:0,1
"
EV=cpu-clock,task-clock,duration_time
while read -r tree opt want; do
	[ -n "$tree" ] || continue
	mode=${opt%%=*}
	c="$tree --per-$opt"
	pmu stat -C 0,1 --per-$opt --json -o "$tmp/d.json" -e $EV -- sleep 0.1
	check "$c --json: exit 0 ($rc)" test $rc = 0
	check "$c --json: the groups, their CPUs, cpu-clock = CPUs x wall time, summing to the total" \
		$PY "$tmp/oracle.py" json "$mode" "$want" "$tmp/d.json"
	"$PMU" report "$tmp/d.json" > /dev/null 2> "$tmp/re"
	check "$c: pmu report reads the document (schema libpmu-stat/1) ($(head -1 "$tmp/re"))" test $? = 0
	pmu stat -C 0,1 --per-$opt -x, -e $EV -- sleep 0.1
	cp "$tmp/e" "$tmp/csv"
	check "$c -x,: perf's CSV lines" $PY "$tmp/oracle.py" csv "$mode" "$want" "$tmp/csv"
	pmu stat -C 0,1 --per-$opt -j -e $EV -- sleep 0.1
	cp "$tmp/e" "$tmp/jl"
	check "$c -j: perf's keys" $PY "$tmp/oracle.py" jsonl "$mode" "$want" "$tmp/jl"
	pmu stat -C 0,1 --per-$opt -e $EV -- sleep 0.1
	check "$c: perf's text rows" $PY "$tmp/oracle.py" text "$mode" "$want" "$tmp/e"
	# perf on the same tree, where it counts here and knows the option (perf 6.1 has no --per-cluster
	# or --per-cache)
	if [ $have_perf = 1 ] && SYSFS_PATH=$T/$tree/sys perf stat -C 0 --per-$opt -x, -e cpu-clock -- true > /dev/null 2>&1; then
		SYSFS_PATH=$T/$tree/sys perf stat -C 0,1 --per-$opt -x, -e cpu-clock,task-clock -- sleep 0.1 2> "$tmp/perf" > /dev/null
		check "$c -x,: perf names the same groups, CPU counts and events" $PY "$tmp/oracle.py" perf "$mode" "$want" "$tmp/csv" "$tmp/perf"
		SYSFS_PATH=$T/$tree/sys perf stat -C 0,1 --per-$opt -j -e cpu-clock,task-clock -- sleep 0.1 2> "$tmp/perfj" > /dev/null
		check "$c -j: perf's keys and numbers of CPUs" $PY "$tmp/oracle.py" perf-keys "$mode" "$want" "$tmp/jl" "$tmp/perfj"
	fi
done <<< "$cases"

# -I: perf's header words ("socket cpus") and each interval's rows per group
tree=two-sockets
pmu stat -C 0,1 --per-socket -I 100 -e cpu-clock -- sleep 0.25
check "-I --per-socket: header '... socket cpus ...'" has "$tmp/e" "^#       time (s) socket cpus  *counts  event"
check "-I --per-socket: S0's and S1's rows, 1 CPU each (2 or more intervals)" test "$(grep -c '^ *[0-9.]* S[01]        1  *[0-9.]* msec  cpu-clock' "$tmp/e")" -ge 4
pmu stat -C 0,1 --per-socket -I 100 --json -o "$tmp/i.json" -e cpu-clock -- sleep 0.25
check "-I --per-socket --json: each interval's groups sum to its total" $PY - "$tmp/i.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
ok = len(d['intervals']) >= 2
for i in d['intervals']:
    ok = ok and [u['aggregation']['id'] for u in i['units']] == ['S0', 'S1']
    ok = ok and sum(u['events'][0]['value'] for u in i['units']) == i['events'][0]['value']
sys.exit(0 if ok else 1)
PYEOF
# -M: each group's metric over its own rows (perf evaluates metrics per aggregate), against the ratio of
# the group's own counters printed beside it
tree=two-dies
M='task\-clock / cpu\-clock'
pmu stat -C 0,1 --per-die -x, -e cpu-clock,task-clock -M "$M" -- sleep 0.1
check "-M --per-die -x,: each group's metric line after its counters, the ratio of its rows" $PY - "$tmp/e" <<'PYEOF'
import sys
rows = [l.rstrip('\n').split(',') for l in open(sys.argv[1]) if l.strip()]
print(rows)
ok = [r[0] for r in rows] == ['S0-D0'] * 3 + ['S0-D1'] * 3 and all(r[1] == '1' for r in rows)
for g in range(2):
    cpu, task, m = rows[3 * g:3 * g + 3]
    want = float(task[2]) / float(cpu[2])            # msec / msec, as printed (2 decimals)
    ok = ok and m[2:7] == [''] * 5 and m[8] == 'task\\-clock / cpu\\-clock' and abs(float(m[7]) - want) <= 0.01 * want
sys.exit(0 if ok else 1)
PYEOF
pmu stat -C 0,1 --per-die --json -o "$tmp/m.json" -e cpu-clock,task-clock -M "$M" -- sleep 0.1
check "-M --per-die --json: each unit's metrics, its task-clock / cpu-clock" $PY - "$tmp/m.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
ok = len(d['units']) == 2
for u in d['units']:
    v = dict((e['name'], e['scaled']) for e in u['events'])
    ok = ok and abs(u['metrics'][0]['value'] - v['task-clock'] / v['cpu-clock']) < 1e-9
sys.exit(0 if ok else 1)
PYEOF
"$PMU" report "$tmp/m.json" > /dev/null 2> "$tmp/re"
check "-M --per-die --json: pmu report reads it ($(head -1 "$tmp/re"))" test $? = 0
pmu stat -C 0,1 --per-die -e cpu-clock,task-clock -M "$M" -- sleep 0.1
check "-M --per-die: 'Metrics per die:', a line per group" test "$(grep -A2 '^ Metrics per die:' "$tmp/e" | grep -c '^S0-D[01]  *1   task')" = 2

# -C 1 alone: its socket's group only
tree=two-sockets
pmu stat -C 1 --per-socket -x, -e cpu-clock -- sleep 0.1
check "-C 1 --per-socket: S1 alone, 1 CPU" test "$(cut -d, -f1,2,5 "$tmp/e" | grep -v '^$')" = "S1,1,cpu-clock"

# ---- what a tree lacks
tree=old-kernel
pmu stat -C 0,1 --per-die -e cpu-clock -- sleep 0.05
check "old-kernel --per-die: counted ($rc), S0-D0 of 2 CPUs" has "$tmp/e" "^S0-D0           2 "
check "old-kernel --per-die: the missing die_id said, taken as perf takes it" has "$tmp/e" "note: .*old-kernel/sys/devices/system/cpu/cpu0/topology has no die_id (a kernel before Linux 5.2): each socket taken as one die, D0, as perf does"
pmu stat -C 0,1 --per-core -e cpu-clock -- true
check "old-kernel --per-core: exit 1 ($rc)" test $rc = 1
check "old-kernel --per-core: CPU 1's core_id named, and -A" has "$tmp/e" "--per-core: CPU 1 has no .*old-kernel/sys/devices/system/cpu/cpu1/topology/core_id .*count with -A"
pmu stat -C 0,1 --per-node -e cpu-clock -- true
check "old-kernel --per-node: no node directory, said" has "$tmp/e" "--per-node: there is no .*old-kernel/sys/devices/system/node .*count with --per-socket instead"
tree=two-dies
pmu stat -C 0,1 --per-cache=L3 -e cpu-clock -- true
check "two-dies --per-cache=L3: no L3, said ($rc)" has "$tmp/e" "--per-cache=L3: CPU 0 has no level 3 cache in .*two-dies/sys/devices/system/cpu/cpu0/cache/index\*/level"

echo "test-stat-aggr.sh: $checks checks, $fails failed"
[ $fails = 0 ]
