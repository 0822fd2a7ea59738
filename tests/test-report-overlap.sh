#!/bin/bash
# SPDX-License-Identifier: MIT
#
# pmu report sums saved 'pmu stat --json' files; a row of a PMU that counts CPUs (cpu_wide: RAPL's
# energy, an uncore) holds the whole package's count in each file. Summed over files counted at the
# same time on one machine, it would count the package once per file, without a word. The files say
# where (host, boot_id) and when (wall_start_ns, wall_end_ns) they counted:
#   - pmu stat --json writes them: the host is uname -n, the boot_id the kernel's, the span lies
#     between the wall clock read just before and just after the run, and is elapsed_ns long;
#   - two files of one boot whose spans intersect: that row "<not summed>", a note naming both files
#     and the fix; the other rows summed (the sums computed here by hand);
#   - one after the other on one boot, or on two boots (two machines, whatever their names; containers
#     on one machine share its boot_id): summed;
#   - a file that does not say (written before the keys existed): summed, with a note that says so;
#   - one file: no note.
# The files are a real pmu stat --json run, rewritten here with the rows and keys of each case.
set -u
PMU=${PMU_CLI:?}
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/checks.sh"

before=$($PY -c 'import time; print(time.time_ns())')
if ! "$PMU" stat --json -o "$tmp/real.json" -e task-clock -- sleep 0.05 2>"$tmp/e"; then
	echo "FAIL: pmu stat --json: $(cat "$tmp/e")"
	exit 1
fi
after=$($PY -c 'import time; print(time.time_ns())')
boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || true)
check "pmu stat --json: host is uname -n ($(uname -n)), boot_id the kernel's, the span within [$before, $after] and elapsed_ns long" \
	$PY - "$tmp/real.json" "$(uname -n)" "$boot" "$before" "$after" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
host, boot, lo, hi = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
s, e = d["wall_start_ns"], d["wall_end_ns"]
ok = d["host"] == host and (not boot or d["boot_id"] == boot) and lo <= s <= e <= hi
ok = ok and abs((e - s) - d["elapsed_ns"]) < 1e6  # the two clocks, read at the same moments
sys.exit(0 if ok else 1)
PY

# make NAME HOST BOOT START END ENERGY: the real file with a cpu-wide row (its count ENERGY) and the
# keys given ("-": the key removed)
make() {
	$PY - "$tmp/real.json" "$tmp/$1.json" "$2" "$3" "$4" "$5" "$6" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
host, boot, start, end, energy = sys.argv[3:8]
for k, v in (("host", host), ("boot_id", boot), ("wall_start_ns", start), ("wall_end_ns", end)):
    d.pop(k, None)
    if v != "-":
        d[k] = v if k in ("host", "boot_id") else int(v)
e = dict(d["events"][0])
e.update(name="power/energy-pkg/", pmu="power", cpu_wide=True, type=9, config="0x2", value=int(energy),
         scaled=int(energy), unit="", enabled_ns=1000000, running_ns=1000000, confidence=1.0)
e.pop("unit_scale", None)
d["events"].append(e)
json.dump(d, open(sys.argv[2], "w"))
PY
}
B1=11111111-1111-1111-1111-111111111111 B2=22222222-2222-2222-2222-222222222222
make a node1 $B1 1000000000 2000000000 1000
make b node1 $B1 1500000000 2500000000 2000   # at the same time as a, on its machine
make c node1 $B1 3000000000 4000000000 3000   # after a, on its machine
make d node1 $B2 1500000000 2500000000 4000   # at the same time as a, another boot: another machine
make e node2 $B1 1500000000 2500000000 5000   # another name, a's boot: a container on a's machine
make old - - - - 6000                          # written before the keys existed
tc=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["events"][0]["value"])' "$tmp/real.json")

# report FILES... -> $tmp/o; the row of power/energy-pkg/ and of task-clock
report() { "$PMU" report "$@" >"$tmp/o" 2>"$tmp/e" || echo "FAIL: pmu report $*: $(cat "$tmp/e")"; }
row() { grep -E "^ +[^ ].* +$1 *" "$tmp/o" | head -n 1 | awk '{print $1}' | tr -d ,; }

report "$tmp/a.json" "$tmp/b.json"
check "a and b at once on one boot: the cpu-wide row not summed" grep -Eq '<not summed> +power/energy-pkg/' "$tmp/o"
check "... with a note naming both files, the machine and the fix" \
	grep -q "power/energy-pkg/: not summed: '$tmp/a.json' and '$tmp/b.json' counted it at the same time on node1.*pmu stat -a -e power/energy-pkg/" "$tmp/o"
check "... the other row summed: task-clock $((2 * tc)) ns" [ "$(grep -E ' task-clock' "$tmp/o" | awk '{print $1}' | tr -d ,)" = \
	"$($PY -c "print('%.2f' % ($tc * 2 / 1e6))")" ]
report "$tmp/a.json" "$tmp/c.json"
check "a then c on one boot: summed, 1000 + 3000 = 4000" [ "$(row power/energy-pkg/)" = 4000 ]
check "... without a note on its sum" sh -c "! grep -Eq 'energy-pkg/: (not )?summed' '$tmp/o'"
report "$tmp/a.json" "$tmp/d.json"
check "a and d at once on two boots (two machines named alike): summed, 5000" [ "$(row power/energy-pkg/)" = 5000 ]
report "$tmp/a.json" "$tmp/e.json"
check "a and e at once on one boot under two names (containers): not summed" grep -Eq '<not summed> +power/energy-pkg/' "$tmp/o"
report "$tmp/c.json" "$tmp/a.json" "$tmp/d.json" "$tmp/b.json"
check "four files, b overlapping a (the 4th and the 2nd): not summed, naming a and b" \
	grep -q "not summed: '$tmp/a.json' and '$tmp/b.json'" "$tmp/o"
report "$tmp/a.json" "$tmp/old.json"
check "a and a file that does not say: summed, 7000" [ "$(row power/energy-pkg/)" = 7000 ]
check "... with a note that says the sum may count the package once per file" \
	grep -q "power/energy-pkg/: summed over files of which some do not say where and when" "$tmp/o"
report "$tmp/old.json"
check "one file: its count, 6000" [ "$(row power/energy-pkg/)" = 6000 ]
check "... no note on its sum" sh -c "! grep -Eq 'energy-pkg/: (not )?summed' '$tmp/o'"

echo "test-report-overlap: $checks checks, $fails failed"
[ "$fails" = 0 ]
