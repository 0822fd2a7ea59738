#!/bin/bash
# Issue 40 item 8: pmu stat -o FILE never leaves FILE emptied or half-written. The oracle is FILE's
# bytes before the run (a saved copy, compared with cmp): a run that fails before its results, a SIGKILL
# during the run, a disk that fills (a 64 KiB tmpfs, as root) leave them as they were; a run that prints
# replaces them whole, with FILE's mode kept. Before, FILE was truncated at the start: empty after each.
set -u
PMU=${PMU_CLI:?}
tmp=$(mktemp -d); trap 'umount "$tmp/small" 2> /dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/checks.sh" # check(), $checks, $fails
F=$tmp/out.txt
printf 'the results of an earlier run\n' > "$F"; chmod 640 "$F"; cp -p "$F" "$tmp/saved"
no_tmp() { test -z "$(ls -A "$1" | grep '\.pmu-')"; }
"$PMU" stat -o "$F" -e nosuch true 2> /dev/null
check "an unknown event (exit $?): FILE as it was" cmp -s "$F" "$tmp/saved"
"$PMU" stat -o "$F" -e task-clock "$tmp/nonexistent" 2> /dev/null
check "a command that cannot run (exit $?): FILE as it was" cmp -s "$F" "$tmp/saved"
"$PMU" stat -o "$F" -e task-clock -p 999999999 2> /dev/null
check "-p of no process (exit $?): FILE as it was" cmp -s "$F" "$tmp/saved"
check "... no temporary file left" no_tmp "$tmp"
# SIGKILL while counting (the results not written yet): FILE as it was (the temporary file stays: a
# SIGKILL runs no clean-up)
"$PMU" stat -o "$F" -e task-clock sleep 5 2> /dev/null & pid=$!
sleep 0.5; kill -9 $pid; wait $pid 2> /dev/null
check "SIGKILL during the run: FILE as it was" cmp -s "$F" "$tmp/saved"
rm -f "$tmp"/.out.txt.pmu-*
# -I: FILE as it was while counting, the intervals in it after
"$PMU" stat -I 100 -x, -o "$F" -e task-clock sleep 0.5 2> /dev/null & pid=$!
sleep 0.3
check "-I while counting: FILE as it was" cmp -s "$F" "$tmp/saved"
wait $pid
check "-I after: the intervals in FILE" test "$(grep -c ',task-clock,' "$F")" -ge 3
check "... FILE's mode kept (640: $(stat -c %a "$F"))" test "$(stat -c %a "$F")" = 640
check "... no temporary file left" no_tmp "$tmp"
# a new FILE: the mode a new file gets (0666 less the umask)
(umask 027; "$PMU" stat -o "$tmp/new.txt" -e task-clock true 2> /dev/null)
check "a new FILE under umask 027: mode 640 ($(stat -c %a "$tmp/new.txt"))" test "$(stat -c %a "$tmp/new.txt")" = 640
# a full disk: a 64 KiB tmpfs holding FILE and a file filling the rest
if [ "$(id -u)" = 0 ] && mkdir "$tmp/small" && mount -t tmpfs -o size=64k tmpfs "$tmp/small" 2> /dev/null; then
	cp -p "$tmp/saved" "$tmp/small/out.txt"
	dd if=/dev/zero of="$tmp/small/fill" bs=4k 2> /dev/null
	"$PMU" stat -o "$tmp/small/out.txt" -r 3 -e task-clock true 2> "$tmp/e"
	st=$?
	check "a full disk: exit 1 ($st)" test $st = 1
	check "... said: No space left on device" grep -q "No space left on device" "$tmp/e"
	check "... FILE as it was" cmp -s "$tmp/small/out.txt" "$tmp/saved"
	check "... no temporary file left" no_tmp "$tmp/small"
	# the regions' report at exit (issue 40 item 9), to PMU_OUTPUT on the full disk: no file, not an empty
	# or half-written one, and said; before, the file was created and cut short
	if [ -n "${PMU_MATMUL:-}" ]; then
		PMU_EVENTS=task-clock PMU_OUTPUT=$tmp/small/regions.txt "$PMU_MATMUL" 64 > /dev/null 2> "$tmp/e"
		check "regions' report on a full disk: no file left (ls: $(ls "$tmp/small" | tr '\n' ' '))" test ! -e "$tmp/small/regions.txt"
		check "... no temporary file left" no_tmp "$tmp/small"
		check "... said: No space left on device" grep -q "No space left on device" "$tmp/e"
	else
		echo "note: PMU_MATMUL not set (examples off): the regions' report on a full disk not checked"
	fi
	umount "$tmp/small"
else
	echo "note: not root, or no tmpfs mount: the full-disk case not checked"
fi
echo "test-outfile: $checks checks, $fails failed"
[ $fails = 0 ]
