/* SPDX-License-Identifier: MIT */
/*
 * The kernel's own count as the oracle of a PMU that counts CPUs (tests that stand this machine's msr
 * PMU in for RAPL or an uncore unit: test-cpu-wide.c, test-boxes.c): raw CPU-wide tscs, opened, enabled
 * around the set under test and read.
 */
#ifndef PMU_TEST_MSR_ORACLE_H
#define PMU_TEST_MSR_ORACLE_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sys/ioctl.h>
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

/* The raw tsc of CPUs 0 .. @n-1 opened into @fd[], disabled: 0, or -errno with none of them left open. */
static inline int raw_tsc_open_cpus(long type, int n, int *fd)
{
	for (int c = 0; c < n; c++)
		if ((fd[c] = raw_tsc_open(type, c)) < 0) {
			int r = -errno;
			while (c--)
				close(fd[c]);
			return r;
		}
	return 0;
}

/* PERF_EVENT_IOC_ENABLE or _DISABLE (@req) on each of @fd[0 .. @n-1]. */
static inline void raw_tsc_ioctl(const int *fd, int n, unsigned long req)
{
	for (int c = 0; c < n; c++)
		ioctl(fd[c], req, 0);
}

static inline void raw_tsc_close(const int *fd, int n)
{
	for (int c = 0; c < n; c++)
		close(fd[c]);
}

/* The counts of @fd[0 .. @n-1] into @per[] (NULL: not kept) and their sum into *@sum, each closed: 0, or
 * the number of the first CPU whose read(2) failed, plus one. */
static inline int raw_tsc_read_close(const int *fd, int n, uint64_t *per, uint64_t *sum)
{
	int bad = 0;

	*sum = 0;
	for (int c = 0; c < n; c++) {
		uint64_t x = 0;
		if (read(fd[c], &x, sizeof(x)) != sizeof(x) && !bad)
			bad = c + 1;
		*sum += x;
		if (per)
			per[c] = x;
		close(fd[c]);
	}
	return bad;
}

#endif
