/* SPDX-License-Identifier: MIT */
/*
 * Narrow counters wrapping under the user-space read. arm64 event counters
 * are 32 bits wide (pmc_width 32): the kernel keeps the upper part in the
 * user page's offset and reloads the counter on overflow. A sampling period
 * of 2^20 makes the kernel reprogram the counter to 2^32 - 2^20 every 2^20
 * events, so a loop of millions of instructions crosses dozens of
 * overflows, and every raw value read is near the top of the 32-bit range
 * (negative once sign-extended). libpmu's read loop (pmu_page_read) must
 * still give exact deltas:
 *     delta(spin(n2)) - delta(spin(n1)) == 2 * (n2 - n1)
 * and agree with read(2).
 */
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "labutil.h"

static struct perf_event_mmap_page *pg;

static uint64_t now(void)
{
	struct pmu_value v;
	if (pmu_page_read(pg, &v) != 0) {
		printf("FAIL: user-space read not available (index %u, cap_user_rdpmc %u)\n", pg->index,
		       (unsigned)pg->cap_user_rdpmc);
		exit(1);
	}
	return v.value;
}

static uint64_t span(uint64_t n)
{
	uint64_t a = now();
	lab_spin(n);
	return now() - a;
}

int main(void)
{
	struct perf_event_attr at;
	uint64_t d1, d2, d3, byread;
	int fd;

	memset(&at, 0, sizeof(at));
	at.size = sizeof(at);
	at.type = PERF_TYPE_HARDWARE;
	at.config = PERF_COUNT_HW_INSTRUCTIONS;
	at.exclude_kernel = 1;
	at.exclude_hv = 1;
	at.sample_period = 1u << 20;
	at.disabled = 1;
#if defined(__aarch64__)
	at.config1 = 0x2; /* EL0 access */
#endif
	fd = (int)syscall(SYS_perf_event_open, &at, 0, -1, -1, 0);
	if (fd < 0) {
		printf("FAIL: perf_event_open: %s\n", strerror(errno));
		return 1;
	}
	pg = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED) {
		printf("FAIL: mmap: %s\n", strerror(errno));
		return 1;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	printf("pmc_width %u index %u\n", pg->pmc_width, pg->index);
	if (pg->pmc_width >= 64)
		printf("note: %u-bit counters; the overflow reloads are still exercised\n", pg->pmc_width);
	d1 = span(1000000);
	d2 = span(9000000);
	d3 = span(33000000);
	printf("deltas: 1M -> %llu, 9M -> %llu, 33M -> %llu (period 2^20: %llu+ reloads)\n",
	       (unsigned long long)d1, (unsigned long long)d2, (unsigned long long)d3, 43000000ull * 2 >> 20);
	LAB_CHECK(d2 - d1 == 2 * 8000000ull, "9M - 1M loop: %llu, expected %llu", (unsigned long long)(d2 - d1),
		  2 * 8000000ull);
	LAB_CHECK(d3 - d1 == 2 * 32000000ull, "33M - 1M loop: %llu, expected %llu", (unsigned long long)(d3 - d1),
		  2 * 32000000ull);
	/* user space and read(2) agree once counting stops */
	{
		uint64_t u;
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		if (read(fd, &byread, sizeof(byread)) != sizeof(byread)) {
			printf("FAIL: read(2)\n");
			return 1;
		}
		u = pg->offset; /* disabled: the kernel folded the counter into offset */
		printf("after disable: read(2) %llu, page offset %llu\n", (unsigned long long)byread,
		       (unsigned long long)u);
		LAB_CHECK(byread >= d3, "total %llu below the last delta", (unsigned long long)byread);
	}
	close(fd);
	return lab_done("lab-wrap");
}
