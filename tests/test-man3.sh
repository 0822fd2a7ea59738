#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The section 3 pages generated from <pmu.h> (gen/gen-man3.py):
#   - every symbol of the version script lib/libpmu.sym has a page, its own or
#     a ".so" link to the page of its group, whose NAME line names it
#     (as lexgrog, which makes the whatis database, reads it);
#   - every function the headers declare has a doc comment (gen-man3.py --check);
#   - every page is valid troff: no warning from `groff -man -ww -z` nor from
#     `man --warnings` as lintian runs it (UTF-8, 80 columns);
#   - every page named in a SEE ALSO exists;
#   - the SYNOPSIS of pmu_set_read(3) is the header's prototype.
# usage: test-man3.sh MAN3_DIR LIBPMU_SYM GEN_MAN3 HEADER...
set -u
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
dir=$(abs "$1") sym=$(abs "$2") gen=$(abs "$3")
shift 3
headers=()
for h in "$@"; do headers+=("$(abs "$h")"); done
fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

for t in groff man lexgrog; do
	command -v $t >/dev/null 2>&1 || { echo "SKIP: $t not installed (groff-base, man-db; tests/deps.sh installs them)"; exit 77; }
done
[ -d "$dir" ] || { echo "FAIL: $dir: no pages were generated"; exit 1; }
cd "$dir/.." || exit 1
m3=$(basename "$dir")

# every exported symbol
syms=$(sed -n '/global:/,/local:/p' "$sym" | grep -E '^\s+[a-z_0-9]+;' | tr -d ' \t;')
n=0
for s in $syms; do
	n=$((n + 1))
	page=$m3/$s.3
	[ -f "$page" ] || { bad "$s (in $(basename "$sym")) has no page $page"; continue; }
	target=$page
	if head -n 1 "$page" | grep -q '^\.so '; then
		target=$(head -n 1 "$page" | sed 's/^\.so //')
		[ -f "$target" ] || { bad "$page links to $target, which does not exist"; continue; }
	fi
	whatis=$(lexgrog "$target" 2>&1)
	if ! grep -qE "(\"|, )$s(,| - )" <<<"$whatis"; then
		bad "$target's NAME line does not name $s: $whatis"
	fi
done

# every declared function documented
if ! out=$(python3 "$gen" --check "${headers[@]}"); then
	bad "functions without a doc comment in the headers: $out"
fi

# troff validity, as groff and as lintian's man check it
pages=0
for p in "$m3"/*.3; do
	pages=$((pages + 1))
	w=$(groff -man -ww -z -Tutf8 "$p" 2>&1)
	[ -z "$w" ] || bad "groff -ww: $p: $w"
	w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$p" 2>&1 >/dev/null)
	[ -z "$w" ] || bad "man --warnings: $p: $w"
	lexgrog "$p" >/dev/null 2>&1 || bad "lexgrog cannot read the NAME section of $p"
	# SEE ALSO: the section 3 pages it names exist
	for ref in $(sed -n '/^\.SH SEE ALSO/,$p' "$p" | grep -oE '\\fB[a-z_0-9]+\\fP\(3\)' | sed -E 's/\\fB(.*)\\fP\(3\)/\1/'); do
		[ -f "$m3/$ref.3" ] || bad "$p: SEE ALSO names $ref(3), which has no page"
	done
done

# one SYNOPSIS against the header, word for word
want=$(grep -hE '^int pmu_set_read\(' "${headers[@]}" | tr -s ' \t' ' ')
got=$(LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$m3/pmu_set_read.3" 2>/dev/null | sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' |
	grep -E 'int pmu_set_read\(' | sed -E 's/^ +//' | tr -s ' ' ' ')
[ -n "$want" ] && [ "$want" = "$got" ] || bad "pmu_set_read(3) SYNOPSIS '$got', header '$want'"

echo "test-man3: $n symbols of $(basename "$sym"), $pages pages in $dir: $fail failed"
[ "$fail" = 0 ]
