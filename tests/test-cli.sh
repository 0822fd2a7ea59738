#!/bin/bash
# The pmu command as a person uses it: exit codes, one clear line per error,
# the --json interfaces, stat on a real command, report on a saved run.
set -u
PMU=${PMU_CLI:?}
SRC=${PMU_TEST_SRCDIR:?}
BUILD=${PMU_TEST_BUILDDIR:?}
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/checks.sh" # check(), $checks, $fails
# a check of what the library does not do yet (another branch brings it): a failure is printed as
# XFAIL with the TODO, not counted; once it passes it counts as a check
xfails=0
xcheck() { # todo, description, command...
	local todo=$1 d=$2; shift 2
	checks=$((checks + 1))
	if ! "$@"; then echo "XFAIL: $d -- TODO: $todo"; xfails=$((xfails + 1)); checks=$((checks - 1)); fi
}
# PMU_CLI_WRAPPER: run the command under a tool, e.g. valgrind (its errors exit 99)
WRAP=${PMU_CLI_WRAPPER:-}
run() { # expected-status, stdout-file, stderr-file, args...
	local want=$1 out=$2 err=$3; shift 3
	$WRAP "$PMU" "$@" > "$out" 2> "$err"
	local got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL: pmu $* exited $got, expected $want"; sed 's/^/  | /' "$err"; fails=$((fails + 1))
	fi
	checks=$((checks + 1))
}
# strict JSON, as RFC 8259 has it: UTF-8, no NaN or Infinity (which Python's json takes by default)
STRICT="import json, sys
def no_constant(c): raise ValueError('not JSON: ' + c)
def strict(path): return json.loads(open(path, 'rb').read().decode('utf-8'), parse_constant=no_constant)"
json() { # file, python expression over d
	$PY -c "$STRICT
d = strict(sys.argv[1]); sys.exit(0 if ($2) else 1)" "$1"
}
has() { grep -q -- "$2" "$1"; }
not_has() { ! grep -q -- "$2" "$1"; }

run 0 "$tmp/o" "$tmp/e" --version; check "version" has "$tmp/o" "pmu (libpmu)"
run 2 "$tmp/o" "$tmp/e" nosuchcommand; check "unknown command named" has "$tmp/e" "unknown command 'nosuchcommand'"
check "unknown command: nothing suggested when no command is close" not_has "$tmp/e" "did you mean"
# a typing slip names the command meant (two letters swapped, one missing)
run 2 "$tmp/o" "$tmp/e" stta; check "pmu stta: did you mean 'stat'?" has "$tmp/e" "^pmu: unknown command 'stta'; did you mean 'stat'?"
run 2 "$tmp/o" "$tmp/e" help reslove; check "pmu help reslove: did you mean 'resolve'?" has "$tmp/e" "did you mean 'resolve'?"
# an unknown event: the closest name first, even where it cannot be counted here ("cyles" suggested cs first)
run 1 "$tmp/o" "$tmp/e" resolve cyles; check "cyles: cycles suggested first" grep -Eq "did you mean:? '?cycles" "$tmp/e"
run 2 "$tmp/o" "$tmp/e"

# help: every command's --help and -h (stdout, exit 0) start with its usage and list its options;
# pmu help [COMMAND]; an unknown option gives the usage line on stderr and exit 2 (perf says 129)
run 0 "$tmp/o" "$tmp/e" help
for c in info list resolve stat report check-tables; do
	check "pmu help lists $c" has "$tmp/o" "^  $c  "
done
run 0 "$tmp/o" "$tmp/e" --help
check "pmu --help lists the commands" has "$tmp/o" "^  stat  "
for c in info list resolve stat report check-tables help; do
	for h in --help -h; do
		run 0 "$tmp/o" "$tmp/e" $c $h
		check "pmu $c $h: usage first" test "$(head -1 "$tmp/o" | cut -d' ' -f1-3)" = "usage: pmu $c"
		check "pmu $c $h: options listed" has "$tmp/o" "^  -h, --help "
		check "pmu $c $h: nothing on stderr" test ! -s "$tmp/e"
	done
	run 2 "$tmp/o" "$tmp/e" $c --no-such-option
	check "pmu $c --no-such-option: said" test "$(sed -n 1p "$tmp/e")" = "pmu $c: unknown option '--no-such-option'"
	check "pmu $c --no-such-option: then the usage line" test "$(sed -n 2p "$tmp/e" | cut -d' ' -f1-3)" = "usage: pmu $c"
done
run 2 "$tmp/o" "$tmp/e" help nosuchcommand
check "pmu help nosuchcommand: said" has "$tmp/e" "^pmu help: unknown command 'nosuchcommand'"

# info: on a machine without a core PMU it must say so plainly
run 0 "$tmp/o" "$tmp/e" info
has_pmu=0
for p in cpu cpu_core cpu_atom; do [ -e /sys/bus/event_source/devices/$p ] && has_pmu=1; done
ls /sys/bus/event_source/devices 2>/dev/null | grep -qE '^armv[89]_' && has_pmu=1
if [ $has_pmu = 0 ]; then
	check "info says no hardware PMU" has "$tmp/o" "No hardware PMU is exposed"
	check "info names software events" has "$tmp/o" "task-clock"
fi
run 0 "$tmp/o" "$tmp/e" info --json
check "info --json" json "$tmp/o" "'cpuid' in d and isinstance(d['pmus'], list) and d['hw_pmu'] == bool($has_pmu)"

# resolve
run 0 "$tmp/o" "$tmp/e" resolve cycles task-clock --json
check "resolve --json" json "$tmp/o" "d[0]['type']==0 and d[0]['config']=='0x0' and d[1]['type']==1 and d[1]['source']=='generic'"
run 1 "$tmp/o" "$tmp/e" resolve cyclez
# suggestions name only what can be counted here; a closer name that cannot is named apart
if [ $has_pmu = 1 ]; then
	check "unknown event suggests" has "$tmp/e" "did you mean: cycles"
else
	check "unknown event: the closest name is not countable here, and said so" has "$tmp/e" "did you mean 'cycles'? It cannot be counted here (no hardware PMU"
fi
check "one line per error" test "$(wc -l < "$tmp/e")" = 1
# the fixture of an Ice Lake server: format files give the encoding
fx=$SRC/tests/fixtures/intel-icx
if [ -d "$fx/sys" ]; then
	PMU_SYSFS_ROOT=$fx/sys PMU_CPUID=GenuineIntel-6-6A run 0 "$tmp/o" "$tmp/e" resolve 'cpu/event=0xd1,umask=0x1/' --json
	check "fixture sysfs encoding" json "$tmp/o" "d[0]['type']==4 and d[0]['config']=='0x1d1' and d[0]['source']=='sysfs' and 'format' in d[0]['origin']"
	PMU_SYSFS_ROOT=$fx/sys PMU_PROCFS_ROOT=$fx/proc run 0 "$tmp/o" "$tmp/e" info
	check "fixture info names the core PMU" has "$tmp/o" "Hardware PMU: cpu"
fi

# info says what the built-in tables hold of the vendor's data for the CPU: Intel's core events for
# Rocket Lake (x86/intel/rocketlake, issue 42), none for Zen 4 (libpmu's own table and libpfm4)
PMU_CPUID=GenuineIntel-6-A7-1 run 0 "$tmp/o" "$tmp/e" info
check "info: Rocket Lake's table is Intel's data" has "$tmp/o" "^Event table:  x86/intel/rocketlake (built-in)"
check "info: Rocket Lake's vendor data named, what it lacks said" has "$tmp/o" "^Vendor data:  Intel's published core and uncore events and its metrics .*TMA 4.7"
# Rocket Lake's topdown tree: level 1 from its core PMU's events (the Ice Lake fixture's sysfs has the
# kernel's slots and topdown-* events, as Rocket Lake's kernel does), levels below from Intel's tma_*
# metrics (perf-corpus-builtin compares them with perf's)
if [ -d "$fx/sys" ]; then
	PMU_SYSFS_ROOT=$fx/sys PMU_PROCFS_ROOT=$fx/proc PMU_CPUID=GenuineIntel-6-A7-1 run 0 "$tmp/o" "$tmp/e" stat --topdown --json -o "$tmp/td.json" -- true
	check "stat --topdown on Rocket Lake: slots and the four level-1 events of the core PMU" json "$tmp/td.json" \
		"[e['name'] for e in d['events']][:5] == ['slots', 'topdown-retiring', 'topdown-bad-spec', 'topdown-fe-bound', 'topdown-be-bound']"
	PMU_CPUID=GenuineIntel-6-A7-1 run 0 "$tmp/o" "$tmp/e" list --json metricgroup
	check "Rocket Lake's metric groups: TopdownL1 to TopdownL6 from Intel's data" json "$tmp/o" \
		"all(g in [x['group'] for x in d] for g in ['TopdownL%d' % i for i in range(1, 7)])"
fi
PMU_CPUID=AuthenticAMD-25-11-0 run 0 "$tmp/o" "$tmp/e" info
check "info: Zen 4's vendor data not built in, the way to it said" has "$tmp/o" "^Vendor data:  not built in for this CPU .*perf's tree in PMU_EVENTS_PATH"
# Neoverse N1 (r3p1): libpmu's own table, then Arm's data (arm64/arm/neoverse-n1, issue 42); Cortex-A78
# (r1p0): Arm's data alone, perf's directory name for the two cores it serves
PMU_CPUID=0x00000000413fd0c1 run 0 "$tmp/o" "$tmp/e" info
check "info: Neoverse N1's table is libpmu's then Arm's data" has "$tmp/o" "^Event table:  arm64/neoverse-n1+arm64/arm/neoverse-n1 (built-in)"
check "info: Neoverse N1's vendor data named, its metrics' source said" has "$tmp/o" "^Vendor data:  Arm's published core events of this core .*its metrics (telemetry-solution)"
# Arm's metrics built in: Neoverse N1's ipc from its telemetry specification, the file named
PMU_CPUID=0x00000000413fd0c1 run 0 "$tmp/o" "$tmp/e" list --json --details ipc
check "list: Neoverse N1's ipc is Arm's telemetry metric" json "$tmp/o" "any(e['name'] == 'ipc' and e['kind'] == 'metric' and e.get('file') == 'arm64/arm/neoverse-n1/metrics.json' and e['expr'] == 'INST_RETIRED / CPU_CYCLES' for e in d)"
PMU_CPUID=0x00000000411fd410 run 0 "$tmp/o" "$tmp/e" info
check "info: Cortex-A78's table is Arm's data" has "$tmp/o" "^Event table:  arm64/arm/cortex-a78 (built-in)"
check "info: Cortex-A78's vendor data named" has "$tmp/o" "^Vendor data:  Arm's published core events of this core"

# tables: native names of a chosen CPU, and the standard name for the same event
PMU_CPUID=GenuineIntel-6-55-4 run 0 "$tmp/o" "$tmp/e" resolve MEM_LOAD_RETIRED.L3_MISS INST.LOAD.DSRC.L3.MISS.RET --json
check "skylakex L3_MISS and its standard name" json "$tmp/o" "d[0]['config']=='0x20d1' and d[0]['source']=='table' and 'skylakex' in d[0]['origin'] and d[1]['config']==d[0]['config'] and d[1]['origin'].startswith('standard INST.LOAD.DSRC.L3.MISS.RET')"
PMU_CPUID=GenuineIntel-6-3C-3 run 0 "$tmp/o" "$tmp/e" resolve MEM_LOAD_UOPS_RETIRED.L3_MISS INST.LOAD.DSRC.L3.MISS.RET --json
check "haswell L3_MISS and its standard name" json "$tmp/o" "d[0]['config']=='0x20d1' and 'haswell' in d[0]['origin'] and d[1]['config']=='0x20d1' and 'approximate' in d[1]['flags'] and d[1]['approx_note']"
# approximation belongs to a standard name a native event stands for, not to the native event: on Neoverse
# N2 L1D_CACHE_REFILL (which stands for CACHE.L1D.RD.MISS only nearly) is itself exact
PMU_CPUID=0x00000000410fd490 run 0 "$tmp/o" "$tmp/e" resolve --json L1D_CACHE_REFILL_RD CACHE.L1D.RD.MISS
check "N2: the native event exact, the standard name it serves approximate" json "$tmp/o" "d[0]['config'] == d[1]['config'] and d[0]['flags'] == [] and d[0]['approx_note'] == '' and 'approximate' in d[1]['flags'] and d[1]['approx_note']"
PMU_CPUID=0x00000000410fd490 run 0 "$tmp/o" "$tmp/e" list --json --details CACHE.L1D.RD.MISS L1D_CACHE_REFILL_RD
check "list --details: the standard name's approximation said, the native event's null" json "$tmp/o" "(lambda n: n['L1D_CACHE_REFILL_RD'] is None and bool(n['CACHE.L1D.RD.MISS']))({e['name']: e['approx_note'] for e in d})"
# ApproxNames: one native event, one standard name exact and one approximate (a table written here)
mkdir -p "$tmp/an"
echo '[{"EventName": "MY_LOADS", "EventCode": "0x6", "StdNames": "INST.LOAD.RET,INST.LDST.RET", "ApproxNames": "INST.LDST.RET", "ApproxNote": "counts loads only, not stores"}]' > "$tmp/an/t.json"
PMU_CPUID=0x5b7-0x0-0x0 PMU_EVENTS_PATH=$tmp/an run 0 "$tmp/o" "$tmp/e" resolve --json MY_LOADS INST.LOAD.RET INST.LDST.RET
check "ApproxNames: INST.LOAD.RET exact, INST.LDST.RET approximate with the note, MY_LOADS exact" json "$tmp/o" "[e['config'] for e in d] == ['0x6'] * 3 and d[0]['flags'] == [] and d[1]['flags'] == [] and d[2]['flags'] == ['approximate'] and d[2]['approx_note'] == 'counts loads only, not stores'"
echo '[{"EventName": "MY_LOADS", "EventCode": "0x6", "StdNames": "INST.LOAD.RET", "ApproxNames": "INST.RET"}]' > "$tmp/an/t.json"
PMU_CPUID=0x5b7-0x0-0x0 run 1 "$tmp/o" "$tmp/e" check-tables "$tmp/an"
check "check-tables: ApproxNames outside StdNames and without ApproxNote are problems" grep -q "ApproxNames lists a name that StdNames does not" "$tmp/o"
check "... and the missing ApproxNote" grep -q "ApproxNames without an ApproxNote" "$tmp/o"
PMU_CPUID=GenuineIntel-6-3C-3 run 0 "$tmp/o" "$tmp/e" resolve MEM_LOAD_UOPS_RETIRED.HIT_LFB
check "errata shown" has "$tmp/o" "note: Errata HSD29"
for id in GenuineIntel-6-55-4 AuthenticAMD-25-1-1 0x00000000413fd0c1 0x00000000000f0510 0x489-0x8000000000000007-0x4210427 0x0-0x70216-0x70216; do
	PMU_CPUID=$id run 0 "$tmp/o" "$tmp/e" resolve INST.RET GEN.CYCLES INST.MISPRED.RET CACHE.L1D.RD.MISS --json
	check "standard names on $id" json "$tmp/o" "len(d)==4 and all(e['origin'].startswith('standard') for e in d)"
done
PMU_CPUID=0x00000000413fd0c1 run 0 "$tmp/o" "$tmp/e" resolve INST.RET --json
check "N1 native INST_RETIRED" json "$tmp/o" "d[0]['config']=='0x8' and 'neoverse-n1' in d[0]['origin']"
# "Countable here" names what this machine counts: on a fixture with a core PMU the events of the
# table's subtree, with none (this machine, if it has no PMU) nothing; every name listed must count here
PMU_SYSFS_ROOT=$SRC/tests/fixtures/intel-icx/sys PMU_CPUID=GenuineIntel-6-55-4 run 1 "$tmp/o" "$tmp/e" resolve INST.BRJMP.IND.CALL.RET
check "uncountable standard name explained" has "$tmp/e" "cannot count it.*Countable here: INST.BRJMP"
PMU_CPUID=GenuineIntel-6-55-4 run 1 "$tmp/o" "$tmp/e" resolve INST.BRJMP.IND.CALL.RET
[ $has_pmu = 1 ] || check "no PMU: nothing is countable here" has "$tmp/e" "Countable here: (none)"
for ev in $(sed -n 's/.*Countable here: //p' "$tmp/e" | tr -d ',' | grep -v '(none)'); do
	PMU_CPUID=GenuineIntel-6-55-4 $WRAP "$PMU" stat -e "$ev" -- true > "$tmp/o2" 2>&1
	check "'Countable here' names $ev, which counts here" test $? = 0 -a -z "$(grep 'not supported' "$tmp/o2")"
done
# an uncountable standard name next to 8 long countable ones (software: countable everywhere):
# the list of what is countable is cut short, and says so, instead of overflowing its buffer
mkdir -p "$tmp/longstd/standard"
printf 'CPUID,Version,Directory,Type\n' > "$tmp/longstd/mapfile.csv"
$PY - "$tmp/longstd/standard/long.json" <<'PYEOF'
import json, sys
e = [{"EventName": "LONGSTD.%s.E%d" % ("A" * 110, i), "BriefDescription": "x", "Generic": "task-clock"} for i in range(8)]
json.dump(e + [{"EventName": "LONGSTD.X", "BriefDescription": "uncountable"}], open(sys.argv[1], "w"))
PYEOF
PMU_EVENTS_PATH=$tmp/longstd run 1 "$tmp/o" "$tmp/e" resolve LONGSTD.X
check "uncountable standard name among long countable ones: the list is cut and says so" has "$tmp/e" "Countable here: LONGSTD.A*.E0, LONGSTD.A*.E1, .*, \.\.\.$"
check "... one line" test "$(wc -l < "$tmp/e")" = 1
run 0 "$tmp/o" "$tmp/e" resolve retired.inst
check "alias from the other document, any case" has "$tmp/o" "standard INST.RET"
run 0 "$tmp/o" "$tmp/e" list TOPDOWN
check "list shows the TOPDOWN hierarchy" has "$tmp/o" "^ *TOPDOWN.BACKEND_BOUND.MEMORY.SLOTS"
run 0 "$tmp/o" "$tmp/e" check-tables "$SRC/events"
check "shipped tables clean" has "$tmp/o" "no problems found"
# a table's bytes are shown, not acted on (issue 40 item 12): an event name with ESC and a newline is one
# problem line, written \x1b and \n (the expected text written here by hand); notes (the standard
# POWER.* metrics' power PMU, absent here) are other lines
mkdir -p "$tmp/esc-table"
printf '[{"EventName": "EV\\u001b[31mX\\nY", "EventCode": "0x1", "BriefDescription": "x"}]' > "$tmp/esc-table/a.json"
run 1 "$tmp/o" "$tmp/e" check-tables "$tmp/esc-table"
check "check-tables: a name's ESC and newline written as \\x1b and \\n, one line" \
	test "$(grep -v ': note: ' "$tmp/o" | grep -c .)/$(grep -c "$(printf '\033')" "$tmp/o")/$(grep -c 'EV\\x1b\[31mX\\nY: an event name' "$tmp/o")" = 2/0/1
# a group too large for one read (issue 40 item 12): the kernel itself is the oracle of the limit (1,022
# events of 16 bytes after a 24-byte header fit its 16 KiB; 1,023 do not), and the message said "kernel
# older than the headers", sending the user to upgrade a kernel that is not at fault
group() { python3 -c "import sys; print('{' + ','.join(['page-faults'] * int(sys.argv[1])) + '}')" "$1"; }
run 0 "$tmp/o" "$tmp/e" stat -x, -e "$(group 1022)" -- true
check "a group of 1,022 page-faults opens (1,022 rows)" test "$(grep -c ',page-faults,' "$tmp/e")" = 1022
run 1 "$tmp/o" "$tmp/e" stat -x, -e "$(group 1023)" -- true
check "a group of 1,023: its size named, the limit (1022), the fix" has "$tmp/e" "group of 1023 events: the kernel reads a group whole, in at most 16 KiB, which holds 1022 events.*split the {...} group"
check "... not blamed on the kernel's age" not_has "$tmp/e" "kernel older"
run 1 "$tmp/o" "$tmp/e" check-tables "$SRC/tests/tables/broken/metric-cycle"
check "check-tables reports a cycle" has "$tmp/o" "cycle: m1 -> m2 -> m1"
# a comma before ']' or '}' is not JSON (RFC 8259; Python's json, which perf's jevents.py and gen-tables.py
# use, refuses it) though json-c's default parse takes it: the validator names the place
mkdir -p "$tmp/lax"
printf '[{"EventName": "A", "EventCode": "0x1", "UMask": "0x1", "BriefDescription": "x"},\n {"EventName": "B", "EventCode": "0x2", "BriefDescription": "y",}]\n' > "$tmp/lax/t.json"
$PY -c "import json, sys; json.load(open(sys.argv[1]))" "$tmp/lax/t.json" 2>/dev/null && { echo "FAIL: the lax table is valid JSON after all"; fails=$((fails + 1)); }
run 1 "$tmp/o" "$tmp/e" check-tables "$tmp/lax"
check "check-tables: a trailing comma is not strict JSON, with its line" has "$tmp/o" "lax/t.json: not strict JSON at line 2"
# PfmName "-": libpfm4 4.13 encodes Ice Lake's TOPDOWN:BACKEND_BOUND_SLOTS as event 0x00, umask 0x02
# (Intel's and perf's tables: 0xa4, 0x02). Without the declaration the difference is a problem; with it,
# not; declared on an encoding libpfm4 agrees with, the declaration is the problem
if grep -q "HAVE_LIBPFM 1" "$BUILD/config.h" 2>/dev/null; then
	mkdir -p "$tmp/pfmdash/x86/icelake"
	printf 'CPUID,Version,Directory,Type\nGenuineIntel-6-7[DE],v1,x86/icelake,core\n' > "$tmp/pfmdash/mapfile.csv"
	for case in "0xa4||1|differs from libpfm4's icl::TOPDOWN:BACKEND_BOUND_SLOTS: config=0x200" \
		    "0xa4|-|0|no problems found" "0x00|-|1|libpfm4 encodes this event otherwise, but its encoding now equals"; do
		IFS='|' read -r code pfm want text <<< "$case"
		printf '[{"EventName": "TOPDOWN.BACKEND_BOUND_SLOTS", "EventCode": "%s", "UMask": "0x2", "BriefDescription": "x"%s}]\n' \
			"$code" "${pfm:+, \"PfmName\": \"$pfm\"}" > "$tmp/pfmdash/x86/icelake/t.json"
		run "$want" "$tmp/o" "$tmp/e" check-tables "$tmp/pfmdash"
		check "check-tables, libpfm4's wrong TOPDOWN:BACKEND_BOUND_SLOTS: code $code, PfmName '$pfm'" grep -qF "$text" "$tmp/o"
	done
	# AMD Zen 3 is compared with libpfm4 too, the event's high bits (config 32-35) included: the PPR's
	# PMCx1C7 (perf's ex_ret_msprd_brnch_instr_dir_msmtch, libpfm4's
	# RETIRED_BRANCH_MISPREDICTED_DIRECTION_MISMATCH) written without its high bit is a difference
	mkdir -p "$tmp/pfmamd/x86/amdzen3"
	printf 'CPUID,Version,Directory,Type
AuthenticAMD-25-[0-4][[:xdigit:]],v1,x86/amdzen3,core
' > "$tmp/pfmamd/mapfile.csv"
	for case in "0x1c7|0|no problems found" "0xc7|1|differs from libpfm4's amd64_fam19h_zen3::RETIRED_BRANCH_MISPREDICTED_DIRECTION_MISMATCH: config=0x1000000c7"; do
		IFS='|' read -r code want text <<< "$case"
		printf '[{"EventName": "ex_ret_msprd_brnch_instr_dir_msmtch", "EventCode": "%s", "BriefDescription": "x", "PfmName": "RETIRED_BRANCH_MISPREDICTED_DIRECTION_MISMATCH"}]\n' \
			"$code" > "$tmp/pfmamd/x86/amdzen3/t.json"
		run "$want" "$tmp/o" "$tmp/e" check-tables "$tmp/pfmamd"
		check "check-tables, Zen 3 compared with libpfm4: code $code" grep -qF "$text" "$tmp/o"
	done
	# ... and a name libpmu encodes through libpfm4 is refused where the model's built-in table declares
	# libpfm4's encoding wrong (else 0x200 would count nothing Intel defines, and spr::TOPDOWN:BAD_SPEC_SLOTS,
	# 0x400, would count the SLOTS fixed counter as bad speculation), also for another model than PMU_CPUID's
	# and with modifiers; libpfm4's right TOPDOWN:SLOTS (event 0, umask 0x04: perf's icelake TOPDOWN.SLOTS,
	# the kernel's fixed counter 3) still resolves
	fx=$SRC/tests/fixtures/intel-icx
	for n in icl::TOPDOWN:BACKEND_BOUND_SLOTS TOPDOWN:BACKEND_BOUND_SLOTS:u spr::TOPDOWN:BAD_SPEC_SLOTS; do
		PMU_SYSFS_ROOT=$fx/sys PMU_CPUID=GenuineIntel-6-7E run 1 "$tmp/o" "$tmp/e" resolve "$n"
		check "resolve $n: libpfm4's declared-wrong encoding refused, the table's name given" \
			grep -qE "libpfm4 encodes (icl|spr)::TOPDOWN:(BACKEND_BOUND|BAD_SPEC)_SLOTS as config 0x[24]00, and .*declares that encoding wrong.*Count it as 'TOPDOWN\.(BACKEND_BOUND|BAD_SPEC)_SLOTS'" "$tmp/e"
	done
	PMU_SYSFS_ROOT=$fx/sys PMU_CPUID=GenuineIntel-6-7E run 0 "$tmp/o" "$tmp/e" resolve icl::TOPDOWN:SLOTS TOPDOWN.BACKEND_BOUND_SLOTS
	check "resolve icl::TOPDOWN:SLOTS through libpfm4 (config 0x400), TOPDOWN.BACKEND_BOUND_SLOTS from the table (0xa4 | 0x02 << 8)" \
		$PY -c "import sys; t = open(sys.argv[1]).read(); sys.exit(0 if 'config 0x400' in t.split('TOPDOWN.BACKEND_BOUND_SLOTS')[0] and 'config 0x2a4' in t.split('TOPDOWN.BACKEND_BOUND_SLOTS')[1] else 1)" "$tmp/o"
	# A libpfm4 name whose encoding differs from the CPU table's event of the same name is refused,
	# naming the table's event: a tree of x86 alone as perf's arch/x86 is (directory broadwellx, libpfm4's
	# bdw_ep) with Intel's L2_RQSTS.RFO_HIT (perfmon BDX: event 0x24, umask 0xC2; libpfm4 4.13: umask
	# 0x42) and L2_RQSTS.RFO_MISS (umask 0x22 in both). check-tables reports the same one.
	mkdir -p "$tmp/pfmbdx/broadwellx"
	printf 'CPUID,Version,Directory,Type\nGenuineIntel-6-4F,v1,broadwellx,core\n' > "$tmp/pfmbdx/mapfile.csv"
	printf '[{"EventName": "L2_RQSTS.RFO_HIT", "EventCode": "0x24", "UMask": "0xc2", "BriefDescription": "x"},
 {"EventName": "L2_RQSTS.RFO_MISS", "EventCode": "0x24", "UMask": "0x22", "BriefDescription": "x"}]\n' \
		> "$tmp/pfmbdx/broadwellx/cache.json"
	for n in L2_RQSTS:RFO_HIT bdw_ep::L2_RQSTS:RFO_HIT:u L2_RQSTS:RFO_HIT:c=1; do
		PMU_CPUID=GenuineIntel-6-4F-1 PMU_EVENTS_PATH=$tmp/pfmbdx run 1 "$tmp/o" "$tmp/e" resolve "$n"
		check "resolve $n: libpfm4's 0x4224 refused against the table's L2_RQSTS.RFO_HIT 0xc224" \
			grep -qF "libpfm4 encodes bdw_ep::L2_RQSTS:RFO_HIT as config 0x4224, and this CPU's table (broadwellx, $tmp/pfmbdx) encodes L2_RQSTS.RFO_HIT as 0xc224: they differ" "$tmp/e"
		check "... and says what to count instead" grep -qF "Count 'L2_RQSTS.RFO_HIT' for the table's encoding" "$tmp/e"
	done
	PMU_CPUID=GenuineIntel-6-4F-1 PMU_EVENTS_PATH=$tmp/pfmbdx run 0 "$tmp/o" "$tmp/e" resolve --json L2_RQSTS:RFO_MISS L2_RQSTS.RFO_HIT
	check "resolve L2_RQSTS:RFO_MISS through libpfm4 (0x2224, as the table), L2_RQSTS.RFO_HIT from the table (0xc224)" \
		json "$tmp/o" "d[0]['config'] == '0x2224' and d[0]['source'] == 'libpfm4' and d[1]['config'] == '0xc224' and d[1]['source'] == 'table'"
	PMU_CPUID=GenuineIntel-6-55-4 PMU_EVENTS_PATH=$tmp/pfmbdx run 0 "$tmp/o" "$tmp/e" resolve bdw_ep::L2_RQSTS:RFO_HIT
	check "resolve bdw_ep::L2_RQSTS:RFO_HIT on Skylake-X, whose table is not Broadwell-X's: libpfm4's" has "$tmp/o" "config 0x4224"
	run 1 "$tmp/o" "$tmp/e" check-tables "$tmp/pfmbdx"
	check "check-tables of the broadwellx tree: the same difference" \
		grep -qF "L2_RQSTS.RFO_HIT: encoding config=0xc224 config1=0x0 differs from libpfm4's bdw_ep::L2_RQSTS:RFO_HIT: config=0x4224" "$tmp/o"
	check "... and only that one" test "$(grep -c differs "$tmp/o")" = 1
else
	echo "note: built without libpfm4: PfmName \"-\" not checked (check-tables compares nothing with libpfm4)"
fi

# list
run 0 "$tmp/o" "$tmp/e" list task
check "list prefix" has "$tmp/o" "task-clock"
# the text list without arguments: what this CPU means. The Ice Lake-X tree's: a standard name its table
# implements (INST.RET), not one only RISC-V cores have (VECTOR.* of the standard catalogue: checked
# against pmu resolve, which refuses it here); the number left out said; --all lists it
icx=$SRC/tests/fixtures/intel-icx
PMU_SYSFS_ROOT=$icx/sys PMU_PROCFS_ROOT=$icx/proc run 0 "$tmp/o" "$tmp/e" list
PMU_SYSFS_ROOT=$icx/sys PMU_PROCFS_ROOT=$icx/proc run 0 "$tmp/all.txt" "$tmp/e" list --all
left=$(awk '$2 == "standard" {print $1}' "$tmp/all.txt" | while read -r n; do grep -q "^  *$n  " "$tmp/o" || echo "$n"; done)
check "list: some standard names left out on Ice Lake-X" test -n "$left"
check "list: INST.RET kept on Ice Lake-X" grep -q "^ *INST.RET  " "$tmp/o"
check "list: each left out is refused by pmu resolve there (no event of this CPU implements it)" sh -c "for n in \$(echo '$left' | head -40); do PMU_SYSFS_ROOT=$icx/sys PMU_PROCFS_ROOT=$icx/proc $PMU resolve \$n >/dev/null 2>&1 && exit 1; done; exit 0"
check "list: how many were left out, and how to see them" has "$tmp/o" "standard names (PAPI presets included) and [0-9]* metrics that no event of this CPU implements are not listed: pmu list --all"
# PAPI's presets: a kind of their own, 'pmu list papi' lists them all and nothing else; those left out of the
# plain list are not countable there (a plain one refused by pmu resolve, a derived one a formula whose
# events are not all there)
PMU_SYSFS_ROOT=$icx/sys PMU_PROCFS_ROOT=$icx/proc run 0 "$tmp/papi.txt" "$tmp/e" list papi
check "list papi: PAPI_TOT_INS, kind papi" grep -q "^  PAPI_TOT_INS  *papi " "$tmp/papi.txt"
check "list papi: every line a preset of kind papi" sh -c "tail -n +2 '$tmp/papi.txt' | awk 'NF && !(\$1 ~ /^PAPI_/ && \$2 == \"papi\") {exit 1}'"
check "list papi: as many as --all has" test "$(grep -c '^  PAPI_' "$tmp/papi.txt")" = "$(awk '$2 == "papi"' "$tmp/all.txt" | wc -l)"
papi_left=$(awk '$2 == "papi" {print $1}' "$tmp/all.txt" | while read -r n; do grep -q "^  *$n  " "$tmp/o" || echo "$n"; done)
check "list: some PAPI presets left out on Ice Lake-X, each not countable there" sh -c "test -n '$papi_left' && for n in \$(echo '$papi_left' | head -20); do PMU_SYSFS_ROOT=$icx/sys PMU_PROCFS_ROOT=$icx/proc $PMU resolve \$n >/dev/null 2>&1 && exit 1; done; exit 0"
check "list --all: nothing left out" not_has "$tmp/all.txt" "are not listed"
run 0 "$tmp/o" "$tmp/e" list --json
check "list --json" json "$tmp/o" "any(e['name']=='page-faults' for e in d)"
# usable means pmu stat counts it here (tests/test-usable.c opens the whole list)
for ev in INST.RET cycles task-clock; do
	$WRAP "$PMU" stat -e $ev -- true > "$tmp/o2" 2>&1
	grep -q "not supported" "$tmp/o2"; counted=$?
	check "list --json: '$ev' usable exactly when pmu stat counts it" json "$tmp/o" "[e['usable'] for e in d if e['name']=='$ev']==[$counted==1]"
done
run 1 "$tmp/o" "$tmp/e" list zzznothing
# list as perf list takes its arguments: a glob, words for kinds, --details; the oracles: Python's
# fnmatch over the whole list, perf list's own names, the kernel ABI's generic names, the table files
run 0 "$tmp/all.json" "$tmp/e" list --json
run 0 "$tmp/o" "$tmp/e" list --json 'task*' '*-faults'
check "list 'task*' '*-faults': the names of the whole list that match either glob (fnmatch)" $PY - "$tmp/all.json" "$tmp/o" <<'PYEOF'
import fnmatch, json, sys
every = [e['name'] for e in json.load(open(sys.argv[1]))]
got = [e['name'] for e in json.load(open(sys.argv[2]))]
want = [n for n in every if any(fnmatch.fnmatch(n.lower(), p) for p in ('task*', '*-faults'))]
print("glob:", got)
sys.exit(0 if got == want and 'task-clock' in got and 'page-faults' in got else 1)
PYEOF
run 0 "$tmp/o" "$tmp/e" list --json sw
if command -v perf > /dev/null && perf list sw > "$tmp/perf-sw" 2>/dev/null && [ -s "$tmp/perf-sw" ]; then
	check "list sw: perf list sw's software events (perf 6.1: bpf-output is perf's alone)" $PY - "$tmp/perf-sw" "$tmp/o" <<'PYEOF'
import json, re, sys
perf = set()
for l in open(sys.argv[1]):
    if '[Software event]' in l:
        perf.update(n.strip() for n in l.split('[')[0].split(' OR '))
ours = {e['name'] for e in json.load(open(sys.argv[2]))}
print("perf only:", sorted(perf - ours), "pmu only:", sorted(ours - perf))
sys.exit(0 if ours <= perf and perf - ours <= {'bpf-output'} else 1)
PYEOF
fi
# the tool events, as perf list lists them ("[Tool event]"; they were missing), kind tool; --no-desc: names alone
run 0 "$tmp/o" "$tmp/e" list --json tool
if command -v perf > /dev/null && perf list > "$tmp/perf-all" 2>/dev/null && grep -q '\[Tool event\]' "$tmp/perf-all"; then
	check "list tool: perf list's tool events" $PY - "$tmp/perf-all" "$tmp/o" <<'PYEOF'
import json, sys
perf = {l.split('[')[0].strip() for l in open(sys.argv[1]) if '[Tool event]' in l}
ours = {e['name'] for e in json.load(open(sys.argv[2])) if e['kind'] == 'tool'}
print("perf:", sorted(perf), "pmu:", sorted(ours))
sys.exit(0 if ours == perf and ours else 1)
PYEOF
fi
run 0 "$tmp/o" "$tmp/e" list --no-desc tool
check "list --no-desc: the names alone" test "$(cat "$tmp/o")" = "$(printf 'duration_time\nuser_time\nsystem_time')"
# --long-desc (perf list's): a table entry's PublicDescription in place of its BriefDescription, else the
# brief one; --json has long_desc where they differ. The oracle: the table files of the CPU PMU_CPUID
# names (Skylake-X), read with Python's json: two events and a metric with a longer text, a metric without
skx=$SRC/events/x86/skylakex
skx_names=$($PY - "$skx" <<'PYEOF'
import json, os, sys
t = {}
for f in ("cache.json", "pipeline.json", "metrics.json"):
    for e in json.load(open(os.path.join(sys.argv[1], f))):
        t[e.get("EventName") or e.get("MetricName")] = e
longer = [n for n, e in t.items() if e.get("PublicDescription", e["BriefDescription"]) != e["BriefDescription"]]
print(" ".join(longer[:2] + [n for n in longer if "MetricName" in t[n]][:1] +
               [n for n, e in t.items() if "PublicDescription" not in e][:1]))
PYEOF
)
PMU_CPUID=GenuineIntel-6-55-4 run 0 "$tmp/ld.txt" "$tmp/e" list --long-desc $skx_names
PMU_CPUID=GenuineIntel-6-55-4 run 0 "$tmp/d.txt" "$tmp/e" list $skx_names
PMU_CPUID=GenuineIntel-6-55-4 run 0 "$tmp/ld.json" "$tmp/e" list --json $skx_names
check "list --long-desc ($skx_names): the table files' PublicDescription, else BriefDescription; without it the brief" \
	$PY - "$skx" "$tmp/ld.txt" "$tmp/d.txt" "$tmp/ld.json" $skx_names <<'PYEOF'
import json, os, re, sys
d, ld_txt, d_txt, ld_json, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
t = {}
for f in ("cache.json", "pipeline.json", "metrics.json"):
    for e in json.load(open(os.path.join(d, f))):
        t[e.get("EventName") or e.get("MetricName")] = e
def rows(path):
    out = {}
    for l in open(path):
        m = re.match(r'^  (\S+) +(\S+) +(.*?)( \[not countable here\])?$', l.rstrip('\n'))
        if m:
            out[m.group(1)] = m.group(3)
    return out
lt, dt, js = rows(ld_txt), rows(d_txt), {e["name"]: e for e in json.load(open(ld_json))}
ok = len(names) == 4
for n in names:
    brief, pub = t[n]["BriefDescription"], t[n].get("PublicDescription")
    want_long = pub if pub else brief
    got = (lt.get(n), dt.get(n), js.get(n, {}).get("long_desc"))
    print(n, "long:", repr(got[0])[:70], "brief:", repr(got[1])[:50])
    ok = ok and got[0] == want_long and got[1] == brief and got[2] == (pub if pub and pub != brief else None)
sys.exit(0 if ok else 1)
PYEOF
run 0 "$tmp/o" "$tmp/e" list --json hw
check "list hw: the kernel's generic hardware events (enum perf_hw_id, perf's names), nothing else" $PY - "$tmp/o" <<'PYEOF'
import json, sys
abi = {'cpu-cycles', 'cycles', 'instructions', 'cache-references', 'cache-misses', 'branch-instructions', 'branches',
       'branch-misses', 'bus-cycles', 'stalled-cycles-frontend', 'idle-cycles-frontend', 'stalled-cycles-backend',
       'idle-cycles-backend', 'ref-cycles'}
ours = {e['name'] for e in json.load(open(sys.argv[1]))}
print("pmu list hw:", sorted(ours))
sys.exit(0 if ours and ours <= abi and {'cycles', 'instructions', 'branch-misses'} <= ours else 1)
PYEOF
run 0 "$tmp/o" "$tmp/e" list --json cache
check "list cache: generic cache events only (CACHE-OP or CACHE-OP-misses, perf's naming)" $PY - "$tmp/o" <<'PYEOF'
import json, re, sys
ours = [e['name'] for e in json.load(open(sys.argv[1]))]
pat = re.compile(r'^(L1-dcache|L1-icache|LLC|dTLB|iTLB|branch|node)-(loads|stores|prefetches|load-misses|store-misses|prefetch-misses)$')
print(len(ours), [n for n in ours if not pat.match(n)])
sys.exit(0 if ours and all(pat.match(n) for n in ours) and 'L1-dcache-load-misses' in ours else 1)
PYEOF
run 0 "$tmp/o" "$tmp/e" list --json metric
check "list metric: the metrics of the whole list, nothing else" $PY - "$tmp/all.json" "$tmp/o" <<'PYEOF'
import json, sys
every = [e['name'] for e in json.load(open(sys.argv[1])) if e['kind'] == 'metric']
got = [e['name'] for e in json.load(open(sys.argv[2]))]
sys.exit(0 if got == every and got else 1)
PYEOF
# metric groups and --details against the table files of the CPU (icelakex: GenuineIntel-6-6A)
PMU_CPUID=GenuineIntel-6-6A-6 run 0 "$tmp/o" "$tmp/e" list --json metricgroup
PMU_CPUID=GenuineIntel-6-6A-6 run 0 "$tmp/d" "$tmp/e" list --json --details metric
check "list metricgroup and --details: groups, formulas, units, thresholds as the table files have them" $PY - "$tmp/o" "$tmp/d" "$SRC/events/x86/icelakex/metrics.json" "$SRC/events/x86/icelakex/topdown.json" "$SRC/events/x86/intel/icelakex/metrics.json" "$SRC/events/standard/metrics.json" <<'PYEOF'
import json, sys
groups, metrics = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
want_groups, want = {}, {}
for f in sys.argv[3:]:
    for m in json.load(open(f)):
        # the mapfile row's files in order (libpmu's own, then Intel's): the first to define a name wins
        if 'MetricName' not in m or m['MetricName'] in want:
            continue
        want[m['MetricName']] = m
        for g in filter(None, m.get('MetricGroup', '').split(';')):
            want_groups.setdefault(g, []).append(m['MetricName'])
got_groups = {g['group']: g['metrics'] for g in groups}
ok = got_groups == want_groups
for e in metrics:
    w = want.get(e['name'])
    ok = ok and w is not None and e['expr'] == w['MetricExpr'] and e['scale_unit'] == w.get('ScaleUnit', '') \
        and e['threshold'] == w.get('MetricThreshold', '') and e['groups'] == list(filter(None, w.get('MetricGroup', '').split(';')))
print("groups:", sorted(got_groups), "metrics with details:", len(metrics), "in the files:", len(want))
sys.exit(0 if ok and len(metrics) == len(want) else 1)
PYEOF
# -M GROUP: a metric group is its metrics (the report's CPU, sapphirerapids: its files are the oracle)
# (exit 1: the file lacks the slots the TMA.* metrics of the standard table need, said as n/a)
run 1 "$tmp/o" "$tmp/e" report -M TopdownL1 "$SRC/tests/reports/spr-topdown.json"
check "-M TopdownL1: each metric of the group, as the table files list it" $PY - "$tmp/o" "$SRC/events/x86/sapphirerapids/metrics.json" "$SRC/events/standard/metrics.json" <<'PYEOF'
import json, re, sys
want = [m['MetricName'] for f in sys.argv[2:] for m in json.load(open(f)) if 'TopdownL1' in m.get('MetricGroup', '').split(';')]
lines = open(sys.argv[1]).read().split(' Metrics:\n')[1].split('\n\n')[0].splitlines()
got = [l.split()[0] for l in lines]
print("want", want, "got", got)
sys.exit(0 if got == want and want else 1)
PYEOF
check "-M TopdownL1: tma_backend_bound 3000/10000 = 30 %" has "$tmp/o" "tma_backend_bound  *30.000 %"
for c in "stat -M nonsense -- true" "report -M nonsense $SRC/tests/reports/spr-topdown.json"; do
	run 1 "$tmp/o" "$tmp/e" $c
	check "pmu $c: an unknown metric, said so (not an unknown event)" has "$tmp/e" "^pmu ${c%% *}: unknown metric or metric group 'nonsense'"
done
# libpfm4's events of this CPU (where libpfm4 finds a PMU here), with their provenance
run 0 "$tmp/o" "$tmp/e" list --json --details
check "list: libpfm4's events 'pmu::EVENT', kind and source libpfm4; those of the core PMU encoded by libpfm4" $PY - "$tmp/o" <<'PYEOF'
import json, sys
pfm = [e for e in json.load(open(sys.argv[1])) if e['kind'] == 'libpfm4']
enc = [e for e in pfm if 'origin' in e]
print(len(pfm), "libpfm4 events,", len(enc), "encoded here, e.g.", [e['name'] for e in enc[:3]])
sys.exit(0 if all('::' in e['name'] and e['source'] == 'libpfm4' for e in pfm) and all(e['origin'].startswith('libpfm4') for e in enc) else 1)
PYEOF
# without libpfm4 the rest is listed, and a warning says why libpfm4's names are not
PMU_LIBPFM=/nonexistent/libpfm.so.4 run 0 "$tmp/o" "$tmp/e" list task-clock
check "list, libpfm4 missing: the other names listed" has "$tmp/o" "^  task-clock "
if grep -q "HAVE_LIBPFM 1" "$BUILD/config.h" 2>/dev/null; then
	check "list, libpfm4 missing: warned, with the file and the fix" has "$tmp/e" "^pmu: warning: libpfm4's events cannot be listed: .*/nonexistent/libpfm.so.4.*install Debian's libpfm4 package"
else
	check "list, a build without libpfm4: warned, saying so" has "$tmp/e" "^pmu: warning: libpfm4's events cannot be listed: this libpmu was built without libpfm4"
fi
if [ -r /sys/kernel/tracing/events ] && command -v perf > /dev/null && perf list tracepoint > "$tmp/perf-tp" 2>/dev/null && [ -s "$tmp/perf-tp" ]; then
	run 0 "$tmp/o" "$tmp/e" list --json tracepoint
	check "list tracepoint: perf list tracepoint's names" $PY - "$tmp/perf-tp" "$tmp/o" <<'PYEOF'
import json, sys
perf = {l.split()[0] for l in open(sys.argv[1]) if '[Tracepoint event]' in l}
ours = {e['name'] for e in json.load(open(sys.argv[2]))}
print(len(perf), "perf,", len(ours), "pmu; perf only:", sorted(perf - ours)[:5], "pmu only:", sorted(ours - perf)[:5])
sys.exit(0 if ours == perf else 1)
PYEOF
	run 0 "$tmp/o" "$tmp/e" list --json 'sched:sched_switch'
	check "list sched:sched_switch: that tracepoint" json "$tmp/o" "[e['name'] for e in d] == ['sched:sched_switch']"
else
	echo "note: tracefs is not readable here (or perf lists no tracepoint): pmu list tracepoint not compared"
fi

# stat
# the results go to stderr, as perf writes them: stdout is the command's alone
run 0 "$tmp/o" "$tmp/e" stat -- echo hello
check "stat prints a table (on stderr)" has "$tmp/e" "Performance counter stats for 'echo hello'"
check "stat counts task-clock" has "$tmp/e" "task-clock"
check "stat prints elapsed" has "$tmp/e" "seconds time elapsed"
check "stat prints user and sys time" grep -q "seconds user" "$tmp/e"
check "stat: stdout holds the command's output only" test "$(cat "$tmp/o")" = hello
run 3 "$tmp/o" "$tmp/e" stat -- sh -c 'exit 3'
run 127 "$tmp/o" "$tmp/e" stat -- /nonexistent/cmd
check "exec failure explained" has "$tmp/e" "cannot run '/nonexistent/cmd'"
run 2 "$tmp/o" "$tmp/e" stat -e nosuch -- true
check "stat unknown event" has "$tmp/e" "unknown event 'nosuch'"
run 2 "$tmp/o" "$tmp/e" stat -r 2
check "stat -r 2 without a command (every CPU once, as perf): a usage error naming a command" has "$tmp/e" "name one: pmu stat"
run 0 "$tmp/o" "$tmp/e" stat -e task-clock,page-faults --json -o "$tmp/run.json" -- "$BUILD/examples/workload" 8
check "stat --json schema" json "$tmp/run.json" "d['schema']=='libpmu-stat/1' and d['exit_status']==0 and d['events'][0]['name']=='task-clock' and d['events'][0]['value']>0 and d['events'][1]['value']>=2048 and d['events'][0]['confidence']==1.0"
# tool events in metrics are seconds, as perf's metrics take them (Intel's DURATIONTIMEINMILLISECONDS is
# duration_time * 1000): with a duration_time row the metric is that row's ns / 1e9, without one the
# elapsed time stands for it (the old code gave the metric the row's ns: 1e9 times too much)
run 0 "$tmp/o" "$tmp/e" stat -e duration_time,task-clock -M 'duration_time * 1000' --json -o "$tmp/dt.json" -- sleep 0.1
check "duration_time in a metric is the row's ns / 1e9" json "$tmp/dt.json" "abs(d['metrics'][0]['value'] - d['events'][0]['value'] / 1e6) < 1e-6 and 100 <= d['metrics'][0]['value'] < 100 + d['elapsed_ns'] / 1e6"
run 0 "$tmp/o" "$tmp/e" report -M 'duration_time * 1000' "$tmp/dt.json"
$PY -c "import json, sys; d = json.load(open(sys.argv[1])); print('%.3f' % (d['events'][0]['value'] / 1e6))" "$tmp/dt.json" > "$tmp/dt.want"
check "report: duration_time in a metric is the file's row / 1e9 ($(cat "$tmp/dt.want") ms)" grep -Eq "duration_time \* 1000 +$(sed 's/\./\\./' "$tmp/dt.want")" "$tmp/o"
run 0 "$tmp/o" "$tmp/e" stat -e task-clock -M 'duration_time * 1000' --json -o "$tmp/dt.json" -- sleep 0.1
check "duration_time in a metric without the row: the elapsed ms" json "$tmp/dt.json" "100 <= d['metrics'][0]['value'] <= d['elapsed_ns'] / 1e6 + 1e-6"
# a metric whose event cannot be counted here (its PMU is absent) is n/a with a note; the others are counted
# (the old code refused the whole run: "no PMU named 'nosuchpmu' here")
run 0 "$tmp/o" "$tmp/e" stat -e task-clock -M 'task\-clock / 1e6' -M 'nosuchpmu@cas_count_read@ / 2' --json -o "$tmp/np.json" -- true
check "-M with an absent PMU: the other metric computed, this one n/a with a note naming the PMU" json "$tmp/np.json" "d['metrics'][0]['value'] == d['events'][0]['value'] / 1e6 and d['metrics'][1]['value'] is None and any('nosuchpmu' in n and 'cannot be counted here' in n for n in d['notes'])"
# inherit: a child process's work is counted (sh forks the workload)
run 0 "$tmp/o" "$tmp/e" stat -e page-faults --json -o "$tmp/inh.json" -- sh -c "$BUILD/examples/workload 8 >/dev/null; true"
check "children counted (inherit)" json "$tmp/inh.json" "d['events'][0]['value']>=2048"
# one run named twice is refused: summed, it would be counted twice
run 2 "$tmp/o" "$tmp/e" report "$tmp/run.json" "$tmp/run.json"
check "report: the same run twice refused" has "$tmp/e" "holds the same run as"
# What pmu report sums, from hand-made files (the schema's keys, values chosen): only files that counted
# the same events the same number of times (-r); the rest reported apart, each with its own ratios, and
# said. Elapsed of a sum: the wall-clock time the runs covered together. By hand:
#   t1 task-clock 100 ms, t2 task-clock 300 ms, each 200 ms elapsed; t2 starts 50 ms after t1 (they ran
#   at once): covered 250 ms of 400 ms of spans, elapsed (200 + 200) x 250 / 400 = 250 ms, CPUs utilized
#   400 / 250 = 1.600; t3 like t2 but 1 s after t1 (one after another): elapsed 400 ms, 400 / 400 = 1.000.
#   p1 page-faults 5,000 only: apart, with no rate (it has no task-clock; before, it took t1's: K/sec).
#   r3 task-clock as t1 with -r 3 (a mean, +- 6.00%): apart, "(3 runs)".
$PY - "$tmp" <<'PYEOF'
import json, sys
tmp = sys.argv[1]
def doc(events, start_ms, runs=1, elapsed_ms=200, cmd=("work",)):
    s = 1_800_000_000_000_000_000 + start_ms * 1_000_000
    return {"schema": "libpmu-stat/1", "version": "0.1.0", "cpuid": "AuthenticAMD-25-1-1", "hw_pmu": False,
            "command": list(cmd), "exit_status": 0, "elapsed_ns": elapsed_ms * 1_000_000, "host": "h",
            "boot_id": "b", "wall_start_ns": s, "wall_end_ns": s + elapsed_ms * 1_000_000, "user_ns": 1000,
            "sys_ns": 0, "runs": runs, "events": events, "notes": []}
def ev(name, value, unit="", pct=0.0):
    return {"name": name, "pmu": "software", "type": 1, "config": "0x1", "config1": "0x0", "supported": True,
            "value": value, "scaled": value, "enabled_ns": 1000, "running_ns": 1000, "confidence": 1.0,
            "unit": unit, "stddev_pct": pct}
for name, d in {"t1": doc([ev("task-clock", 100_000_000, "ns")], 0),
                "t2": doc([ev("task-clock", 300_000_000, "ns")], 50),
                "t3": doc([ev("task-clock", 300_000_000, "ns")], 1000),
                "p1": doc([ev("page-faults", 5000)], 2000),
                "r3": doc([ev("task-clock", 100_000_000, "ns", 6.0)], 3000, runs=3)}.items():
    json.dump(d, open("%s/%s.json" % (tmp, name), "w"))
PYEOF
run 0 "$tmp/o" "$tmp/e" report "$tmp/t1.json" "$tmp/t2.json"
check "report: files run at once: CPUs utilized 400/250 = 1.600" has "$tmp/o" "task-clock  *# *1.600 CPUs utilized"
check "report: files run at once: elapsed 0.25 s" has "$tmp/o" "0.250000000 seconds time elapsed"
check "report: files run at once: said" has "$tmp/o" "counts summed over 2 files.*some ran at the same time"
check "report: titled with the files' command" has "$tmp/o" "Performance counter stats for 'work':"
run 0 "$tmp/o" "$tmp/e" report "$tmp/t1.json" "$tmp/t3.json"
check "report: files one after another: CPUs utilized 400/400 = 1.000" has "$tmp/o" "task-clock  *# *1.000 CPUs utilized"
run 0 "$tmp/o" "$tmp/e" report "$tmp/t1.json" "$tmp/p1.json" "$tmp/r3.json"
check "report: three kinds of file, three tables" test "$(grep -c "Performance counter stats" "$tmp/o")" = 3
check "report: page-faults apart, no rate over another file's task-clock" not_has "$tmp/o" "page-faults  *#"
check "report: the -r 3 file apart, as 3 runs with its spread" has "$tmp/o" "(3 runs):"
check "report: the -r 3 file's +- 6.00% (perf's width: '( +-  6.00% )')" has "$tmp/o" "( +-  6.00% )"
check "report: what was reported apart is said" has "$tmp/o" "reported apart from $tmp/p1.json and $tmp/r3.json"
# the counted machine's metric constants travel in the file: pmu report evaluates with them, not with
# the reporting machine's. The file is rewritten as if counted on a 4-package, 64-core machine, a second later (by
# hand: 64 * 100 + 4 = 6404); --param overrides a recorded one (3 * 100 + 4 = 304)
check "stat --json records the machine's constants" json "$tmp/run.json" "d['constants']['num_cpus'] >= 1 and 'num_cores' in d['constants']"
$PY -c "import json, sys; d = json.load(open(sys.argv[1])); d['constants'].update(num_cores=64, num_packages=4); d['wall_start_ns'] += 10**9; d['wall_end_ns'] += 10**9; json.dump(d, open(sys.argv[2], 'w'))" "$tmp/run.json" "$tmp/big.json"
run 0 "$tmp/o" "$tmp/e" report -M '#num_cores * 100 + #num_packages' "$tmp/big.json"
check "report: metrics use the file's constants (6404)" grep -Eq '#num_cores \* 100 \+ #num_packages +6,?404' "$tmp/o"
run 0 "$tmp/o" "$tmp/e" report -M '#num_cores * 100 + #num_packages' --param num_cores=3 "$tmp/big.json"
check "report: --param over the file's constants (304)" grep -Eq '#num_packages +304' "$tmp/o"
run 0 "$tmp/o" "$tmp/e" report -M '#num_cores * 100 + #num_packages' "$tmp/big.json" "$tmp/run.json"
check "report: files with other constants: said, the first file's used" has "$tmp/o" "metric constants differ"
run 1 "$tmp/o" "$tmp/e" report "$tmp/nonexistent.json"
check "report names the file" has "$tmp/e" "nonexistent.json"
# hybrid CPU (Alder Lake fixture): a generic event is counted on both core types, one row each
fx=$SRC/tests/fixtures/intel-adl-hybrid
PMU_SYSFS_ROOT=$fx/sys PMU_PROCFS_ROOT=$fx/proc PMU_CPUID=GenuineIntel-6-9A-3 $WRAP "$PMU" stat -e cycles -- true > "$tmp/o" 2>&1
check "hybrid: cycles counted per core type" grep -q "cpu_core/cycles/" "$tmp/o"
check "hybrid: ... on cpu_atom too" grep -q "cpu_atom/cycles/" "$tmp/o"
# a standard name on a hybrid CPU whose table maps it per core type (a table written here: another event
# on each): PMU/STD.NAME/ is that PMU's event; the bare name is refused naming both spellings (counting
# one core type would pass a part off as the whole)
mkdir -p "$tmp/hy"
echo '[{"EventName": "CORE_INSTS", "EventCode": "0x11", "UMask": "0x02", "Unit": "cpu_core", "StdNames": "INST.RET"},
 {"EventName": "ATOM_INSTS", "EventCode": "0x12", "Unit": "cpu_atom", "StdNames": "INST.RET"}]' > "$tmp/hy/t.json"
PMU_SYSFS_ROOT=$fx/sys PMU_PROCFS_ROOT=$fx/proc PMU_CPUID=GenuineIntel-6-9A-3 PMU_EVENTS_PATH=$tmp/hy \
	run 0 "$tmp/o" "$tmp/e" resolve --json cpu_core/INST.RET/ cpu_atom/INST.RET/
check "hybrid: cpu_core/INST.RET/ and cpu_atom/INST.RET/ are each core type's event (0x211, 0x12 by hand)" json "$tmp/o" "[(e['pmu'], e['config']) for e in d] == [('cpu_core', '0x211'), ('cpu_atom', '0x12')] and all(e['origin'].startswith('standard INST.RET -> ') for e in d)"
PMU_SYSFS_ROOT=$fx/sys PMU_PROCFS_ROOT=$fx/proc PMU_CPUID=GenuineIntel-6-9A-3 PMU_EVENTS_PATH=$tmp/hy \
	run 0 "$tmp/o" "$tmp/e" resolve --json INST.RET
check "hybrid: bare INST.RET lists its part on each core PMU, each core type's event (0x211, 0x12 by hand)" json "$tmp/o" "[(e['name'], e['pmu'], e['config'], e['part_of']) for e in d] == [('cpu_core/INST.RET/', 'cpu_core', '0x211', 'INST.RET'), ('cpu_atom/INST.RET/', 'cpu_atom', '0x12', 'INST.RET')]"
# a table event without a Unit on that CPU: each core type counts it; the bare name lists the same
# event on each core PMU (types 4 and 10: the fixture's), the plain text says it is counted on each; with
# Intel's :c1 too, each part with the counter mask (0x11 | 1 << 24, by hand; it was refused)
mkdir -p "$tmp/hy1"
echo '[{"EventName": "NOUNIT", "EventCode": "0x11"}]' > "$tmp/hy1/t.json"
PMU_SYSFS_ROOT=$fx/sys PMU_PROCFS_ROOT=$fx/proc PMU_CPUID=GenuineIntel-6-9A-3 PMU_EVENTS_PATH=$tmp/hy1 \
	run 0 "$tmp/o" "$tmp/e" resolve --json NOUNIT:c1
check "hybrid: NOUNIT:c1 (Intel's modifier) on each core PMU, with cmask 1" json "$tmp/o" "[(e['pmu'], e['type'], e['config'], e['part_of']) for e in d] == [('cpu_core', 4, '0x1000011', 'NOUNIT:c1'), ('cpu_atom', 10, '0x1000011', 'NOUNIT:c1')]"
for n in NOUNIT; do
	PMU_SYSFS_ROOT=$fx/sys PMU_PROCFS_ROOT=$fx/proc PMU_CPUID=GenuineIntel-6-9A-3 PMU_EVENTS_PATH=$tmp/hy1 \
		run 0 "$tmp/o" "$tmp/e" resolve "$n"
	check "hybrid: $n without a Unit counted on each core PMU" has "$tmp/o" "$n: counted on each of 2 core PMUs, its count the sum of theirs"
	PMU_SYSFS_ROOT=$fx/sys PMU_PROCFS_ROOT=$fx/proc PMU_CPUID=GenuineIntel-6-9A-3 PMU_EVENTS_PATH=$tmp/hy1 \
		run 0 "$tmp/o" "$tmp/e" resolve --json "$n"
	check "hybrid: $n's parts: cpu_core (type 4) and cpu_atom (type 10), event 0x11" json "$tmp/o" "[(e['pmu'], e['type'], int(e['config'], 16) & 0xff) for e in d] == [('cpu_core', 4, 0x11), ('cpu_atom', 10, 0x11)]"
done
# examples/count.c there: its 3 names give 2 values per core PMU for the 2 generic events, plus
# task-clock (the fixture has 2 core PMUs: 5 values, not 3). Built with AddressSanitizer
# (tests/count-asan) where the compiler can, so arrays sized by the names fail here; the
# events the kernel here cannot count are shown as not supported.
count=$BUILD/tests/count-asan
[ -x "$count" ] || count=$BUILD/examples/count
ncore=$(ls "$fx/sys/bus/event_source/devices" | grep -c '^cpu_')
PMU_SYSFS_ROOT=$fx/sys PMU_PROCFS_ROOT=$fx/proc PMU_CPUID=GenuineIntel-6-9A-3 "$count" > "$tmp/o" 2> "$tmp/e"
check "examples/count on the hybrid fixture: exit 0 (no overflow)" test $? = 0
check "examples/count on the hybrid fixture: $((2 * ncore + 1)) values" test "$(grep -vc '^result' "$tmp/o")" = $((2 * ncore + 1))
check "examples/count on the hybrid fixture: cpu_atom/cycles/:u shown" grep -q "^cpu_atom/cycles/:u " "$tmp/o"
PMU_SYSFS_ROOT=$fx/sys PMU_PROCFS_ROOT=$fx/proc run 0 "$tmp/o" "$tmp/e" resolve cpu_atom/cycles/ --json
check "hybrid: cpu_atom/cycles/ carries the PMU type in config" json "$tmp/o" "d[0]['type']==0 and d[0]['config']=='0xa00000000'"
# saved hybrid counts (hand-written: 60% of the time on P-cores): IPC per core type, metrics sum the parts
run 0 "$tmp/o" "$tmp/e" report -M "instructions / cycles" "$SRC/tests/reports/adl-hybrid.json"
check "hybrid report: P-core IPC 6000/3000" has "$tmp/o" "cpu_core/instructions/ *# *2.00 insn per cycle"
check "hybrid report: E-core IPC 2000/5000" has "$tmp/o" "cpu_atom/instructions/ *# *0.40 insn per cycle"
check "hybrid report: IPC over both 8000/8000" has "$tmp/o" "instructions / cycles  *1.000"
# the same counts as an unprivileged user's run labels them (user mode only: cpu_core/cycles/u, as perf)
sed 's|"\(cpu_[a-z]*/[a-z]*/\)"|"\1u"|' "$SRC/tests/reports/adl-hybrid.json" > "$tmp/adl-u.json"
check "hybrid report, labels with u: the file has them" grep -q 'cpu_core/cycles/u' "$tmp/adl-u.json"
run 0 "$tmp/o" "$tmp/e" report -M "instructions / cycles" "$tmp/adl-u.json"
check "hybrid report, labels with u: P-core IPC 6000/3000" has "$tmp/o" "cpu_core/instructions/u *# *2.00 insn per cycle"
check "hybrid report, labels with u: E-core IPC 2000/5000" has "$tmp/o" "cpu_atom/instructions/u *# *0.40 insn per cycle"
check "hybrid report, labels with u: metric sums the parts, 8000/8000" has "$tmp/o" "instructions / cycles  *1.000"
# a wrong event list is a usage error (exit 2, as perf's 129), said before the command runs: it exited 1
# ("counting failed") after starting it
for e in '{task-clock' 'task-clock}' 'nosuch-event' 'task-clock,{duration_time}'; do
	run 2 "$tmp/o" "$tmp/e" stat -e "$e" -- sh -c "touch $tmp/ran"
	check "stat -e '$e': usage error, the command not run" test ! -e "$tmp/ran"
done
# an expression with a name spelled with '-': the hint to escape it (it listed "page, task, clock" only)
run 0 "$tmp/o" "$tmp/e" stat -M 'page-faults / task-clock' -- true
check "-M 'page-faults / task-clock': says '-' is minus, and how to write it" has "$tmp/e" "'-' is minus in an expression: write page\\\\-faults"
run 0 "$tmp/o" "$tmp/e" stat -M 'instructions - cycles' -- true
check "-M 'instructions - cycles': a real subtraction gets no hint" not_has "$tmp/e" "is minus in an expression"
# perf's terms that encode nothing: name= is the label, period= (sampling) has no effect when counting;
# both were "value 'mycyc' of term 'name' is not a number" / "no format term 'period'". By hand: event
# 0x3c on the cpu PMU (type 4), config 0x3c either way
icx=$SRC/tests/fixtures/intel-icx
PMU_SYSFS_ROOT=$icx/sys PMU_PROCFS_ROOT=$icx/proc run 0 "$tmp/o" "$tmp/e" resolve --json "cpu/event=0x3c,name=mycyc/u" "cpu/event=0x3c,period=1000/"
check "name= labels the event, period= has no effect" json "$tmp/o" "[(e['name'], e['type'], e['config']) for e in d] == [('mycyc', 4, '0x3c'), ('cpu/event=0x3c,period=1000/', 4, '0x3c')]"
PMU_SYSFS_ROOT=$icx/sys PMU_PROCFS_ROOT=$icx/proc run 1 "$tmp/o" "$tmp/e" resolve "cpu/event=0x3c,name=/"
check "name= without a label: said what it wants" has "$tmp/e" "term 'name' needs a value, the label to show"
# an event note shared by several rows is said once, naming them (the four topdown-* each repeated it)
icx=$SRC/tests/fixtures/intel-icx
PMU_SYSFS_ROOT=$icx/sys PMU_PROCFS_ROOT=$icx/proc run 0 "$tmp/o" "$tmp/e" stat -e TOPDOWN -- true
check "TOPDOWN: the PERF_METRICS note once" test "$(grep -c 'Pseudo-event read from the PERF_METRICS register' "$tmp/e")" = 1
check "TOPDOWN: the note names the four events" has "$tmp/e" "note on topdown-retiring, topdown-bad-spec, topdown-fe-bound, topdown-be-bound: Pseudo-event"
PMU_SYSFS_ROOT=$icx/sys PMU_PROCFS_ROOT=$icx/proc run 0 "$tmp/o" "$tmp/e" stat --json -o "$tmp/td.json" -e TOPDOWN -- true
check "TOPDOWN --json: the note once" json "$tmp/td.json" "sum('PERF_METRICS register' in n for n in d['notes']) == 1"
# Ice Lake-X: metrics whose formulas name the topdown SLOTS event under two names (perf's tma_* "slots",
# libpmu's TMA.* "TOPDOWN.SLOTS", both event 0x00 umask 0x04 by perf's table) or beside the TOPDOWN keyword
# count it once; the user wrote no event list twice. Each was refused ("names the topdown SLOTS event
# 2 times"). Here, without a PMU, every event is <not supported> and the run goes on (exit 0).
icx=$SRC/tests/fixtures/intel-icx
for args in "-M TopdownL1" "-M TMA" "-M tma_retiring,TMA.RETIRING" "-e TOPDOWN -M tma_retiring"; do
	# shellcheck disable=SC2086
	PMU_SYSFS_ROOT=$icx/sys PMU_PROCFS_ROOT=$icx/proc run 0 "$tmp/o" "$tmp/e" stat -x, $args -- true
	check "Ice Lake-X stat $args: not refused" not_has "$tmp/e" "names the topdown SLOTS event"
	check "Ice Lake-X stat $args: the SLOTS event counted once" test "$(grep -c -E '^[^,]*,[^,]*,(slots|TOPDOWN.SLOTS),' "$tmp/e")" = 1
done
# a metric per core type on big.LITTLE (hand-written counts, tests/reports/arm64-biglittle-mpki.json: the
# parts and totals pmu stat writes): -M NAME gives the whole and each core type's, libpmu's standard
# PRD_RETIRED.CONTROL_FLOW.MPKI = MISPRED / RETIRED.INST x 1000: 35/60000 = 0.583, A55 30/10000 = 3.000,
# A76 5/50000 = 0.100 (either core type's spelling gave the whole's 0.583 before)
bl=$SRC/tests/fixtures/arm64-biglittle
PMU_SYSFS_ROOT=$bl/sys PMU_PROCFS_ROOT=$bl/proc run 0 "$tmp/o" "$tmp/e" report -M PRD_RETIRED.CONTROL_FLOW.MPKI "$SRC/tests/reports/arm64-biglittle-mpki.json"
check "big.LITTLE report: the whole's MPKI 35/60000" has "$tmp/o" "^   PRD_RETIRED.CONTROL_FLOW.MPKI  *0.583"
check "big.LITTLE report: the A55's MPKI 30/10000" has "$tmp/o" "^   armv8_cortex_a55/PRD_RETIRED.CONTROL_FLOW.MPKI/  *3.000"
check "big.LITTLE report: the A76's MPKI 5/50000" has "$tmp/o" "^   armv8_cortex_a76/PRD_RETIRED.CONTROL_FLOW.MPKI/  *0.100"
# an expression (no metric's name) is evaluated once, over the totals
PMU_SYSFS_ROOT=$bl/sys PMU_PROCFS_ROOT=$bl/proc run 0 "$tmp/o" "$tmp/e" report -M "RETIRED.INST:u / 1000" "$SRC/tests/reports/arm64-biglittle-mpki.json"
check "big.LITTLE report: an expression, 60000/1000" has "$tmp/o" "^   RETIRED.INST:u / 1000  *60.000"
check "big.LITTLE report: an expression once" not_has "$tmp/o" "^   armv8_cortex_a"
# metrics from an Intel perfmon metric file (fixture in its structure), on hand-written counts
PMU_EVENTS_PATH="$SRC/tests/tables/intel-perfmon" run 0 "$tmp/o" "$tmp/e" report -M cpi,issue_cycles "$SRC/tests/reports/skx-perfmon.json"
check "perfmon metric: cpi 3000/1000" has "$tmp/o" "cpi  *3.000 per instruction"
check "perfmon metric: 100*1200/3000 %, threshold by LegacyName crossed" has "$tmp/o" "issue_cycles  *40.000 % *<== over threshold"
echo '{"x":1}' > "$tmp/bad.json"
run 2 "$tmp/o" "$tmp/e" report "$tmp/bad.json"
check "report rejects other JSON" has "$tmp/e" "is neither a 'pmu stat --json' file"

# metrics and topdown from saved counts (hand-written files; expected values computed by hand)
run 0 "$tmp/o" "$tmp/e" report --topdown -M "1e3 * MEM_LOAD_RETIRED.L3_MISS / INST.RET,tma_backend_bound" "$SRC/tests/reports/spr-topdown.json"
check "report: L3 MPKI 1e3*100/20000 = 5" has "$tmp/o" "INST.RET  *5.000"
check "report: tma_backend_bound 3000/10000 = 30 %" has "$tmp/o" "tma_backend_bound  *30.000 %"
check "report: topdown level 2 header" has "$tmp/o" "Topdown, level 2 (10000 slots)"
check "report: backend 30% is the bottleneck" has "$tmp/o" "Backend bound  *30.0%.*<== bottleneck"
check "report: light ops 40-15 = 25%" has "$tmp/o" "Light operations  *25.0%"
check "report: core bound 30-21 = 9%" has "$tmp/o" "Core bound  *9.0%"
check "report: bars drawn" has "$tmp/o" "Retiring  *40.0%  ████████████████$"
# topdown level 1 where the slot counts are the table's formulas (no slots counter), hand values:
# Skylake (skl-topdown.json): slots 4 x CPU_CLK_UNHALTED.THREAD 1000 = 4000; retiring
# UOPS_RETIRED.RETIRE_SLOTS 1600/4000 = 40.0 %; bad speculation UOPS_ISSUED.ANY 2000 - 1600 +
# 4 x INT_MISC.RECOVERY_CYCLES 50 = 600, /4000 = 15.0 %; frontend IDQ_UOPS_NOT_DELIVERED.CORE
# 800/4000 = 20.0 %; backend 4000 - 800 - 2000 - 200 = 1000, /4000 = 25.0 %
run 0 "$tmp/o" "$tmp/e" report --topdown "$SRC/tests/reports/skl-topdown.json"
check "report, Skylake: level 1 of 4 x 1000 slots" has "$tmp/o" "Topdown, level 1 (4000 slots)"
check "report, Skylake: retiring 1600/4000 = 40.0%" has "$tmp/o" "^ *Retiring  *40.0%  █"
check "report, Skylake: bad speculation (2000-1600+4x50)/4000 = 15.0%" has "$tmp/o" "^ *Bad speculation  *15.0%  █"
check "report, Skylake: frontend 800/4000 = 20.0%" has "$tmp/o" "^ *Frontend bound  *20.0%  █"
check "report, Skylake: backend (4000-800-2000-200)/4000 = 25.0%, the bottleneck" has "$tmp/o" "^ *Backend bound  *25.0%  █.*<== bottleneck"
# Skylake level 2 (skl-topdown-l2.json: the level-1 counts above and the TopdownL2Slots formulas' events),
# hand values: heavy operations RETIRE_SLOTS 1600 + MACRO_FUSED 100 - INST_RETIRED.ANY 1500 = 200, /4000 =
# 5.0 % (light 40 - 5 = 35.0 %); branch mispredicts 40 / (40 + MACHINE_CLEARS 10) x 600 = 480, /4000 =
# 12.0 % (machine clears 3.0 %); fetch latency 4 x CYCLES_0_UOPS_DELIV 150 = 600, /4000 = 15.0 %
# (bandwidth 5.0 %); memory bound (STALLS_MEM_ANY 250 + BOUND_ON_STORES 50) / (STALLS_TOTAL 300 +
# 1_PORTS 50 + 1600/4000 x 2_PORTS 250 + 50) = 300/500 x backend 1000 = 600, /4000 = 15.0 % (core 10.0 %)
run 0 "$tmp/o" "$tmp/e" report --topdown "$SRC/tests/reports/skl-topdown-l2.json"
check "report, Skylake: level 2 from the TopdownL2Slots formulas" has "$tmp/o" "Topdown, level 2 (4000 slots)"
# tree_rows LABEL ROW...: each ROW ("Name  *12.0%") begins a line of the topdown tree in $tmp/o
tree_rows() {
	local label=$1 want; shift
	for want in "$@"; do check "$label: $want" has "$tmp/o" "^ *$want"; done
}
tree_rows "report, Skylake level 2" "Retiring  *40.0%" "Light operations  *35.0%" "Heavy operations  *5.0%" \
	"Bad speculation  *15.0%" "Branch mispredicts  *12.0%" "Machine clears  *3.0%" "Frontend bound  *20.0%" \
	"Fetch latency  *15.0%" "Fetch bandwidth  *5.0%" "Backend bound  *25.0%.*<== bottleneck" "Memory bound  *15.0%" \
	"Core bound  *10.0%"
# AMD Zen 4 (zen4-topdown.json): slots 6 x ls_not_halted_cyc 2000 = 12000; retiring ex_ret_ops
# 3000/12000 = 25.0 %; bad speculation de_src_op_disp.all 4200 - 3000 = 1200, /12000 = 10.0 %;
# frontend no_ops_from_frontend 1800/12000 = 15.0 %; backend backend_stalls 6000/12000 = 50.0 %
run 0 "$tmp/o" "$tmp/e" report --topdown "$SRC/tests/reports/zen4-topdown.json"
check "report, Zen 4: level 1 of 6 x 2000 slots" has "$tmp/o" "Topdown, level 1 (12000 slots)"
check "report, Zen 4: retiring 3000/12000 = 25.0%" has "$tmp/o" "^ *Retiring  *25.0%  █"
check "report, Zen 4: bad speculation 1200/12000 = 10.0%" has "$tmp/o" "^ *Bad speculation  *10.0%  █"
check "report, Zen 4: frontend 1800/12000 = 15.0%" has "$tmp/o" "^ *Frontend bound  *15.0%  █"
check "report, Zen 4: backend 6000/12000 = 50.0%, the bottleneck" has "$tmp/o" "^ *Backend bound  *50.0%  █.*<== bottleneck"
check "report, Zen 4: the four add up to 100%: no SMT contention row" not_has "$tmp/o" "SMT contention"
# ... with backend stalls 4800 (40.0 %) the four leave 1 - 10800/12000 = 10.0 %: AMD's fifth category, the
# slots the other SMT thread took, shown as the rest (a hand-made file: not a name the schema loop below takes)
$PY -c "import json, sys
d = json.load(open(sys.argv[1]))
for e in d['events']:
    if e['name'] == 'de_no_dispatch_per_slot.backend_stalls': e['value'] = 4800
json.dump(d, open(sys.argv[2], 'w'))" "$SRC/tests/reports/zen4-topdown.json" "$tmp/hand-zen4-smt"
run 0 "$tmp/o" "$tmp/e" report --topdown "$tmp/hand-zen4-smt"
check "report, Zen 4 under SMT: backend 40.0%" has "$tmp/o" "^ *Backend bound  *40.0%"
check "report, Zen 4 under SMT: the rest 10.0% is SMT contention" has "$tmp/o" "^ *SMT contention  *10.0%.*the rest of the slots"
# Zen 4 level 2 (zen4-topdown-l2.json: the counts above and the TopdownL2Slots formulas' events), hand
# values: microcode ops ("heavy") 3000 x ex_ret_ucode_ops 600 / ex_ret_ops 3000 = 600, /12000 = 5.0 %
# (light 20.0 %); mispredicts 1200 x 30 / (30 + resyncs 10) = 900, /12000 = 7.5 % (restarts, "machine
# clears", 2.5 %); latency 6 x no_ops_from_frontend with cmask 6, 200 = 1200, /12000 = 10.0 % (bandwidth
# 5.0 %); memory 6000 x load_not_complete 400 / not_complete 1000 = 2400, /12000 = 20.0 % (core 30.0 %)
run 0 "$tmp/o" "$tmp/e" report --topdown "$SRC/tests/reports/zen4-topdown-l2.json"
check "report, Zen 4: level 2 from the TopdownL2Slots formulas" has "$tmp/o" "Topdown, level 2 (12000 slots)"
# (the rows AMD's method counts carry AMD's names: fast-path and microcode ops, pipeline restarts, CPU bound)
tree_rows "report, Zen 4 level 2" "Retiring  *25.0%" "Fast-path ops  *20.0%" "Microcode ops  *5.0%" \
	"Bad speculation  *10.0%" "Branch mispredicts  *7.5%" "Pipeline restarts  *2.5%" "Frontend bound  *15.0%" \
	"Fetch latency  *10.0%" "Fetch bandwidth  *5.0%" "Backend bound  *50.0%.*<== bottleneck" "Memory bound  *20.0%" \
	"CPU bound  *30.0%"
check "report, Zen 4 level 2: no row named as Intel's" not_has "$tmp/o" "Heavy operations\|Light operations\|Machine clears\|Core bound"
# Ice Lake-X: level 1 from PERF_METRICS (icx-topdown.json: slots 10000, retiring 4000, bad speculation 1000,
# frontend 2000, backend 3000), level 2 from the table's formulas when their events were counted too
# (icx-topdown-l2.json), hand values: heavy UOPS_RETIRED.SLOTS 3600 / UOPS_ISSUED.ANY 4000 x IDQ.MS_UOPS 500
# = 450, + retiring 4000 x (UOPS_DECODED.DEC0 300 - the same with cmask 1, 200) / IDQ.MITE_UOPS 8000 = 50:
# 500, 5.0 % (light 35.0 %); mispredicts 40 / (40 + 10) x 1000 = 800, 8.0 % (clears 2.0 %); latency 5 x
# CYCLES_0_UOPS_DELIV 300 - UOP_DROPPING 100 = 1400, 14.0 % (bandwidth 6.0 %); memory (250 + 50) / (300 +
# 50 + 4000/10000 x 250 + 50) x 3000 = 1800, 18.0 % (core 12.0 %)
run 0 "$tmp/o" "$tmp/e" report --topdown "$SRC/tests/reports/icx-topdown.json"
check "report, Ice Lake-X: PERF_METRICS' level 1 alone" has "$tmp/o" "Topdown, level 1 (10000 slots)"
tree_rows "report, Ice Lake-X level 1" "Retiring  *40.0%" "Bad speculation  *10.0%" "Frontend bound  *20.0%" \
	"Backend bound  *30.0%.*<== bottleneck"
run 0 "$tmp/o" "$tmp/e" report --topdown "$SRC/tests/reports/icx-topdown-l2.json"
check "report, Ice Lake-X: level 2 from the TopdownL2Slots formulas over PERF_METRICS' level 1" has "$tmp/o" \
	"Topdown, level 2 (10000 slots)"
tree_rows "report, Ice Lake-X level 2" "Retiring  *40.0%" "Light operations  *35.0%" "Heavy operations  *5.0%" \
	"Bad speculation  *10.0%" "Branch mispredicts  *8.0%" "Machine clears  *2.0%" "Frontend bound  *20.0%" \
	"Fetch latency  *14.0%" "Fetch bandwidth  *6.0%" "Backend bound  *30.0%.*<== bottleneck" "Memory bound  *18.0%" \
	"Core bound  *12.0%"
# counting them: --topdown with -M TopdownL2Slots on the Ice Lake-X fixture (nothing opens there; the list
# is what is checked): the metrics' slots and topdown-* events are left to the TOPDOWN keyword's group (named
# twice the set refused them), and the event with terms the heavy-operations formula writes
# cpu@UOPS_DECODED.DEC0\,cmask\=1@ is one event, not split at its comma
PMU_SYSFS_ROOT=$SRC/tests/fixtures/intel-icx/sys PMU_CPUID=GenuineIntel-6-6A-6 run 0 "$tmp/o" "$tmp/e" stat --topdown -M TopdownL2Slots -- true
check "stat --topdown -M TopdownL2Slots: the topdown events once" not_has "$tmp/e" "names the topdown SLOTS event 2 times"
check "stat -M TopdownL2Slots: cpu/UOPS_DECODED.DEC0,cmask=1/ is one event" has "$tmp/e" "cannot open 'cpu/UOPS_DECODED.DEC0,cmask=1/'"
check "stat -M TopdownL2Slots: no piece of it" not_has "$tmp/e" "needs 'cmask=1/'"
# Arm Neoverse (Arm's method as perf's tables for these cores write it: each mispredicted branch,
# BR_MIS_PRED, moves a few cycles' worth of slots to bad speculation). N2 r0p0 (n2-topdown.json, #slots 5
# in the file's constants): before r0p3 STALL_SLOT and STALL_SLOT_FRONTEND count one slot too many per
# cycle, so CPU_CYCLES 1000 comes off both: STALL_SLOT 3000 - 1000 = 2000, STALL_SLOT_FRONTEND 1800 -
# 1000 = 800. Slots 5 x 1000 = 5000; not stalled 5000 - 2000 = 3000; retiring OP_RETIRED/OP_SPEC
# 2400/3000 = 0.8 x 3000 = 2400, /5000 = 48.0 %; bad speculation 0.2 x 3000 = 600 + 4 x 5 x BR_MIS_PRED 20
# = 400, 1000/5000 = 20.0 %; frontend 800 - 5 x 20 = 700, /5000 = 14.0 %; backend STALL_SLOT_BACKEND
# 1200 - 3 x 5 x 20 = 900, /5000 = 18.0 %. Without the r0p0 correction retiring would be
# 0.8 x (5000 - 3000) = 1600 = 32.0 %.
run 0 "$tmp/o" "$tmp/e" report --topdown "$SRC/tests/reports/n2-topdown.json"
check "report, Neoverse N2 r0p0: level 1 of 5 x 1000 slots" has "$tmp/o" "Topdown, level 1 (5000 slots)"
check "report, Neoverse N2 r0p0: retiring 2400/5000 = 48.0%" has "$tmp/o" "^ *Retiring  *48.0%  █"
check "report, Neoverse N2 r0p0: bad speculation (600 + 400)/5000 = 20.0%, the bottleneck" has "$tmp/o" "^ *Bad speculation  *20.0%  █.*<== bottleneck"
check "report, Neoverse N2 r0p0: frontend (800 - 100)/5000 = 14.0%" has "$tmp/o" "^ *Frontend bound  *14.0%  █"
check "report, Neoverse N2 r0p0: backend (1200 - 300)/5000 = 18.0%" has "$tmp/o" "^ *Backend bound  *18.0%  █"
# N2 r0p3 (n2r0p3-topdown.json): the same period counted right, STALL_SLOT 2000 and
# STALL_SLOT_FRONTEND 800 as written, no CPU_CYCLES taken off: the same 48 / 20 / 14 / 18 %
run 0 "$tmp/o" "$tmp/e" report --topdown "$SRC/tests/reports/n2r0p3-topdown.json"
check "report, Neoverse N2 r0p3: retiring 0.8 x (5000 - 2000)/5000 = 48.0%" has "$tmp/o" "^ *Retiring  *48.0%  █"
check "report, Neoverse N2 r0p3: frontend (800 - 5 x 20)/5000 = 14.0%" has "$tmp/o" "^ *Frontend bound  *14.0%  █"
# Neoverse V1 (v1-topdown.json, #slots 8): slots 8 x 1000 = 8000; not stalled 8000 - 4000 = 4000;
# retiring 3000/4000 = 0.75 x 4000 = 3000, /8000 = 37.5 %; bad speculation 0.25 x 4000 = 1000 +
# 4 x 8 x BR_MIS_PRED 25 = 800, 1800/8000 = 22.5 %; frontend 1600 - 800 = 800, /8000 = 10.0 %; backend
# STALL_SLOT_BACKEND as counted (V1's method takes nothing off it) 2400/8000 = 30.0 %
run 0 "$tmp/o" "$tmp/e" report --topdown "$SRC/tests/reports/v1-topdown.json"
check "report, Neoverse V1: retiring 3000/8000 = 37.5%" has "$tmp/o" "^ *Retiring  *37.5%  █"
check "report, Neoverse V1: bad speculation (1000 + 800)/8000 = 22.5%" has "$tmp/o" "^ *Bad speculation  *22.5%  █"
check "report, Neoverse V1: frontend (1600 - 800)/8000 = 10.0%" has "$tmp/o" "^ *Frontend bound  *10.0%  █"
check "report, Neoverse V1: backend 2400/8000 = 30.0%, the bottleneck" has "$tmp/o" "^ *Backend bound  *30.0%  █.*<== bottleneck"
# Neoverse N1 (n1-cycles.json): no slot events, so no tree; the report says why, as --topdown does, and
# not "count it with the TOPDOWN keyword", which N1 cannot
run 1 "$tmp/o" "$tmp/e" report --topdown "$SRC/tests/reports/n1-cycles.json"
check "report, Neoverse N1: topdown refused, saying why" has "$tmp/o" "Topdown: not available: .*this core's stall events count cycles"
check "report, Neoverse N1: not told to count the TOPDOWN keyword" not_has "$tmp/o" "TOPDOWN keyword"
# Alder Lake, both core types (adl-topdown.json, reported on the hybrid fixture): a tree per core type,
# named. P-cores (PERF_METRICS): slots 10000; 1000, 2000, 3000, 4000 -> 10.0 / 20.0 / 30.0 / 40.0 %.
# E-cores (Gracemont's method as perf's adl-metrics.json writes it for cpu_atom): slots 5 x
# CPU_CLK_UNHALTED.CORE 1000 = 5000; retiring 2000/5000 = 40.0 %; frontend 1000/5000 = 20.0 %; backend
# 1500/5000 = 30.0 %; bad speculation the rest, 5000 - 4500 = 500, 10.0 %
adl=$SRC/tests/fixtures/intel-adl-hybrid
PMU_SYSFS_ROOT=$adl/sys PMU_PROCFS_ROOT=$adl/proc run 0 "$tmp/o" "$tmp/e" report --topdown "$SRC/tests/reports/adl-topdown.json"
check "report, Alder Lake: the P-cores' tree, named" has "$tmp/o" "Topdown of cpu_core, level 1 (10000 slots)"
check "report, Alder Lake: P-core backend 4000/10000 = 40.0%" has "$tmp/o" "^ *Backend bound  *40.0%  █.*<== bottleneck"
check "report, Alder Lake: the E-cores' tree, named" has "$tmp/o" "Topdown of cpu_atom, level 1 (5000 slots)"
check "report, Alder Lake: E-core retiring 2000/5000 = 40.0%" has "$tmp/o" "^ *Retiring  *40.0%  █"
check "report, Alder Lake: E-core bad speculation (5000 - 4500)/5000 = 10.0%" has "$tmp/o" "^ *Bad speculation  *10.0%  █"
# reported on a machine without the P-cores' PMU (here: their events do not resolve), the E-cores' tree
# alone, still named
run 0 "$tmp/o" "$tmp/e" report --topdown "$SRC/tests/reports/adl-topdown.json"
check "report, Alder Lake elsewhere: the E-cores' tree named as theirs" has "$tmp/o" "Topdown of cpu_atom, level 1 (5000 slots)"
check "report, Alder Lake elsewhere: no unnamed tree" not_has "$tmp/o" "Topdown, level"
# RISC-V: none of the cores libpmu has tables for counts issue slots (see test-topdown), so the tree is
# shown for a core written here (tests/tables/riscv-topdown: a hart whose table maps the five standard
# TOPDOWN.*SLOTS events to its own codes; riscv-topdown.json counts them by their standard names):
# slots 8000; retiring 2000/8000 = 25.0 %; bad speculation 1000/8000 = 12.5 %; frontend 1400/8000 =
# 17.5 %; backend 3600/8000 = 45.0 %
PMU_EVENTS_PATH=$SRC/tests/tables/riscv-topdown run 0 "$tmp/o" "$tmp/e" report --topdown "$SRC/tests/reports/riscv-topdown.json"
check "report, RISC-V (standard TOPDOWN events): level 1 of 8000 slots" has "$tmp/o" "Topdown, level 1 (8000 slots)"
check "report, RISC-V: retiring 2000/8000 = 25.0%" has "$tmp/o" "^ *Retiring  *25.0%  █"
check "report, RISC-V: bad speculation 1000/8000 = 12.5%" has "$tmp/o" "^ *Bad speculation  *12.5%  █"
check "report, RISC-V: frontend 1400/8000 = 17.5%" has "$tmp/o" "^ *Frontend bound  *17.5%  █"
check "report, RISC-V: backend 3600/8000 = 45.0%, the bottleneck" has "$tmp/o" "^ *Backend bound  *45.0%  █.*<== bottleneck"
# the Ice Lake+ path prints the same lines (spr-topdown.json, PERF_METRICS roles): 1000/10000 = 10.0 %
run 0 "$tmp/o" "$tmp/e" report --topdown "$SRC/tests/reports/spr-topdown.json"
check "report, Sapphire Rapids: bad speculation 1000/10000 = 10.0%" has "$tmp/o" "^ *Bad speculation  *10.0%  █"
check "report, Sapphire Rapids: frontend 2000/10000 = 20.0%" has "$tmp/o" "^ *Frontend bound  *20.0%  █"
# a standard name that is a formula here is refused as an event, pointing to how it is offered
PMU_CPUID=GenuineIntel-6-5E-3 run 1 "$tmp/o" "$tmp/e" resolve TOPDOWN.SLOTS
check "resolve TOPDOWN.SLOTS on Skylake: refused, offered as a formula" has "$tmp/e" "pmu stat -M TOPDOWN.SLOTS"
check "the formula is a sentence of its own after the countable names" has "$tmp/e" "Countable here: .*[^ ]\. This CPU's table offers it"
PMU_EVENTS_PATH="$SRC/tests/tables/metrics-engine" run 0 "$tmp/o" "$tmp/e" report -M m_ratio,m_params --param a=3 "$SRC/tests/reports/engine.json"
check "report: threshold marker (30/40 > 0.5)" has "$tmp/o" "m_ratio  *75.000 % *<== over threshold"
check "report: --param a=3 gives 3*40+1" has "$tmp/o" "m_params  *121.000"
# -D NAME=VALUE was pmu's metric parameter; -D is perf's --delay now: the old spelling is refused, pointing to --param
for c in report stat; do
	PMU_EVENTS_PATH="$SRC/tests/tables/metrics-engine" run 2 "$tmp/o" "$tmp/e" $c -M m_params -D a=3 "$SRC/tests/reports/engine.json"
	check "$c -D a=3: refused, naming --param" has "$tmp/e" "^pmu $c: -D a=3: metric parameters are set with --param a=3 now"
done
run 1 "$tmp/o" "$tmp/e" report -M "EV.ONE / NOPE.EVENT" "$SRC/tests/reports/engine.json"
check "report: missing input named" has "$tmp/o" "n/a: .*NOPE.EVENT"
# -M lists split at top-level commas only: max(a, b) is one metric (hand: max(40, 30), min(40, 30))
run 0 "$tmp/o" "$tmp/e" report -M 'max(EV.ONE, EV.TWO),min(EV.ONE, EV.TWO)' "$SRC/tests/reports/engine.json"
check "report -M: max(EV.ONE, EV.TWO) is one metric, 40" has "$tmp/o" "^ *max(EV.ONE, EV.TWO)  *40.000"
check "report -M: min(EV.ONE, EV.TWO) is the second, 30" has "$tmp/o" "^ *min(EV.ONE, EV.TWO)  *30.000"
# a --param name longer than the library keeps is refused, not cut into another name
long_param=$(printf 'a%.0s' $(seq 70))
PMU_EVENTS_PATH="$SRC/tests/tables/metrics-engine" run 2 "$tmp/o" "$tmp/e" report -M m_params --param "$long_param=3" "$SRC/tests/reports/engine.json"
check "--param NAME too long: refused, naming it" has "$tmp/e" "^pmu: --param $long_param=3: "
# a title of 60 files (1.6 KB; was cut at 1 KB)
files=(); for _ in $(seq 60); do files+=("$SRC/tests/reports/engine.json"); done
run 0 "$tmp/o" "$tmp/e" report "${files[@]}"
check "report of 60 files: the title names all 60" test "$(grep -o 'engine.json' "$tmp/o" | wc -l)" = 60
check "... and sums them (60 x 40)" has "$tmp/o" "^ *2,400  *EV.ONE"

# saved files: bounded reading, strict parsing, every key checked (tests/test-report-types.py
# sets each key of real files to each wrong type); a refusal exits 2 with one line naming the key
timeout 20 $WRAP "$PMU" report /dev/zero > "$tmp/o" 2> "$tmp/e"
st=$?
check "report /dev/zero: refused past 64 MiB, exit 2 (got $st)" test $st = 2
check "report /dev/zero: said" has "$tmp/e" "goes on past 64 MiB"
run 0 "$tmp/o" "$tmp/e" report <(cat "$SRC/tests/reports/engine.json")
check "report of a process substitution (a pipe that ends)" has "$tmp/o" "^ *40  *EV.ONE"
mkfifo "$tmp/fifo"
timeout 20 sh -c 'cat "$1" > "$2"' sh "$SRC/tests/reports/engine.json" "$tmp/fifo" &
timeout 20 $WRAP "$PMU" report "$tmp/fifo" > "$tmp/o" 2> "$tmp/e"
st=$?
wait
check "report of a FIFO: exit 0 (got $st)" test $st = 0
check "report of a FIFO" has "$tmp/o" "^ *40  *EV.ONE"
run 1 "$tmp/o" "$tmp/e" report "$SRC/tests"
check "report of a directory: cannot read, said" has "$tmp/e" "cannot read '.*tests': Is a directory"
$PY - "$SRC/tests/reports/engine.json" "$tmp/nan.bad" "$tmp/big.bad" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
d['events'][0]['value'] = float('nan')
json.dump(d, open(sys.argv[2], 'w'))
d['events'][0]['value'] = 2**63 - 1
json.dump(d, open(sys.argv[3], 'w'))
PYEOF
run 2 "$tmp/o" "$tmp/e" report "$tmp/nan.bad"
check "report: NaN refused, the key named" has "$tmp/e" "events\[0\].value: expected an integer from 0 to 9223372036854775807, found NaN"
run 0 "$tmp/o" "$tmp/e" report "$tmp/big.bad" "$tmp/big.bad"
check "report: two counts of 2^63-1 sum within 64 bits (hand: 18,446,744,073,709,551,614)" has "$tmp/o" "18,446,744,073,709,551,614  *EV.ONE"
run 2 "$tmp/o" "$tmp/e" report "$tmp/big.bad" "$tmp/big.bad" "$tmp/big.bad"
check "report: three exceed 2^64-1: refused, said" has "$tmp/e" "events\[0\].value: the sum over the files exceeds 2^64-1"
run 0 "$tmp/o" "$tmp/e" stat -M 'page\-faults * 1e9 / task\-clock' -- "$BUILD/examples/workload" 8
check "stat -M counts the metric's events" has "$tmp/e" "page-faults"
check "stat -M prints the metric" has "$tmp/e" "1e9 / task.-clock  *[0-9][0-9]*[.][0-9]"
run 0 "$tmp/o" "$tmp/e" stat -M 'page\-faults / task\-clock' --json -- true
check "stat -M --json (on stderr)" json "$tmp/e" "len(d['metrics'])==1 and d['metrics'][0]['value'] is not None"

# Privilege modes as an unprivileged user (uid 65534), perf stat as the oracle: an event perf
# labels ':u' (the kernel refused kernel mode and perf fell back to user mode) pmu labels so too,
# in text and JSON, with its exclude flags; an event written ':k' that perf cannot open, pmu
# refuses with one sentence naming perf_event_paranoid and the fix.
nobody=
[ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
evs="context-switches,task-clock,page-faults:u,{cpu-clock,minor-faults}"
if [ -z "$nobody" ]; then
	echo "note: not root, or no setpriv: the unprivileged mode checks did not run"
elif ! command -v perf > /dev/null || ! $nobody perf stat -x, -e "$evs" -- true > /dev/null 2> "$tmp/perf-u.csv" ||
     ! grep -q "task-clock:u" "$tmp/perf-u.csv"; then
	echo "note: perf does not count user mode only as uid 65534 here (perf_event_paranoid < 2?); the mode checks did not run"
else
	# a directory uid 65534 can write its -o files in
	chmod 711 "$tmp" && mkdir -m 777 "$tmp/nobody"
	# uid 65534 may not reach the build tree (a clone in /root, mode 700): then it runs a copy of
	# pmu and libpmu from a directory it can read (checked, not assumed)
	if ! $nobody env "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}" "$PMU" --version > /dev/null 2>&1; then
		mkdir -m 755 "$tmp/nobody-bin" && cp "$PMU" "$tmp/nobody-bin/pmu" &&
			{ [ -z "${LD_LIBRARY_PATH:-}" ] || cp -P "${LD_LIBRARY_PATH%%:*}"/libpmu.so* "$tmp/nobody-bin/"; } &&
			chmod -R a+rX "$tmp/nobody-bin" || echo "FAIL (setup): cannot copy pmu for uid 65534"
		nobody="$nobody env LD_LIBRARY_PATH=$tmp/nobody-bin"
		PMU_NOBODY=$tmp/nobody-bin/pmu
	fi
	$nobody $WRAP "${PMU_NOBODY:-$PMU}" stat --json -o "$tmp/nobody/u.json" -e "$evs" -- true > "$tmp/o" 2> "$tmp/e"
	check "unprivileged stat --json: exit 0" test $? = 0
	check "unprivileged: each row labelled and flagged as perf labels it" $PY - "$tmp/perf-u.csv" "$tmp/nobody/u.json" "$evs" <<'PYEOF'
import csv, json, sys
perf = [r[2] for r in csv.reader(open(sys.argv[1])) if len(r) > 2 and r[0][:1].isdigit()]
d = json.load(open(sys.argv[2]))
written = [w.strip('{}') for w in sys.argv[3].split(',')]
ok = [e['name'] for e in d['events']] == perf
for e, w in zip(d['events'], written):
    uo = e['name'].endswith(':u')
    ok = ok and (e['exclude_kernel'], e['exclude_hv'], e['exclude_user']) == (uo, uo, False)
    ok = ok and e['user_fallback'] == (e['name'] != w)
print("perf:", perf, "pmu:", [(e['name'], e['exclude_kernel'], e['user_fallback']) for e in d['events']])
sys.exit(0 if ok else 1)
PYEOF
	if $PY -c "import jsonschema" 2> /dev/null; then
		check "unprivileged stat --json validates against the schema" $PY -c "import json, jsonschema, sys; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))" "$tmp/nobody/u.json" "$SRC/tools/schemas/libpmu-stat-1.schema.json"
	fi
	run 0 "$tmp/o" "$tmp/e" report "$tmp/nobody/u.json"
	check "report of the unprivileged run: task-clock:u in msec" has "$tmp/o" "msec  *task-clock:u  *#.*CPUs utilized"
	$nobody $WRAP "${PMU_NOBODY:-$PMU}" stat -e "$evs" -- true > "$tmp/o" 2> "$tmp/e"
	check "unprivileged text rows: task-clock:u" has "$tmp/e" "msec  *task-clock:u "
	check "unprivileged text rows: the note says user mode only" has "$tmp/e" "note: context-switches:u, task-clock:u, cpu-clock:u, minor-faults:u: user mode only"
	# said once, in the note under the counts (it was a warning per event, four here, then one warning per
	# set, and the note: issue 39 item 11); -p of a process of 3 threads opens 3 sets: no warning either
	check "unprivileged: no warning repeats the note (one statement of user mode only)" test "$(grep -c '^pmu: warning: .*user mode only' "$tmp/e")" = 0
	$nobody $PY -c 'import threading, time
for _ in range(2): threading.Thread(target=time.sleep, args=(5,), daemon=True).start()
time.sleep(5)' &
	tpid=$!
	sleep 0.3
	$nobody $WRAP "${PMU_NOBODY:-$PMU}" stat -p $tpid -e task-clock --timeout 100 > "$tmp/o" 2> "$tmp/e"
	kill $tpid; wait $tpid 2> /dev/null
	check "unprivileged -p of 3 threads: no warning, one note" test "$(grep -c 'warning' "$tmp/e")/$(grep -c 'note: task-clock:u: user mode only' "$tmp/e")" = 0/1
	$nobody $WRAP "${PMU_NOBODY:-$PMU}" stat -M 'page\-faults / task\-clock' --json -o "$tmp/nobody/m.json" -- true > "$tmp/o" 2> "$tmp/e"
	check "unprivileged -M: the metric finds page-faults:u and task-clock:u" json "$tmp/nobody/m.json" "d['metrics'][0]['value'] is not None and d['events'][0]['name'].endswith(':u')"
	$nobody perf stat -e context-switches:k -- true > /dev/null 2>&1
	perf_st=$?
	$nobody $WRAP "${PMU_NOBODY:-$PMU}" stat -e context-switches:k -- true > "$tmp/o" 2> "$tmp/e"
	st=$?
	check "':k' refused as perf refuses it (perf exit $perf_st, pmu exit $st)" test $perf_st != 0 -a $st = 1
	check "':k' refused: the sentence names the setting and the fix" has "$tmp/e" "perf_event_paranoid=[0-9]* forbids.*'context-switches:u'"
	check "':k' refused: one line" test "$(wc -l < "$tmp/e")" = 1
	# The advice after a refusal allows what was asked, by the kernel's rules (kernel/events/core.c,
	# Documentation/admin-guide/perf-security.rst): a whole CPU needs perf_event_paranoid <= 0, kernel
	# mode <= 1, user mode of one's own processes <= 2; another user's process needs ptrace rights
	# (CAP_SYS_PTRACE) or CAP_PERFMON at any level. A spelling it offers must count (run as offered).
	paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
	advice_ok() { # case (cpu|kernel|other), stderr file: the level named allows the request, no modifier repeated
		$PY - "$1" "$2" "$paranoid" <<'PYEOF'
import re, sys
case, text, paranoid = sys.argv[1], open(sys.argv[2]).read(), int(sys.argv[3])
levels = [int(x) for x in re.findall(r'perf_event_paranoid=(-?\d+)\b(?! forbids)', text) if int(x) != paranoid]
need = {'cpu': 0, 'kernel': 1}.get(case)
ok = not re.search(r":u:u|/u:u|:k:u", text)
if case == 'other':
    ok = ok and not levels and re.search(r'CAP_SYS_PTRACE|ptrace', text) is not None
else:
    ok = ok and levels and all(l <= need for l in levels)
print("advice (%s, paranoid %d): %s" % (case, paranoid, text.strip()))
sys.exit(0 if ok else 1)
PYEOF
	}
	todo="lib/set.c open_error() builds this sentence (the h14-events branch, e66b625, gives it the kernel's rules)"
	for a in "-a -e task-clock:u" "-a -e task-clock" "-C 0 -e task-clock:u"; do
		$nobody $WRAP "${PMU_NOBODY:-$PMU}" stat $a --timeout 100 > "$tmp/o" 2> "$tmp/e"
		check "unprivileged stat $a: refused, exit 1" test $? = 1
		check "unprivileged stat $a: the advice names paranoid <= 0 (CPU-wide), no modifier repeated" advice_ok cpu "$tmp/e"
	done
	$nobody $WRAP "${PMU_NOBODY:-$PMU}" stat -e task-clock:k -- true > "$tmp/o" 2> "$tmp/e"
	check "unprivileged stat -e task-clock:k: the advice names paranoid <= 1" advice_ok kernel "$tmp/e"
	offered=$(grep -o "with '[^']*'" "$tmp/e" | sed "s/with '//; s/'$//")
	if [ -n "$offered" ]; then
		$nobody $WRAP "${PMU_NOBODY:-$PMU}" stat -e "$offered" -- true > /dev/null 2>&1
		check "unprivileged: the spelling offered ('$offered') counts" test $? = 0
	fi
	# another user's process (init, root's): no paranoid level allows it; perf refuses it too
	for a in "-e task-clock:u" "-e task-clock"; do
		$nobody $WRAP "${PMU_NOBODY:-$PMU}" stat -p 1 $a --timeout 100 > "$tmp/o" 2> "$tmp/e"
		check "unprivileged stat -p 1 $a: refused, exit 1" test $? = 1
		xcheck "$todo" "unprivileged stat -p 1 $a: the advice names ptrace rights or CAP_PERFMON, no paranoid level" advice_ok other "$tmp/e"
		offered=$(grep -o "with '[^']*'" "$tmp/e" | sed "s/with '//; s/'$//")
		$nobody perf stat -p 1 -e "${offered:-task-clock:u}" --timeout 100 > /dev/null 2>&1
		perf_st=$?
		xcheck "$todo" "unprivileged stat -p 1 $a: no spelling offered that perf cannot count either (offered '${offered}', perf exit $perf_st)" test -z "$offered" -o $perf_st = 0
	done
	# ---- issue 39, item 7 (branch i39-stat): cycles with task-clock, no mode written, as uid 65534. The
	# kernel refuses kernel mode (paranoid 2) and, without a hardware PMU, cycles in user mode too
	# (ENOENT): perf prints cycles:u <not supported>, counts task-clock:u and exits 0; pmu exited 1 with
	# no counts, blaming a "cpu PMU" that cannot count user mode only. perf's rows are the oracle.
	$nobody perf stat -x, -e cycles,task-clock -- true > /dev/null 2> "$tmp/i39-perf.csv"
	perf_st=$?
	$nobody $WRAP "${PMU_NOBODY:-$PMU}" stat -x, -e cycles,task-clock -- true > "$tmp/o" 2> "$tmp/i39-pmu.csv"
	st=$?
	check "i39: unprivileged stat -e cycles,task-clock: exit $st, perf's $perf_st" test $st = 0 -a $perf_st = 0
	check "i39: ... the rows perf prints: names, and which are <not supported>" $PY - "$tmp/i39-perf.csv" "$tmp/i39-pmu.csv" <<'PYEOF'
import csv, sys
rows = lambda p: [(r[2], r[0] == '<not supported>', r[0][:1].isdigit()) for r in csv.reader(open(p)) if len(r) > 2]
a, b = rows(sys.argv[1]), rows(sys.argv[2])
print("perf:", a, "pmu:", b)
sys.exit(0 if a and a == b and all(s or n for _, s, n in b) else 1)
PYEOF
	$nobody $WRAP "${PMU_NOBODY:-$PMU}" stat -e cycles,task-clock -- true > "$tmp/o" 2> "$tmp/e"
	if ! $nobody perf stat -x, -e cycles -- true 2>&1 | grep -q '^[0-9]'; then
		check "i39: no hardware PMU: said so, not a 'cpu PMU' that cannot count user mode" has "$tmp/e" "no hardware PMU is exposed"
		check "i39: ... no word of user mode only for cycles" not_has "$tmp/e" "cannot count user mode only"
	fi
	# ---- end of issue 39, item 7
fi

# region reports of two processes (%p) merged by pmu report
PMU_FORMAT=json PMU_OUTPUT="$tmp/reg-%p.json" "$BUILD/examples/matmul" 64 > /dev/null
PMU_FORMAT=json PMU_OUTPUT="$tmp/reg-%p.json" "$BUILD/examples/matmul" 64 > /dev/null
check "one region file per process" test "$(ls "$tmp"/reg-*.json | wc -l)" = 2
run 0 "$tmp/o" "$tmp/e" report "$tmp"/reg-*.json
check "region files merged: 2 calls per region" has "$tmp/o" "matmul i-k-j  *2 "
check "merged header" has "$tmp/o" "Regions from 2 files"
run 2 "$tmp/o" "$tmp/e" report "$(ls "$tmp"/reg-*.json | head -1)" "$SRC/tests/reports/engine.json"
check "a region report and a stat file: one kind at a time" has "$tmp/e" "is a region report and .* a 'pmu stat --json' file: report one kind at a time"
# 40 events (was: 32 kept, the rest dropped) and names of 140 characters alike in 127 (were: cut, merged)
$PY - "$(ls "$tmp"/reg-*.json | head -1)" "$tmp/reg40.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
ev = {"value": 7, "scaled": 7, "enabled_ns": 10, "running_ns": 10, "confidence": 1.0, "min": 7, "max": 7}
d['events'] = ['ev%02d' % i for i in range(40)]
d['regions'] = [{"name": "R" * 139 + c, "calls": 1, "events": {e: dict(ev, value=i + 1) for i, e in enumerate(d['events'])},
                 "metrics": {}, "threads": []} for c in "AB"]
json.dump(d, open(sys.argv[2], 'w'))
PYEOF
run 0 "$tmp/o" "$tmp/e" report "$tmp/reg40.json"
check "region report: all 40 event columns" test "$(grep -o ' ev[0-9][0-9]' "$tmp/o" | wc -l)" = 40
check "region report: the 40th event's count (40) in each row" test "$(grep -c 'R\{139\}[AB]  *1  *1 .* 40  *$' "$tmp/o")" = 2

# -r: repeated runs, mean and perf's "+-" (standard error of the mean); -I: counts every interval
run 0 "$tmp/o" "$tmp/e" stat -r 3 -e page-faults -- "$BUILD/examples/workload" 4
check "stat -r: runs in the header" has "$tmp/e" "'.*workload 4' (3 runs):"
check "stat -r: +- column" has "$tmp/e" "page-faults .*( +- *[0-9.]*% )"
run 0 "$tmp/o" "$tmp/e" stat -r 2 --json -o "$tmp/r.json" -e page-faults -- "$BUILD/examples/workload" 4
check "stat -r --json: runs, mean of >= 1024 faults (4 MiB touched), stddev" json "$tmp/r.json" "d['runs']==2 and d['events'][0]['value']>=1024 and 0<=d['events'][0]['stddev_pct']<50"
run 2 "$tmp/o" "$tmp/e" stat -r -1 -- true
check "stat -r -1 refused (-r 0: until Ctrl-C)" has "$tmp/e" "-r wants a number of runs"
run 2 "$tmp/o" "$tmp/e" stat -r 2 -I 100 -- true
check "stat -r with -I refused" has "$tmp/e" "do not go together"
run 0 "$tmp/o" "$tmp/e" stat -I 100 -e task-clock,page-faults -- sleep 0.45
check "stat -I: header" has "$tmp/e" "time (s) .*counts  event"
check "stat -I: a line per interval (0.45 s, 100 ms: 4 expected, 2 or more required)" test "$(grep -c '^ *[0-9.]* .*msec  task-clock$' "$tmp/e")" -ge 2
check "stat -I: no final table (as perf: --summary asks for it)" not_has "$tmp/e" "Performance counter stats for 'sleep 0.45'"

# -p: attach to a running process. It waits for a file (created once pmu holds its perf_event
# descriptors, i.e. has attached), then execs the workload, which touches 4 MiB (>= 1024 page
# faults) and exits: the count ends with the process. No timing assumption.
sh -c "while [ ! -e '$tmp/go' ]; do sleep 0.02; done; exec '$BUILD/examples/workload' 4" > /dev/null &
target=$!
$WRAP "$PMU" stat -p $target -e page-faults,task-clock --json -o "$tmp/p.json" > "$tmp/o" 2> "$tmp/e" &
pmupid=$!
for _ in $(seq 1200); do ls -l /proc/$pmupid/fd 2>/dev/null | grep -q perf_event && break; sleep 0.05; done
touch "$tmp/go"
wait $pmupid
check "stat -p: exit status 0" test $? = 0
check "stat -p: the process's page faults (>= 1024) until it exits" json "$tmp/p.json" "d['command']==['-p','$target'] and d['events'][0]['value']>=1024 and d['events'][1]['value']>0"
wait $target 2>/dev/null
# ... or while a command runs (a busy loop, counted for 0.3 s)
sh -c 'while :; do :; done' &
target=$!
run 0 "$tmp/o" "$tmp/e" stat -p $target -e task-clock -- sleep 0.3
kill $target 2>/dev/null
check "stat -p -- CMD: header" has "$tmp/e" "Performance counter stats for 'process $target while sleep 0.3'"
check "stat -p -- CMD: the loop's CPU time counted" has "$tmp/e" "msec  *task-clock"
run 1 "$tmp/o" "$tmp/e" stat -p 999999999 -- true
check "stat -p: no such process" has "$tmp/e" "no process 999999999 to attach to"
run 2 "$tmp/o" "$tmp/e" stat -p 1 -r 2
check "stat -p with -r refused" has "$tmp/e" "-p, -t, -a and -C count once: -r does not apply"

# -a: every CPU. cpu-clock counts each CPU's time while enabled, idle or not: about the
# elapsed time times the CPUs (needs perf_event_paranoid <= 0 or CAP_PERFMON; root in CI)
if $WRAP "$PMU" stat -a -e cpu-clock -- true > /dev/null 2>&1; then
	run 0 "$tmp/o" "$tmp/e" stat -a -e cpu-clock,context-switches --json -o "$tmp/a.json" -- sleep 0.3
	check "stat -a: cpu-clock = elapsed x CPUs (within 10%)" json "$tmp/a.json" "d['command']==['sleep','0.3'] and 0.9*d['elapsed_ns']*$(nproc) <= d['events'][0]['value'] <= 1.1*d['elapsed_ns']*$(getconf _NPROCESSORS_CONF)"
	run 0 "$tmp/o" "$tmp/e" stat -a -A -x, -e cpu-clock -- sleep 0.2
	check "stat -a -A: a row per CPU (CPU0..CPU$(($(nproc) - 1))), each about the elapsed time" $PY - "$tmp/e" "$(nproc)" <<'PYEOF'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r]
print(rows)
ok = [r[0] for r in rows] == ['CPU%d' % i for i in range(int(sys.argv[2]))]
ok = ok and all(150 <= float(r[1]) <= 1000 for r in rows)   # msec of a 0.2 s run
sys.exit(0 if ok else 1)
PYEOF
	# duration_time is wall-clock time: counted once, not once per CPU (the old code summed it over the CPUs)
	run 0 "$tmp/o" "$tmp/e" stat -a -e duration_time,cpu-clock --json -o "$tmp/ad.json" -- sleep 0.2
	check "stat -a: duration_time the elapsed time, not elapsed x CPUs" json "$tmp/ad.json" "0.2e9 <= d['events'][0]['value'] <= d['elapsed_ns'] * 1.02 + 2e6"
	run 0 "$tmp/o" "$tmp/e" stat -a -I 100 --json -o "$tmp/ai.json" -e cpu-clock -- sleep 0.25
	check "stat -a -I: intervals (2 or more), summing to the total" json "$tmp/ai.json" "len(d['intervals']) >= 2 and sum(i['events'][0]['value'] for i in d['intervals']) == d['events'][0]['value']"
	run 0 "$tmp/o" "$tmp/e" stat -C 0 --json -o "$tmp/c0.json" -e cpu-clock -- sleep 0.2
	check "stat -C 0: one CPU's time (about the elapsed, within 10%)" json "$tmp/c0.json" "d['command'] == ['sleep', '0.2'] and 0.9 * d['elapsed_ns'] <= d['events'][0]['value'] <= 1.1 * d['elapsed_ns']"
else
	echo "note: CPU-wide counting is not permitted here (perf_event_paranoid > 0, no CAP_PERFMON); -a not tested"
fi
run 2 "$tmp/o" "$tmp/e" stat -a -p 1 -- true
check "stat -a with -p refused" has "$tmp/e" "choose one"

# perf's options through getopt_long: attached and long spellings give the same events
for spell in "-etask-clock -epage-faults" "--event=task-clock --events=page-faults" "-e task-clock,page-faults"; do
	run 0 "$tmp/o" "$tmp/e" stat $spell --json -o "$tmp/sp.json" -- true
	check "stat $spell: task-clock and page-faults counted" json "$tmp/sp.json" "[e['name'] for e in d['events']] == ['task-clock', 'page-faults']"
done
for spell in "-r3" "-r 3" "--repeat=3" "--repeat 3"; do
	run 0 "$tmp/o" "$tmp/e" stat $spell -e page-faults --json -o "$tmp/sp.json" -- true
	check "stat $spell: 3 runs" json "$tmp/sp.json" "d['runs'] == 3"
done
run 2 "$tmp/o" "$tmp/e" stat --no-such-option -- true
check "unknown option: named" has "$tmp/e" "^pmu stat: unknown option '--no-such-option'$"
check "unknown option: the usage line follows" has "$tmp/e" "^usage: pmu stat "
run 2 "$tmp/o" "$tmp/e" stat -Z -- true
check "unknown short option: named" has "$tmp/e" "^pmu stat: unknown option '-Z'$"
run 2 "$tmp/o" "$tmp/e" stat -e
check "missing argument: named with what it wants" has "$tmp/e" "^pmu stat: option '-e' needs an argument (EVENTS)$"
run 2 "$tmp/o" "$tmp/e" stat --timeout
check "missing argument of a long option: named" has "$tmp/e" "^pmu stat: option '--timeout' needs an argument (MS)$"
# options end at the command: its own options are its
run 0 "$tmp/o" "$tmp/e" stat -e task-clock ls -d /
check "the command's options are the command's (ls -d /)" test "$(cat "$tmp/o")" = /
run 2 "$tmp/o" "$tmp/e" list --bogus
check "list: unknown option, exit 2" has "$tmp/e" "^pmu list: unknown option '--bogus'$"
run 2 "$tmp/o" "$tmp/e" resolve --bogus cycles
check "resolve: unknown option, exit 2" has "$tmp/e" "^pmu resolve: unknown option '--bogus'$"

# -I: every row of one interval has the same time; the last, partial interval is printed (sleep 0.35,
# 100 ms: 3 full and one of about 50 ms; 3 or more, as a slow start (valgrind) may merge two); the
# intervals add up to the whole run's counts exactly
run 0 "$tmp/o" "$tmp/e" stat -I 100 -x, -e task-clock,page-faults,context-switches -- sleep 0.35
check "-I -x: 3 rows per time stamp, 3 or more stamps, the first at 0.1 s, the last at the end (0.35 s or later)" $PY - "$tmp/e" <<'PYEOF'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r and not r[0].startswith('#')]  # -o: '# started on'
stamps = {}
for r in rows:
    stamps.setdefault(float(r[0]), []).append(r[3])
t = sorted(stamps)
print("stamps:", t, "events:", [stamps[x] for x in t])
ok = all(v == ['task-clock', 'page-faults', 'context-switches'] for v in stamps.values())
ok = ok and len(t) >= 3 and 0.1 <= t[0] < 0.3 and t[-1] >= 0.35
sys.exit(0 if ok else 1)
PYEOF
run 0 "$tmp/o" "$tmp/e" stat -I 100 --json -o "$tmp/iv.json" -e task-clock,page-faults -- sleep 0.25
check "-I --json: the intervals sum to the totals, the last interval ends with the run" json "$tmp/iv.json" "len(d['intervals']) >= 2 and all(sum(i['events'][k]['value'] for i in d['intervals']) == d['events'][k]['value'] for k in (0, 1)) and abs(d['intervals'][-1]['time_s'] * 1e9 - d['elapsed_ns']) < 1e6"
run 0 "$tmp/o" "$tmp/e" stat -I 100 -j -e task-clock -- sleep 0.15
check "-I -j: a JSON object per interval, with its time" $PY -c "$STRICT
import sys
d = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
sys.exit(0 if len(d) >= 1 and d[-1]['interval'] >= 0.15 and all(x['event'] == 'task-clock' for x in d) else 1)" "$tmp/e"
# -I with -p: a running process's intervals, until it ends
sh -c "while [ ! -e '$tmp/go2' ]; do sleep 0.02; done; sleep 0.3" &
target=$!
$WRAP "$PMU" stat -p $target -I 100 -x, -e task-clock,context-switches -o "$tmp/ip.csv" > "$tmp/o" 2> "$tmp/e" &
pmupid=$!
for _ in $(seq 1200); do ls -l /proc/$pmupid/fd 2>/dev/null | grep -q perf_event && break; sleep 0.05; done
touch "$tmp/go2"
wait $pmupid
check "-I -p: exit 0" test $? = 0
check "-I -p: intervals until the process ended (2 or more stamps, 2 rows each)" $PY - "$tmp/ip.csv" <<'PYEOF'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r and not r[0].startswith('#')]  # -o: '# started on'
stamps = {}
for r in rows:
    stamps.setdefault(r[0], []).append(r[3])
print(stamps)
sys.exit(0 if len(stamps) >= 2 and all(len(v) == 2 for v in stamps.values()) else 1)
PYEOF
wait $target 2>/dev/null

# --timeout MS: counting stops after MS, the command gets SIGTERM (perf's meaning); exit 0
run 0 "$tmp/o" "$tmp/e" stat --timeout 300 --json -o "$tmp/to.json" -e task-clock -- sleep 20
check "--timeout 300: elapsed 0.3 s (within 0.3-2 s), exit status 0 in the file" json "$tmp/to.json" "0.3e9 <= d['elapsed_ns'] < 2e9 and d['exit_status'] == 0 and any('--timeout' in n for n in d['notes'])"
run 2 "$tmp/o" "$tmp/e" stat --timeout 5 -- true
check "--timeout under 10 ms refused" has "$tmp/e" "--timeout wants milliseconds (10 or more)"
# -D MS (perf's --delay): the first MS are not counted. The workload touches 8 MiB (2048 page faults)
# at once, then sleeps; counting from 1 s on leaves its faults out (sh's own are far fewer than 1024)
# (the counted time is the command's, timed here around pmu, less the delay: a loaded machine, or ASan,
# stretches both alike)
t0=$(date +%s%N)
run 0 "$tmp/o" "$tmp/e" stat -D 1000 --json -o "$tmp/dl.json" -e page-faults -- sh -c "$BUILD/examples/workload 8 > /dev/null; sleep 1.5"
t1=$(date +%s%N)
run 0 "$tmp/o" "$tmp/e" stat --json -o "$tmp/nodl.json" -e page-faults -- sh -c "$BUILD/examples/workload 8 > /dev/null; sleep 0.1"
check "-D 1000: the workload's 2048 faults before it not counted (< 1024), without -D counted (>= 2048); the counted time at most the command's less 0.9 s" $PY - "$tmp/dl.json" "$tmp/nodl.json" "$((t1 - t0))" <<'PYEOF'
import json, sys
dl, nodl = (json.load(open(f)) for f in sys.argv[1:3])
wall = int(sys.argv[3])
print("page-faults with -D 1000: %d (elapsed %.2f s of the command's %.2f s); without: %d" % (dl['events'][0]['value'], dl['elapsed_ns'] / 1e9, wall / 1e9, nodl['events'][0]['value']))
sys.exit(0 if dl['events'][0]['value'] < 1024 <= 2048 <= nodl['events'][0]['value'] and dl['elapsed_ns'] <= wall - 0.9e9 else 1)
PYEOF
# --no-inherit: the children of the command are not counted (the workload's 2048 faults are its own)
run 0 "$tmp/o" "$tmp/e" stat --no-inherit --json -o "$tmp/ni.json" -e page-faults -- sh -c "$BUILD/examples/workload 8 > /dev/null; true"
check "--no-inherit: sh counted without the workload it started (< 1024 faults)" json "$tmp/ni.json" "d['events'][0]['value'] < 1024"
# --per-thread and -t: a process of 4 threads (python's); one row per thread, each thread of /proc/PID/task
$PY -c 'import threading, time
for _ in range(3): threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
time.sleep(30)' &
target=$!
for _ in $(seq 100); do [ "$(ls /proc/$target/task 2>/dev/null | wc -l)" = 4 ] && break; sleep 0.05; done
tids=$(ls /proc/$target/task | sort -n | tr '\n' ' ')
run 0 "$tmp/o" "$tmp/e" stat -p $target --per-thread -x, -e task-clock,context-switches -o "$tmp/pt.csv" -- sleep 0.1
check "--per-thread: a row per event of each of the 4 threads ($tids), labelled comm-TID" $PY - "$tmp/pt.csv" $tids <<'PYEOF'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r and not r[0].startswith('#')]  # -o: '# started on'
labels = sorted({r[0] for r in rows}, key=lambda l: int(l.rsplit('-', 1)[1]))
print("labels:", labels)
ok = [l.rsplit('-', 1)[1] for l in labels] == sys.argv[2:] and len(rows) == 2 * len(labels)
sys.exit(0 if ok else 1)
PYEOF
tid=$(echo $tids | cut -d' ' -f2)
run 0 "$tmp/o" "$tmp/e" stat -t $tid --timeout 100 --json -o "$tmp/t.json" -e task-clock
check "-t TID --timeout 100: counted for 0.1 s, the document names the thread" json "$tmp/t.json" "d['command'] == ['-t', '$tid'] and d['events'][0]['supported'] and 0.1e9 <= d['elapsed_ns'] < 1e9"
run 2 "$tmp/o" "$tmp/e" stat --per-thread -- true
check "--per-thread with a command: refused, said" has "$tmp/e" "--per-thread gives a row per thread of -p or -t"
kill $target; wait $target 2>/dev/null

# task-clock agrees with the CPU time the kernel charged the same run (wait4 rusage, user + sys).
# Both come from the scheduler's runtime of the command; rusage also has the few ms the forked
# child spends before exec (more under valgrind), which task-clock (enabled on exec) leaves out.
# In a virtual machine task-clock also holds the time the hypervisor stole while the command was
# on a CPU, which the scheduler's runtime excludes (seen: 2-3 ticks of steal, 3-6 ms more
# task-clock, on a loaded 2-CPU VM): the machine's steal during the run (every CPU's, /proc/stat)
# bounds that part from above (steal_bound_ns, checks.sh).
# The child's time before exec is measured in the same way just before: pmu stat of 'true', whose
# user + sys is almost all that time (under valgrind 35-42 ms were seen, on a loaded 2-CPU VM: more
# than a fixed allowance).
run 0 "$tmp/o" "$tmp/e" stat -e task-clock --json -o "$tmp/tc0.json" -- true
steal_mark
run 0 "$tmp/o" "$tmp/e" stat -e task-clock --json -o "$tmp/tc.json" -- "$BUILD/examples/workload" 16
steal_ns=$(steal_bound_ns)
check "task-clock matches the run's user + sys time (+ the machine's steal time)" $PY - "$tmp/tc.json" "$steal_ns" "$tmp/tc0.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
steal = int(sys.argv[2])
d0 = json.load(open(sys.argv[3]))
pre = max(0, d0['user_ns'] + d0['sys_ns'] - d0['events'][0]['value'])
tc = d['events'][0]['value']
cpu = d['user_ns'] + d['sys_ns']
print("task-clock %.2f ms, user+sys %.2f ms, steal during the run below %.0f ms; 'true' %.2f ms before exec"
      % (tc / 1e6, cpu / 1e6, steal / 1e6, pre / 1e6))
sys.exit(0 if 0.9 * (cpu - 1.5 * pre) - 20e6 <= tc <= 1.02 * cpu + 2e6 + steal and d['elapsed_ns'] >= tc * 0.5 else 1)
PYEOF

# page faults agree with perf stat (same workload, run one after the other; the workload's own
# pages dominate, so within 2%). Timings of two separate runs are not compared: they are noise.
if command -v perf >/dev/null && perf stat -x, -e page-faults -- true >/dev/null 2>&1; then
	perf stat -x, -e page-faults -- "$BUILD/examples/workload" 16 2> "$tmp/perf.csv" > /dev/null
	run 0 "$tmp/o" "$tmp/e" stat -e page-faults --json -o "$tmp/pmu.json" -- "$BUILD/examples/workload" 16
	check "page faults agree with perf stat" $PY - "$tmp/perf.csv" "$tmp/pmu.json" <<'PYEOF'
import csv, json, sys
perf = {}
for row in csv.reader(open(sys.argv[1])):
    if len(row) > 2 and row[0].isdigit():
        perf[row[2]] = float(row[0])
ours = {e['name']: e['value'] for e in json.load(open(sys.argv[2]))['events']}
pf = abs(ours['page-faults'] - perf['page-faults']) / perf['page-faults']
print("page-faults: perf %d, pmu %d (%.2f%%)" % (perf['page-faults'], ours['page-faults'], 100 * pf))
sys.exit(0 if pf <= 0.02 else 1)
PYEOF
else
	echo "note: perf is not usable here; the comparison with perf stat did not run"
fi

# Ctrl-C: the command gets SIGINT, pmu stat prints what was counted and exits 128+2
if command -v setsid >/dev/null; then
	# a non-interactive shell starts background jobs with SIGINT ignored: restore it, as a terminal would have it
	env --default-signal=INT,QUIT setsid $WRAP "$PMU" stat -e task-clock -- sleep 10 > "$tmp/o" 2> "$tmp/e" &
	spid=$!
	# wait until the command runs (pmu stat is counting it), however slow the start (valgrind)
	for _ in $(seq 300); do
		pgrep -g "$spid" -x sleep > /dev/null && break
		sleep 0.1
	done
	sleep 0.2
	kill -INT -- -"$spid" 2>/dev/null
	wait "$spid"
	st=$?
	check "Ctrl-C: exit status 130 (got $st)" test "$st" = 130
	check "Ctrl-C: partial counts printed" has "$tmp/e" "terminated by signal 2"
	check "Ctrl-C: the table is there" has "$tmp/e" "task-clock"
fi

# SIGTERM (kill, not a terminal) to pmu stat: passed on to the command, which ends; the counts
# up to then are printed and pmu exits as the command did (128+15); no command is left behind
$WRAP "$PMU" stat -e task-clock -- sleep 20 > "$tmp/o" 2> "$tmp/e" &
spid=$!
cpid=
for _ in $(seq 300); do cpid=$(pgrep -P "$spid" -x sleep) && break; sleep 0.1; done
sleep 0.2
kill -TERM "$spid"
wait "$spid"
st=$?
check "SIGTERM: exit status 143 (got $st)" test "$st" = 143
check "SIGTERM: the command ($cpid) is gone, not orphaned" test -n "$cpid" -a ! -d "/proc/$cpid"
check "SIGTERM: the counts up to then" has "$tmp/e" "task-clock"
check "SIGTERM: said" has "$tmp/e" "'sleep 20' terminated by signal 15 (SIGTERM); counts up to then"
# A count in fractions of its unit (sysfs events/NAME.scale: RAPL's energy-pkg counts 2^-32 Joules): printed
# multiplied into the unit, as perf prints it, never the raw count under the unit's name. A written machine
# whose PMU "fakepwr" has the software PMU's type (1) and an event of config 0 (cpu-clock, in ns) in units of
# 0.5 "Joules": counted beside cpu-clock, it must show half cpu-clock's nanoseconds in Joules
sc=$tmp/scaled-machine
cp -R "$SRC/tests/fixtures/vm-nopmu" "$sc"
chmod -R u+w "$sc"
d=$sc/sys/bus/event_source/devices/fakepwr
mkdir -p "$d/format" "$d/events"
echo 1 > "$d/type"; echo "config:0-63" > "$d/format/event"; echo "event=0x0" > "$d/events/energy"
echo Joules > "$d/events/energy.unit"; echo 0.5 > "$d/events/energy.scale"
echo "event=0x0" > "$d/events/badscale"; echo Joules > "$d/events/badscale.unit"; echo "half" > "$d/events/badscale.scale"
PMU_SYSFS_ROOT=$sc/sys run 0 "$tmp/o" "$tmp/e" resolve --json fakepwr/energy/ fakepwr/badscale/
check "scaled sysfs event: flagged, its unit kept" json "$tmp/o" "'scaled' in d[0]['flags'] and d[0]['unit'] == 'Joules'"
check "a scale that is no number: no unit, not flagged" json "$tmp/o" "'scaled' not in d[1]['flags'] and d[1]['unit'] == ''"
check "... and said" has "$tmp/e" "badscale: ignoring its unit and scale: the scale file holds 'half'"
PMU_SYSFS_ROOT=$sc/sys run 0 "$tmp/o" "$tmp/e" stat -x, -e fakepwr/energy/,cpu-clock -- $PY -c "sum(range(2000000))"
check "stat -x, of a scaled event: two decimals, its unit" grep -q "^[0-9]*\.[0-9][0-9],Joules,fakepwr/energy/," "$tmp/e"
check "... half of cpu-clock's ns, counted over the same command (within 1%)" $PY -c "
import csv, sys
rows = {r[2]: float(r[0]) for r in csv.reader(open(sys.argv[1])) if len(r) > 2}
j, ms = rows['fakepwr/energy/'], rows['cpu-clock']
sys.exit(0 if ms > 0 and abs(j / (ms * 1e6 * 0.5) - 1) < 0.01 else 1)" "$tmp/e"
PMU_SYSFS_ROOT=$sc/sys run 0 "$tmp/o" "$tmp/e" stat --json -o "$tmp/scaled.json" -e fakepwr/energy/ -- true
check "stat --json: the raw value, the unit and the factor" json "$tmp/scaled.json" \
	"[(e['unit'], e['unit_scale'], type(e['value'])) for e in d['events']] == [('Joules', 0.5, int)]"
run 0 "$tmp/o" "$tmp/e" report "$tmp/scaled.json"
want=$($PY -c "import json, sys; e = json.load(open(sys.argv[1]))['events'][0]; print('%.2f Joules' % (e['scaled'] * 0.5))" \
	"$tmp/scaled.json")
check "report of it: the value times the factor, in its unit ($want)" has "$tmp/o" "^ *$want  *fakepwr/energy/"
PMU_SYSFS_ROOT=$sc/sys run 0 "$tmp/o" "$tmp/e" stat -e fakepwr/energy/ -- true
check "stat: the text row in Joules, two decimals" grep -q "^ *[0-9]*\.[0-9][0-9] Joules  *fakepwr/energy/" "$tmp/e"
# ... and a table event's ScaleUnit (perf's uncore tables: "64Bytes"), here a quarter of a "Joule" per count
mkdir -p "$tmp/scaled-table"
cat > "$tmp/scaled-table/fake.json" <<'JSON'
[ { "EventName": "FAKE.ENERGY", "EventCode": "0x0", "Unit": "fakepwr", "ScaleUnit": "0.25Joules",
    "BriefDescription": "cpu-clock in quarters of a Joule" } ]
JSON
PMU_SYSFS_ROOT=$sc/sys PMU_EVENTS_PATH=$tmp/scaled-table run 0 "$tmp/o" "$tmp/e" stat -x, -e FAKE.ENERGY,cpu-clock \
	-- $PY -c "sum(range(2000000))"
check "table event with ScaleUnit 0.25Joules: a quarter of cpu-clock's ns in Joules (within 1%)" $PY -c "
import csv, sys
rows = {r[2]: (float(r[0]), r[1]) for r in csv.reader(open(sys.argv[1])) if len(r) > 2}
(j, unit), (ms, _) = rows['FAKE.ENERGY'], rows['cpu-clock']
sys.exit(0 if unit == 'Joules' and ms > 0 and abs(j / (ms * 1e6 * 0.25) - 1) < 0.01 else 1)" "$tmp/e"

# pmu killed (SIGKILL: nothing of it runs) before it lets its command start: the command, forked and
# waiting for pmu's go byte, sees the pipe close and exits 127 instead of waiting forever with the
# caller's stdout open. pmu is caught between the fork and the release (while it opens 400 events): a
# watcher stops it (SIGSTOP) as soon as its child exists and, once pmu is stopped, if the child sleeps in
# the go pipe's read (no byte written: a write wakes it) and has not exec'd (its name is still pmu's),
# kills pmu; otherwise it lets it go and tries again (a FIFO held pmu there before; a FIFO in
# a written tree is refused now, issue 40 item 5)
evs=$($PY -c 'print(",".join(["task-clock"] * 400))')
cat > "$tmp/catch.py" <<'PYEOF'
import os, signal, subprocess, sys, time
pmu, evs = sys.argv[1], sys.argv[2]
for attempt in range(40):
    p = subprocess.Popen([pmu, "stat", "-x,", "-e", evs, "--", "sleep", "20"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    kids, t0 = f"/proc/{p.pid}/task/{p.pid}/children", time.time()
    child = None
    while time.time() - t0 < 10 and child is None and p.poll() is None:
        try:
            c = open(kids).read().split()
        except OSError:
            c = []
        if c:
            os.kill(p.pid, signal.SIGSTOP)
            child = int(c[0])
    def state(pid):
        try:
            return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
        except OSError:
            return ""
    for _ in range(1000):                              # stopped for sure (SIGSTOP is not synchronous)
        if state(p.pid) in ("T", "t", ""):
            break
        time.sleep(0.001)
    def waiting_for_go(pid):
        # asleep in a pipe read with pmu stopped: the go byte is not written (a write wakes the reader)
        try:
            wchan = open(f"/proc/{pid}/wchan").read()
            comm = open(f"/proc/{pid}/comm").read().strip()
        except OSError:
            return False
        return state(pid) == "S" and "pipe" in wchan and comm == os.path.basename(pmu)
    if child and waiting_for_go(child):                # caught before the release
        os.kill(p.pid, signal.SIGKILL); p.wait()
        for _ in range(50):                            # gone, or a zombie nothing reaps (a container's init)
            try:
                st = open(f"/proc/{child}/status").read()
            except OSError:
                break
            if "State:\tZ" in st:
                break
            time.sleep(0.1)
        else:
            print(f"attempt {attempt + 1}: the command {child} still waits 5 s after pmu was killed"); sys.exit(1)
        print(f"attempt {attempt + 1}: pmu killed between fork and release; its command {child} exited"); sys.exit(0)
    os.kill(p.pid, signal.SIGCONT); os.kill(p.pid, signal.SIGKILL); p.wait()
    if child:
        try: os.kill(child, signal.SIGKILL)
        except OSError: pass
print("never caught pmu between the fork and the release in 40 attempts"); sys.exit(2)
PYEOF
$PY "$tmp/catch.py" "$PMU" "$evs" > "$tmp/o" 2>&1
st=$?
cat "$tmp/o"
check "pmu killed before releasing its command: caught there (exit $st; 2: never caught)" test $st != 2
check "pmu killed before releasing its command: the command exits, not left waiting" test $st = 0
test -n "$cpid" && kill -KILL "$cpid" 2>/dev/null
# SIGINT sent to pmu alone (kill, not the terminal's process group): passed on likewise, 128+2
env --default-signal=INT $WRAP "$PMU" stat -e task-clock -- sleep 20 > "$tmp/o" 2> "$tmp/e" &
spid=$!
cpid=
for _ in $(seq 300); do cpid=$(pgrep -P "$spid" -x sleep) && break; sleep 0.1; done
sleep 0.2
kill -INT "$spid"
wait "$spid"
st=$?
check "SIGINT to pmu alone: exit status 130 (got $st)" test "$st" = 130
check "SIGINT to pmu alone: the command ($cpid) is gone" test -n "$cpid" -a ! -d "/proc/$cpid"
check "SIGINT to pmu alone: the counts up to then" has "$tmp/e" "'sleep 20' terminated by signal 2 (SIGINT); counts up to then"
# ... a command that handles it: its status (0), the counts, and a note that they stop there
$WRAP "$PMU" stat -e task-clock -- sh -c 'trap "exit 0" TERM; sleep 20 & wait' > "$tmp/o" 2> "$tmp/e" &
spid=$!
for _ in $(seq 300); do pgrep -P "$(pgrep -P "$spid" -x sh)" -x sleep > /dev/null 2>&1 && break; sleep 0.1; done
kill -TERM "$spid"
wait "$spid"
st=$?
check "SIGTERM to a command that handles it: its status 0 (got $st)" test "$st" = 0
check "... the note says the counts stop there" has "$tmp/e" "pmu stat received SIGTERM and passed it on to the command: the counts are up to then"
pkill -P "$spid" sleep 2>/dev/null
# -p: SIGHUP ends the count like Ctrl-C: the counts, exit 128+1. pmu leaves ignored signals ignored, as
# perf does, so it runs with SIGHUP at its default (a run started under nohup has it ignored)
sleep 20 &
target=$!
env --default-signal=HUP $WRAP "$PMU" stat -p "$target" -e task-clock > "$tmp/o" 2> "$tmp/e" &
spid=$!
for _ in $(seq 1200); do ls -l /proc/$spid/fd 2>/dev/null | grep -q perf_event && break; sleep 0.05; done
sleep 0.2
kill -HUP "$spid"
wait "$spid"
st=$?
kill "$target"
check "stat -p, SIGHUP: exit 129 (got $st)" test "$st" = 129
check "stat -p, SIGHUP: the counts" has "$tmp/e" "Performance counter stats for 'process $target'"
# a closed stdout (| head -1) kills the command, not pmu: its counts on stderr, the command's status 128+13
# (perf stat prints "seq: Broken pipe" and exits 0 there: it passes on exit codes, not signals)
$WRAP "$PMU" stat -e task-clock -- seq 1000000 2> "$tmp/e" | head -1 > "$tmp/o"
st=${PIPESTATUS[0]}
check "stat -- seq | head -1: exit 141, seq's SIGPIPE (got $st)" test "$st" = 141
check "stat -- seq | head -1: the counts on stderr" has "$tmp/e" "Performance counter stats for 'seq 1000000'"
check "stat -- seq | head -1: stdout had seq's first line" test "$(cat "$tmp/o")" = 1

# write errors fail the command, said: every command that writes, to a full disk
for c in "info" "info --json" "list" "list --json" "resolve task-clock" "resolve task-clock --json" \
	 "check-tables $SRC/events" "report $SRC/tests/reports/engine.json" "--version" "--help"; do
	$WRAP "$PMU" $c > /dev/full 2> "$tmp/e"
	st=$?
	check "pmu $c > /dev/full: exit 1 (got $st)" test $st = 1
	check "pmu $c > /dev/full: said" has "$tmp/e" "^pmu: writing standard output: No space left on device$"
done
for o in "" "--json"; do
	run 1 "$tmp/o" "$tmp/e" stat $o -o /dev/full -e task-clock -- true
	check "stat $o -o /dev/full: said" has "$tmp/e" "^pmu: writing '/dev/full': No space left on device$"
	$WRAP "$PMU" stat $o -e task-clock -- true 2> /dev/full
	st=$?
	check "stat $o with stderr full: exit 1 (got $st)" test $st = 1
done

# JSON written is JSON: an infinite metric is null with the reason, a command's bytes that are
# not UTF-8 are U+FFFD (the json() helper parses strictly: UTF-8, no NaN/Infinity)
run 0 "$tmp/o" "$tmp/e" stat -M '1e308 * 10' --json -o "$tmp/inf.json" -e task-clock -- true $'\xff'
check "an infinite metric: null, and why" json "$tmp/inf.json" "d['metrics'][0]['value'] is None and 'infinite' in d['metrics'][0]['error']"
check "a command argument that is not UTF-8: U+FFFD" json "$tmp/inf.json" "d['command'] == ['true', '\\ufffd']"
run 0 "$tmp/o" "$tmp/e" stat -M '1e308 * 10' -e task-clock -- true
check "an infinite metric in text: n/a, and why" has "$tmp/e" "1e308 \* 10  *n/a: infinite"
# -M 'max(a, b)' in stat: one metric, max of the two counts (the JSON's own counts are the oracle)
run 0 "$tmp/o" "$tmp/e" stat -M 'max(task\-clock, page\-faults)' --json -o "$tmp/max.json" -- true
check "stat -M 'max(a, b)': one metric, the larger count" json "$tmp/max.json" "[m['name'] for m in d['metrics']] == ['max(task\\\\-clock, page\\\\-faults)'] and d['metrics'][0]['value'] == max(e['value'] for e in d['events'] if e['name'].split(':')[0] in ('task-clock', 'page-faults'))"
# every 'pmu stat --json' file written here (-I intervals, -A units, -p, -t, -r ...) fits the schema, and pmu report reads it
if $PY -c "import jsonschema" 2> /dev/null; then
	for f in "$tmp"/*.json; do
		grep -q '"libpmu-stat/1"' "$f" 2>/dev/null || continue
		check "schema: $(basename "$f")" $PY -c "import json, jsonschema, sys; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))" "$f" "$SRC/tools/schemas/libpmu-stat-1.schema.json"
		run 0 "$tmp/o" "$tmp/e" report "$f"
	done
fi
# every JSON file pmu and the library wrote here parses strictly
for f in "$tmp"/*.json "$tmp"/nobody/*.json; do
	[ -f "$f" ] && check "strict JSON: $(basename "$f")" json "$f" "True"
done

# ---- issue 39, item 9 (branch i39-stat): --topdown whose events were listed and not counted (Ice Lake-X
# forced on its written tree: SLOTS and topdown-* <not supported> where this kernel has no such PMU) says
# which were not counted; it said "count it with the TOPDOWN keyword", which --topdown had just done
PMU_SYSFS_ROOT=$SRC/tests/fixtures/intel-icx/sys PMU_CPUID=GenuineIntel-6-6A-6 run 0 "$tmp/o" "$tmp/e" stat --topdown -- true
if grep -q "<not supported> *slots" "$tmp/e"; then
	check "i39: --topdown, slots <not supported>: the Topdown line names the events not counted" has "$tmp/e" "Topdown: not available: slots, topdown-retiring, topdown-bad-spec, topdown-fe-bound, topdown-be-bound were not counted"
	check "i39: ... and does not send the user to the TOPDOWN keyword --topdown counted" not_has "$tmp/e" "TOPDOWN keyword"
fi
# ---- end of issue 39, item 9

[ $xfails = 0 ] || echo "test-cli: $xfails expected to fail (XFAIL: the TODO above)"
echo "test-cli: $checks checks, $fails failed"
[ $fails = 0 ]
