#!/bin/bash
# The pmu command on the three written servers of issue 43 (tests/fixtures/intel-spr-2s,
# amd-zen4-2s, arm64-neoverse-v1-cmn), its perf_event calls answered by tests/kmodel.c
# (LD_PRELOAD, PMU_KMODEL): what it prints against the model's counts worked out here by hand, and
# what it opened where against the model's log (PMU_KMODEL_LOG). Also pmu info and pmu list on each
# tree, with the built-in table each machine gets.
#   test-kmodel-pmu.sh KMODEL.so PMU SRCDIR
# Every model says "cpus": the machine's CPUs for the kernel checks and for sysconf(); pmu stat -a reads
# the tree's devices/system/cpu/online.
set -u
KM=${1:?KMODEL.so} PMU=${2:?pmu} SRC=${3:?srcdir}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/checks.sh" # check(), $checks, $fails
. "$(dirname "$0")/kmodel.sh" # on(), opens(), same()

has() { grep -q -- "$2" "$1" || { echo "--- $1 lacks '$2':"; cat "$1"; false; }; }
row() { # output, event: the count printed on the event's row (pmu prints 4.75 Joules, 43,210)
	sed -n "s|^ *\([0-9.,]*\) .*$2 *\$|\1|p" "$1" | head -1
}
cpurow() { # output, CPU, event: the -A row of that CPU
	sed -n "s|^ *CPU$2 *\([0-9.,]*\) .*$3 *\$|\1|p" "$1" | head -1
}

# ---- Sapphire Rapids, two sockets: RAPL and IMC boxes ----
# RAPL's energy counts in units of 2^-32 J (events/energy-pkg.scale 2.3283064365386962890625e-10 is 2^-32):
# package 0 (box CPU 0) 13958643712 = 3.25 * 2^32, package 1 (CPU 4) 6442450944 = 1.5 * 2^32;
# energy-ram 4294967296 = 1 J and 2147483648 = 0.5 J. IMC cas_count_read/write: .scale 6.103515625e-5 = 2^-14
# MiB (64-byte lines); uncore_imc_0 cas_count_read 16384 + 32768 = 3 * 2^14 -> 3.00 MiB; uncore_imc_5
# cas_count_write 8192 on each socket -> 1.00 MiB.
cat > "$tmp/spr.model" <<'EOF'
cpus 0-7
pmu 4,0,3 core name=cpu
pmu 10 uncore name=power box=0-3@0 box=4-7@4
pmu 26 uncore name=uncore_imc_0 counters=4 box=0-3@0 box=4-7@4
pmu 31 uncore name=uncore_imc_5 counters=4 box=0-3@0 box=4-7@4
event 10 0x2 cpu=0 count=13958643712
event 10 0x2 cpu=4 count=6442450944
event 10 0x3 cpu=0 count=4294967296
event 10 0x3 cpu=4 count=2147483648
event 26 0xcf05 cpu=0 count=16384
event 26 0xcf05 cpu=4 count=32768
event 31 0xf005 count=8192
EOF
T=intel-spr-2s
on $T "$tmp/spr.model" "$tmp/log" "$tmp/o" stat -a -e power/energy-pkg/ -- true
check "spr: pmu stat -a power/energy-pkg/ exits 0" [ $? = 0 ]
# (13958643712 + 6442450944) * 2^-32 J = 3.25 + 1.5 = 4.75 J
check "spr: -a energy-pkg is 4.75 Joules (3.25 + 1.5, both packages once)" same "$(row "$tmp/o" 'Joules *power/energy-pkg/')" 4.75
check "spr: opened on CPUs 0 and 4, the cpumask's, each once" same "$(opens "$tmp/log" power)" "0 4 "
on $T "$tmp/spr.model" "$tmp/log" "$tmp/o" stat -a -A -e power/energy-pkg/,power/energy-ram/ -- true
check "spr: -a -A: CPU0 energy-pkg 3.25 J" same "$(cpurow "$tmp/o" 0 'Joules *power/energy-pkg/')" 3.25
check "spr: -a -A: CPU4 energy-pkg 1.50 J" same "$(cpurow "$tmp/o" 4 'Joules *power/energy-pkg/')" 1.50
check "spr: -a -A: CPU0 energy-ram 1.00 J" same "$(cpurow "$tmp/o" 0 'Joules *power/energy-ram/')" 1.00
check "spr: -a -A: CPU4 energy-ram 0.50 J" same "$(cpurow "$tmp/o" 4 'Joules *power/energy-ram/')" 0.50
check "spr: -a -A: no row for a CPU outside the cpumask" [ "$(grep -c '^ *CPU[1235-7] ' "$tmp/o")" = 0 ]
# -a counts the CPUs the tree's devices/system/cpu/online lists (as -C checks them), not sysconf()'s (the
# model's "cpus 0-7"): with socket 1 offline (online 0-3) package 0's 3.25 J alone, CPU 4 never opened
cp -r "$SRC/tests/fixtures/$T" "$tmp/spr-half"
echo 0-3 > "$tmp/spr-half/sys/devices/system/cpu/online"
rm -f "$tmp/log"
env LD_PRELOAD="$KM" PMU_KMODEL="$tmp/spr.model" PMU_KMODEL_LOG="$tmp/log" PMU_SYSFS_ROOT="$tmp/spr-half/sys" \
	PMU_PROCFS_ROOT="$tmp/spr-half/proc" "$PMU" stat -a -e power/energy-pkg/ -- true > "$tmp/o" 2>&1
check "spr, socket 1 offline: -a energy-pkg is package 0's 3.25 J" same "$(row "$tmp/o" 'Joules *power/energy-pkg/')" 3.25
check "spr, socket 1 offline: -a opened the power PMU on CPU 0 only" same "$(opens "$tmp/log" power)" "0 "
on $T "$tmp/spr.model" "$tmp/log" "$tmp/o" stat -a -e power/energy-pkg/ --json -o "$tmp/s.json" -- true
check "spr: --json value is the raw sum 20401094656" has "$tmp/s.json" '"value":20401094656'
check "spr: --json unit Joules" has "$tmp/s.json" '"unit":"Joules"'
# a task's set: the PMU counts CPUs, so it is opened every task on each cpumask CPU and summed
on $T "$tmp/spr.model" "$tmp/log" "$tmp/o" stat -e power/energy-pkg/ -- true
check "spr: a command's energy-pkg is both packages' 4.75 J" same "$(row "$tmp/o" 'Joules *power/energy-pkg/')" 4.75
check "spr: a command's energy-pkg opened for every task on CPUs 0 and 4" same "$(opens "$tmp/log" power)" "0 4 "
check "spr: no task-bound open of the power PMU" [ "$(grep -c '^open pmu=power .* pid=[0-9]' "$tmp/log")" = 0 ]
on $T "$tmp/spr.model" "$tmp/log" "$tmp/o" stat -a -e uncore_imc_0/cas_count_read/,uncore_imc_5/cas_count_write/ -- true
check "spr: uncore_imc_0 cas_count_read 3.00 MiB" same "$(row "$tmp/o" 'MiB *uncore_imc_0/cas_count_read/')" 3.00
check "spr: uncore_imc_5 cas_count_write 1.00 MiB" same "$(row "$tmp/o" 'MiB *uncore_imc_5/cas_count_write/')" 1.00
check "spr: each IMC box once per socket, on the cpumask's CPU" \
	same "$(opens "$tmp/log" uncore_imc_0)/$(opens "$tmp/log" uncore_imc_5)" "0 4 /0 4 "

# ---- Zen 4, two sockets with SMT: L3 per CCX, a UMC of one socket ----
# amd_l3 cpumask 0,2,4,6 (one CPU per CCX): 10 + 200 + 3000 + 40000 = 43210; power 2^32 + 2^33 -> 3.00 J;
# amd_umc_2 (socket 1's, cpumask 4): 7, opened on CPU 4 only
cat > "$tmp/z4.model" <<'EOF'
cpus 0-15
pmu 4,0,3 core name=cpu
pmu 10 uncore name=power box=0-3,8-11@0 box=4-7,12-15@4
pmu 12 uncore name=amd_l3 box=0-1,8-9@0 box=2-3,10-11@2 box=4-5,12-13@4 box=6-7,14-15@6
pmu 15 uncore name=amd_umc_2 nobox=ENODEV box=4-7,12-15@4
event 10 0x2 cpu=0 count=4294967296
event 10 0x2 cpu=4 count=8589934592
event 12 0xff04 cpu=0 count=10
event 12 0xff04 cpu=2 count=200
event 12 0xff04 cpu=4 count=3000
event 12 0xff04 cpu=6 count=40000
event 15 * count=7
EOF
T=amd-zen4-2s
on $T "$tmp/z4.model" "$tmp/log" "$tmp/o" stat -a -e amd_l3/event=0x04,umask=0xff/ -e power/energy-pkg/ \
	-e amd_umc_2/event=0x1/ -- true
check "zen4: pmu stat -a exits 0" [ $? = 0 ]
check "zen4: amd_l3 43,210 (four CCXs)" same "$(row "$tmp/o" 'amd_l3/event=0x04,umask=0xff/')" 43,210
check "zen4: energy-pkg 3.00 J" same "$(row "$tmp/o" 'Joules *power/energy-pkg/')" 3.00
check "zen4: amd_umc_2 7" same "$(row "$tmp/o" 'amd_umc_2/event=0x1/')" 7
check "zen4: amd_l3 opened once per CCX" same "$(opens "$tmp/log" amd_l3)" "0 2 4 6 "
check "zen4: amd_umc_2 opened on socket 1's CPU only" same "$(opens "$tmp/log" amd_umc_2)" "4 "

# ---- Neoverse V1 with a CMN-650 ----
# hnf_cache_miss "type=0x5,eventid=0x1" -> config 0x10005; dtc_cycles "type=0x3" -> 0x3
cat > "$tmp/v1.model" <<'EOF'
cpus 0-7
pmu 10 core name=armv8_pmuv3_0
pmu 11 uncore name=arm_cmn_0 box=0-7@0
event 11 0x10005 count=123456
event 11 0x3 count=1000000
EOF
T=arm64-neoverse-v1-cmn
on $T "$tmp/v1.model" "$tmp/log" "$tmp/o" stat -a -e arm_cmn_0/hnf_cache_miss/,arm_cmn_0/dtc_cycles/ -- true
check "v1: pmu stat -a exits 0" [ $? = 0 ]
check "v1: hnf_cache_miss 123,456" same "$(row "$tmp/o" 'arm_cmn_0/hnf_cache_miss/')" 123,456
check "v1: dtc_cycles 1,000,000" same "$(row "$tmp/o" 'arm_cmn_0/dtc_cycles/')" 1,000,000
check "v1: the mesh opened on CPU 0 (its cpumask) once per event" \
	same "$(opens "$tmp/log" arm_cmn_0)" "0 0 "

# ---- pmu info and pmu list on each tree (no model needed: nothing is opened) ----
for t in "intel-spr-2s x86/sapphirerapids+x86/intel/sapphirerapids" "amd-zen4-2s x86/amdzen4" \
	 "arm64-neoverse-v1-cmn arm64/neoverse-v1+arm64/arm/neoverse-v1"; do
	set -- $t
	PMU_SYSFS_ROOT="$SRC/tests/fixtures/$1/sys" PMU_PROCFS_ROOT="$SRC/tests/fixtures/$1/proc" "$PMU" info > "$tmp/i" 2>&1
	check "$1: pmu info exits 0" [ $? = 0 ]
	check "$1: table $2" has "$tmp/i" "Event table: *$2 (built-in)"
	PMU_SYSFS_ROOT="$SRC/tests/fixtures/$1/sys" PMU_PROCFS_ROOT="$SRC/tests/fixtures/$1/proc" "$PMU" list > "$tmp/l" 2>&1
	check "$1: pmu list exits 0" [ $? = 0 ]
done
PMU_SYSFS_ROOT="$SRC/tests/fixtures/intel-spr-2s/sys" PMU_PROCFS_ROOT="$SRC/tests/fixtures/intel-spr-2s/proc" "$PMU" list > "$tmp/l" 2>&1
check "spr: pmu list names uncore_imc_7/cas_count_read/" has "$tmp/l" "uncore_imc_7/cas_count_read/"
PMU_SYSFS_ROOT="$SRC/tests/fixtures/arm64-neoverse-v1-cmn/sys" PMU_PROCFS_ROOT="$SRC/tests/fixtures/arm64-neoverse-v1-cmn/proc" \
	"$PMU" list > "$tmp/l" 2>&1
check "v1: pmu list names arm_cmn_0/hnf_cache_miss/" has "$tmp/l" "arm_cmn_0/hnf_cache_miss/"

echo "test-kmodel-pmu: $checks checks, $fails failed"
[ "$fails" = 0 ]
