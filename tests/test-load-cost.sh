#!/bin/sh
# What loading libpmu.so costs a program that links it, before it calls anything, read from the
# file with readelf (binutils): no libpfm4 among its needed libraries (lib/pfm.c loads it at the
# first name that needs it; linked, it cost every program about 0.8 ms and 290 page faults), and no
# relocated event tables (their strings are offsets into one array: 18,537 relative relocations
# and 780 KB of .data.rel.ro, written at every start, before that change; about 570 and 7 KB after).
set -eu
lib=$1
command -v readelf >/dev/null || { echo "readelf (binutils) is missing: apt-get install binutils"; exit 1; }
status=0
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
case " $needed" in
*" libpfm"*) echo "FAIL: $lib needs libpfm4 at load time: $needed"; status=1 ;;
esac
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
