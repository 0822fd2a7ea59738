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
# + 1 tick (a difference of 0 ticks is not "no steal"). And the kernel adds a CPU's steal to
# /proc/stat only at that CPU's next timer tick or when it leaves idle (steal_account_process_time,
# kernel/sched/cputime.c): at the second reading each CPU may hold up to one kernel tick of steal
# not yet shown (seen: 16 ms more task-clock than user+sys, 0 ticks of steal shown, on a loaded
# 2-CPU VM with HZ=250). The kernel's tick is 1/CONFIG_HZ, from its config where it can be read,
# else 10 ms (CONFIG_HZ is 100 or more).
steal_ticks() { awk '/^cpu / { print $9 }' /proc/stat 2>/dev/null || echo 0; }
kernel_tick_ns() {
	local hz
	hz=$({ zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null; } |
		sed -n 's/^CONFIG_HZ=\([0-9][0-9]*\)$/\1/p')
	echo $((1000000000 / ${hz:-100}))
}
steal_mark() { steal_at_mark=$(steal_ticks); }
steal_bound_ns() {
	local cpus
	cpus=$(grep -c '^cpu[0-9]' /proc/stat 2>/dev/null || echo 1)
	echo $(( ($(steal_ticks) - steal_at_mark + 1) * 1000000000 / $(getconf CLK_TCK) + cpus * $(kernel_tick_ns) ))
}
