#!/bin/bash
# pmu stat -g GROUP (issue 44), its printed values against sums made here by hand:
#   - LIKWID's skylakeX MEM_DP group (read in place from Debian's likwid package) on the written two-socket
#     Sapphire Rapids (tests/fixtures/intel-spr-2s, PMU_CPUID a Skylake-SP so that LIKWID's skylakeX
#     directory is chosen), its perf_event calls answered by the kernel model (tests/kmodel.c): -a (one
#     column), -a -A (a column per CPU), -a --per-socket (S0, S1 and the STAT tables), --json and -x;
#   - a group file of software events (SW counters) counted for real on this machine;
#   - refusals: an unknown group, a malformed file, an event libpmu cannot map, -g with -I.
#   test-likwid-stat.sh KMODEL.so PMU SRCDIR
set -u
KM=${1:?KMODEL.so} PMU=${2:?pmu} SRC=${3:?srcdir}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/checks.sh" # check(), $checks, $fails
. "$(dirname "$0")/kmodel.sh" # on(), opens(), same()
command -v python3 > /dev/null || { echo "FAIL: python3 is needed to read pmu stat --json"; exit 1; }
LG=${PMU_LIKWID_GROUPS:-/usr/share/likwid/perfgroups}
export PMU_GROUPS_DIR=$SRC/events/groups

js() { # the value of a python expression over the --json document d (g: its "group"; ev(o, counter), m(o, name))
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
g = d["group"]
u = {x["id"]: x for x in g.get("units", [])}
ev = lambda o, c: [e["value"] for e in o["events"] if e["counter"] == c][0]
m = lambda o, n: [x["value"] for x in o["metrics"] if x["name"] == n][0]
print(eval(sys.argv[2]))
PY
}
near() { python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(a - b) > 1e-9 * abs(b))" "$1" "$2" ||
	{ echo "--- got $1, want $2"; false; }; }
# a metric's cell in the text table: "| NAME | v1 | v2 |" -> column $3 (1 = the first value)
cell() { python3 - "$1" "$2" "$3" <<'PY'
import sys
for l in open(sys.argv[1]):
    c = [x.strip() for x in l.strip().strip("|").split("|")]
    if c and c[0] == sys.argv[2]:
        print(c[int(sys.argv[3])]); break
PY
}

if [ -f "$LG/skylakeX/MEM_DP.txt" ]; then
	# ---- the model: 8 CPUs, two sockets; each CPU counts the core events below once ----
	D=$SRC/tests/fixtures/intel-spr-2s/sys/bus/event_source/devices
	pw=$(cat "$D/power/type")
	{
		echo "cpus 0-7"
		echo "pmu 4,0,3 core name=cpu"
		# INST_RETIRED.ANY 1000, CPU_CLK_UNHALTED.THREAD 3000, .REF_TSC 2000, FP_ARITH 128B/scalar/256B/512B double
		printf 'event 4 %s count=%s\n' 0xc0 1000 0x3c 3000 0x300 2000 0x4c7 10 0x1c7 20 0x10c7 30 0x40c7 40
		echo "pmu $pw uncore name=power box=0-3@0 box=4-7@4"
		# RAPL in 2^-32 J: pkg (0x2) 3.25 J on socket 0, 1.5 J on 1; ram (0x3) 1 J and 0.5 J
		printf "event $pw %s cpu=%s count=%s\n" 0x2 0 13958643712 0x2 4 6442450944 0x3 0 4294967296 0x3 4 2147483648
		# IMC box b: CAS reads (skylakeX 0x304) 1000*(b+1) on socket 0, 100*(b+1) on 1; writes (0xc04) 10*(b+1), b+1
		for b in 0 1 2 3 4 5 6 7; do
			t=$(cat "$D/uncore_imc_$b/type")
			echo "pmu $t uncore name=uncore_imc_$b counters=4 box=0-3@0 box=4-7@4"
			printf "event $t %s cpu=%s count=%s\n" 0x304 0 $((1000 * (b + 1))) 0x304 4 $((100 * (b + 1))) \
				0xc04 0 $((10 * (b + 1))) 0xc04 4 $((b + 1))
		done
	} > "$tmp/m.model"
	T=intel-spr-2s
	export PMU_CPUID=GenuineIntel-6-55-4
	on $T "$tmp/m.model" "$tmp/log" "$tmp/o" stat -a -g MEM_DP --param system_tsc_freq=2e9 --json -o "$tmp/s.json" -- sleep 0.05
	check "skylakeX MEM_DP: pmu stat -a -g --json exits 0" [ $? = 0 ]
	J=$tmp/s.json
	check "the group's name, arch and LIKWID's file (read in place)" same "$(js "$J" "(g['name'], g['arch'], g['file'])")" \
		"('MEM_DP', 'skylakeX', '$LG/skylakeX/MEM_DP.txt')"
	check "MBOX0C0..5C0 (CAS reads) are boxes 0..5 summed over the sockets: 1100*(b+1)" \
		same "$(js "$J" "[ev(g, 'MBOX%dC0' % b) for b in range(6)]")" "[1100, 2200, 3300, 4400, 5500, 6600]"
	check "MBOX0C1..5C1 (CAS writes): 11*(b+1)" same "$(js "$J" "[ev(g, 'MBOX%dC1' % b) for b in range(6)]")" "[11, 22, 33, 44, 55, 66]"
	check "MBOX0C0 is uncore_imc_0's UNC_M_CAS_COUNT.RD" same "$(js "$J" "[e['event'] for e in g['events'] if e['counter'] == 'MBOX0C0'][0]")" \
		"uncore_imc_0/UNC_M_CAS_COUNT.RD/"
	check "PWR0 = 3.25 + 1.5 J, PWR3 = 1 + 0.5 J" same "$(js "$J" "(ev(g, 'PWR0'), ev(g, 'PWR3'))")" "(4.75, 1.5)"
	check "FIXC0, FIXC1, FIXC2: 8 CPUs x 1000, 3000, 2000" same "$(js "$J" "(ev(g, 'FIXC0'), ev(g, 'FIXC1'), ev(g, 'FIXC2'))")" "(8000, 24000, 16000)"
	t=$(js "$J" "d['elapsed_ns'] / 1e9")
	rd=23100 wr=231 flops=$((80 * 2 + 160 + 240 * 4 + 320 * 8))
	for k in "Memory read data volume|1e-9 * $rd * 64" "Memory write data volume|1e-9 * $wr * 64" \
		"Memory bandwidth|1e-6 * ($rd + $wr) * 64 / $t" "Power|4.75 / $t" "Power DRAM|1.5 / $t" "Energy|4.75" \
		"CPI|24000 / 8000" "Clock|1e-6 * (24000 / 16000) * 2e9" "Runtime unhalted|24000 / 2e9" \
		"DP|1e-6 * $flops / $t" "Operational intensity|$flops / (($rd + $wr) * 64)" "Runtime (RDTSC)|$t"; do
		n=${k%%|*} f=${k#*|}
		check "json: $n = $f" near "$(js "$J" "m(g, '$n')")" "$(python3 -c "print($f)")"
	done
	check "json: a metric carries LIKWID's formula and libpmu's expression" \
		same "$(js "$J" "[(x['formula'], x['expr']) for x in g['metrics'] if x['name'] == 'CPI'][0]")" \
		"('FIXC1/FIXC0', 'CPU_CLK_UNHALTED.THREAD/INST_RETIRED.ANY')"

	# text: likwid-perfctr's tables, one column; the values printed against the same hand sums
	on $T "$tmp/m.model" "$tmp/log" "$tmp/t" stat -a -g MEM_DP --param system_tsc_freq=2e9 -- sleep 0.05
	check "text: exits 0" [ $? = 0 ]
	check "text: 'Group 1: MEM_DP' and the event table's header" \
		grep -q "^Group 1: MEM_DP" "$tmp/t"
	check "text: | Event | Counter | Total |" grep -Eq '^\|[ ]+Event[ ]+\|[ ]+Counter[ ]+\|[ ]+Total[ ]+\|$' "$tmp/t"
	check "text: MBOX3C0's row: CAS_COUNT_RD 4400" same "$(grep 'MBOX3C0' "$tmp/t" | tr -d ' ')" "|CAS_COUNT_RD|MBOX3C0|4400|"
	check "text: Memory read data volume [GBytes] = 1e-9 * $rd * 64" \
		near "$(cell "$tmp/t" "Memory read data volume [GBytes]" 1)" "$(python3 -c "print(1e-9 * $rd * 64)")"
	check "text: CPI = 3" same "$(cell "$tmp/t" "CPI" 1)" 3
	check "text: Clock [MHz] = 3000" same "$(cell "$tmp/t" "Clock [MHz]" 1)" 3000

	# --per-socket: S0 and S1 columns and LIKWID's STAT tables (Sum, Min, Max, Avg)
	on $T "$tmp/m.model" "$tmp/log" "$tmp/p" stat -a --per-socket -g MEM_DP --json -o "$tmp/p.json" -- sleep 0.05
	check "--per-socket --json exits 0" [ $? = 0 ]
	P=$tmp/p.json
	check "--per-socket: MBOX5C0 is 6000 on S0 and 600 on S1" same "$(js "$P" "(ev(u['S0'], 'MBOX5C0'), ev(u['S1'], 'MBOX5C0'))")" "(6000, 600)"
	check "--per-socket: PWR0 is 3.25 J on S0 and 1.5 J on S1" same "$(js "$P" "(ev(u['S0'], 'PWR0'), ev(u['S1'], 'PWR0'))")" "(3.25, 1.5)"
	check "--per-socket: S0's memory read volume 1e-9 * 21000 * 64" near "$(js "$P" "m(u['S0'], 'Memory read data volume')")" \
		"$(python3 -c "print(1e-9 * 21000 * 64)")"
	on $T "$tmp/m.model" "$tmp/log" "$tmp/pt" stat -a --per-socket -g MEM_DP -- sleep 0.05
	check "--per-socket text: | Event | Counter | S0 | S1 |" grep -Eq '^\|[ ]+Event[ ]+\|[ ]+Counter[ ]+\|[ ]+S0[ ]+\|[ ]+S1[ ]+\|$' "$tmp/pt"
	check "--per-socket text: the STAT row of MBOX1C0: Sum 2200, Min 200, Max 2000, Avg 1100" \
		same "$(grep '^| *CAS_COUNT_RD STAT *| *MBOX1C0' "$tmp/pt" | tr -d ' ')" "|CAS_COUNT_RDSTAT|MBOX1C0|2200|200|2000|1100|"
	check "--per-socket text: Memory read data volume [GBytes] STAT: Sum of S0's and S1's" \
		near "$(cell "$tmp/pt" "Memory read data volume [GBytes] STAT" 1)" "$(python3 -c "print(1e-9 * 23100 * 64)")"

	# -A: a column per CPU, "HWThread N"
	on $T "$tmp/m.model" "$tmp/log" "$tmp/a" stat -a -A -g MEM_DP -- sleep 0.05
	check "-A: | Event | Counter | HWThread 0 | ... | HWThread 7 |" \
		grep -Eq '^\|[ ]+Event[ ]+\|[ ]+Counter[ ]+\|[ ]+HWThread 0[ ]+\|.*HWThread 7[ ]+\|$' "$tmp/a"
	check "-A: FIXC0 1000 on each CPU, STAT Sum 8000" \
		same "$(grep '^| *INSTR_RETIRED_ANY STAT' "$tmp/a" | tr -d ' ')" "|INSTR_RETIRED_ANYSTAT|FIXC0|8000|1000|1000|1000|"

	# CSV: a line per metric, "name,unit,value,column"
	on $T "$tmp/m.model" "$tmp/log" "$tmp/c" stat -a -x, -g MEM_DP -- sleep 0.05
	check "-x,: exits 0" [ $? = 0 ]
	check "-x,: Memory read data volume,GBytes,<1e-9 * $rd * 64>,Total" \
		near "$(sed -n 's/^Memory read data volume,GBytes,\([^,]*\),Total$/\1/p' "$tmp/c")" "$(python3 -c "print(1e-9 * $rd * 64)")"

	# LIKWID's options: THRESHOLD=0x1:INVERT is :c1:i (cmask 1 at bit 24, inv bit 23), EDGEDETECT on the counter
	# is :e (bit 18); each its own count in the model, the event table's rows and metrics by counter
	printf 'SHORT options\nEVENTSET\nFIXC0 INSTR_RETIRED_ANY\nPMC0 UOPS_ISSUED_ANY:THRESHOLD=0x1:INVERT\n%s\n%s\n' \
		'PMC1 UOPS_ISSUED_ANY' 'PMC2:EDGEDETECT UOPS_ISSUED_ANY' > "$tmp/O.txt"
	printf 'METRICS\nStalls per instruction PMC0/FIXC0\nIssued PMC1\nEdges PMC2:EDGEDETECT\n' >> "$tmp/O.txt"
	printf 'cpus 0-7\npmu 4,0,3 core name=cpu\n' > "$tmp/o.model"
	printf 'event 4 %s count=%s\n' 0xc0 1000 0x180010e 7 0x10e 9 0x4010e 11 >> "$tmp/o.model"
	on $T "$tmp/o.model" "$tmp/log" "$tmp/ot" stat -C 0 -g "$tmp/O.txt" --json -o "$tmp/o.json" -- sleep 0.01
	check "options: exits 0" [ $? = 0 ]
	check "options: PMC0, PMC1, PMC2:EDGEDETECT count 7, 9, 11" \
		same "$(js "$tmp/o.json" "(ev(g, 'PMC0'), ev(g, 'PMC1'), ev(g, 'PMC2:EDGEDETECT'))")" "(7, 9, 11)"
	check "options: PMC0 is UOPS_ISSUED.ANY:c1:i" same "$(js "$tmp/o.json" "g['events'][1]['event']")" "UOPS_ISSUED.ANY:c1:i"
	check "options: Stalls per instruction = 7 / 1000" near "$(js "$tmp/o.json" "m(g, 'Stalls per instruction')")" 0.007
	check "options: Edges = 11" same "$(js "$tmp/o.json" "m(g, 'Edges')")" 11.0
	unset PMU_CPUID
else
	echo "# LIKWID's groups are not installed ($LG/skylakeX/MEM_DP.txt): the written machine's part is skipped"
fi

# ---- pmu list groups: the files of the CPU's directories, LIKWID's then libpmu's ----
if [ -d "$LG/skylakeX" ]; then
	check "pmu list groups (Skylake-SP): every file of LIKWID's skylakeX directory, by name" \
		same "$(PMU_CPUID=GenuineIntel-6-55-4 "$PMU" list groups --no-desc)" "$(cd "$LG/skylakeX" && ls *.txt | sed 's/\.txt$//')"
fi
n1=$(PMU_CPUID=0x00000000413fd0c1 "$PMU" list groups --json | python3 -c "import json, sys; print(' '.join(g['arch'] + ':' + g['name'] for g in json.load(sys.stdin)))")
want=$(for d in "$LG/arm8_n1" "$SRC/events/groups/arm64" "$SRC/events/groups/standard"; do
	[ -d "$d" ] && (cd "$d" && for f in *.txt; do printf '%s:%s\n' "${d##*/}" "${f%.txt}"; done)
done | tr '\n' ' ')
check "pmu list groups --json (Neoverse N1): LIKWID's arm8_n1 first, then libpmu's arm64 and standard groups" \
	same "$n1 " "$want"
"$PMU" list groups > "$tmp/lg" 2>&1
check "pmu list groups (this CPU, or a CPU of none): exit 0" [ $? = 0 ]
# ---- this machine, for real: a group of the kernel's software events ----
printf 'SHORT software events\n\nEVENTSET\nSW0 task-clock\nSW1 page-faults\nSW2 context-switches\n\nMETRICS\n%s\n%s\n%s\n' \
	'Runtime [s] time' 'Faults per second [1/s] SW1/time' 'CPU time per second SW0*1.0E-09/time' > "$tmp/SW.txt"
"$PMU" stat -g "$tmp/SW.txt" --json -o "$tmp/sw.json" -- sh -c 'i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done'
check "this machine: pmu stat -g FILE of software events exits 0" [ $? = 0 ]
t=$(js "$tmp/sw.json" "d['elapsed_ns'] / 1e9")
pf=$(js "$tmp/sw.json" "ev(g, 'SW1')")
tc=$(js "$tmp/sw.json" "ev(g, 'SW0')")
check "this machine: SW1 is the page-faults row of the document" same "$pf" "$(js "$tmp/sw.json" "[e['value'] for e in d['events'] if e['name'] == 'page-faults'][0]")"
check "this machine: page faults counted (> 0)" [ "${pf%.*}" -gt 0 ]
check "this machine: Faults per second = $pf / $t" near "$(js "$tmp/sw.json" "m(g, 'Faults per second')")" "$(python3 -c "print($pf / $t)")"
check "this machine: CPU time per second = $tc ns / $t s" near "$(js "$tmp/sw.json" "m(g, 'CPU time per second')")" "$(python3 -c "print($tc * 1e-9 / $t)")"

# ---- refusals: the problem and the fix named ----
"$PMU" stat -g NO_SUCH_GROUP -- true > "$tmp/e" 2>&1
check "unknown group: exit 2" [ $? = 2 ]
check "unknown group: said, with what to do" grep -Eq "NO_SUCH_GROUP: .*(pmu list|no performance groups)" "$tmp/e"
printf 'SHORT x\nEVENTSET\nPMC0\nMETRICS\nA PMC0\n' > "$tmp/bad.txt"
"$PMU" stat -g "$tmp/bad.txt" -- true > "$tmp/e" 2>&1
check "malformed file: exit 2" [ $? = 2 ]
check "malformed file: the line quoted" grep -q "EVENTSET line 'PMC0' is not 'COUNTER EVENT\[:OPTIONS\]'" "$tmp/e"
printf 'SHORT x\nEVENTSET\nSW0 NO_SUCH_EVENT\nMETRICS\nA SW0\n' > "$tmp/unm.txt"
"$PMU" stat -g "$tmp/unm.txt" -- true > "$tmp/e" 2>&1
check "unmappable event: exit 2" [ $? = 2 ]
check "unmappable event: the line, why and the fix" grep -q "EVENTSET line 'SW0 NO_SUCH_EVENT' cannot be counted: .*pmu list sw" "$tmp/e"
printf 'SHORT x\nEVENTSET\nSW0 page-faults\nMETRICS\nA SW7/time\n' > "$tmp/nocounter.txt"
"$PMU" stat -g "$tmp/nocounter.txt" -- true > "$tmp/e" 2>&1
check "a formula over a counter the file lacks: counted, that metric n/a with why" grep -q "A: n/a: .*'SW7'" "$tmp/e"
refused() { # description, file text, what the message says
	printf "$2" > "$tmp/r.txt"
	"$PMU" stat -g "$tmp/r.txt" -- true > "$tmp/e" 2>&1
	check "$1: exit 2" [ $? = 2 ]
	check "$1: said" grep -q -- "$3" "$tmp/e"
}
refused "a counter named twice" 'EVENTSET\nSW0 page-faults\nSW0 task-clock\n' "counter SW0 is named twice in EVENTSET: give each counter one event"
refused "no EVENTSET lines" 'SHORT x\nMETRICS\nA time\n' "no EVENTSET lines: a group counts at least one event"
refused "a line outside the sections" 'stray words\nEVENTSET\nSW0 page-faults\n' "'stray words' is outside the sections"
printf 'EVENTSET\nSW0 page-faults\nMETRICS\nA SW0^2\nB SW0\n' > "$tmp/caret.txt"
"$PMU" stat -g "$tmp/caret.txt" -- true > "$tmp/e" 2>&1
check "a formula with a character LIKWID's have not: counted (exit 0), that metric n/a with why" \
	grep -q "A: n/a: the formula has '^'" "$tmp/e"
refused "an option libpmu cannot say" 'EVENTSET\nPMC0 INSTR_RETIRED_ANY:MATCH0=0x1\n' "LIKWID's option MATCH0=0x1 has no libpmu modifier"
printf 'EVENTSET\nSW0 page-faults\n\0\n' > "$tmp/nul.txt"
"$PMU" stat -g "$tmp/nul.txt" -- true > "$tmp/e" 2>&1
check "a NUL byte: refused as no text" grep -q "has a NUL byte: no group file" "$tmp/e"
"$PMU" stat -I 100 -g "$tmp/SW.txt" -- true > "$tmp/e" 2>&1
check "-g with -I: exit 2, said" [ $? = 2 ]
check "-g with -I: why" grep -q -- "-g prints the group's tables once" "$tmp/e"
echo "test-likwid-stat: $checks checks, $fails failed"
[ "$fails" = 0 ]
