#!/bin/bash
# SPDX-License-Identifier: MIT
#
# completion/pmu.bash, driven as bash drives it (COMP_WORDS, COMP_CWORD, then
# the function), with bash-completion's helpers loaded where the package is
# installed and without them (the file must work both ways):
#   - against the real pmu: its subcommands (the six of DESIGN.md, written
#     here), its options, event names (task-clock, cpu-clock and
#     context-switches are kernel software events every Linux has), lists
#     (a,b and {a,b}), metric names equal to what Python's json module reads
#     from `pmu list --json` (kind "metric"), files for FILE.json, directories
#     for DIR, commands after "--";
#   - performance groups (pmu stat -g): on a written machine (the Neoverse N1
#     fixture, LIKWID's and libpmu's group directories written here) the
#     names `pmu list groups --json` lists, a group file after a '/', and
#     nothing where the CPU has no groups;
#   - against stub commands whose help text is written here: getopt-style
#     `pmu CMD --help` lines (aliases, --opt=ARG, --opt[=ARG]), and a pmu
#     without `CMD --help`, whose options then come from `pmu --help`.
# usage: test-completion.sh COMPLETION_FILE PMU
set -u
comp=$1 real_pmu=$2
fail=0 checks=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

ok() { checks=$((checks + 1)); }
bad() { checks=$((checks + 1)); fail=$((fail + 1)); echo "FAIL [$mode]: $*"; }

# complete WORD...: COMPREPLY, one per line, for a command line whose last word is being completed
complete_words() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_pmu pmu "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
	[ ${#COMPREPLY[@]} = 0 ] || printf '%s\n' "${COMPREPLY[@]}"
}

# complete_line "LINE": complete_words with LINE's words (a trailing space: an empty last word)
complete_line() {
	local w
	read -ra w <<<"$1"
	[[ $1 == *" " ]] && w+=("")
	complete_words "${w[@]}"
}

# expect_has "WORDS" WANT...: the completions include each WANT
expect_has() {
	local words=$1 w got; shift
	got=$(complete_line "$words")
	for w in "$@"; do
		if grep -qxF -- "$w" <<<"$got"; then ok; else bad "'$words<TAB>' lacks '$w' (got: $(echo $got | head -c 300))"; fi
	done
}
# expect_only "WORDS" WANT...: the completions are exactly WANT... (any order)
expect_only() {
	local words=$1 got want; shift
	got=$(complete_line "$words" | sort -u | tr '\n' ' ')
	want=$([ $# = 0 ] || printf '%s\n' "$@" | sort -u | tr '\n' ' ')
	if [ "$got" = "$want" ]; then ok; else bad "'$words<TAB>' gave '$got', expected '$want'"; fi
}
# expect_all "WORDS" PATTERN: every completion matches the extended regex, and there is one
expect_all() {
	local got
	got=$(complete_line "$1")
	if [ -z "$got" ]; then bad "'$1<TAB>' gave nothing"; return; fi
	if grep -qvE -- "$2" <<<"$got"; then bad "'$1<TAB>' gave '$(grep -vE -- "$2" <<<"$got" | head -3 | tr '\n' ' ')' (not $2)"; else ok; fi
}

# The command as `pmu` on PATH (the completion runs the pmu the command line names)
mkdir -p "$tmp/real" "$tmp/stub" "$tmp/old" "$tmp/files/sub"
ln -s "$real_pmu" "$tmp/real/pmu"
touch "$tmp/files/run.json" "$tmp/files/notes.txt"
# group directories for the Neoverse N1: LIKWID's arm8_n1 and libpmu's own arm64 and standard
fixtures=$(cd "$(dirname "$0")" && pwd)/fixtures
mkdir -p "$tmp/likwid/arm8_n1" "$tmp/groups/arm64" "$tmp/groups/standard"
for g in likwid/arm8_n1/ALPHA likwid/arm8_n1/ZETA groups/arm64/MINE groups/standard/STD; do
	printf 'SHORT %s\nEVENTSET\nSW0 page-faults\n' "${g##*/}" >"$tmp/$g.txt"
done

# A pmu with getopt-style help for stat and a fixed list of names
cat >"$tmp/stub/pmu" <<'EOF'
#!/bin/sh
case "$*" in
"--help") printf 'usage: pmu [-v] COMMAND ...\n  stat [-e EVENTS] -- CMD [ARGS...]   count\n  list [PREFIX] [--json]   names\n  report FILE.json...   reports\n' ;;
"stat --help") printf 'usage: pmu stat [OPTIONS] -- CMD [ARGS...]\n  -e, --events=EVENTS      events to count; set-up needs +- nothing\n  -M, --metrics METRICS    metrics\n  -o FILE                  write the results to FILE\n  -r, --repeat[=RUNS]      repeat the command\n      --json               JSON output\n  -h, --help               this help\n                           -x: not an option (prose)\n' ;;
list\ --json*) printf '[ {"name":"alpha-events","pmu":"cpu","kind":"kernel","desc":"a {brace} inside"},\n{"name":"alpha-metric","kind":"metric","desc":"x"}, {"name":"ALPHA.STD","kind":"standard","desc":"y"} ]\n' ;;
*) echo "pmu: unknown argument" >&2; exit 2 ;;
esac
EOF
# A pmu whose subcommands have no --help (as before getopt_long): options from `pmu --help`
cat >"$tmp/old/pmu" <<'EOF'
#!/bin/sh
case "$*" in
"--help") printf 'usage: pmu [-v] COMMAND ...\n  info [--json]                    CPU\n  stat [-e EVENTS] [-M METRICS] [-D NAME=VALUE] [-r RUNS | -I MS] [--json] [-o FILE]\n       -- CMD [ARGS...]   count; -r: mean of RUNS runs with +- (standard error)\n' ;;
list\ --json*) printf '[{"name":"beta","kind":"kernel"},{"name":"beta-m","kind":"metric"}]\n' ;;
*) echo "pmu $1: unknown option '\''$2'\''" >&2; exit 2 ;;
esac
EOF
chmod +x "$tmp/stub/pmu" "$tmp/old/pmu"

# group_checks: pmu stat -g on the written N1 (the real pmu on PATH)
group_checks() {
	local -x PMU_SYSFS_ROOT=$fixtures/arm64-neoverse-n1/sys PMU_CPUID=0x00000000413fd0c1
	local -x PMU_LIKWID_GROUPS=$tmp/likwid PMU_GROUPS_DIR=$tmp/groups
	expect_only "pmu stat -g " ALPHA ZETA MINE STD
	expect_only "pmu stat -g Z" ZETA
	expect_only "pmu stat --group M" MINE
	local want got
	want=$(pmu list groups --json | python3 -c 'import json, sys; print("\n".join(g["name"] for g in json.load(sys.stdin)))' | LC_ALL=C sort)
	got=$(complete_words pmu stat -g "" | LC_ALL=C sort)
	if [ "$got" = "$want" ]; then ok; else bad "-g: '$(echo $got)', pmu list groups --json: '$(echo $want)'"; fi
	# a group file: a word with a '/'
	cd "$tmp/files"
	expect_only "pmu stat -g ./" ./notes.txt ./sub/
	cd - >/dev/null
	# a CPU without groups: nothing (not the "(none: ...)" line)
	PMU_LIKWID_GROUPS=$tmp/none PMU_GROUPS_DIR=$tmp/none
	expect_only "pmu stat -g "
}

run_checks() {
	# --- the real pmu
	PATH=$tmp/real:$PATH
	expect_has "pmu " info list resolve stat report check-tables
	expect_only "pmu st" stat
	expect_only "pmu check" check-tables
	expect_has "pmu stat -" -e -M
	expect_all "pmu stat -" '^-'
	expect_has "pmu info -" --json
	expect_only "pmu stat -e task-c" task-clock
	expect_only "pmu stat -e task-clock,cpu-cl" task-clock,cpu-clock
	expect_only "pmu stat -e {task-clock,context-sw" "{task-clock,context-switches"
	expect_only "pmu resolve cpu-cl" cpu-clock
	expect_has "pmu list task" task-clock
	expect_has "pmu stat -- ech" echo
	# pmu help: pmu's commands, not the shell's (it offered every command on PATH)
	expect_only "pmu help st" stat
	expect_only "pmu help stat "
	# the command's own arguments after it, with or without --, after options and their arguments (they
	# got nothing: "pmu stat ls /tm")
	mkdir -p "$tmp/cmdfiles/tmpdir" && touch "$tmp/cmdfiles/notes.txt"
	cd "$tmp/cmdfiles"
	expect_has "pmu stat ls tm" tmpdir
	expect_has "pmu stat -e task-clock ls no" notes.txt
	expect_has "pmu stat -r 3 -- ls no" notes.txt
	cd - >/dev/null
	# metric names: the same set Python's json module reads from pmu list --json
	local want got
	# both through one sort, in the C locale: Python's order is the code points', sort's a locale's
	# collation (en_US.UTF-8 orders '.', '_' and case otherwise: seen on an Ubuntu machine)
	want=$(pmu list --json | python3 -c 'import json, sys; print("\n".join({e["name"] for e in json.load(sys.stdin) if e["kind"] == "metric"}))' | LC_ALL=C sort -u)
	got=$(complete_words pmu stat -M "" | LC_ALL=C sort -u)
	if [ -n "$want" ] && [ "$got" = "$want" ]; then ok; else bad "-M: $(wc -l <<<"$got") names, json has $(wc -l <<<"$want") metrics"; fi
	want=$(pmu list --json | python3 -c 'import json, sys; print("\n".join({e["name"] for e in json.load(sys.stdin) if e["kind"] != "metric"}))' | LC_ALL=C sort -u)
	got=$(complete_words pmu resolve "" | LC_ALL=C sort -u)
	if [ "$got" = "$want" ]; then ok; else bad "resolve: $(wc -l <<<"$got") names, json has $(wc -l <<<"$want") events"; fi
	cd "$tmp/files"
	expect_only "pmu report " run.json sub/
	expect_only "pmu check-tables " sub
	cd - >/dev/null
	expect_only "pmu nosuchcommand "
	group_checks
	if [ "$mode" = bash-completion ]; then
		# readline breaks words at ':': "cycles:u,task-c" is three words; the reply replaces the last
		COMP_WORDS=(pmu stat -e cycles : u,task-c) COMP_CWORD=5
		COMP_LINE="pmu stat -e cycles:u,task-c" COMP_POINT=27 COMPREPLY=()
		_pmu pmu u,task-c : 2>/dev/null
		if [ "${COMPREPLY[*]}" = "u,task-clock" ]; then ok; else bad "'-e cycles:u,task-c<TAB>' gave '${COMPREPLY[*]}'"; fi
	fi

	# --- getopt-style help (the stub)
	PATH=$tmp/stub:${PATH#"$tmp/real:"}
	expect_only "pmu stat -" -e --events -M --metrics -o -r --repeat --json -h --help
	expect_only "pmu stat -e alpha" alpha-events
	expect_only "pmu stat --events alpha" alpha-events
	expect_only "pmu stat -M alpha" alpha-metric
	expect_only "pmu stat -e ALP" ALPHA.STD
	expect_only "pmu list alpha" alpha-events alpha-metric
	expect_only "pmu stat -r "
	cd "$tmp/files"
	expect_only "pmu stat -o no" notes.txt
	cd - >/dev/null
	if [ "$mode" = bash-completion ]; then
		expect_only "pmu stat --events=alpha" alpha-events
	else
		expect_only "pmu stat --events = alpha" alpha-events
	fi

	# --- no `pmu CMD --help`: options from `pmu --help`
	PATH=$tmp/old:${PATH#"$tmp/stub:"}
	expect_only "pmu stat -" -e -M -D -r -I --json -o
	expect_only "pmu stat -e b" beta
	expect_only "pmu stat -M b" beta-m
	expect_only "pmu info -" --json
	PATH=${PATH#"$tmp/old:"}
}

mode=plain
(
	source "$comp"
	run_checks
	echo "$checks $fail" >"$tmp/plain"
)
read -r c f <"$tmp/plain" || { c=0; f=1; }
total=$c failed=$f

bc=/usr/share/bash-completion/bash_completion
if [ -r "$bc" ]; then
	mode=bash-completion
	(
		source "$bc"
		source "$comp"
		fail=0 checks=0
		run_checks
		echo "$checks $fail" >"$tmp/bc"
	)
	read -r c f <"$tmp/bc" || { c=0; f=1; }
	total=$((total + c)) failed=$((failed + f))
	echo "test-completion: with and without bash-completion: $total checks, $failed failed"
else
	echo "test-completion: without bash-completion ($bc missing; tests/deps.sh installs it): $total checks, $failed failed"
fi
[ "$failed" = 0 ]
