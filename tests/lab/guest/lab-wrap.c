/* SPDX-License-Identifier: MIT */
/*
 * Narrow counters wrapping under the user-space read. arm64 event counters
 * are 32 bits wide (pmc_width 32): the kernel keeps the rest of the count in
 * the user page's offset. Counter A has a sampling period of 2^20, so the
 * kernel reprograms it to 2^32 - 2^20 every 2^20 events: every raw value
 * read is near the top of the 32-bit range (negative once sign-extended) and
 * a loop of tens of millions of instructions crosses dozens of reloads.
 * Counter B counts the same event without a period (it does not wrap during
 * the test) and is the reference.
 *
 * Checks, reading A with libpmu's loop (pmu_page_read):
 *  - over 400 steps of 100,000 loop iterations each, A never goes backwards
 *    and each step of A equals B's step to within a few instructions: a
 *    sign-extension or offset mistake would show as a jump of about 2^20 or
 *    2^32;
 *  - the totals of A and B agree to within a few instructions (they are
 *    read one after the other, so a difference of one or two is expected);
 *  - after disabling, A read from user space equals A read with read(2).
 * On 64-bit counters (riscv64) nothing wraps: the test says so and skips.
 */
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "labutil.h"

static int open_insn(uint64_t period, struct perf_event_mmap_page **pg)
{
	struct perf_event_attr at;
	int fd;

	memset(&at, 0, sizeof(at));
	at.size = sizeof(at);
	at.type = PERF_TYPE_HARDWARE;
	at.config = PERF_COUNT_HW_INSTRUCTIONS;
	at.exclude_kernel = 1;
	at.exclude_hv = 1;
	at.sample_period = period;
	at.disabled = 1;
#if defined(__aarch64__)
	at.config1 = 0x2; /* EL0 access */
#endif
	fd = (int)syscall(SYS_perf_event_open, &at, 0, -1, -1, 0);
	if (fd < 0) {
		printf("FAIL: perf_event_open: %s\n", strerror(errno));
		exit(1);
	}
	*pg = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	if (*pg == MAP_FAILED) {
		printf("FAIL: mmap: %s\n", strerror(errno));
		exit(1);
	}
	return fd;
}

static uint64_t fast(const struct perf_event_mmap_page *pg)
{
	struct pmu_value v;
	if (pmu_page_read(pg, &v) != 0) {
		printf("FAIL: user-space read not available (index %u, cap_user_rdpmc %u)\n", pg->index,
		       (unsigned)pg->cap_user_rdpmc);
		exit(1);
	}
	return v.value;
}

int main(void)
{
	struct perf_event_mmap_page *pa, *pb;
	int fa = open_insn(1u << 20, &pa), fb = open_insn(0, &pb);
	uint64_t a0, b0, a, b, prev_a, prev_b, worst = 0, byread = 0;
	unsigned long reloads;

	ioctl(fa, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(fb, PERF_EVENT_IOC_ENABLE, 0);
	printf("counter A: pmc_width %u index %u; counter B: index %u\n", pa->pmc_width, pa->index, pb->index);
	if (pa->pmc_width >= 64)
		LAB_SKIP("counters are %u bits wide here: nothing wraps", pa->pmc_width);
	a0 = prev_a = fast(pa);
	b0 = prev_b = fast(pb);
	for (int step = 0; step < 400; step++) {
		uint64_t da, db;
		lab_spin(100000);
		a = fast(pa);
		b = fast(pb);
		da = a - prev_a;
		db = b - prev_b;
		LAB_CHECK(a >= prev_a, "step %d: A went backwards %llu -> %llu", step, (unsigned long long)prev_a,
			  (unsigned long long)a);
		if ((da > db ? da - db : db - da) > worst)
			worst = da > db ? da - db : db - da;
		LAB_CHECK((da > db ? da - db : db - da) < 64, "step %d: A advanced %llu, B %llu", step,
			  (unsigned long long)da, (unsigned long long)db);
		prev_a = a;
		prev_b = b;
	}
	reloads = (unsigned long)((a - a0) >> 20);
	printf("A %llu, B %llu over the loop (%lu reloads of A); worst per-step difference %llu\n",
	       (unsigned long long)(a - a0), (unsigned long long)(b - b0), reloads, (unsigned long long)worst);
	LAB_CHECK(reloads >= 50, "only %lu reloads", reloads);
	{
		long long diff = (long long)((b - b0) - (a - a0));
		LAB_CHECK(diff >= -8 && diff <= 8, "totals differ by %lld (%lu reloads)", diff, reloads);
	}
	ioctl(fa, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fa, &byread, sizeof(byread)) != sizeof(byread)) {
		printf("FAIL: read(2)\n");
		return 1;
	}
	/* disabled: index 0, the count is all in offset */
	LAB_CHECK(pa->index == 0 && byread == (uint64_t)pa->offset, "after disable: read(2) %llu, page offset %llu",
		  (unsigned long long)byread, (unsigned long long)pa->offset);
	LAB_CHECK(byread >= a, "read(2) %llu below the last user-space value %llu", (unsigned long long)byread,
		  (unsigned long long)a);
	close(fa);
	close(fb);
	return lab_done("lab-wrap");
}
