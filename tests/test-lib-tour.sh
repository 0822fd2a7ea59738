#!/bin/bash
# lib/README.md names every file of lib/ and no file that is not there.
#   tests/test-lib-tour.sh SRCDIR
set -uo pipefail
cd "$1/lib" || exit 1
fail=0
# the files a line names: the backquoted names before its dash ("- `set.c` + `set.h` — ...")
listed=$(sed -n 's/^- \(`.*\) — .*/\1/p' README.md | grep -o '`[^`]*`' | tr -d '`' | sort -u)
for f in *; do
	[ "$f" = README.md ] && continue
	grep -qx -- "$f" <<<"$listed" || { echo "FAIL: lib/$f is not in lib/README.md's tour"; fail=1; }
done
while read -r f; do
	[ -e "$f" ] || { echo "FAIL: lib/README.md names $f, which is not in lib/"; fail=1; }
done <<<"$listed"
[ $fail = 0 ] && echo "ok: lib/README.md names the $(ls | grep -cvx README.md) files of lib/"
exit $fail
