# Sourced by the shell tests: check DESCRIPTION COMMAND... runs the command, counts it in $checks
# and, when it fails, prints "FAIL: DESCRIPTION" and counts it in $fails (both start at 0 here).
fails=0 checks=0
check() { # description, command...
	local d=$1; shift
	checks=$((checks + 1))
	if ! "$@"; then echo "FAIL: $d"; fails=$((fails + 1)); fi
}
