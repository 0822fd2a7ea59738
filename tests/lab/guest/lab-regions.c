/* SPDX-License-Identifier: MIT */
/*
 * Regions on a real PMU, 4 threads, nested, exact after calibration
 * (PMU_EVENTS=instructions:u). Bodies are inline-asm loops of 2N+1
 * instructions, so nothing but the loop lies between begin and end beyond
 * what calibration measures. Per region and thread, the smallest per-call
 * count (min) must be exact; on guests whose PMU filters kernel mode
 * (lab_pmu_counts_kernel() says 0: arm64) every call is, so the sum is
 * calls x exact too.
 *   empty:   begin; end                          -> 0
 *   inner:   loop(2000)                           -> 4001
 *   outer:   loop(500); inner region              -> X (includes inner's begin/end calls)
 *   outer2:  loop(1500); inner region again (same shape) -> X + 2000
 *   inner2:  loop(2000), a second name on its own   -> 4001
 *   hempty:  enter(handle); leave(handle)          -> 0
 *   hinner:  enter(handle); loop(2000); leave      -> 4001
 * (outer's own calls to begin/end of the inner region are real instructions
 * in it; the two identically shaped functions with the same inner name make
 * them cancel. With two different names they need not: a name is found by
 * its content, and the cost of finding one may differ from another's.)
 * The exact sums assume that no read was interrupted: a thread switched out
 * in the middle of a user-space read finds its page's sequence changed at its
 * return and reads again (one more loop of the seqlock read, real instructions
 * in that call). A thread that was preempted during its rounds (involuntary
 * context switches, getrusage RUSAGE_THREAD) has its sums printed, not checked;
 * its minimums are checked all the same.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RUSAGE_THREAD */
#endif
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "labutil.h"

#if defined(__aarch64__)
#define LOOP(N) __asm__ __volatile__("mov x9, #" #N "\n1: subs x9, x9, #1\n b.ne 1b" ::: "x9", "cc")
#elif defined(__riscv)
#define LOOP(N) __asm__ __volatile__("li t0, " #N "\n1: addi t0, t0, -1\n bnez t0, 1b" ::: "t0")
#else
#define LOOP(N) __asm__ __volatile__("mov $" #N ", %%ecx\n1: dec %%ecx\n jnz 1b" ::: "ecx", "cc")
#endif

#define ROUNDS 25
/* code after the last pmu_region_end of a function: without it the compiler
 * makes that call a tail call, whose epilogue would land inside the region */
#define AFTER() __asm__ __volatile__("" ::: "memory")

__attribute__((noinline)) static void empty(void)
{
	pmu_region_begin("empty");
	pmu_region_end("empty");
	AFTER();
}

__attribute__((noinline)) static void nested(void)
{
	pmu_region_begin("outer");
	LOOP(500);
	pmu_region_begin("inner");
	LOOP(2000);
	pmu_region_end("inner");
	pmu_region_end("outer");
	AFTER();
}

__attribute__((noinline)) static void nested2(void)
{
	pmu_region_begin("outer2");
	LOOP(1500);
	pmu_region_begin("inner");
	LOOP(2000);
	pmu_region_end("inner");
	pmu_region_end("outer2");
	AFTER();
}

__attribute__((noinline)) static void inner2(void)
{
	pmu_region_begin("inner2");
	LOOP(2000);
	pmu_region_end("inner2");
	AFTER();
}

/* the same through handles (pmu_region_get), calibrated separately */
__attribute__((noinline)) static void hempty(struct pmu_region *h)
{
	pmu_region_enter(h);
	pmu_region_leave(h);
	AFTER();
}

__attribute__((noinline)) static void hinner(struct pmu_region *h)
{
	pmu_region_enter(h);
	LOOP(2000);
	pmu_region_leave(h);
	AFTER();
}

/* each worker's kernel thread id and its involuntary context switches during its rounds */
static struct {
	long tid, preempted;
} pre[4];
static int npre;

static long involuntary_switches(void)
{
	struct rusage ru;
	return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nivcsw : -1;
}

static void *worker(void *arg)
{
	struct pmu_region *he = NULL, *hi = NULL;
	long before;
	int slot;
	(void)arg;
	if (pmu_region_get("hempty", &he) < 0 || pmu_region_get("hinner", &hi) < 0)
		return NULL;
	before = involuntary_switches();
	for (int i = 0; i < ROUNDS; i++) {
		empty();
		nested();
		nested2();
		inner2();
		hempty(he);
		hinner(hi);
	}
	slot = __atomic_fetch_add(&npre, 1, __ATOMIC_RELAXED);
	pre[slot].tid = (long)syscall(SYS_gettid);
	pre[slot].preempted = before < 0 ? -1 : involuntary_switches() - before;
	return NULL;
}

/* Involuntary context switches of thread @tid during its rounds (-1: unknown). */
static long preempted(long tid)
{
	for (int i = 0; i < npre; i++)
		if (pre[i].tid == tid)
			return pre[i].preempted;
	return -1;
}

struct want {
	long tid;
	uint64_t calls[7], min[7], max[7], sum[7];
	int n;
};

#define NR 7
static const char *const rn[NR] = { "empty", "inner", "outer", "inner2", "outer2", "hempty", "hinner" };

static int collect(const struct pmu_region_result *r, void *data)
{
	struct want *w = data;
	if (r->tid == -1)
		return 0;
	for (int i = 0; i < NR; i++)
		if (!strcmp(r->name, rn[i])) {
			int t;
			for (t = 0; t < w->n && w[t].tid != r->tid; t++)
				;
			if (t == w->n) {
				w[t].tid = r->tid;
				w->n++;
			}
			w[t].calls[i] = r->calls;
			w[t].min[i] = r->min[0];
			w[t].max[i] = r->max[0];
			w[t].sum[i] = r->values[0].value;
		}
	return 0;
}

int main(void)
{
	pthread_t t[4];
	struct want w[8];
	uint64_t ov = 0;
	int exact_sums;

	setenv("PMU_EVENTS", "instructions:u", 1);
	setenv("PMU_OUTPUT", "/dev/null", 1);
	/* does this guest's PMU filter kernel mode? (measured: riscv QEMU 7.2's does not) */
	{
		struct pmu_ctx *ctx = lab_ctx();
		exact_sums = !lab_pmu_counts_kernel(ctx);
		pmu_ctx_free(ctx);
	}
	memset(w, 0, sizeof(w));
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	pmu_region_begin("main");
	pmu_region_end("main");
	LAB_CHECK(pmu_region_overhead(&ov, 1) == 1, "no overhead known");
	printf("calibrated begin/end overhead: %llu instructions\n", (unsigned long long)ov);
	pmu_region_foreach(1, collect, w);
	LAB_CHECK(w->n == 4, "%d threads reported, expected 4", w->n);
	for (int k = 0; k < w->n; k++) {
		printf("thread %ld: empty %llu, inner %llu, outer %llu, inner2 %llu, outer2 %llu (minimum per call)\n",
		       w[k].tid, (unsigned long long)w[k].min[0], (unsigned long long)w[k].min[1],
		       (unsigned long long)w[k].min[2], (unsigned long long)w[k].min[3], (unsigned long long)w[k].min[4]);
		printf("thread %ld: through handles: hempty %llu, hinner %llu; preempted %ld times during its rounds\n",
		       w[k].tid, (unsigned long long)w[k].min[5], (unsigned long long)w[k].min[6], preempted(w[k].tid));
		for (int i = 0; i < NR; i++)
			LAB_CHECK(w[k].calls[i] == (i == 1 ? 2 : 1) * ROUNDS, "thread %ld %s: %llu calls", w[k].tid, rn[i],
				  (unsigned long long)w[k].calls[i]);
		LAB_CHECK(w[k].min[0] == 0, "thread %ld: empty region %llu, expected 0", w[k].tid,
			  (unsigned long long)w[k].min[0]);
		LAB_CHECK(w[k].min[1] == 4001 && w[k].min[3] == 4001, "thread %ld: inner %llu / %llu, expected 4001",
			  w[k].tid, (unsigned long long)w[k].min[1], (unsigned long long)w[k].min[3]);
		LAB_CHECK(w[k].min[5] == 0 && w[k].min[6] == 4001,
			  "thread %ld: through handles empty %llu (expected 0), inner %llu (expected 4001)", w[k].tid,
			  (unsigned long long)w[k].min[5], (unsigned long long)w[k].min[6]);
		if (exact_sums && preempted(w[k].tid) != 0) {
			printf("thread %ld: preempted %ld times during its rounds (-1: unknown): a read interrupted by a "
			       "switch reads again, so its sums are not checked: outer sum %llu, max %llu, min %llu; "
			       "handle sums %llu %llu; inner sums %llu %llu\n", w[k].tid, preempted(w[k].tid),
			       (unsigned long long)w[k].sum[2], (unsigned long long)w[k].max[2],
			       (unsigned long long)w[k].min[2], (unsigned long long)w[k].sum[5],
			       (unsigned long long)w[k].sum[6], (unsigned long long)w[k].sum[1],
			       (unsigned long long)w[k].sum[3]);
		} else if (exact_sums) {
			LAB_CHECK(w[k].sum[5] == 0 && w[k].sum[6] == ROUNDS * 4001ull,
				  "thread %ld: handle sums %llu %llu", w[k].tid, (unsigned long long)w[k].sum[5],
				  (unsigned long long)w[k].sum[6]);
			LAB_CHECK(w[k].min[4] == w[k].min[2] + 2000, "thread %ld: outer2 %llu, expected outer %llu + 2000",
				  w[k].tid, (unsigned long long)w[k].min[4], (unsigned long long)w[k].min[2]);
			LAB_CHECK(w[k].min[2] == w[0].min[2], "thread %ld: outer %llu differs from thread %ld's %llu",
				  w[k].tid, (unsigned long long)w[k].min[2], w[0].tid, (unsigned long long)w[0].min[2]);
			LAB_CHECK(w[k].sum[0] == 0 && w[k].sum[1] == 2 * ROUNDS * 4001ull && w[k].sum[3] == ROUNDS * 4001ull,
				  "thread %ld: inner sums %llu %llu", w[k].tid, (unsigned long long)w[k].sum[1],
				  (unsigned long long)w[k].sum[3]);
			/* every outer call but the first (first use of the inner name) is the minimum */
			LAB_CHECK(w[k].sum[2] - w[k].max[2] == (ROUNDS - 1) * w[k].min[2] &&
				  w[k].sum[4] - w[k].max[4] == (ROUNDS - 1) * w[k].min[4],
				  "thread %ld: outer calls not all equal after the first: outer sum %llu, max %llu, min "
				  "%llu; outer2 sum %llu, max %llu, min %llu (%d calls)", w[k].tid,
				  (unsigned long long)w[k].sum[2], (unsigned long long)w[k].max[2],
				  (unsigned long long)w[k].min[2], (unsigned long long)w[k].sum[4],
				  (unsigned long long)w[k].max[4], (unsigned long long)w[k].min[4], ROUNDS);
		} else {
			printf("thread %ld: outer2 - outer = %lld (2000 where kernel mode is not counted)\n", w[k].tid,
			       (long long)(w[k].min[4] - w[k].min[2]));
		}
	}
	return lab_done("lab-regions");
}
