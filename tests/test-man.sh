#!/bin/bash
# The manual pages (doc/man/*.1): each is valid man(7) troff (groff -ww and man --warnings say
# nothing), and each option 'pmu CMD --help' lists is in the page of that command (the help
# text is the oracle of what the command takes: opts_parse parses with the same table). And
# 'pmu help CMD' shows the page through man(1), or says why not and prints --help.
set -u
PMU=${PMU_CLI:?}
SRC=${PMU_TEST_SRCDIR:?}
MAN=$SRC/doc/man
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/checks.sh" # check(), $checks, $fails
if ! command -v groff > /dev/null || ! command -v man > /dev/null; then
	echo "skip: groff and man (groff-base, man-db; tests/deps.sh installs them) are needed"
	exit 77
fi
commands="info list resolve stat report check-tables"
check "a page for pmu and each command" test "$(cd "$MAN" && ls *.1 | sort | tr '\n' ' ')" = \
	"$(printf '%s\n' pmu.1 $(for c in $commands; do echo pmu-$c.1; done) | sort | tr '\n' ' ')"
for page in "$MAN"/*.1; do
	groff -man -ww -z "$page" > "$tmp/w" 2>&1
	check "$(basename "$page"): groff -man -ww: no warning ($(head -1 "$tmp/w"))" test ! -s "$tmp/w"
	MANWIDTH=80 man --warnings -l "$page" > /dev/null 2> "$tmp/w"
	check "$(basename "$page"): man --warnings: no warning ($(head -1 "$tmp/w"))" test ! -s "$tmp/w"
done
# the options of --help: lines "  -e, --event, --events EVENTS   text" (an optional argument joined:
# "--per-cache[=LEVEL]"); each spelling must be in the page as rendered (groff's ASCII output, hyphens plain)
for c in $commands; do
	"$PMU" $c --help > "$tmp/help"
	groff -man -Tascii -P-cbu "$MAN/pmu-$c.1" 2> /dev/null > "$tmp/page"
	n=0
	for o in $(sed -n 's/^  \(-[^ ].*\)  .*/\1/p' "$tmp/help" | sed 's/  .*//; s/ [A-Z][A-Z=,.\[]*.*//; s/\[=[A-Z]*\]//; s/,/ /g'); do
		n=$((n + 1))
		check "pmu-$c.1 names $o (in 'pmu $c --help')" grep -q -e "$o\b" "$tmp/page"
	done
	check "pmu $c --help: options found ($n)" test $n -ge 2
	# and the other way: each option the page describes (.TP lines) is one --help lists
	for o in $(grep -A1 '^\.TP' "$MAN/pmu-$c.1" | grep -o '\\-\\-[a-z][a-z\\-]*\|\\-[a-zA-Z]\b' | sed 's/\\//g' | sort -u); do
		check "pmu $c --help lists $o (described in pmu-$c.1)" grep -q -e "$o\b" "$tmp/help"
	done
done
# pmu help CMD: the page through man (MANPATH to the pages here), else --help and why
mkdir -p "$tmp/man/man1" "$tmp/empty/man1"
cp "$MAN"/*.1 "$tmp/man/man1/"
LC_ALL=C MANPATH=$tmp/man MANPAGER=cat PAGER=cat MANWIDTH=80 "$PMU" help stat > "$tmp/o" 2> "$tmp/e"
check "pmu help stat: exit 0 (man)" test $? = 0
check "pmu help stat: the page (its NAME line)" grep -q "pmu-stat  *- count events" "$tmp/o"
MANPATH=$tmp/empty MANPAGER=cat PAGER=cat "$PMU" help stat > "$tmp/o" 2> "$tmp/e"
check "pmu help stat, no page: exit 0" test $? = 0
check "pmu help stat, no page: said" grep -q "^pmu help: no manual page pmu-stat (man has no such page here): here is 'pmu stat --help'" "$tmp/e"
check "pmu help stat, no page: the --help text" test "$(head -1 "$tmp/o")" = "$("$PMU" stat --help | head -1)"
mkdir "$tmp/bin"
PATH=$tmp/bin "$PMU" help list > "$tmp/o" 2> "$tmp/e"
check "pmu help list, no man: exit 0" test $? = 0
check "pmu help list, no man: said" grep -q "^pmu help: no manual page pmu-list (man is not installed)" "$tmp/e"
check "pmu help list, no man: the --help text" cmp -s "$tmp/o" <("$PMU" list --help)
echo "test-man: $checks checks, $fails failed"
[ $fails = 0 ]
