# Sourced by the shell tests: check DESCRIPTION COMMAND... runs the command, counts it in $checks
# and, when it fails, prints "FAIL: DESCRIPTION" and counts it in $fails (both start at 0 here).
fails=0 checks=0
check() { # description, command...
	local d=$1; shift
	checks=$((checks + 1))
	if ! "$@"; then echo "FAIL: $d"; fails=$((fails + 1)); fi
}

# The time the hypervisor stole from this machine's CPUs (all of them, /proc/stat) since steal_mark,
# as an upper bound in ns. task-clock holds stolen time that the kernel's user+sys leaves out, so a
# check of one against the other allows this much more. /proc/stat counts steal in whole ticks
# (USER_HZ), each reading rounded down: a run's steal is less than the difference of two readings
# + 1 tick (a difference of 0 ticks is not "no steal").
steal_ticks() { awk '/^cpu / { print $9 }' /proc/stat 2>/dev/null || echo 0; }
steal_mark() { steal_at_mark=$(steal_ticks); }
steal_bound_ns() { echo $(( ($(steal_ticks) - steal_at_mark + 1) * 1000000000 / $(getconf CLK_TCK) )); }
