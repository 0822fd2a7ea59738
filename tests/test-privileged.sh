#!/bin/bash
# SPDX-License-Identifier: MIT
# A privileged caller: a setuid-root program that uses regions, run by an
# ordinary user (nobody) who sets PMU_OUTPUT to a file in a directory only
# root may write, and PMU_EVENTS. libpmu must ignore its PMU_* variables
# there (secure_getenv: AT_SECURE): no file appears, the report goes to
# stderr with the default events. Before, the program created a root-owned
# report wherever the user pointed it, following symlinks and truncating.
#   test-privileged.sh PROGRAM (tests/privileged/region-prog, static libpmu)
# Skips (77) only where it cannot make the privilege change happen: not
# root, no setpriv, or a filesystem mounted nosuid (checked, not assumed).
prog=${1:?usage: test-privileged.sh PROGRAM}
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root to make a setuid-root program (CI runs as root)"; exit 77; }
command -v setpriv >/dev/null || { echo "SKIP: setpriv (util-linux) not found"; exit 77; }
# in /var/tmp: uid 65534 must reach it (a build tree under /root, mode 700, it cannot)
dir=$(mktemp -d /var/tmp/privileged.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
cp "$prog" "$dir/prog" && chown root:root "$dir/prog" && chmod 4755 "$dir/prog" || exit 1
mkdir -m 700 "$dir/rootonly"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups -- env "$@"; }
out=$(as_nobody PMU_OUTPUT="$dir/rootonly/report-%p" PMU_EVENTS=minor-faults "$dir/prog" 2>"$dir/err")
rc=$?
echo "program said: $out"
case $out in
*"euid=0 secure=1"*) ;;
*) echo "SKIP: the setuid bit took no effect here (nosuid mount?): $out"; exit 77 ;;
esac
fail=0
[ $rc = 0 ] || { echo "FAIL: the program exited $rc"; fail=1; }
if [ -n "$(ls -A "$dir/rootonly")" ]; then
	echo "FAIL: PMU_OUTPUT was followed by a setuid program: $(ls -l "$dir/rootonly")"
	fail=1
fi
grep -q 'libpmu regions' "$dir/err" || { echo "FAIL: no report on stderr:"; cat "$dir/err"; fail=1; }
grep -q 'work' "$dir/err" || { echo "FAIL: the region is not in the report"; fail=1; }
if grep -q minor-faults "$dir/err"; then
	echo "FAIL: PMU_EVENTS was honoured by a setuid program"; fail=1
fi
# the same program without privileges honours the variables (the test can tell the difference)
as_nobody PMU_OUTPUT="$dir/mine" PMU_EVENTS=minor-faults "$prog" >/dev/null 2>&1 || true
chmod 777 "$dir"
as_nobody PMU_OUTPUT="$dir/mine" PMU_EVENTS=minor-faults "$prog" >/dev/null 2>"$dir/err2"
if ! grep -q minor-faults "$dir/mine" 2>/dev/null; then
	echo "FAIL: without privileges PMU_OUTPUT/PMU_EVENTS were not honoured:"; cat "$dir/err2"; fail=1
fi
[ $fail = 0 ] && echo "privileged: PMU_OUTPUT and PMU_EVENTS ignored under AT_SECURE, honoured without it"
exit $fail
