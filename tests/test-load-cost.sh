#!/bin/sh
# What loading libpmu.so costs a program that links it, before it calls anything, read from the
# file with readelf (binutils): no libpfm4 among its needed libraries (lib/pfm.c loads it at the
# first name that needs it; linked, it cost every program about 0.8 ms and 290 page faults), and no
# relocated event tables (their strings are offsets into one array: 18,537 relative relocations
# and 780 KB of .data.rel.ro, written at every start, before that change; about 570 and 7 KB after).
# The pmu command (second argument) does not need libpfm4 either: pmu list gets libpfm4's names from
# the library (pmu_libpfm_event_foreach); linked, libpfm4's 41,000 relocations were 82% of the
# dynamic loader's time at every start of the command (LD_DEBUG=statistics).
set -eu
lib=$1 cmd=${2:-}
command -v readelf >/dev/null || { echo "readelf (binutils) is missing: apt-get install binutils"; exit 1; }
status=0
needed_of() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' '; }
needed=$(needed_of "$lib")
for f in "$lib" $cmd; do
	case " $(needed_of "$f")" in
	*" libpfm"*) echo "FAIL: $f needs libpfm4 at load time: $(needed_of "$f")"; status=1 ;;
	esac
done
relocs=$(readelf -r -W "$lib" | grep -c 'R_[A-Z0-9_]*_RELATIVE' || true)
relro=$(readelf -S -W "$lib" | awk '$2 == ".data.rel.ro" { print $6 }')
relro=$(printf '%d' "0x${relro:-0}")
if [ "$relocs" -gt 2000 ]; then
	echo "FAIL: $relocs relative relocations (at most 2,000: the compiled tables must hold offsets, not pointers)"
	status=1
fi
if [ "$relro" -gt 65536 ]; then
	echo "FAIL: .data.rel.ro is $relro bytes (at most 64 KiB: constant data with pointers is written at load)"
	status=1
fi
[ $status = 0 ] && echo "load: needs $needed; $relocs relative relocations, .data.rel.ro $relro bytes"
exit $status
