/* SPDX-License-Identifier: MIT */
/*
 * The kernel's own count as the oracle of a PMU that counts CPUs (tests that stand this machine's msr
 * PMU in for RAPL or an uncore unit: test-cpu-wide.c, test-boxes.c): a raw CPU-wide tsc around a sleep.
 */
#ifndef PMU_TEST_MSR_ORACLE_H
#define PMU_TEST_MSR_ORACLE_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

static inline void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The raw CPU-wide count of msr @type's tsc on CPU @cpu (every task), opened disabled: the kernel's own
 * count, the oracle. Its descriptor, or -1 with errno. */
static inline int raw_tsc_open(long type, int cpu)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = (uint32_t)type;
	a.disabled = 1;
	return (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, 0);
}

#endif
