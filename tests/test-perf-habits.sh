#!/bin/bash
# The cheat sheet: what a perf user types (perf stat, perf list), typed with pmu in place of perf.
# Each invocation runs with pmu and, where perf can, with perf; the test checks the output means
# the same: perf's output is the oracle for the shape (CSV columns and their order, JSON keys, the
# time stamps of -I, the +- of -r, the event names), and where there is one an independent oracle
# for the numbers (the command's own getrusage for task-clock, the 2048 pages the workload touches
# for page-faults, the kernel ABI's names).
set -u
PMU=${PMU_CLI:?}
BUILD=${PMU_TEST_BUILDDIR:?}
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cases=0
W=$BUILD/examples/workload
have_perf=0
command -v perf > /dev/null && perf stat -x, -e task-clock true > /dev/null 2>&1 && have_perf=1
[ $have_perf = 1 ] || echo "note: perf cannot count here (not installed, or perf_event_paranoid): no perf comparisons"
root=0
[ "$(id -u)" = 0 ] && root=1

. "$(dirname "$0")/checks.sh" # check(), $checks, $fails

# The oracle: parses what pmu and perf printed and compares (kind, files...)
cat > "$tmp/cmp.py" <<'PYEOF'
import csv, json, math, re, sys

def counter_rows(path, sep):
    """perf's -x rows: lines with the separator whose event column exists; other lines (perf's
    'Events enabled', warnings) are not rows."""
    rows = []
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if sep not in line or line.startswith('#'):
            continue
        r = line.split(sep)
        if len(r) >= 5:
            rows.append(r)
    return rows

def json_rows(path):
    out = []
    for line in open(path, errors='replace'):
        line = line.strip()
        if line.startswith('{'):
            out.append(json.loads(line))
    return out

def event_col(rows, lead):
    return [r[lead + 2] for r in rows if len(r) > lead + 2 and r[lead + 2]]

def main():
    kind, args = sys.argv[1], sys.argv[2:]
    if kind == 'csv':            # pmu-err perf-err sep lead [any-order]: same fields per row, events, units, support
        p, q, sep, lead = args[0], args[1], args[2], int(args[3])
        a, b = counter_rows(p, sep), counter_rows(q, sep)
        if args[4:] == ['any-order']:   # a glob's events: no order is meant
            a, b = sorted(a, key=lambda r: r[lead + 2]), sorted(b, key=lambda r: r[lead + 2])
        print("pmu:", a[:4], "\nperf:", b[:4])
        if not a or len(a) != len(b):
            return False
        for x, y in zip(a, b):
            if len(x) != len(y) or x[lead + 1] != y[lead + 1] or x[lead + 2] != y[lead + 2]:
                return False
            if (x[lead] == '<not supported>') != (y[lead] == '<not supported>'):
                return False
        return True
    if kind == 'json':           # same keys per object, same events
        a, b = json_rows(args[0]), json_rows(args[1])
        print("pmu:", a[:2], "\nperf:", b[:2])
        return bool(a) and len(a) == len(b) and all(set(x) == set(y) and x['event'] == y['event'] for x, y in zip(a, b))
    if kind == 'intervals':      # pmu-err perf-err sep|json nevents: stamps shared by nevents rows, about as many as perf's
        a_path, b_path, fmt, n = args[0], args[1], args[2], int(args[3])
        def stamps(path):
            if fmt == 'json':
                rows = [(r['interval'], r['event']) for r in json_rows(path) if 'interval' in r]
            else:
                rows = [(float(r[0]), r[3]) for r in counter_rows(path, fmt)]
            st = {}
            for t, e in rows:
                st.setdefault(t, []).append(e)
            return st
        a, b = stamps(a_path), stamps(b_path)
        print("pmu stamps:", sorted(a), "perf stamps:", sorted(b))
        return len(a) >= 2 and abs(len(a) - len(b)) <= 1 and all(len(v) == n for v in a.values())
    if kind == 'text':           # the events perf's table counts are rows of pmu's
        names = lambda p: re.findall(r'^\s+\d[\d,.]*(?: msec)?\s+([a-z][\w:/.-]*)', open(p).read(), re.M)
        a, b = names(args[0]), [n for n in names(args[1]) if n not in ('seconds',)]
        print("pmu:", a, "perf:", b)
        return bool(b) and all(e in a for e in b)
    if kind == 'rusage':         # pmu-csv rusage-file: task-clock within the command's own user+sys time
        tc = [float(r[0]) for r in counter_rows(args[0], ',') if r[2] == 'task-clock'][0] * 1e6
        cpu, steal = float(open(args[1]).read()), float(args[2])
        print("task-clock %.1f ms, the command's own getrusage %.1f ms, steal %.0f ms" % (tc / 1e6, cpu / 1e6, steal / 1e6))
        return 0.8 * cpu - 20e6 <= tc <= 1.1 * cpu + 20e6 + steal
    if kind == 'value':          # csv event low high: the count within [low, high]
        v = [r[0] for r in counter_rows(args[0], ',') if r[2] == args[1]]
        print(args[1], v)
        return len(v) == 1 and not v[0].startswith('<') and float(args[2]) <= float(v[0]) <= float(args[3])
    if kind == 'variance':       # csv: a +- column ("x.yz%") after the event, as perf's
        rows = counter_rows(args[0], ',')
        print(rows)
        return bool(rows) and all(re.fullmatch(r'\d+\.\d\d%', r[3]) for r in rows)
    if kind == 'names':          # pmu list --json, perf list output, a perf tag: perf's names of that tag, pmu's alike
        ours = {e['name'] for e in json.load(open(args[0]))}
        perf = set()
        for l in open(args[1]):
            if args[2] in l:
                perf.update(n.strip() for n in l.split('[')[0].split(' OR '))
        extra = set(args[3:])
        print("perf only:", sorted(perf - ours)[:8], "pmu only:", sorted(ours - perf)[:8])
        return bool(ours) and perf - ours <= extra and ours <= perf
    raise SystemExit('unknown kind ' + kind)

sys.exit(0 if main() else 1)
PYEOF
cmp_() { $PY "$tmp/cmp.py" "$@"; }

# Run "perf ARGS" with pmu and (when it can) with perf: $tmp/$id.{pmu,perf}.{out,err,rc}.
# @OUT@ in an argument becomes a file of each tool's own.
both() { # id, args...
	local id=$1; shift
	cases=$((cases + 1))
	local a=() b=() x
	for x in "$@"; do a+=("${x//@OUT@/$tmp/$id.pmu.file}"); b+=("${x//@OUT@/$tmp/$id.perf.file}"); done
	"$PMU" "${a[@]}" > "$tmp/$id.pmu.out" 2> "$tmp/$id.pmu.err"
	echo $? > "$tmp/$id.pmu.rc"
	if [ $have_perf = 1 ]; then
		perf "${b[@]}" > "$tmp/$id.perf.out" 2> "$tmp/$id.perf.err"
		echo $? > "$tmp/$id.perf.rc"
	fi
}
rc() { cat "$tmp/$1.$2.rc"; }
same_csv() { # id sep lead: exit 0 both, the rows alike
	local id=$1
	check "$id: pmu exit 0" test "$(rc $id pmu)" = 0
	[ $have_perf = 1 ] && check "$id: the rows of perf's CSV (fields, events, units)" cmp_ csv "$tmp/$id.pmu.err" "$tmp/$id.perf.err" "$2" "$3"
}
same_json() {
	local id=$1
	check "$id: pmu exit 0" test "$(rc $id pmu)" = 0
	[ $have_perf = 1 ] && check "$id: perf's JSON keys, the same events" cmp_ json "$tmp/$id.pmu.err" "$tmp/$id.perf.err"
}

# ---- perf stat -x: CSV, with perf's separators and spellings of -e and -r
both x1 stat -x, -e task-clock true;                                 same_csv x1 , 0
both x2 stat -x, -e task-clock,page-faults,context-switches true;    same_csv x2 , 0
both x3 stat -x';' -e task-clock,page-faults true;                   same_csv x3 ';' 0
both x4 stat -x, -etask-clock true;                                  same_csv x4 , 0
both x5 stat -x, --event=task-clock true;                            same_csv x5 , 0
both x6 stat -x, --event task-clock -e page-faults true;             same_csv x6 , 0
both x7 stat -x, -e '{task-clock,page-faults}' true;                 same_csv x7 , 0
both x8 stat -x, -e{task-clock,page-faults} true;                    same_csv x8 , 0
both x9 stat -x, -e task-clock:u true;                               same_csv x9 , 0
both x10 stat -x, -e cpu-clock,minor-faults,major-faults true;       same_csv x10 , 0
both x11 stat --field-separator=, -e task-clock true;                same_csv x11 , 0
both x12 stat -x, -e cycles,instructions true;                       same_csv x12 , 0
# instructions of 'true': a count only where a hardware PMU exists; <not supported> where none (both agree above)
if grep -q '^[0-9]' "$tmp/x12.pmu.err"; then
	check "x12: instructions of true counted (a hardware PMU): nonzero" cmp_ value "$tmp/x12.pmu.err" instructions 1 1e12
else
	check "x12: no hardware PMU: instructions <not supported>" grep -q '^<not supported>,,instructions,' "$tmp/x12.pmu.err"
fi
# -r: perf's +- column, spelled -r 3, -r3, --repeat=3
both r1 stat -x, -r 3 -e task-clock,page-faults true;                same_csv r1 , 0
check "r1: the +- of -r after the event (x.yz%)" cmp_ variance "$tmp/r1.pmu.err"
both r2 stat -x, -r3 -e page-faults true;                            same_csv r2 , 0
both r3 stat -x, --repeat=3 -e page-faults true;                     same_csv r3 , 0
both r4 stat -r 3 -e task-clock true
check "r4: the text +- column, in pmu's and perf's tables" grep -q '( +- *[0-9.]*% )' "$tmp/r4.pmu.err"
[ $have_perf = 1 ] && check "r4: ... perf's too" grep -q '( +- *[0-9.]*% )' "$tmp/r4.perf.err"
# the values: page faults of the workload (16 MiB: 4096 pages touched), task-clock by the command's own clock
both v1 stat -x, -e page-faults "$W" 16;                             same_csv v1 , 0
check "v1: page-faults of a 16 MiB workload: 4096 pages or more, under 8192" cmp_ value "$tmp/v1.pmu.err" page-faults 4096 8192
# (task-clock also holds time the hypervisor stole while the loop was on a CPU, which the kernel's
# user+sys leaves out: the machine's steal during the run, every CPU's, bounds it from above)
steal_mark
"$PMU" stat -x, -e task-clock $PY -c '
import os, resource
x = 0
for i in range(3000000): x += i
r = resource.getrusage(resource.RUSAGE_SELF)
open("'"$tmp"'/ru", "w").write(str((r.ru_utime + r.ru_stime) * 1e9))
os._exit(0)' 2> "$tmp/v2.pmu.err"
cases=$((cases + 1))
steal_ns=$(steal_bound_ns)
check "v2: task-clock of a Python loop = its own getrusage user+sys (within 10% and 20 ms, + steal)" cmp_ rusage "$tmp/v2.pmu.err" "$tmp/ru" "$steal_ns"

# ---- perf stat -j: JSON lines with perf's keys
both j1 stat -j -e task-clock,page-faults true;                      same_json j1
both j2 stat -j -r 3 -e task-clock true;                             same_json j2
both j3 stat -j -e cycles,task-clock true;                           same_json j3
both j4 stat --json-output -e task-clock true;                       same_json j4

# ---- perf stat -I: intervals, every row of one interval with the same stamp, about as many as perf's
both i1 stat -I 100 -x, -e task-clock,page-faults sleep 0.35
check "i1: pmu exit 0" test "$(rc i1 pmu)" = 0
[ $have_perf = 1 ] && check "i1: -I -x stamps as perf's" cmp_ intervals "$tmp/i1.pmu.err" "$tmp/i1.perf.err" , 2
both i2 stat -I 100 -j -e task-clock sleep 0.25
[ $have_perf = 1 ] && check "i2: -I -j stamps as perf's" cmp_ intervals "$tmp/i2.pmu.err" "$tmp/i2.perf.err" json 1
both i3 stat -I 100 -e task-clock sleep 0.25
check "i3: -I text: a row per interval with its time" test "$(grep -c '^ *[0-9]*\.[0-9]* .*task-clock' "$tmp/i3.pmu.err")" -ge 2
both i4 stat --interval-print 100 -x, -e task-clock sleep 0.25
[ $have_perf = 1 ] && check "i4: --interval-print stamps as perf's" cmp_ intervals "$tmp/i4.pmu.err" "$tmp/i4.perf.err" , 1

# ---- text, -o, the default events
both t1 stat -e task-clock,page-faults true
[ $have_perf = 1 ] && check "t1: perf's rows in pmu's table" cmp_ text "$tmp/t1.pmu.err" "$tmp/t1.perf.err"
both t2 stat true
[ $have_perf = 1 ] && check "t2: the default events perf counts (its supported rows) are pmu's" cmp_ text "$tmp/t2.pmu.err" "$tmp/t2.perf.err"
both o1 stat -x, -o @OUT@ -e task-clock true
check "o1: -o FILE: the rows in the file, none on stderr" test -s "$tmp/o1.pmu.file" -a ! -s "$tmp/o1.pmu.err"
[ $have_perf = 1 ] && check "o1: ... perf's CSV rows" cmp_ csv "$tmp/o1.pmu.file" "$tmp/o1.perf.file" , 0
both o2 stat --output=@OUT@ -e task-clock true
check "o2: --output=FILE: the table in the file" grep -q "task-clock" "$tmp/o2.pmu.file"
both o3 stat -x, -- sh -c 'exit 3'
check "o3: the command's exit status (3) passed on" test "$(rc o3 pmu)" = 3

# ---- processes, threads, CPUs, time limits
sleep 20 & target=$!
both p1 stat -x, -p $target -e task-clock,context-switches --timeout 200;   same_csv p1 , 0
both p2 stat -x, --per-thread -p $target -e task-clock --timeout 200;       same_csv p2 , 1
check "p2: --per-thread: the thread column, comm-TID" grep -q "^sleep-$target," "$tmp/p2.pmu.err"
both p3 stat -x, -t $target -e task-clock --timeout 200;                     same_csv p3 , 0
kill $target; wait $target 2> /dev/null
both s1 stat -x, --timeout 200 -e task-clock sleep 5;                        same_csv s1 , 0
both s2 stat -x, -D 100 -e task-clock sleep 0.3;                             same_csv s2 , 0
both s3 stat -x, -i -e page-faults -- sh -c "$W 8 > /dev/null";              same_csv s3 , 0
check "s3: -i: the workload sh started is not counted (< 1024 page faults)" cmp_ value "$tmp/s3.pmu.err" page-faults 1 1023
both s4 stat -x, --no-inherit -e page-faults -- sh -c "$W 8 > /dev/null";    same_csv s4 , 0
if [ $root = 1 ]; then
	both a1 stat -x, -a -e cpu-clock sleep 0.1;                          same_csv a1 , 0
	both a2 stat -x, -a -A -e cpu-clock sleep 0.1;                       same_csv a2 , 1
	both a3 stat -x, -C 0 -e cpu-clock sleep 0.1;                        same_csv a3 , 0
	both a4 stat -I 100 -x, -a -e cpu-clock sleep 0.25
	[ $have_perf = 1 ] && check "a4: -I -a stamps as perf's" cmp_ intervals "$tmp/a4.pmu.err" "$tmp/a4.perf.err" , 1
else
	echo "note: not root: -a, -A, -C not compared (CPU-wide counting needs perf_event_paranoid <= 0)"
fi

# ---- metrics
both m1 stat -M nonsense true
check "m1: -M nonsense refused by both (pmu exit $(rc m1 pmu))" test "$(rc m1 pmu)" != 0
check "m1: pmu says: unknown metric (not unknown event)" grep -q "unknown metric or metric group 'nonsense'" "$tmp/m1.pmu.err"

# ---- issue 39, the perf habits: each command line with perf beside it where perf runs here; the numbers
# against what the test itself knows (the clock, the CPUs online, the moments it sent a command)
SRC=$(cd "$(dirname "$0")/.." && pwd)
# -d, -dd, -ddd: perf's detailed events after the list (without a PMU both say <not supported>)
for d in -d -dd -ddd; do
	both det$d stat -x, -e task-clock $d true;                   same_csv det$d , 0
done
check "det-ddd: 1 + 4 + 6 + 2 rows" test "$(grep -c ',task-clock,\|-loads,\|-misses,\|-prefetches,' "$tmp/det-ddd.pmu.err")" = 13
both det0 stat -x, -dd true
[ $have_perf = 1 ] && check "det0: -dd after the default events: perf's last 10 rows" $PY -c '
import sys
rows = lambda p: [l.split(",")[2] for l in open(p) if l.count(",") >= 5]
a, b = rows(sys.argv[1]), rows(sys.argv[2])
print(a[-10:], b[-10:]); sys.exit(0 if a[-10:] == b[-10:] else 1)' "$tmp/det0.pmu.err" "$tmp/det0.perf.err"
# -o: perf's "# started on DATE" line first; the date is this clock's (within 2 minutes)
started() { $PY -c '
import sys, time
l = open(sys.argv[1]).readline().rstrip("\n")
t = time.mktime(time.strptime(l[len("# started on "):], "%a %b %d %H:%M:%S %Y"))
print(repr(l), "now - then:", time.time() - t)
sys.exit(0 if l.startswith("# started on ") and abs(time.time() - t) < 120 else 1)' "$1"; }
check "o1: -o -x: the file starts with '# started on' and now" started "$tmp/o1.pmu.file"
check "o2: -o text: the file starts with '# started on' and now" started "$tmp/o2.pmu.file"
[ $have_perf = 1 ] && check "o2: ... as perf's file starts" started "$tmp/o2.perf.file"
# --append: a second run adds its header and rows to the file
for tool in pmu perf; do
	[ $tool = perf ] && [ $have_perf = 0 ] && continue
	t=$PMU; [ $tool = perf ] && t=perf
	$t stat -x, -o "$tmp/ap.$tool" -e task-clock true 2> /dev/null
	$t stat -x, --append -o "$tmp/ap.$tool" -e task-clock,page-faults true 2> /dev/null
done
cases=$((cases + 1))
check "ap: --append: two '# started on' lines and 1 + 2 rows" test "$(grep -c '^# started on' "$tmp/ap.pmu")/$(grep -c ',task-clock,\|,page-faults,' "$tmp/ap.pmu")" = 2/3
[ $have_perf = 1 ] && check "ap: ... the rows of perf's file" cmp_ csv "$tmp/ap.pmu" "$tmp/ap.perf" , 0
"$PMU" stat --append -e task-clock true > /dev/null 2> "$tmp/ap.err"
check "ap: --append without -o: usage error ($?)" grep -q "append adds to the file of -o" "$tmp/ap.err"
# -B, --no-big-num: the page faults of a 16 MiB workload (4096 pages and more) with and without separators
both bn1 stat --no-big-num -e page-faults "$W" 16
check "bn1: --no-big-num: the count's digits alone" grep -Eq '^ +[4-8][0-9]{3} +page-faults' "$tmp/bn1.pmu.err"
[ $have_perf = 1 ] && check "bn1: ... as perf's" grep -Eq '^ +[4-8][0-9]{3} +page-faults' "$tmp/bn1.perf.err"
both bn2 stat -B -e page-faults "$W" 16
check "bn2: -B: thousands' separators (perf's follow the locale's; pmu's always ',')" grep -Eq '^ +[4-8],[0-9]{3} +page-faults' "$tmp/bn2.pmu.err"
both bn3 stat -B -x, -e page-faults true
check "bn3: -B -x: usage error, as perf's (exit $(rc bn3 pmu))" test "$(rc bn3 pmu)" = 2
# -n: no counter, the time elapsed; with -r its mean and +-, perf's line
both n1 stat -n sleep 0.1
check "n1: -n: no counter row" test -z "$(grep -E 'msec|faults|clock' "$tmp/n1.pmu.err")"
check "n1: ... the time elapsed of sleep 0.1 (0.1 to 1 s)" $PY -c '
import re, sys
v = float(re.search(r"([0-9.]+) seconds time elapsed", open(sys.argv[1]).read()).group(1)); print(v)
sys.exit(0 if 0.1 <= v < 1 else 1)' "$tmp/n1.pmu.err"
both n2 stat -n -r 3 sleep 0.05
elapsed_pm='^ +[0-9]+\.[0-9]+ \+- [0-9]+\.[0-9]+ seconds time elapsed  \( \+- +[0-9]+\.[0-9][0-9]% \)$'
check "n2: -n -r 3: 'MEAN +- SE seconds time elapsed  ( +- P% )'" grep -Eq "$elapsed_pm" "$tmp/n2.pmu.err"
[ $have_perf = 1 ] && check "n2: ... perf's line" grep -Eq "$elapsed_pm" "$tmp/n2.perf.err"
both n3 stat -n -x, true
check "n3: -n -x: no row, as perf" test -z "$(grep , "$tmp/n3.pmu.err")"
# -r N and --table: each run's time, its difference from the mean, the mean and its standard error,
# checked by the test's own arithmetic from the table's values
both tb1 stat -r 4 --table -e task-clock sleep 0.05
for tool in pmu perf; do
	[ $tool = perf ] && [ $have_perf = 0 ] && continue
	check "tb1: --table of 4 runs ($tool): runs, their mean and standard error as printed" $PY -c '
import math, re, sys
t = open(sys.argv[1]).read()
runs = [(float(a), float(b)) for a, b in re.findall(r"^ +([0-9.]+) \(([+-][0-9.]+)\) #+$", t, re.M)]
m = re.search(r"# Final result:\n +([0-9.]+) \+- ([0-9.]+) seconds time elapsed  \( \+- +([0-9.]+)% \)", t)
print(runs, m and m.groups())
if len(runs) != 4 or not m: sys.exit(1)
mean, se, pct = map(float, m.groups())
d = len(m.group(1).split(".")[1]); q = 10 ** -d
xs = [r for r, _ in runs]; mu = sum(xs) / 4
sd = math.sqrt(sum((x - mu) ** 2 for x in xs) / 3 / 4)
ok = abs(mu - mean) <= 2 * q and abs(sd - se) <= 2 * q and all(abs((x - mean) - dx) <= 2 * q for x, dx in runs)
ok = ok and abs(100 * se / mean - pct) <= 0.01 + 100 * q / mean and all(0.05 <= x < 1 for x in xs)
sys.exit(0 if ok else 1)' "$tmp/tb1.$tool.err"
done
both tb2 stat --table -e task-clock true
check "tb2: --table without -r: usage error (exit $(rc tb2 pmu))" test "$(rc tb2 pmu)" = 2
# -r 0: run again and again, each run printed, until Ctrl-C (SIGINT after 1.5 s: 3 runs of sleep 0.1 at least,
# however loaded the machine)
for tool in pmu perf; do
	[ $tool = perf ] && [ $have_perf = 0 ] && continue
	t=$PMU; [ $tool = perf ] && t=perf
	timeout -s INT 1.5 $t stat -r 0 -x, -e task-clock sleep 0.1 > /dev/null 2> "$tmp/r0.$tool"
	check "r0: -r 0 ($tool): a row per run, 3 or more in 1.5 s" test "$(grep -c ',task-clock,' "$tmp/r0.$tool")" -ge 3
done
cases=$((cases + 1))
"$PMU" stat -r 0 --json -e task-clock true > /dev/null 2> "$tmp/r0.json.err"
check "r0: -r 0 --json (a document per run in one file): usage error pointing to -j ($?)" grep -q "use -j" "$tmp/r0.json.err"
# --pre, --post: around each run, in order
both pp1 stat -r 2 --pre 'echo pre >> @OUT@' --post 'echo post >> @OUT@' -x, -e task-clock true
check "pp1: --pre and --post around each of 2 runs" test "$(tr '\n' ' ' < "$tmp/pp1.pmu.file")" = "pre post pre post "
[ $have_perf = 1 ] && check "pp1: ... as perf's" test "$(tr '\n' ' ' < "$tmp/pp1.perf.file")" = "pre post pre post "
both pp2 stat --pre 'exit 3' -x, -e task-clock true
check "pp2: a failing --pre stops pmu stat: exit 1, naming it (perf counts on)" grep -q "pmu stat: --pre 'exit 3' exited with 3: stopped" "$tmp/pp2.pmu.err"
# --all-user: every event in user mode: perf's rows of ':u' events; perf's attr (perf -vv) excludes the kernel
both au1 stat -x, --all-user -e task-clock,page-faults true
if [ $have_perf = 1 ]; then
	perf stat -x, -e task-clock:u,page-faults:u true 2> "$tmp/au1.perfu.err"
	check "au1: --all-user: the rows of perf's -e task-clock:u,page-faults:u" cmp_ csv "$tmp/au1.pmu.err" "$tmp/au1.perfu.err" , 0
	perf stat -vv --all-user -e task-clock true 2>&1 | grep -E '^  exclude_(kernel|user|hv) ' | sort > "$tmp/au1.attr"
	cat "$tmp/au1.attr"
	check "au1: perf -vv --all-user: exclude_kernel 1, user counted" grep -q '^  exclude_kernel *1$' "$tmp/au1.attr"
fi
"$PMU" stat --json --all-user -e task-clock true 2> "$tmp/au2.json" > /dev/null
check "au2: --all-user --json: exclude_kernel, not exclude_user" $PY -c "import json, sys; e = json.load(open(sys.argv[1]))['events'][0]; print(e); sys.exit(0 if e['exclude_kernel'] and not e['exclude_user'] else 1)" "$tmp/au2.json"
# -I: no trailing total without --summary; with it, perf's "summary" lines; --interval-count N
both su0 stat -I 100 -e task-clock sleep 0.25
check "su0: -I: no trailing table (perf has none)" test -z "$(grep 'Performance counter stats' "$tmp/su0.pmu.err")"
both su1 stat -I 100 --summary -x, -e task-clock sleep 0.25
check "su1: -I --summary -x: a 'summary' row last" $PY -c '
import sys
rows = [l.rstrip("\n").split(",") for l in open(sys.argv[1]) if "," in l]
print(rows[-1]); sys.exit(0 if rows[-1][0].strip() == "summary" and rows[-1][3] == "task-clock" else 1)' "$tmp/su1.pmu.err"
[ $have_perf = 1 ] && check "su1: ... the fields of perf's summary row" $PY -c '
import sys
last = lambda p: [l.rstrip("\n").split(",") for l in open(p) if "summary," in l][-1]
a, b = last(sys.argv[1]), last(sys.argv[2]); print(a, b); sys.exit(0 if len(a) == len(b) and a[2:4] == b[2:4] else 1)' "$tmp/su1.pmu.err" "$tmp/su1.perf.err"
both su2 stat -I 100 --summary -e task-clock sleep 0.25
check "su2: -I --summary text: the table after the intervals" grep -q "Performance counter stats for 'sleep 0.25'" "$tmp/su2.pmu.err"
both su3 stat -I 100 --summary --no-csv-summary -x, -e task-clock sleep 0.25
check "su3: --no-csv-summary: the last row without a time field, as perf" $PY -c '
import sys
last = lambda p: [l.rstrip("\n").split(",") for l in open(p) if "," in l][-1]
a = last(sys.argv[1]); b = last(sys.argv[2]) if len(sys.argv) > 2 else a; print(a, b)
sys.exit(0 if a[2] == "task-clock" and len(a) == len(b) else 1)' "$tmp/su3.pmu.err" $([ $have_perf = 1 ] && echo "$tmp/su3.perf.err")
both ic1 stat -I 100 --interval-count 2 -x, -e task-clock sleep 0.5
check "ic1: --interval-count 2: 2 intervals" test "$(grep -c ',task-clock,' "$tmp/ic1.pmu.err")" = 2
[ $have_perf = 1 ] && check "ic1: ... perf's 2" test "$(grep -c ',task-clock,' "$tmp/ic1.perf.err")" = 2
# -I below 10 ms: every 5 ms, the stamps 5 ms apart (median within 4-8 ms), perf accepts it too
both i5 stat -I 5 -x, -e task-clock sleep 0.2
check "i5: -I 5: 10 stamps or more, 5 ms apart" $PY -c '
import sys
st = [float(l.split(",")[0]) for l in open(sys.argv[1]) if l.count(",") > 4]
d = sorted(b - a for a, b in zip(st, st[1:])); print(len(st), d[len(d) // 2] if d else None)
sys.exit(0 if len(st) >= 10 and 0.004 <= d[len(d) // 2] <= 0.008 else 1)' "$tmp/i5.pmu.err"
[ $have_perf = 1 ] && check "i5: perf takes -I 5 too (exit $(rc i5 perf))" test "$(rc i5 perf)" = 0
# -D -1 with --control: counting from 'enable' to 'disable', which the command itself sends, noting its own
# CPU time (process_time) from the acknowledgement of one to the sending of the other: task-clock = that
# (the oracle is the command's own clock, whatever else the machine runs)
control_run() { # tool-command out
	rm -f "$tmp/ctl" "$tmp/ack"; mkfifo "$tmp/ctl" "$tmp/ack"
	$1 stat -D -1 --control "fifo:$tmp/ctl,$tmp/ack" -x, -e task-clock -- $PY -c '
import sys, time
ctl, ack = open(sys.argv[1], "w"), open(sys.argv[2], "r")
def burn(s):
    t = time.process_time()
    while time.process_time() - t < s: pass
def say(cmd):
    ctl.write(cmd + "\n"); ctl.flush()
    return ack.readline().strip()
burn(0.1)
a1 = say("enable"); t0 = time.process_time()
burn(0.3)
t1 = time.process_time(); a2 = say("disable")
burn(0.1)
open(sys.argv[3], "w").write("%.3f %s %s" % ((t1 - t0) * 1e3, a1, a2))' "$tmp/ctl" "$tmp/ack" "$2.between" 2> "$2"
}
control_run "$PMU" "$tmp/ctl.pmu"
cases=$((cases + 1))
check "ctl: each command acknowledged ('ack')" test "$(cut -d' ' -f2- "$tmp/ctl.pmu.between")" = "ack ack"
within_between() { $PY -c '
import sys
tc = [float(l.split(",")[0]) for l in open(sys.argv[1]) if ",task-clock," in l][0]
ms = float(open(sys.argv[2]).read().split()[0]); print("task-clock", tc, "ms; the command own CPU time from enable to disable", ms, "ms")
sys.exit(0 if 0.9 * ms - 5 <= tc <= 1.1 * ms + 15 else 1)' "$1" "$1.between"; }
check "ctl: -D -1 --control: task-clock = the command's CPU time from enable to disable" within_between "$tmp/ctl.pmu"
if [ $have_perf = 1 ]; then
	control_run perf "$tmp/ctl.perf"
	check "ctl: ... and perf's, the same run" within_between "$tmp/ctl.perf"
fi
# a command during -D's delay does not end the delay: -D 500, 'ping' at 0.1 s. The command notes its own CPU
# time at 0.1 s and 0.5 s of its life and at its end: task-clock is near what it spent after 0.5 s, far from
# what it spent after 0.1 s (what a delay ended by the ping would count)
rm -f "$tmp/ctl"; mkfifo "$tmp/ctl"
"$PMU" stat -D 500 --control "fifo:$tmp/ctl" -x, -e task-clock -- $PY -c '
import sys, time
ctl, w0 = open(sys.argv[1], "w"), time.time()
def until(s):
    while time.time() - w0 < s: pass
until(0.1); c1 = time.process_time(); ctl.write("ping\n"); ctl.flush()
until(0.5); c5 = time.process_time()
until(1.0); c = time.process_time()
open(sys.argv[2], "w").write("%.3f %.3f" % ((c - c5) * 1e3, (c - c1) * 1e3))' "$tmp/ctl" "$tmp/ctl2.cpu" 2> "$tmp/ctl2.pmu"
check "ctl2: -D 500 with a 'ping' at 0.1 s: the delay kept (task-clock nearer the CPU time after 0.5 s than after 0.1 s)" $PY -c '
import sys
tc = [float(l.split(",")[0]) for l in open(sys.argv[1]) if ",task-clock," in l][0]
after5, after1 = map(float, open(sys.argv[2]).read().split()); print("task-clock", tc, "ms; CPU after 0.5 s", after5, "after 0.1 s", after1)
sys.exit(0 if abs(tc - after5) < abs(tc - after1) else 1)' "$tmp/ctl2.pmu" "$tmp/ctl2.cpu"
"$PMU" stat -D -1 -e task-clock true > /dev/null 2> "$tmp/ctl.err"
check "ctl: -D -1 without --control: usage error" grep -q "give --control" "$tmp/ctl.err"
"$PMU" stat --control fifo:$tmp/nonexistent -e task-clock true > /dev/null 2> "$tmp/ctl.err"
check "ctl: a missing FIFO named, with mkfifo" grep -q "cannot open the control FIFO '$tmp/nonexistent'.*mkfifo" "$tmp/ctl.err"
# no command: every CPU until Ctrl-C (as root: CPU-wide counting), cpu-clock = CPUs online x the time
if [ $root = 1 ]; then
	for tool in pmu perf; do
		[ $tool = perf ] && [ $have_perf = 0 ] && continue
		t=$PMU; [ $tool = perf ] && t=perf
		s0=$(date +%s%N)
		timeout -s INT 1 $t stat -x, -e cpu-clock > /dev/null 2> "$tmp/sw.$tool"
		s1=$(date +%s%N)
		check "sw: no command ($tool): cpu-clock of every CPU until SIGINT" $PY -c '
import os, sys
v = [float(l.split(",")[0]) for l in open(sys.argv[1]) if ",cpu-clock," in l]
want = os.cpu_count() * (int(sys.argv[2]) - int(sys.argv[3])) / 1e6
print(v, "want about", want); sys.exit(0 if len(v) == 1 and 0.6 * want <= v[0] <= 1.05 * want else 1)' "$tmp/sw.$tool" $s1 $s0
	done
	cases=$((cases + 1))
fi
# --td-level: the topdown tree to a level (pmu report of hand-written counts: Sapphire Rapids' level 2)
"$PMU" report --td-level 1 "$SRC/tests/reports/spr-topdown.json" > "$tmp/td1" 2>&1
check "td1: --td-level 1: level 1 of the 2 counted, no level-2 node" test "$(grep -c 'level 1 of the 2 counted' "$tmp/td1")/$(grep -c 'Light operations\|Memory bound' "$tmp/td1")" = 1/0
"$PMU" report --td-level 2 "$SRC/tests/reports/skl-topdown.json" > "$tmp/td2" 2>&1
check "td2: --td-level 2 where level 1 was counted: said" grep -q "level 2 was asked for: this CPU's counters give the tree to level 1" "$tmp/td2"
# --all-kernel: perf's rows of ':k' events (the mirror of --all-user)
both ak1 stat -x, --all-kernel -e task-clock,page-faults true
if [ $have_perf = 1 ]; then
	perf stat -x, -e task-clock:k,page-faults:k true 2> "$tmp/ak1.perfk.err"
	check "ak1: --all-kernel: the rows of perf's -e task-clock:k,page-faults:k" cmp_ csv "$tmp/ak1.pmu.err" "$tmp/ak1.perfk.err" , 0
fi
both ak2 stat --all-user --all-kernel -e task-clock true
check "ak2: --all-user --all-kernel: usage error (exit $(rc ak2 pmu))" test "$(rc ak2 pmu)" = 2
# -G, --for-each-cgroup (root, a cgroup file system with perf_event): a command moves itself into a
# new cgroup and burns CPU; the cgroup's task-clock summed over the CPUs = the command's own getrusage
# (user + sys), perf's rows (event and cgroup fields) beside pmu's
cgmount=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' /proc/self/mounts)
[ -n "$cgmount" ] || cgmount=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
cga=pmu-habits-a-$$ cgb=pmu-habits-b-$$
if [ $root = 1 ] && [ -n "$cgmount" ] && mkdir "$cgmount/$cga" "$cgmount/$cgb" 2> /dev/null; then
	burn="import os, resource, time
open('$cgmount/$cga/cgroup.procs', 'w').write(str(os.getpid()))
t = time.time()
while time.time() - t < 0.3: pass
r = resource.getrusage(resource.RUSAGE_SELF)
open(os.environ['RU'], 'w').write(str((r.ru_utime + r.ru_stime) * 1e9))"
	in_cgroup() { # csv rusage-file cgroup: its task-clock = the command's own CPU time (within 20% and 20 ms)
		$PY -c '
import sys
tc = [float(r[0]) for r in (l.rstrip("\n").split(",") for l in open(sys.argv[1])) if len(r) > 3 and r[2] == "task-clock" and r[3] == sys.argv[3]]
ru = float(open(sys.argv[2]).read()) / 1e6
print("task-clock in", sys.argv[3], tc, "ms; the command own", ru, "ms")
sys.exit(0 if len(tc) == 1 and abs(tc[0] - ru) <= 0.2 * ru + 20 else 1)' "$@"; }
	RU=$tmp/cg1.pmu.ru "$PMU" stat -a -x, -e task-clock,context-switches -G $cga -- $PY -c "$burn" 2> "$tmp/cg1.pmu.err"
	check "cg1: -G NAME: the cgroup's task-clock = its command's own CPU time" in_cgroup "$tmp/cg1.pmu.err" "$tmp/cg1.pmu.ru" $cga
	if [ $have_perf = 1 ]; then
		RU=$tmp/cg1.perf.ru perf stat -a -x, -e task-clock,context-switches -G $cga -- $PY -c "$burn" 2> "$tmp/cg1.perf.err"
		check "cg1: ... perf's rows (the cgroup field after the event)" cmp_ csv "$tmp/cg1.pmu.err" "$tmp/cg1.perf.err" , 0
		check "cg1: ... perf's count alike" in_cgroup "$tmp/cg1.perf.err" "$tmp/cg1.perf.ru" $cga
	fi
	RU=$tmp/cg2.pmu.ru "$PMU" stat -a -x, -e task-clock --for-each-cgroup $cga,$cgb -- $PY -c "$burn" 2> "$tmp/cg2.pmu.err"
	check "cg2: --for-each-cgroup A,B: A's task-clock = the command's" in_cgroup "$tmp/cg2.pmu.err" "$tmp/cg2.pmu.ru" $cga
	check "cg2: ... B, empty, counted nothing" grep -Eq "^(<not counted>|0\.00),msec,task-clock,$cgb," "$tmp/cg2.pmu.err"
	both cg3 stat -a -x, -e task-clock,cpu-clock,context-switches -G "$cga,,$cgb" sleep 0.1
	check "cg3: -G A,,B pairs them with the events: task-clock in A, cpu-clock everywhere, context-switches in B" $PY -c '
import sys
rows = {r[2]: r[3] for r in (l.rstrip("\n").split(",") for l in open(sys.argv[1])) if len(r) > 4}
print(rows); sys.exit(0 if rows == {"task-clock": sys.argv[2], "cpu-clock": "", "context-switches": sys.argv[3]} else 1)' "$tmp/cg3.pmu.err" $cga $cgb
	[ $have_perf = 1 ] && check "cg3: ... as perf pairs them" cmp_ csv "$tmp/cg3.pmu.err" "$tmp/cg3.perf.err" , 0 any-order
	"$PMU" stat -x, -e task-clock -G $cga true > /dev/null 2> "$tmp/cg4.err"
	check "cg4: -G without -a or -C: usage error ($?)" grep -q "need -a or -C" "$tmp/cg4.err"
	"$PMU" stat -a -x, -e task-clock -G nonexistent-$$ true > /dev/null 2> "$tmp/cg5.err"
	check "cg5: an unknown cgroup: exit 2, its path named" grep -q "no cgroup 'nonexistent-$$' to count: $cgmount/nonexistent-$$" "$tmp/cg5.err"
	# perf's pairing, option by option: the k-th name to the k-th event written before it; one name, every
	# event before it; events after the -G, and those without a name, count every task
	cg_rows() { # csv want...: each row's "event:cgroup", in order
		$PY -c '
import sys
got = [r[2] + ":" + r[3] for r in (l.rstrip("\n").split(",") for l in open(sys.argv[1])) if len(r) > 4]
print(got, sys.argv[2:]); sys.exit(0 if got == sys.argv[2:] else 1)' "$@"; }
	both cg6 stat -a -x, -e task-clock,cpu-clock,page-faults -G $cga,$cgb sleep 0.05
	check "cg6: -G A,B for 3 events: the third everywhere" cg_rows "$tmp/cg6.pmu.err" task-clock:$cga cpu-clock:$cgb page-faults:
	[ $have_perf = 1 ] && check "cg6: ... as perf pairs them" cmp_ csv "$tmp/cg6.pmu.err" "$tmp/cg6.perf.err" , 0
	both cg7 stat -a -x, -e task-clock -G $cga -e cpu-clock sleep 0.05
	check "cg7: -e A -G X -e B: A in X, B everywhere (perf's idiom for a cgroup and the whole)" cg_rows "$tmp/cg7.pmu.err" task-clock:$cga cpu-clock:
	[ $have_perf = 1 ] && check "cg7: ... as perf" cmp_ csv "$tmp/cg7.pmu.err" "$tmp/cg7.perf.err" , 0
	both cg8 stat -a -x, -e task-clock -G $cga,$cgb sleep 0.05
	check "cg8: 2 names for the 1 event before them: usage error (perf refuses too: $(rc cg8 perf 2> /dev/null))" grep -q "names 2 cgroups for the 1 events before it" "$tmp/cg8.pmu.err"
	both cg9 stat -a -x, -G $cga -e task-clock sleep 0.05
	check "cg9: -G before any event: usage error, as perf" grep -q "comes before any event" "$tmp/cg9.pmu.err"
	rmdir "$cgmount/$cga" "$cgmount/$cgb"
	cases=$((cases + 2))
else
	echo "note: not root, or no cgroup file system to make cgroups in: -G, --for-each-cgroup not checked"
fi
# ---- end of the perf habits

# ---- tracepoints, tool events, modifiers p/pp/ppp D G H S (they were expected failures until the library
# had them; a failure now fails the test)
both l1 stat -x, -e sched:sched_switch true
check "l1: -e sched:sched_switch counted (as perf counts it)" test "$(rc l1 pmu)" = 0
[ $have_perf = 1 ] && check "l1: ... perf's CSV row" cmp_ csv "$tmp/l1.pmu.err" "$tmp/l1.perf.err" , 0
both l2 stat -x, -e 'sched:sched_process_*' true
check "l2: pmu exit 0" test "$(rc l2 pmu)" = 0
[ $have_perf = 1 ] && check "l2: -e 'sched:sched_process_*' (a tracepoint glob) as perf's rows" cmp_ csv "$tmp/l2.pmu.err" "$tmp/l2.perf.err" , 0 any-order
both l3 stat -x, -e duration_time true
check "l3: pmu exit 0" test "$(rc l3 pmu)" = 0
[ $have_perf = 1 ] && check "l3: -e duration_time in ns, as perf's row" cmp_ csv "$tmp/l3.pmu.err" "$tmp/l3.perf.err" , 0
both l4 stat -x, -e user_time,system_time true
check "l4: pmu exit 0" test "$(rc l4 pmu)" = 0
[ $have_perf = 1 ] && check "l4: -e user_time,system_time as perf's rows" cmp_ csv "$tmp/l4.pmu.err" "$tmp/l4.perf.err" , 0
for m in p pp ppp D G H S; do
	both l5$m stat -x, -e task-clock:$m true
	check "l5$m: pmu exit 0" test "$(rc l5$m pmu)" = 0
	[ $have_perf = 1 ] && check "l5$m: -e task-clock:$m as perf's row" cmp_ csv "$tmp/l5$m.pmu.err" "$tmp/l5$m.perf.err" , 0
done

# ---- --help: pmu stat's options are spelled as perf's (perf stat -h is the oracle), pmu's own apart
both h1 stat --help
check "h1: pmu stat --help: exit 0, usage on stdout" test "$(rc h1 pmu)" = 0 -a "$(head -c 15 "$tmp/h1.pmu.out")" = "usage: pmu stat"
if [ $have_perf = 1 ]; then
	perf stat -h > "$tmp/perf-h" 2>&1
	# --no-big-num: perf gives every boolean option its --no- spelling (bn1 runs it with perf)
	own="--events --interval --json --json-lines --param -h --help --no-big-num"
	# perf 6.12's spellings that an older perf lacks (Debian 12's 6.1 has neither): --per-cluster and
	# --per-cache came after 6.1 (6.12's Documentation/perf-stat.txt has both); said, not compared, where
	# the perf here has them not
	newer="--per-cluster --per-cache"
	for o in $(sed -n 's/^  \(-[^ ].*\)  .*/\1/p' "$tmp/h1.pmu.out" | sed 's/  .*//; s/ [A-Z][A-Z=,.\[]*.*//; s/\[=[A-Z]*\]//; s/,/ /g'); do
		case " $own " in *" $o "*) continue ;; esac
		case " $newer " in *" $o "*)
			grep -q -e "$o\b" "$tmp/perf-h" ||
				{ echo "note: h1: $o is perf 6.12's; $(perf --version) here has it not"; continue; } ;;
		esac
		check "h1: pmu stat $o is perf stat's spelling" grep -q -e "$o\b" "$tmp/perf-h"
	done
fi

# ---- perf list
both li1 list --json sw
perf list sw > "$tmp/perf-sw" 2> /dev/null
[ $have_perf = 1 ] && check "li1: list sw: perf's software events (bpf-output is perf's alone)" cmp_ names "$tmp/li1.pmu.out" "$tmp/perf-sw" '[Software event]' bpf-output
both li2 list --json 'task*'
check "li2: list 'task*': task-clock" $PY -c "import json, sys; sys.exit(0 if 'task-clock' in [e['name'] for e in json.load(open(sys.argv[1]))] else 1)" "$tmp/li2.pmu.out"
both li3 list --json hw
perf list hw > "$tmp/perf-hw" 2> /dev/null
if [ $have_perf = 1 ] && grep -q 'Hardware event' "$tmp/perf-hw"; then
	check "li3: list hw: perf's hardware events" cmp_ names "$tmp/li3.pmu.out" "$tmp/perf-hw" '[Hardware event]'
else
	check "li3: list hw: names (perf lists none without a PMU)" test "$(rc li3 pmu)" = 0
fi
both li4 list metric
check "li4: list metric: exit 0" test "$(rc li4 pmu)" = 0
both li5 list --json tracepoint
if [ -r /sys/kernel/tracing/events ] && [ $have_perf = 1 ]; then
	perf list tracepoint > "$tmp/perf-tp" 2> /dev/null
	check "li5: list tracepoint: perf's tracepoints" cmp_ names "$tmp/li5.pmu.out" "$tmp/perf-tp" '[Tracepoint event]'
fi
both li6 list --help
check "li6: pmu list --help: exit 0" test "$(rc li6 pmu)" = 0

# ---- issue 39, items 1 and 9 (branch i39-stat): -C, -p and -t name each CPU, process, thread once,
# -C only CPUs that are online. perf refuses a CPU named twice (-C 0,0 and the overlapping -C 0,0-1: the
# oracle, its exit status), and counts a process or thread named twice twice (-p X,X of a busy loop:
# 370 ms of task-clock in 300 ms, 1.233 CPUs utilized, where -p X gave 0.435); pmu
# counted CPU 0 twice ("2.000 CPUs utilized" of one CPU) and the rest alike: now all three are refused,
# exit 2, naming the number and the list written once. A CPU that is not online (the kernel's EINVAL)
# was "the software PMU rejected an attribute ... try without modifiers": the oracle for the CPUs that
# exist is /sys/devices/system/cpu/online itself, and a written one through PMU_SYSFS_ROOT.
both d1 stat -x, -C 0,0 -e cpu-clock sleep 0.1
[ $have_perf = 1 ] && check "d1: perf refuses -C 0,0 (exit $(rc d1 perf))" test "$(rc d1 perf)" != 0
check "d1: pmu refuses -C 0,0: exit 2 (got $(rc d1 pmu))" test "$(rc d1 pmu)" = 2
check "d1: ... naming CPU 0 and the list once" grep -q "^pmu stat: -C names CPU 0 twice ('0,0').*name each once: -C 0$" "$tmp/d1.pmu.err"
both d2 stat -x, -C 0,0-1 -A -e cpu-clock sleep 0.1
[ $have_perf = 1 ] && check "d2: perf refuses -C 0,0-1 (exit $(rc d2 perf))" test "$(rc d2 perf)" != 0
check "d2: pmu refuses -C 0,0-1 -A: exit 2 (got $(rc d2 pmu))" test "$(rc d2 pmu)" = 2
check "d2: ... naming CPU 0 and the list once" grep -q "CPU 0 twice ('0,0-1').*name each once: -C 0-1$" "$tmp/d2.pmu.err"
"$PMU" stat -x, -C 0 -C 0 -e cpu-clock sleep 0.1 > /dev/null 2> "$tmp/d3.err"
check "d3: -C 0 -C 0 (two options) refused alike: exit $?" grep -q "CPU 0 twice ('0,0')" "$tmp/d3.err"
sleep 20 & target=$!
for o in -p -t; do
	both d4$o stat -x, $o $target,$target -e task-clock --timeout 200
	[ $have_perf = 1 ] && echo "note: perf stat $o X,X counts X twice, exit $(rc d4$o perf): $(grep ',task-clock,' "$tmp/d4$o.perf.err")"
	check "d4$o: pmu refuses $o X,X: exit 2 (got $(rc d4$o pmu))" test "$(rc d4$o pmu)" = 2
	check "d4$o: ... naming $target and the list once" grep -q -e "$o names [a-z]* $target twice ('$target,$target').*name each once: $o $target$" "$tmp/d4$o.pmu.err"
done
kill $target; wait $target 2> /dev/null
online=$(cat /sys/devices/system/cpu/online)
beyond=$(( $(getconf _NPROCESSORS_CONF) + 5 ))
both d5 stat -x, -C $beyond -e cpu-clock sleep 0.1
check "d5: -C $beyond (online: $online): exit 2 (got $(rc d5 pmu))" test "$(rc d5 pmu)" = 2
check "d5: ... naming the CPU and the CPUs online ($online)" grep -q "CPU $beyond, which this machine does not have online: its CPUs online are $online (/sys/devices/system/cpu/online)" "$tmp/d5.pmu.err"
check "d5: ... no word of an attribute or modifiers" test -z "$(grep -e attribute -e modifier "$tmp/d5.pmu.err")"
mkdir -p "$tmp/sys/devices/system/cpu" && echo "0-3,8" > "$tmp/sys/devices/system/cpu/online"
PMU_SYSFS_ROOT=$tmp/sys "$PMU" stat -x, -C 2,5 -e cpu-clock sleep 0.1 > /dev/null 2> "$tmp/d6.err"
check "d6: a written sysfs (online 0-3,8): -C 2,5 refused, exit $?, naming 5 and 0-3,8" grep -q "CPU 5, which .* online are 0-3,8 ($tmp/sys/devices/system/cpu/online)" "$tmp/d6.err"
# ---- end of issue 39, items 1 and 9

# ---- perf list -d/--long-desc (branch libmodes)
# perf list's description options typed with pmu: both exit 0, and pmu prints each name with its
# description (perf 6.1 writes [Software event] for software events, and its tables' texts for
# metrics); perf's software events are rows of pmu's (bpf-output is perf's alone)
both ld1 list --long-desc sw
both ld2 list -d sw
both ld3 list --long-desc metric
for id in ld1 ld2 ld3; do
	check "$id: pmu exit 0 (got $(rc $id pmu))" test "$(rc $id pmu)" = 0
	[ $have_perf = 1 ] && check "$id: perf exit 0 (got $(rc $id perf))" test "$(rc $id perf)" = 0
done
for id in ld1 ld2; do
	check "$id: pmu: task-clock and page-faults with their descriptions" \
		sh -c "grep -Eq '^  task-clock +kernel +[a-z]' '$tmp/$id.pmu.out' && grep -Eq '^  page-faults +kernel +[a-z]' '$tmp/$id.pmu.out'"
	[ $have_perf = 1 ] && check "$id: perf's software events are pmu's rows" $PY - "$tmp/$id.pmu.out" "$tmp/$id.perf.out" <<'PYEOF'
import re, sys
ours = set(re.findall(r'^  (\S+) ', open(sys.argv[1]).read(), re.M))
perf = set()
for l in open(sys.argv[2]):
    if '[Software event]' in l:
        perf.update(n.strip() for n in l.split('[')[0].split(' OR '))
print("perf only:", sorted(perf - ours), "pmu only:", sorted(ours - perf))
sys.exit(0 if perf and perf - ours <= {'bpf-output'} else 1)
PYEOF
done
check "ld3: pmu: every metric row has a description" $PY - "$tmp/ld3.pmu.out" <<'PYEOF'
import re, sys
rows = [l for l in open(sys.argv[1]) if re.match(r'^  \S+ +metric ', l)]
print(len(rows), "metric rows")
sys.exit(0 if rows and all(re.match(r'^  \S+ +metric +\S', l) for l in rows) else 1)
PYEOF
# ---- end of perf list -d/--long-desc

echo "test-perf-habits: $cases invocations, $checks checks, $fails failed"
[ $fails = 0 ]
