/* SPDX-License-Identifier: MIT */
/*
 * lab-smoke: proves the lab guest without libpmu, with raw perf_event_open.
 *
 * For PERF_COUNT_HW_INSTRUCTIONS (user only) and PERF_COUNT_HW_CPU_CYCLES it
 * opens the event with user-space access requested (arm64: config1 bit 1),
 * maps the first page, prints what the kernel published there, reads the
 * counter directly from user space under the page's seqlock
 * (arm64: PMEVCNTR<n>_EL0 / PMCCNTR_EL0, riscv64: csrr 0xC00+n) and checks
 * it against read(2). It then counts a loop of known length (informational:
 * the deviation from the expected count is printed, not judged).
 *
 * Exit: 0 PASS, 1 FAIL, 77 SKIP (not an arm64/riscv64 guest).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#if !defined(__aarch64__) && !defined(__riscv)
int main(void)
{
	printf("SKIP: lab-smoke reads arm64/riscv64 counter registers only\n");
	return 77;
}
#else

#define barrier() __asm__ __volatile__("" ::: "memory")

/* ---- direct counter reads ------------------------------------------- */

#if defined(__aarch64__)
#define RD_EVCNTR(n)                                                      \
	case n:                                                           \
		__asm__ __volatile__("mrs %0, pmevcntr" #n "_el0" : "=r"(v)); \
		break;

/* hw counter number (perf index - 1): 0..30 event counters, 31 = cycles */
static int read_hw_counter(unsigned int n, uint64_t *out)
{
	uint64_t v;

	switch (n) {
	RD_EVCNTR(0) RD_EVCNTR(1) RD_EVCNTR(2) RD_EVCNTR(3) RD_EVCNTR(4)
	RD_EVCNTR(5) RD_EVCNTR(6) RD_EVCNTR(7) RD_EVCNTR(8) RD_EVCNTR(9)
	RD_EVCNTR(10) RD_EVCNTR(11) RD_EVCNTR(12) RD_EVCNTR(13)
	RD_EVCNTR(14) RD_EVCNTR(15) RD_EVCNTR(16) RD_EVCNTR(17)
	RD_EVCNTR(18) RD_EVCNTR(19) RD_EVCNTR(20) RD_EVCNTR(21)
	RD_EVCNTR(22) RD_EVCNTR(23) RD_EVCNTR(24) RD_EVCNTR(25)
	RD_EVCNTR(26) RD_EVCNTR(27) RD_EVCNTR(28) RD_EVCNTR(29)
	RD_EVCNTR(30)
	case 31:
		__asm__ __volatile__("mrs %0, pmccntr_el0" : "=r"(v));
		break;
	default:
		return -1;
	}
	*out = v;
	return 0;
}

static const char *counter_name(unsigned int n, char *buf, size_t size)
{
	if (n == 31)
		snprintf(buf, size, "PMCCNTR_EL0");
	else
		snprintf(buf, size, "PMEVCNTR%u_EL0", n);
	return buf;
}

/* 2 * iterations instructions (the loop itself), user mode only */
static void known_loop(uint64_t iterations)
{
	uint64_t n = iterations;
	__asm__ __volatile__("1: subs %0, %0, #1\n\t"
			     "b.ne 1b"
			     : "+r"(n)
			     :
			     : "cc");
}
#define LOOP_INSNS(it) (2 * (it))
#define ARCH_NAME "arm64"

#else /* riscv */
#define RD_CSR(n)                                                           \
	case n:                                                             \
		__asm__ __volatile__("csrr %0, %1" : "=r"(v) : "i"(0xC00 + n)); \
		break;

/* hw counter number (perf index - 1): 0 cycle, 1 time, 2 instret,
 * 3..31 hpmcounterN */
static int read_hw_counter(unsigned int n, uint64_t *out)
{
	uint64_t v;

	switch (n) {
	RD_CSR(0) RD_CSR(1) RD_CSR(2) RD_CSR(3) RD_CSR(4) RD_CSR(5)
	RD_CSR(6) RD_CSR(7) RD_CSR(8) RD_CSR(9) RD_CSR(10) RD_CSR(11)
	RD_CSR(12) RD_CSR(13) RD_CSR(14) RD_CSR(15) RD_CSR(16) RD_CSR(17)
	RD_CSR(18) RD_CSR(19) RD_CSR(20) RD_CSR(21) RD_CSR(22) RD_CSR(23)
	RD_CSR(24) RD_CSR(25) RD_CSR(26) RD_CSR(27) RD_CSR(28) RD_CSR(29)
	RD_CSR(30) RD_CSR(31)
	default:
		return -1;
	}
	*out = v;
	return 0;
}

static const char *counter_name(unsigned int n, char *buf, size_t size)
{
	static const char *const fixed[] = { "cycle", "time", "instret" };
	if (n < 3)
		snprintf(buf, size, "csr 0x%x (%s)", 0xC00 + n, fixed[n]);
	else
		snprintf(buf, size, "csr 0x%x (hpmcounter%u)", 0xC00 + n, n);
	return buf;
}

static void known_loop(uint64_t iterations)
{
	uint64_t n = iterations;
	__asm__ __volatile__(".option push\n\t"
			     ".option norvc\n\t"
			     "1: addi %0, %0, -1\n\t"
			     "bnez %0, 1b\n\t"
			     ".option pop"
			     : "+r"(n));
}
#define LOOP_INSNS(it) (2 * (it))
#define ARCH_NAME "riscv64"
#endif

/* ---- perf plumbing --------------------------------------------------- */

struct counter {
	const char *name;
	int fd;
	struct perf_event_mmap_page *pg;
};

static int perf_open(struct perf_event_attr *a)
{
	return (int)syscall(SYS_perf_event_open, a, 0, -1, -1, 0);
}

/*
 * Read under the seqlock, following the protocol documented in
 * <linux/perf_event.h>. Returns 0 and the value, or -1 when the page says
 * user-space reading is not possible right now.
 */
static int fast_read(struct counter *c, uint64_t *value, uint32_t *idx_out)
{
	struct perf_event_mmap_page *pg = c->pg;
	uint32_t seq, idx;
	uint64_t count;
	int tries = 0;

	do {
		seq = pg->lock;
		barrier();
		idx = pg->index;
		count = (uint64_t)pg->offset;
		if (!pg->cap_user_rdpmc || idx == 0)
			return -1;
		uint64_t raw;
		if (read_hw_counter(idx - 1, &raw) != 0)
			return -1;
		unsigned int width = pg->pmc_width;
		if (width > 0 && width < 64) {
			/* sign-extend the width-bit counter value */
			int64_t s = (int64_t)(raw << (64 - width));
			raw = (uint64_t)(s >> (64 - width));
		}
		count += raw;
		barrier();
		if (++tries > 1000)
			return -1;
	} while (pg->lock != seq);
	*value = count;
	if (idx_out)
		*idx_out = idx;
	return 0;
}

static int slow_read(struct counter *c, uint64_t *value)
{
	uint64_t v;
	if (read(c->fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return -1;
	*value = v;
	return 0;
}

static int open_counter(struct counter *c, const char *name, uint64_t config,
			uint64_t config1, int required)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = config;
	a.config1 = config1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.disabled = 1;

	c->name = name;
	c->pg = NULL;
	c->fd = perf_open(&a);
	if (c->fd < 0) {
		printf("%sperf_event_open(%s, config1=0x%" PRIx64 "): %s\n",
		       required ? "FAIL: " : "", name, config1,
		       strerror(errno));
		return -1;
	}
	void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ,
		       MAP_SHARED, c->fd, 0);
	if (p == MAP_FAILED) {
		printf("%smmap(%s): %s\n", required ? "FAIL: " : "", name,
		       strerror(errno));
		close(c->fd);
		c->fd = -1;
		return -1;
	}
	c->pg = p;
	ioctl(c->fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(c->fd, PERF_EVENT_IOC_ENABLE, 0);
	return 0;
}

/* Unmap too: the mapping keeps the event (and its hardware counter) alive. */
static void close_counter(struct counter *c)
{
	if (c->pg)
		munmap(c->pg, (size_t)sysconf(_SC_PAGESIZE));
	if (c->fd >= 0)
		close(c->fd);
	c->pg = NULL;
	c->fd = -1;
}

static void show_page(struct counter *c)
{
	struct perf_event_mmap_page *pg = c->pg;
	char buf[64];

	printf("%s: cap_user_rdpmc=%u index=%u pmc_width=%u offset=%" PRId64
	       "\n",
	       c->name, (unsigned)pg->cap_user_rdpmc, pg->index,
	       (unsigned)pg->pmc_width, (int64_t)pg->offset);
	if (pg->index)
		printf("%s: hw counter %u = %s\n", c->name, pg->index - 1,
		       counter_name(pg->index - 1, buf, sizeof(buf)));
	printf("%s: cap_user_time=%u cap_user_time_zero=%u "
	       "cap_user_time_short=%u cap_bit0_is_deprecated=%u\n",
	       c->name, (unsigned)pg->cap_user_time,
	       (unsigned)pg->cap_user_time_zero,
	       (unsigned)pg->cap_user_time_short,
	       (unsigned)pg->cap_bit0_is_deprecated);
	if (pg->cap_user_time || pg->cap_user_time_zero)
		printf("%s: time_shift=%u time_mult=%u time_offset=%" PRIu64
		       " time_zero=%" PRIu64 " time_cycles=%" PRIu64
		       " time_mask=0x%" PRIx64 "\n",
		       c->name, (unsigned)pg->time_shift, pg->time_mult,
		       (uint64_t)pg->time_offset, (uint64_t)pg->time_zero,
		       (uint64_t)pg->time_cycles, (uint64_t)pg->time_mask);
}

/* Checks the fast path against read(2). Returns 0 if they agree. */
static int compare(struct counter *c)
{
	/* User-mode instructions between two reads are a few hundred at
	 * most; cycles under -icount are similar. Allow generous slack. */
	const uint64_t bound = 20000;
	uint64_t f1 = 0, s, f2 = 0, first = 0;
	uint32_t idx;
	int bad = 0;

	for (int i = 0; i < 3; i++) {
		if (fast_read(c, &f1, &idx) != 0) {
			printf("FAIL: %s: user-space read not possible "
			       "(cap_user_rdpmc=%u index=%u)\n",
			       c->name, (unsigned)c->pg->cap_user_rdpmc,
			       c->pg->index);
			return -1;
		}
		if (slow_read(c, &s) != 0) {
			printf("FAIL: %s: read(2): %s\n", c->name,
			       strerror(errno));
			return -1;
		}
		if (fast_read(c, &f2, NULL) != 0)
			return -1;
		if (i == 0)
			first = f1;
		int ok = f1 <= s && s <= f2 && s - f1 <= bound &&
			 f2 - s <= bound;
		printf("%s: fast=%" PRIu64 " read(2)=%" PRIu64 " fast=%" PRIu64
		       " (read-fast %+" PRId64 ", fast-read %+" PRId64 ") %s\n",
		       c->name, f1, s, f2, (int64_t)(s - f1), (int64_t)(f2 - s),
		       ok ? "ok" : "MISMATCH");
		if (!ok)
			bad = 1;
	}
	if (!bad && f2 == first) {
		/* thousands of user instructions (printf) ran meanwhile */
		printf("FAIL: %s: the counter does not count (stuck at %" PRIu64
		       ")\n",
		       c->name, f2);
		return -1;
	}
	if (bad) {
		printf("FAIL: %s: user-space value and read(2) disagree "
		       "(bound %" PRIu64 ")\n",
		       c->name, bound);
		return -1;
	}
	return 0;
}

/* Informational: instructions counted around a loop of known length. */
static void known_count(struct counter *c)
{
	const uint64_t its[] = { 1000, 100000, 1000000 };
	uint64_t a, b, base = 0;

	/* Baseline: two back-to-back fast reads. */
	for (int i = 0; i < 3; i++) {
		if (fast_read(c, &a, NULL) || fast_read(c, &b, NULL))
			return;
		if (i == 2)
			base = b - a;
	}
	printf("%s: back-to-back user reads: %" PRIu64 " apart\n", c->name,
	       base);
	for (size_t i = 0; i < sizeof(its) / sizeof(its[0]); i++) {
		for (int rep = 0; rep < 2; rep++) {
			if (fast_read(c, &a, NULL))
				return;
			known_loop(its[i]);
			if (fast_read(c, &b, NULL))
				return;
			uint64_t m = b - a - base;
			uint64_t e = LOOP_INSNS(its[i]);
			printf("%s: known loop of %" PRIu64
			       " iterations: measured %" PRIu64
			       " expected %" PRIu64 " (diff %+" PRId64 ")\n",
			       c->name, its[i], m, e, (int64_t)(m - e));
		}
	}
}

static int check_user_access(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_user_access", "r");
	int v = -1;
	if (!f) {
		printf("perf_user_access: not present\n");
		return -1;
	}
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	printf("perf_user_access: %d\n", v);
	return v;
}

/*
 * Opens one event and checks it. A "required" event must offer user-space
 * reads that match read(2); an optional one (a variant whose availability
 * depends on the CPU model) is only reported, unless it does offer user
 * reads, which must then be right. Returns 0 if fine.
 */
static int check_event(const char *name, uint64_t config, uint64_t config1,
		       int required, int count_loop)
{
	struct counter c;
	int rc = 0;

	printf("--- %s (config=%" PRIu64 " config1=0x%" PRIx64 ")%s\n", name,
	       config, config1, required ? "" : " [optional]");
	if (open_counter(&c, name, config, config1, required) != 0)
		return required ? -1 : 0;
	show_page(&c);
	if (!c.pg->cap_user_rdpmc || c.pg->index == 0) {
		if (required) {
			printf("FAIL: %s: no user-space access "
			       "(cap_user_rdpmc=%u index=%u)\n",
			       name, (unsigned)c.pg->cap_user_rdpmc,
			       c.pg->index);
			rc = -1;
		} else {
			printf("%s: no user-space access on this CPU model\n",
			       name);
		}
	} else {
		rc = compare(&c);
		if (count_loop)
			known_count(&c);
	}
	close_counter(&c);
	return rc;
}

/*
 * Informational: does the emulated PMU honour privilege-mode filtering? A
 * kernel-only counter (exclude_user) should not see a user-mode loop.
 */
static void mode_filter_check(void)
{
	const uint64_t it = 1000000;
	struct perf_event_attr a;
	uint64_t v0, v1;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.exclude_user = 1;
	a.exclude_hv = 1;
	printf("--- mode filtering (kernel-only instructions around a user loop)\n");
	int fd = perf_open(&a);
	if (fd < 0) {
		printf("mode filtering: perf_event_open(exclude_user=1): %s\n",
		       strerror(errno));
		return;
	}
	struct counter c = { "kernel-instructions", fd, NULL };
	if (slow_read(&c, &v0) == 0) {
		known_loop(it);
		if (slow_read(&c, &v1) == 0)
			printf("mode filtering: kernel-only counter advanced by "
			       "%" PRIu64 " over a %" PRIu64
			       "-instruction user loop: %s\n",
			       v1 - v0, (uint64_t)LOOP_INSNS(it),
			       v1 == v0 ? "inconclusive (the counter did not count)"
			       : v1 - v0 < LOOP_INSNS(it) / 2
				       ? "honoured"
				       : "NOT honoured (user instructions counted)");
	}
	close(fd);
}

/*
 * Informational: do two events of the same type count at the same time?
 * (QEMU 7.2's riscv PMU maps each event type to a single counter.)
 */
static void duplicate_check(uint64_t config1)
{
	const uint64_t it = 100000;
	struct counter a, b;
	uint64_t a0, a1, b0, b1;

	printf("--- two instructions events at once\n");
	if (open_counter(&a, "instructions#1", PERF_COUNT_HW_INSTRUCTIONS,
			 config1, 0) != 0)
		return;
	if (open_counter(&b, "instructions#2", PERF_COUNT_HW_INSTRUCTIONS,
			 config1, 0) != 0) {
		close_counter(&a);
		return;
	}
	if (slow_read(&a, &a0) == 0 && slow_read(&b, &b0) == 0) {
		known_loop(it);
		if (slow_read(&a, &a1) == 0 && slow_read(&b, &b1) == 0)
			printf("two events: #1 (index %u) advanced by %" PRIu64
			       ", #2 (index %u) by %" PRIu64 " over a %" PRIu64
			       "-instruction loop: %s\n",
			       a.pg->index, a1 - a0, b.pg->index, b1 - b0,
			       (uint64_t)LOOP_INSNS(it),
			       a1 - a0 >= LOOP_INSNS(it) &&
					       b1 - b0 >= LOOP_INSNS(it)
				       ? "both count"
				       : "NOT both counting");
	}
	close_counter(&b);
	close_counter(&a);
}

int main(void)
{
#if defined(__aarch64__)
	/* config1 bit 1 requests user access; bit 0 a 64-bit counter. */
	const uint64_t rdpmc = 0x2, longc = 0x1;
#else
	const uint64_t rdpmc = 0;
#endif
	int fail = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("lab-smoke on %s\n", ARCH_NAME);
	check_user_access();

	if (check_event("instructions", PERF_COUNT_HW_INSTRUCTIONS, rdpmc, 1, 1))
		fail = 1;
	if (check_event("cycles", PERF_COUNT_HW_CPU_CYCLES, rdpmc, 1, 0))
		fail = 1;
#if defined(__aarch64__)
	/* 64-bit variants: the cycle counter is 64-bit on every PMUv3; 64-bit
	 * event counters need PMUv3p5 (else a chained pair, which the kernel
	 * may not let user space read). */
	if (check_event("cycles-64bit", PERF_COUNT_HW_CPU_CYCLES, rdpmc | longc,
			1, 0))
		fail = 1;
	if (check_event("instructions-64bit", PERF_COUNT_HW_INSTRUCTIONS,
			rdpmc | longc, 0, 0))
		fail = 1;
#endif

	mode_filter_check();
	duplicate_check(rdpmc);

	printf("%s\n", fail ? "lab-smoke: FAILED (see the FAIL lines above)"
			  : "lab-smoke: PASS: user-space reads match read(2)");
	return fail;
}
#endif
