# SPDX-License-Identifier: MIT
# Sourced by the tests that run pmu on a written machine (tests/fixtures/<tree>) with the kernel model
# (tests/kmodel.c) as its kernel: test-kmodel-pmu.sh, test-server-bandwidth.sh. Needs $KM (the model's
# library), $PMU and $SRC set.

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
