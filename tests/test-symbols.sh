#!/bin/sh
# The exported symbols of libpmu.so are exactly the version script's, and
# every function declared in <pmu.h> (other than static inline) is exported.
set -eu
lib=$1 sym=$2 hdr=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ { sub(/@.*/, "", $3); if ($3 !~ /^LIBPMU_/) print $3 }' | sort -u > "$tmp/exported"
sed -n '/global:/,/local:/p' "$sym" | grep -E '^\s+[a-z_0-9]+;' | tr -d ' \t;' | sort -u > "$tmp/script"
# functions declared in the header: a line with "pmu_name(" that is not static inline
grep -hE '^[a-z].*[ *]pmu_[a-z0-9_]+\(' "$hdr" | grep -v 'static inline' |
	sed -E 's/.*[ *](pmu_[a-z0-9_]+)\(.*/\1/' | sort -u > "$tmp/header"
status=0
if ! diff -u "$tmp/script" "$tmp/exported"; then
	echo "FAIL: exported symbols differ from $sym (- script, + library)"; status=1
fi
if ! diff -u "$tmp/header" "$tmp/exported"; then
	echo "FAIL: functions declared in pmu.h differ from exported ones (- header, + library)"; status=1
fi
[ $status = 0 ] && echo "symbols: $(wc -l < "$tmp/exported") exported, matching script and header"
exit $status
