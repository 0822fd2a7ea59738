#!/bin/bash
# Every build option configures, and every configuration registers the same tests (a test it
# cannot build reports skipped with its reason, tests/skip.sh): -Dexamples=false,
# -Ddefault_library=shared and =static are set up (not built) in a scratch directory and
# their `meson test --list` compared with this build's.
#   tests/test-build-options.sh SRCDIR BUILDDIR
set -uo pipefail
src=$1 build=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# --no-rebuild: listing runs no ninja (in the build directory the suite runs from, ninja's own
# output, "no work to do" or a regeneration, became part of the list compared)
meson test -C "$build" --list --no-rebuild 2>/dev/null | sort >"$tmp/want" || { echo "FAIL: meson test --list in $build"; exit 1; }
[ -s "$tmp/want" ] || { echo "FAIL: this build lists no tests"; exit 1; }
fail=0
for opt in -Dexamples=false -Ddefault_library=shared -Ddefault_library=static; do
	d="$tmp/b${opt//[^a-z]/}"
	if ! meson setup "$d" "$src" "$opt" >"$tmp/log" 2>&1; then
		echo "FAIL: meson setup $opt does not configure:"; tail -5 "$tmp/log"
		fail=1; continue
	fi
	meson test -C "$d" --list --no-rebuild 2>/dev/null | sort >"$tmp/got"
	if ! diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
		echo "FAIL: $opt registers other tests than this build (- missing there, + only there):"
		sed -n '/^[-+][^-+]/p' "$tmp/diff"
		fail=1
	else
		echo "ok: $opt configures and registers the same $(wc -l <"$tmp/got") tests"
	fi
done
exit $fail
