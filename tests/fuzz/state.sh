#!/bin/bash
# tests/fuzz/state.sh REPLAY INPUT... : a fuzz target keeps what it makes for its first input
# (contexts, on fixture machines: ~44 sysfs files read and tables loaded each) for the inputs
# after it. Right only while no input changes what a later one gives: this replays the inputs
# (files, or directories of them, taken in name order) all in one process and then one process
# each, and compares what the target traced for them (tests/fuzz/trace.h: return codes, error
# messages, encodings, values). Exit 0 when the traces are equal and not empty.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: $0 REPLAY INPUT..." >&2; exit 2; }
replay=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=()
while IFS= read -r f; do
	files+=("$f")
done < <(for a in "$@"; do
	if [ -d "$a" ]; then find "$a" -maxdepth 1 -type f ! -name '.*'; elif [ -f "$a" ]; then echo "$a"; fi
done | LC_ALL=C sort)
[ ${#files[@]} -gt 0 ] || { echo "state: no inputs in $*" >&2; exit 1; }
PMU_FUZZ_TRACE="$tmp/one" "$replay" "${files[@]}" >/dev/null || { echo "state: $replay failed" >&2; exit 1; }
for f in "${files[@]}"; do
	PMU_FUZZ_TRACE="$tmp/each" "$replay" "$f" >/dev/null || { echo "state: $replay $f failed" >&2; exit 1; }
done
if [ ! -s "$tmp/one" ]; then
	echo "state: $replay traced nothing (PMU_FUZZ_TRACE not written)" >&2
	exit 1
fi
if ! cmp -s "$tmp/one" "$tmp/each"; then
	echo "state: ${#files[@]} inputs in one process give another trace than one process each:" >&2
	diff "$tmp/each" "$tmp/one" | head -20 >&2
	exit 1
fi
echo "state: ${#files[@]} inputs, $(wc -l <"$tmp/one") trace lines: the same in one process as in one process each"
