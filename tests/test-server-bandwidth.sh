#!/bin/bash
# Issue 43's question on the written two-socket servers (tests/fixtures/intel-spr-2s, amd-zen4-2s), their
# perf_event calls answered by the kernel model (tests/kmodel.c): "what memory bandwidth does this reach?"
#   - pmu stat -a --per-socket of the standard DRAM names and of perf's memory_bandwidth_* metrics (Intel's
#     metrics.json, built in) and the standard MEM.DRAM.*.BW metrics: every IMC/UMC box of every socket
#     summed, per socket and in total, against the counts of the model summed here by hand (64 bytes per
#     CAS), and the metrics against perf's formula computed here from those sums and the run's elapsed time
#     (--json's elapsed_ns: duration_time);
#   - each box opened once per socket, on its cpumask's CPU (the model's log);
#   - RAPL in watts: the standard POWER.*.W metrics against the joules by hand over the elapsed time.
#   test-server-bandwidth.sh KMODEL.so PMU SRCDIR
set -u
KM=${1:?KMODEL.so} PMU=${2:?pmu} SRC=${3:?srcdir}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/checks.sh" # check(), $checks, $fails
. "$(dirname "$0")/kmodel.sh" # on(), opens(), same()
command -v python3 > /dev/null || { echo "FAIL: python3 is needed to read pmu stat --json"; exit 1; }

# jq-like: the value of a python expression over the --json document d (units by their aggregation id:
# u['S0']; events by name: ev(u, name); metrics: m(u, name); the whole run's: ev(d, ...), m(d, ...))
js() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
u = {x["aggregation"]["id"]: x for x in d.get("units", []) if "aggregation" in x}
ev = lambda o, n: [e["value"] for e in o["events"] if e["name"] == n][0]
m = lambda o, n: [x["value"] for x in o["metrics"] if x["name"] == n][0]
print(eval(sys.argv[2]))
PY
}
# ---- Sapphire Rapids, two sockets, eight IMC boxes each (uncore_imc_0..7, cpumask 0,4) ----
# box b (0..7) counts CAS reads 1000*(b+1) on socket 0 and 100*(b+1) on socket 1, writes 10*(b+1) and 1*(b+1):
# sum over b of (b+1) is 36, so reads S0 36000, S1 3600, writes S0 360, S1 36 (64 bytes each)
D=$SRC/tests/fixtures/intel-spr-2s/sys/bus/event_source/devices
spr_model > "$tmp/spr.model" # (tests/kmodel.sh)
T=intel-spr-2s
on $T "$tmp/spr.model" "$tmp/log" "$tmp/o" stat -a --per-socket --json -o "$tmp/s.json" \
	-M memory_bandwidth_read,memory_bandwidth_write,memory_bandwidth_total,MEM.DRAM.RW.BW \
	-e MEM.DRAM.RD.BYTES,MEM.DRAM.WR.BYTES -- sleep 0.05
check "spr: pmu stat -a --per-socket -M memory_bandwidth_* exits 0" [ $? = 0 ]
J=$tmp/s.json
check "spr: S0 CAS reads 36000 (eight boxes: 1000 x 36)" same "$(js "$J" "ev(u['S0'], 'MEM.DRAM.RD.BYTES')")" 36000
check "spr: S1 CAS reads 3600" same "$(js "$J" "ev(u['S1'], 'MEM.DRAM.RD.BYTES')")" 3600
check "spr: S0 CAS writes 360, S1 36" same "$(js "$J" "(ev(u['S0'], 'MEM.DRAM.WR.BYTES'), ev(u['S1'], 'MEM.DRAM.WR.BYTES'))")" "(360, 36)"
check "spr: total reads 39600 and writes 396" same "$(js "$J" "(ev(d, 'MEM.DRAM.RD.BYTES'), ev(d, 'MEM.DRAM.WR.BYTES'))")" "(39600, 396)"
check "spr: the rows name the unit and its 8 boxes (labels are data)" same "$(js "$J" "[(e['pmu'], e['boxes']) for e in d['events']]")" "[('uncore_imc', 8), ('uncore_imc', 8)]"
check "spr: a note says the value is every box's" same "$(js "$J" "sum('sum over every box of its uncore unit' in n for n in d['notes'])")" 1
check "spr: the rows say bytes, 64 a CAS" same "$(js "$J" "[(e['unit'], e['unit_scale']) for e in d['events']]")" "[('Bytes', 64.0), ('Bytes', 64.0)]"
check "spr: each IMC box opened once per socket and event (reads, writes), on CPUs 0 and 4" \
	same "$(for b in 0 1 2 3 4 5 6 7; do opens "$tmp/log" uncore_imc_$b; done)" "$(printf '0 0 4 4 %.0s' 1 2 3 4 5 6 7 8)"
t=$(js "$J" "d['elapsed_ns'] / 1e9")
# perf's memory_bandwidth_read = UNC_M_CAS_COUNT.RD * 64 / 1e6 / duration_time, _write alike, _total their sum
for k in "S0 36000 360" "S1 3600 36" "all 39600 396"; do
	set -- $k
	o=$([ "$1" = all ] && echo d || echo "u['$1']")
	check "spr $1: memory_bandwidth_read = $2 * 64 / 1e6 / ${t} s" near "$(js "$J" "m($o, 'memory_bandwidth_read')")" \
		"$(python3 -c "print($2 * 64 / 1e6 / $t)")"
	check "spr $1: memory_bandwidth_write = $3 * 64 / 1e6 / t" near "$(js "$J" "m($o, 'memory_bandwidth_write')")" \
		"$(python3 -c "print($3 * 64 / 1e6 / $t)")"
	check "spr $1: memory_bandwidth_total = ($2 + $3) * 64 / 1e6 / t" near "$(js "$J" "m($o, 'memory_bandwidth_total')")" \
		"$(python3 -c "print(($2 + $3) * 64 / 1e6 / $t)")"
	check "spr $1: the standard MEM.DRAM.RW.BW equals it" near "$(js "$J" "m($o, 'MEM.DRAM.RW.BW')")" \
		"$(python3 -c "print(($2 + $3) * 64 / 1e6 / $t)")"
done
# the text table: a row per socket and event, in bytes (36000 * 64 = 2304000)
on $T "$tmp/spr.model" "$tmp/log" "$tmp/o" stat -a --per-socket -e MEM.DRAM.RD.BYTES -- true
check "spr: text row S0 2304000.00 Bytes" grep -Eq '^S0 +1 +2304000\.00 Bytes +MEM\.DRAM\.RD\.BYTES' "$tmp/o"
check "spr: text row S1 230400.00 Bytes" grep -Eq '^S1 +1 +230400\.00 Bytes +MEM\.DRAM\.RD\.BYTES' "$tmp/o"
# perf's spelling of the unit without its box number: every box
on $T "$tmp/spr.model" "$tmp/log" "$tmp/o" stat -a --json -o "$tmp/u.json" -e uncore_imc/cas_count_read/ -- true
check "spr: uncore_imc/cas_count_read/ sums the 16 box copies: 39600" same "$(js "$tmp/u.json" "ev(d, 'uncore_imc/cas_count_read/')")" 39600
# RAPL in watts: (3.25 + 1.5) J and (1 + 0.5) J over the elapsed time; per socket 3.25 J and 1.5 J
on $T "$tmp/spr.model" "$tmp/log" "$tmp/o" stat -a --per-socket --json -o "$tmp/p.json" -M POWER.PKG.W,POWER.RAM.W -- sleep 0.05
check "spr: pmu stat -M POWER.PKG.W,POWER.RAM.W exits 0" [ $? = 0 ]
t=$(js "$tmp/p.json" "d['elapsed_ns'] / 1e9")
check "spr: POWER.PKG.W = 4.75 J / t" near "$(js "$tmp/p.json" "m(d, 'POWER.PKG.W')")" "$(python3 -c "print(4.75 / $t)")"
check "spr: POWER.RAM.W = 1.5 J / t" near "$(js "$tmp/p.json" "m(d, 'POWER.RAM.W')")" "$(python3 -c "print(1.5 / $t)")"
check "spr: S0 POWER.PKG.W = 3.25 J / t" near "$(js "$tmp/p.json" "m(u['S0'], 'POWER.PKG.W')")" "$(python3 -c "print(3.25 / $t)")"
check "spr: S1 POWER.PKG.W = 1.5 J / t" near "$(js "$tmp/p.json" "m(u['S1'], 'POWER.PKG.W')")" "$(python3 -c "print(1.5 / $t)")"

# ---- Zen 4 (Genoa), two sockets: amd_umc_0,1 on socket 0 (cpumask 0), amd_umc_2,3 on socket 1 (4) ----
# umc_cas_cmd.rd is event 0x0a, rdwrmask 1 (config 0x10a), .wr rdwrmask 2 (0x20a); reads 5000, 7000 on socket
# 0's channels, 11, 13 on socket 1's; writes 50, 70, 1, 3: S0 reads 12000, writes 120; S1 24 and 4
D=$SRC/tests/fixtures/amd-zen4-2s/sys/bus/event_source/devices
{
	echo "cpus 0-15"
	echo "pmu 4,0,3 core name=cpu"
	for k in "0 0-3,8-11@0 5000 50" "1 0-3,8-11@0 7000 70" "2 4-7,12-15@4 11 1" "3 4-7,12-15@4 13 3"; do
		set -- $k
		t=$(cat "$D/amd_umc_$1/type")
		echo "pmu $t uncore name=amd_umc_$1 nobox=ENODEV box=$2"
		echo "event $t 0x10a count=$3"
		echo "event $t 0x20a count=$4"
	done
} > "$tmp/z4.model"
T=amd-zen4-2s
on $T "$tmp/z4.model" "$tmp/log" "$tmp/o" stat -a --per-socket --json -o "$tmp/z.json" -M MEM.DRAM.RD.BW,MEM.DRAM.WR.BW \
	-e MEM.DRAM.RD.BYTES,MEM.DRAM.WR.BYTES -- sleep 0.05
check "zen4: pmu stat -a --per-socket exits 0" [ $? = 0 ]
J=$tmp/z.json
check "zen4: S0 reads 12000, writes 120" same "$(js "$J" "(ev(u['S0'], 'MEM.DRAM.RD.BYTES'), ev(u['S0'], 'MEM.DRAM.WR.BYTES'))")" "(12000, 120)"
check "zen4: S1 reads 24, writes 4" same "$(js "$J" "(ev(u['S1'], 'MEM.DRAM.RD.BYTES'), ev(u['S1'], 'MEM.DRAM.WR.BYTES'))")" "(24, 4)"
check "zen4: each channel's UMC opened on its socket's CPU only" \
	same "$(for b in 0 1 2 3; do opens "$tmp/log" amd_umc_$b; done)" "0 0 0 0 4 4 4 4 "
t=$(js "$J" "d['elapsed_ns'] / 1e9")
check "zen4: MEM.DRAM.RD.BW = 12024 * 64 / 1e6 / t" near "$(js "$J" "m(d, 'MEM.DRAM.RD.BW')")" "$(python3 -c "print(12024 * 64 / 1e6 / $t)")"
check "zen4: S1 MEM.DRAM.WR.BW = 4 * 64 / 1e6 / t" near "$(js "$J" "m(u['S1'], 'MEM.DRAM.WR.BW')")" "$(python3 -c "print(4 * 64 / 1e6 / $t)")"

echo "test-server-bandwidth: $checks checks, $fails failed"
[ "$fails" = 0 ]
