#!/bin/sh
# SPDX-License-Identifier: MIT
# The search path for perf's pmu-events tree (lib/context.c: events_search): with PMU_EVENTS_PATH unset, a
# tree unpacked under /usr/local/share/libpmu/pmu-events/arch/<arch> is loaded as PMU_EVENTS_PATH would
# load it; PMU_EVENTS_PATH set and empty loads none; another architecture's CPU does not look there. The
# tree is a small one this test writes, in a mount namespace of its own (tmpfs over /usr/local/share), so
# that nothing of the machine's is read or changed; it needs root and unshare(1) (exit 77 otherwise).
PMU=${PMU_CLI:?run through meson test}
fails=0
check() { # name, command...
	name=$1; shift
	if "$@"; then echo "ok: $name"; else echo "FAIL: $name"; fails=$((fails + 1)); fi
}
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	echo "SKIP: needs root and unshare -m (a mount namespace) to put a tree under /usr/local/share"
	exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# the part run inside the namespace: the tree, then pmu's answers, each to a file of $tmp
cat > "$tmp/inner.sh" <<'INNER'
set -e
mount -t tmpfs tmpfs /usr/local/share
d=/usr/local/share/libpmu/pmu-events/arch/x86
mkdir -p "$d/rocketlake"
printf 'Family-model,Version,Filename,EventType\nGenuineIntel-6-A7,v1,rocketlake,core\n' > "$d/mapfile.csv"
printf '[{"EventName": "SEARCH_PATH_EVENT", "EventCode": "0x42", "UMask": "0x1", "BriefDescription": "t"}]\n' \
	> "$d/rocketlake/pipeline.json"
cd "$OUT"
env -u PMU_EVENTS_PATH PMU_CPUID=GenuineIntel-6-A7-1 "$PMU" info > info.txt 2>&1 || true
env -u PMU_EVENTS_PATH PMU_CPUID=GenuineIntel-6-A7-1 "$PMU" resolve --json SEARCH_PATH_EVENT > resolve.json 2> resolve.err || true
PMU_EVENTS_PATH= PMU_CPUID=GenuineIntel-6-A7-1 "$PMU" info > empty.txt 2>&1 || true
env -u PMU_EVENTS_PATH PMU_CPUID=0x00000000410fd0c0 "$PMU" info > arm.txt 2>&1 || true
INNER
if ! OUT=$tmp PMU=$PMU unshare -m sh "$tmp/inner.sh"; then
	echo "FAIL (setup): the tree under /usr/local/share could not be made in a mount namespace"
	exit 1
fi
check "unset PMU_EVENTS_PATH: the tree found under /usr/local/share is the CPU's table" \
	grep -q "^Event table:  rocketlake (/usr/local/share/libpmu/pmu-events/arch/x86)" "$tmp/info.txt"
check "its event resolves with the tree's encoding (event 0x42, umask 0x1)" \
	grep -q '"config": *"0x142"' "$tmp/resolve.json"
check "PMU_EVENTS_PATH set and empty: the built-in table, the search path not read" \
	grep -q "^Event table:  x86/intel/rocketlake (built-in)" "$tmp/empty.txt"
check "an arm64 CPU does not take the x86 tree" grep -q "^Event table:  arm64/neoverse-n1" "$tmp/arm.txt"
[ $fails = 0 ] || { sed 's/^/  | /' "$tmp"/*.txt "$tmp"/resolve.*; }
echo "test-events-search: $fails failed"
exit $((fails != 0))
