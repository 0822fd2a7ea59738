#!/bin/bash
# gen/README.md names every file of gen/ and no file that is not there; a generator with a --check
# mode names, on its line, the meson test that runs it, and tests/meson.build registers that test;
# no file named gen-*.py lives outside gen/ (the tree's files as git sees them, build directories
# and other ignored files left out; without git, every file but those under build*/).
#   tests/test-gen-tour.sh SRCDIR
set -uo pipefail
src=$(cd "$1" && pwd) || exit 1
cd "$src/gen" || exit 1
fail=0
# the files a line names: the backquoted names before its dash ("- `gen-tables.py` — ...")
listed=$(sed -n 's/^- \(`.*\) — .*/\1/p' README.md | grep -o '`[^`]*`' | tr -d '`' | sort -u)
n=0
for f in *; do
	[ "$f" = README.md ] || [ "$f" = __pycache__ ] && continue
	n=$((n + 1))
	grep -qx -- "$f" <<<"$listed" || { echo "FAIL: gen/$f is not in gen/README.md"; fail=1; }
	# --check: the line says which test runs it, and meson has that test (a program's: a module the
	# generators import, without a __main__, is checked by their tests)
	grep -q -- "--check" "$f" && grep -q "__main__" "$f" || continue
	line=$(grep -F -- "- \`$f\` — " README.md)
	# the clause of "`--check`", up to the next ";"
	tests=$(grep -o -- '`--check`[^;]*' <<<"$line" | grep -o '`test-[a-z0-9-]*`' | tr -d '`')
	[ -n "$tests" ] || { echo "FAIL: gen/$f has a --check mode; its line in gen/README.md names no test that runs it"; fail=1; }
	for t in $tests; do
		grep -q "test('$t'" "$src/tests/meson.build" ||
			{ echo "FAIL: gen/README.md says $t runs gen/$f --check; tests/meson.build registers no test('$t'"; fail=1; }
		grep -A3 "test('$t'" "$src/tests/meson.build" | grep -q "gen/$f" ||
			{ echo "FAIL: tests/meson.build's $t does not run gen/$f"; fail=1; }
	done
done
while read -r f; do
	[ -z "$f" ] || [ -e "$f" ] || { echo "FAIL: gen/README.md names $f, which is not in gen/"; fail=1; }
done <<<"$listed"
# no generator outside gen/
cd "$src" || exit 1
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	files=$(git ls-files --cached --others --exclude-standard)
else
	files=$(find . -path './build*' -prune -o -path ./.git -prune -o -type f -print | sed 's,^\./,,')
fi
stray=$(grep -E '(^|/)gen-[^/]*\.py$' <<<"$files" | grep -v '^gen/[^/]*$')
for f in $stray; do
	[ -e "$f" ] && { echo "FAIL: $f is a generator outside gen/: move it there (git mv $f gen/) and add its line to gen/README.md"; fail=1; }
done
[ $fail = 0 ] && echo "ok: gen/README.md names the $n files of gen/, each --check has its test; no gen-*.py elsewhere"
exit $fail
