#!/bin/bash
# SPDX-License-Identifier: MIT
#
# debian/ against the sources it packages (the package build itself is
# tests/packages.sh):
#   - debian/libpmu0.symbols (written by dpkg-gensymbols from the built
#     libraries) lists, per library, exactly the symbols of its version script
#     (lib/libpmu.sym as gen/gen-twins.py writes it into the build directory;
#     compat/*/libpmu-*.sym for the compatibility layers), each with the
#     version node the script gives it, and one entry per node; each section
#     names its Build-Depends-Package;
#   - debian/changelog's upstream version is meson's project version;
#   - every Build-Depends of debian/control is named in tests/deps.sh.
# usage: test-debian.sh SRCDIR VERSION LIBPMU_SYM
set -u
src=$1 version=$2 sym=$3
fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# "symbol@NODE" for every global of version script $1, and "NODE@NODE" per node
script_symbols() {
	awk '
		/^[A-Za-z0-9_.]+[ \t]*\{/ { node = $1; sub(/\{.*/, "", node); print node "@" node; next }
		/global:/ { g = 1; next }
		/local:/ { g = 0; next }
		/^\}/ { g = 0; next }
		g && /^[ \t]+[A-Za-z_0-9]+;/ { s = $1; sub(/;/, "", s); print s "@" node }
	' "$1" | sort
}
# the symbols of library $1's section of debian/libpmu0.symbols (from its "LIB libpmu0 #MINVER#" line to the next)
section_symbols() {
	awk -v lib="$1" '
		/^[^ *]/ { in_lib = ($1 == lib); next }
		in_lib && /^ / { print $1 }
	' "$src/debian/libpmu0.symbols" | sort
}
# each library of libpmu0 with its version script: libpmu's (generated in the build directory), the
# compatibility layers' (compat/)
for pair in "libpmu.so.0:$sym" "libpmu-likwid.so.0:$src/compat/likwid/libpmu-likwid.sym" \
	"libpmu-papi.so.0:$src/compat/papi/libpmu-papi.sym"; do
	lib=${pair%%:*} script=${pair#*:}
	script_symbols "$script" >"$tmp/script"
	section_symbols "$lib" >"$tmp/symbols"
	grep -qx "$lib libpmu0 #MINVER#" "$src/debian/libpmu0.symbols" ||
		bad "debian/libpmu0.symbols: no section '$lib libpmu0 #MINVER#'"
	if ! diff -u "$tmp/script" "$tmp/symbols"; then
		bad "debian/libpmu0.symbols' $lib differs from the version script $script (- script, + symbols file): a new symbol needs its line there (dpkg-gensymbols -plibpmu0 -Pdebian/libpmu0 after a package build prints it)"
	fi
done
[ "$(grep -c '^\* Build-Depends-Package: libpmu-dev$' "$src/debian/libpmu0.symbols")" = \
	"$(grep -c '^[^ *]' "$src/debian/libpmu0.symbols")" ] ||
	bad "debian/libpmu0.symbols: each library's section needs '* Build-Depends-Package: libpmu-dev' (lintian)"
head -n 1 "$src/debian/libpmu0.symbols" | grep -qx 'libpmu.so.0 libpmu0 #MINVER#' ||
	bad "debian/libpmu0.symbols: first line '$(head -n 1 "$src/debian/libpmu0.symbols")'"
# libpmu-mpi (mpi/) is its own package, libpmu-mpi0, so that libpmu0 never depends on an MPI: its symbols
# file against its version script the same way
if [ -f "$src/mpi/libpmu-mpi.sym" ]; then
	script_symbols "$src/mpi/libpmu-mpi.sym" >"$tmp/script"
	awk '/^ / { print $1 }' "$src/debian/libpmu-mpi0.symbols" | sort >"$tmp/symbols"
	head -n 1 "$src/debian/libpmu-mpi0.symbols" | grep -qx 'libpmu-mpi.so.0 libpmu-mpi0 #MINVER#' ||
		bad "debian/libpmu-mpi0.symbols: first line '$(head -n 1 "$src/debian/libpmu-mpi0.symbols")'"
	grep -qx '\* Build-Depends-Package: libpmu-mpi-dev' "$src/debian/libpmu-mpi0.symbols" ||
		bad "debian/libpmu-mpi0.symbols needs '* Build-Depends-Package: libpmu-mpi-dev' (lintian)"
	diff -u "$tmp/script" "$tmp/symbols" ||
		bad "debian/libpmu-mpi0.symbols differs from mpi/libpmu-mpi.sym (- script, + symbols file)"
	grep -q '^Package: libpmu-mpi0$' "$src/debian/control" || bad "debian/control has no package libpmu-mpi0"
fi

# every Build-Depends of debian/control is named in tests/deps.sh (which
# fresh machines install from); virtual packages by the package providing them
. "$src/tests/deps.sh"
named=" ${PMU_BUILD_DEPS[*]} ${PMU_PACKAGE_BUILD_DEPS[*]} "
deps=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' "$src/debian/control" | sed -e 's/^Build-Depends://' -e '/^[A-Z]/d' |
	tr ',' '\n' | sed -E -e 's/\[[^]]*\]//g' -e 's/\([^)]*\)//g' -e 's/:any//' -e 's/[[:space:]]//g' | grep -v '^$')
for p in $deps; do
	case $p in debhelper-compat) p=debhelper ;; dh-sequence-python3) p=dh-python ;; esac
	[[ $named == *" $p "* ]] || bad "Build-Depends $p of debian/control is not named in tests/deps.sh"
done

# third-party data compiled into libpmu.so travels with its licence: every
# directory of events/ with a LICENSE file has a "Files: <dir>/*" stanza in
# debian/copyright, whose licence has its own paragraph there
ndata=0
while read -r lic; do
	dir=${lic#"$src/"}
	dir=${dir%/LICENSE}
	ndata=$((ndata + 1))
	name=$(awk -v f="Files: $dir/*" '$0 == f { s = 1; next } s && /^License:/ { print $2; exit } /^$/ { s = 0 }' \
		"$src/debian/copyright")
	if [ -z "$name" ]; then
		bad "debian/copyright has no 'Files: $dir/*' stanza with a License: $dir/LICENSE is compiled into libpmu.so (add the stanza and the licence's paragraph)"
	elif ! grep -qx "License: $name" "$src/debian/copyright"; then
		bad "debian/copyright: licence $name of $dir/* has no 'License: $name' paragraph with its text"
	fi
done < <(find "$src/events" -name LICENSE | sort)

d=$(sed -n -E '1s/^[^ ]+ \(([0-9]+:)?([^)-]+)(-[^)]*)?\).*/\2/p' "$src/debian/changelog")
[ "$d" = "$version" ] || bad "debian/changelog's upstream version '$d' != meson's '$version'"

echo "test-debian: $(wc -l <"$tmp/script") symbols and nodes of the version script, changelog $d, $(echo $deps | wc -w) build dependencies, $ndata licensed data directories: $fail failed"
[ "$fail" = 0 ]
