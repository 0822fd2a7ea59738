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
 * Baseline "bare": the least a user-space read can do per counter — the
 * seqlock loop with the hardware read and sign extension, no time
 * extrapolation, no library — written here as the reference.
 *
 * Output: one line per size, "BENCH read-cost ...", parsed by
 * bench/read-cost.sh.
 */
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "labutil.h"

#define K 1000
#define REPS 7

static inline uint64_t bare_read(const struct perf_event_mmap_page *pc)
{
	const volatile struct perf_event_mmap_page *p = pc;
	uint32_t seq;
	uint64_t count, pmc;
	do {
		seq = p->lock;
		__asm__ __volatile__("" ::: "memory");
		count = p->offset;
		pmc = pmu_arch_counter(0, p->index);
		pmc <<= 64 - p->pmc_width;
		count += (uint64_t)((int64_t)pmc >> (64 - p->pmc_width));
		__asm__ __volatile__("" ::: "memory");
	} while (p->lock != seq);
	return count;
}

enum op { OP_EMPTY, OP_BARE, OP_FAST, OP_SETREAD, OP_SYSCALL };

static double cost(struct pmu_set *s, enum op op, unsigned n)
{
	const struct pmu_fast *f = pmu_set_fast(s);
	struct pmu_value v[8];
	uint64_t best = UINT64_MAX, sink = 0;

	for (int rep = 0; rep < REPS; rep++) {
		uint64_t m0 = lab_meter(), m1;
		switch (op) {
		case OP_EMPTY:
			for (int i = 0; i < K; i++)
				__asm__ __volatile__("" ::: "memory");
			break;
		case OP_BARE:
			for (int i = 0; i < K; i++) {
				for (unsigned c = 0; c < n; c++)
					sink += bare_read(f->pages[c]);
				__asm__ __volatile__("" ::: "memory");
			}
			break;
		case OP_FAST:
			for (int i = 0; i < K; i++) {
				pmu_fast_read(f, v);
				__asm__ __volatile__("" ::: "memory");
			}
			break;
		case OP_SETREAD:
			for (int i = 0; i < K; i++) {
				pmu_set_read(s, v);
				__asm__ __volatile__("" ::: "memory");
			}
			break;
		case OP_SYSCALL:
			for (int i = 0; i < K; i++) {
				pmu_set_read_syscall(s, v);
				__asm__ __volatile__("" ::: "memory");
			}
			break;
		}
		m1 = lab_meter();
		if (m1 - m0 < best)
			best = m1 - m0;
	}
	(void)sink;
	return (double)best;
}

int main(void)
{
	static const unsigned sizes[] = { 1, 2, 4, 6, 8 };
	struct pmu_ctx *ctx = lab_ctx();
	const char *arch =
#if defined(__aarch64__)
		"arm64";
#elif defined(__riscv)
		"riscv64";
#else
		"other";
#endif

	lab_meter_open();
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
			double fast = (cost(s, OP_FAST, n) - e) / K;
			double sr = (cost(s, OP_SETREAD, n) - e) / K;
			double sys = (cost(s, OP_SYSCALL, n) - e) / K;
			printf("BENCH read-cost arch=%s counters=%u bare=%.1f fast=%.1f set_read=%.1f syscall=%.1f "
			       "fast_per_counter=%.1f bare_per_counter=%.1f syscall_over_fast=%.1f\n",
			       arch, n, bare, fast, sr, sys, fast / n, bare / n, sys / fast);
		}
		pmu_set_close(s);
	}
	close(lab_meter_fd);
	pmu_ctx_free(ctx);
	return 0;
}
