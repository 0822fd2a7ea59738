/* SPDX-License-Identifier: MIT */
/*
 * bench-read-cost: instructions per read of a set of 1, 2, 4, 6, 8 counters,
 * on the fast path and through read(2), in a lab guest (-icount shift=0:
 * instruction counts are exact; cycles there are not a separate quantity).
 *
 * Method. A meter event counts instructions in user AND kernel mode (so a
 * system call's kernel work is included); it is read with read(2) before and
 * after K calls of the operation. The same loop with an empty body is
 * measured the same way and subtracted, which removes the meter's own reads
 * and the loop overhead. Each figure is the minimum over REPS repetitions
 * (interrupts only ever add instructions). The measured set is one group
 * {instructions:u, ...} so read(2) is a single system call for all of it.
 *
 * Baselines:
 *  - "bare": the least a user-space read can do per counter — the seqlock
 *    loop with the hardware read and sign extension, no time extrapolation,
 *    no library — written here as the reference;
 *  - "bare + times": the same with the leader's enabled/running brought up
 *    to date (pmu_page_read of the leader): the floor of a read whose deltas
 *    scale correctly;
 *  - "plain read(2)": what a program does without libpmu, one read(2) of one
 *    descriptor opened with perf_event_open() directly: read_format 0 (the
 *    value, 8 bytes) and with PERF_FORMAT_TOTAL_TIME_ENABLED|RUNNING (value
 *    and times, 24 bytes: what pmu_set_read() returns for one event). These
 *    are the fair baseline (for N counters, N such reads); libpmu's own
 *    read(2) path reads a group (PERF_FORMAT_GROUP|ID), which costs more for
 *    one counter and less for many.
 *
 * Every counter a figure relies on is checked live first: the meter must
 * count a loop of known length (else nothing is printed but the reason),
 * and the number of the measured set's counters that advance is printed
 * (live=K of N; the cost of a read does not depend on it).
 *
 * Output: "BENCH read-cost-plain ..." once and "BENCH read-cost ..." per
 * size, parsed by bench/read-cost.sh.
 */
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "labutil.h"
#include "../../../bench/floor.h"

#define K 1000
#define REPS 7


enum op { OP_EMPTY, OP_BARE, OP_BARE_TIMES, OP_FAST, OP_SETREAD, OP_SYSCALL, OP_PLAIN };

static int plain_fd = -1;
static size_t plain_len;
static volatile uint64_t sink;

/* Each operation in a function of its own with the same K-loop, so the
 * code around one measured operation does not change when another is
 * added (a shared switch did: the bare read moved by 5 instructions). */
#define LOOP_FN(name, decl, body) \
	__attribute__((noinline)) static void name(struct pmu_set *s, const struct pmu_fast *f, unsigned n) \
	{ \
		decl; \
		(void)s; (void)f; (void)n; \
		for (int i = 0; i < K; i++) { \
			body; \
			__asm__ __volatile__("" ::: "memory"); \
		} \
	}

LOOP_FN(op_empty, (void)0, (void)0)
/* The floors have the shape of the library's read at its least: the page
 * pointers at hand (loaded once, before the loop), each value stored into
 * the output array. */
LOOP_FN(op_bare, struct perf_event_mmap_page *pg[8]; struct pmu_value v[8];
	for (unsigned c = 0; c < n; c++) pg[c] = f->pages[c],
	for (unsigned c = 0; c < n; c++) v[c].value = bench_bare_read(pg[c]);
	__asm__ __volatile__("" : : "r"(v) : "memory")) /* the values are used */
/* the floor of a read that brings its times up to date: the leader with the
 * time extrapolation (pmu_page_read), the others bare */
LOOP_FN(op_bare_times, struct perf_event_mmap_page *pg[8]; struct pmu_value v[8];
	for (unsigned c = 0; c < n; c++) pg[c] = f->pages[c],
	pmu_page_read(pg[0], &v[0]);
	for (unsigned c = 1; c < n; c++) v[c].value = bench_bare_read(pg[c]);
	__asm__ __volatile__("" : : "r"(v) : "memory"))
LOOP_FN(op_fast, struct pmu_value v[8], pmu_fast_read(f, v))
LOOP_FN(op_setread, struct pmu_value v[8], pmu_set_read(s, v))
LOOP_FN(op_syscall, struct pmu_value v[8], pmu_set_read_syscall(s, v))
LOOP_FN(op_plain, struct pmu_value v[8], if (read(plain_fd, v, plain_len) != (ssize_t)plain_len) exit(1))

static double cost(struct pmu_set *s, enum op op, unsigned n)
{
	static void (*const fns[])(struct pmu_set *, const struct pmu_fast *, unsigned) = {
		[OP_EMPTY] = op_empty, [OP_BARE] = op_bare, [OP_BARE_TIMES] = op_bare_times, [OP_FAST] = op_fast,
		[OP_SETREAD] = op_setread, [OP_SYSCALL] = op_syscall, [OP_PLAIN] = op_plain,
	};
	const struct pmu_fast *f = s ? pmu_set_fast(s) : NULL;
	uint64_t best = UINT64_MAX;

	for (int rep = 0; rep < REPS; rep++) {
		uint64_t m0 = lab_meter(), m1;
		fns[op](s, f, n);
		m1 = lab_meter();
		if (m1 - m0 < best)
			best = m1 - m0;
	}
	return (double)best;
}

int main(void)
{
	static const unsigned sizes[] = { 1, 2, 4, 6, 8 };
	double plain_with_times;
	struct pmu_ctx *ctx = lab_ctx();
	const char *arch = LAB_ARCH;

	lab_meter_open();
	if (!lab_meter_live("read-cost arch=all counters=all"))
		return 1;
	/* the baseline without libpmu: one descriptor, read(2), value only and value + times */
	{
		double plain[2];
		for (int t = 0; t < 2; t++) {
			struct perf_event_attr at;
			memset(&at, 0, sizeof(at));
			at.size = sizeof(at);
			at.type = PERF_TYPE_HARDWARE;
			at.config = PERF_COUNT_HW_INSTRUCTIONS;
			at.exclude_kernel = at.exclude_hv = 1;
			at.read_format = t ? PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING : 0;
			plain_len = t ? 24 : 8;
			plain_fd = (int)syscall(SYS_perf_event_open, &at, 0, -1, -1, 0);
			if (plain_fd < 0) {
				printf("BENCH read-cost-plain arch=%s unavailable (perf_event_open: %s)\n", arch,
				       strerror(errno));
				return 1;
			}
			plain[t] = (cost(NULL, OP_PLAIN, 1) - cost(NULL, OP_EMPTY, 1)) / K;
			close(plain_fd);
		}
		printf("BENCH read-cost-plain arch=%s plain=%.1f plain_times=%.1f\n", arch, plain[0], plain[1]);
		plain_with_times = plain[1];
	}
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		unsigned n = sizes[k];
		char list[256] = "{";
		struct pmu_set *s;
		struct pmu_value v[8];
		int r;
		for (unsigned c = 0; c < n; c++)
			strcat(list, c ? ",instructions:u" : "instructions:u");
		strcat(list, "}");
		r = pmu_set_open(ctx, list, NULL, &s);
		if (r < 0) {
			printf("BENCH read-cost arch=%s counters=%u unavailable (%s)\n", arch, n, pmu_strerror(r));
			continue;
		}
		pmu_set_enable(s);
		pmu_set_read(s, v);
		if (pmu_page_read(pmu_set_fast(s)->pages[n - 1], &v[0]) != 0) {
			printf("BENCH read-cost arch=%s counters=%u unavailable (group not on the counters at once)\n",
			       arch, n);
			pmu_set_close(s);
			continue;
		}
		{
			double e = cost(s, OP_EMPTY, n);
			double bare = (cost(s, OP_BARE, n) - e) / K;
			double bare_t = (cost(s, OP_BARE_TIMES, n) - e) / K;
			double fast = (cost(s, OP_FAST, n) - e) / K;
			double sr = (cost(s, OP_SETREAD, n) - e) / K;
			double sys = (cost(s, OP_SYSCALL, n) - e) / K;
			printf("BENCH read-cost arch=%s counters=%u live=%u bare=%.1f bare_times=%.1f fast=%.1f set_read=%.1f syscall=%.1f "
			       "fast_per_counter=%.1f bare_per_counter=%.1f syscall_over_fast=%.1f "
			       "plain_over_set_read=%.1f plain_over_fast=%.1f\n",
			       arch, n, lab_set_live(s), bare, bare_t, fast, sr, sys, fast / n, bare / n, sys / fast,
			       n * plain_with_times / sr, n * plain_with_times / fast);
		}
		pmu_set_close(s);
	}
	close(lab_meter_fd);
	pmu_ctx_free(ctx);
	return 0;
}
