# SPDX-License-Identifier: MIT
# Sourced by the tests that run pmu (or a program) on a written machine (tests/fixtures/<tree>) with the
# kernel model (tests/kmodel.c) as its kernel: test-kmodel-pmu.sh, test-server-bandwidth.sh,
# test-region-socket.sh. on() needs $KM (the model's library), $PMU and $SRC set; spr_model $SRC.

# AddressSanitizer wants its runtime first among the libraries; the preload comes before it
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

on() { # tree model log out, pmu arguments...: pmu on the tree, its kernel the model; stdout+stderr in out
	local tree=$1 model=$2 log=$3 out=$4
	shift 4
	rm -f "$log"
	env LD_PRELOAD="$KM" PMU_KMODEL="$model" PMU_KMODEL_LOG="$log" PMU_SYSFS_ROOT="$SRC/tests/fixtures/$tree/sys" \
		PMU_PROCFS_ROOT="$SRC/tests/fixtures/$tree/proc" "$PMU" "$@" > "$out" 2>&1
}
opens() { # log, pmu name: "cpu=N" of each open of that PMU (where it was asked), sorted, one line
	sed -n "s/^open pmu=$2 .* pid=-1 cpu=\([0-9-]*\) .* -> id=.*/\1/p" "$1" | sort -n | tr '\n' ' '
}
same() { [ "$1" = "$2" ] || { echo "--- got '$1', want '$2'"; false; }; }
near() { # got, want: equal to a relative 1e-9 (a metric against its formula on the hand sums)
	python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(a - b) > 1e-9 * abs(b))" "$1" "$2" ||
		{ echo "--- got $1, want $2"; false; }
}

# spr_model: the model of the written two-socket Sapphire Rapids (tests/fixtures/intel-spr-2s: eight IMC
# boxes uncore_imc_0..7 and RAPL's power, cpumask 0,4), on stdout. At each read box b (0..7) counts CAS
# reads 1000*(b+1) on socket 0 and 100*(b+1) on socket 1, writes 10*(b+1) and (b+1): the sum over b of
# (b+1) is 36, so reads S0 36000, S1 3600, writes S0 360, S1 36 (64 bytes each); RAPL's package 3.25 J on
# socket 0 and 1.50 J on socket 1, its DRAM 1.00 J and 0.50 J (2^-32 J a count).
spr_model() {
	local d=$SRC/tests/fixtures/intel-spr-2s/sys/bus/event_source/devices t b
	echo "cpus 0-7"
	echo "pmu 4,0,3 core name=cpu"
	t=$(cat "$d/power/type")
	echo "pmu $t uncore name=power box=0-3@0 box=4-7@4"
	echo "event $t 0x2 cpu=0 count=13958643712"  # 3.25 * 2^32: 3.25 J
	echo "event $t 0x2 cpu=4 count=6442450944"   # 1.50 J
	echo "event $t 0x3 cpu=0 count=4294967296"   # 1.00 J
	echo "event $t 0x3 cpu=4 count=2147483648"   # 0.50 J
	for b in 0 1 2 3 4 5 6 7; do
		t=$(cat "$d/uncore_imc_$b/type")
		echo "pmu $t uncore name=uncore_imc_$b counters=4 box=0-3@0 box=4-7@4"
		echo "event $t 0xcf05 cpu=0 count=$((1000 * (b + 1)))"
		echo "event $t 0xcf05 cpu=4 count=$((100 * (b + 1)))"
		echo "event $t 0xf005 cpu=0 count=$((10 * (b + 1)))"
		echo "event $t 0xf005 cpu=4 count=$((b + 1))"
	done
}
