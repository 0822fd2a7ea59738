/* SPDX-License-Identifier: MIT */
/*
 * A thread per task (issue 40 item 7): every thread that used a region kept its state (~5.5 KB) until
 * the process ended, so a server that starts a thread per request grew without bound. Now the last 64
 * threads that exited are kept whole (a row each in per-thread reports) and older ones are folded into
 * their names' totals (one row, tid 0) and freed.
 *
 * THREADS threads run one after another, each begins/ends "task" 3 times and "t-even"/"t-odd" once.
 * Checked: the heap in use (mallinfo2) after the first 200 threads and after all of them — it must
 * not grow with the threads; each total against the calls counted here; the per-thread rows: the last
 * 64 threads' own (3 calls each) and the folded row (3 per thread folded); the task-clock of the rows
 * summed against the total row.
 *
 *   test-region-reclaim [THREADS]
 */
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmu.h>
#include "harness.h"

#define KEPT 64

static void *task(void *p)
{
	int i = (int)(intptr_t)p, bad = 0;
	const char *parity = i % 2 ? "t-odd" : "t-even";

	for (int k = 0; k < 3; k++)
		bad |= pmu_region_begin("task") < 0 || pmu_region_end("task") < 0;
	bad |= pmu_region_begin(parity) < 0 || pmu_region_end(parity) < 0;
	return (void *)(intptr_t)bad;
}

struct rows {
	uint64_t total_calls, total_value, own_rows, own_calls, folded_rows, folded_calls, row_value;
	uint64_t even, odd;
};

static int rows_cb(const struct pmu_region_result *r, void *data)
{
	struct rows *w = data;

	if (!strcmp(r->name, "t-even") && r->tid == -1)
		w->even = r->calls;
	if (!strcmp(r->name, "t-odd") && r->tid == -1)
		w->odd = r->calls;
	if (strcmp(r->name, "task"))
		return 0;
	if (r->tid == -1) {
		w->total_calls = r->calls;
		w->total_value = r->values[0].value;
	} else if (r->tid == 0) {
		w->folded_rows++;
		w->folded_calls += r->calls;
		w->row_value += r->values[0].value;
	} else {
		w->own_rows++;
		w->own_calls += r->calls;
		w->row_value += r->values[0].value;
	}
	return 0;
}

static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 3000, bad = 0;
	size_t at200 = 0, end;
	struct rows w;

	if (threads < 400)
		return 2;
	setenv("PMU_EVENTS", "task-clock", 0);
	setenv("PMU_OUTPUT", "/dev/null", 0);
	for (int i = 0; i < threads; i++) {
		pthread_t th;
		void *r;
		if (pthread_create(&th, NULL, task, (void *)(intptr_t)i))
			return 1;
		pthread_join(th, &r);
		bad |= r != NULL;
		if (i == 199)
			at200 = heap_in_use();
	}
	end = heap_in_use();
	CHECK(!bad, "every thread's regions: %s", pmu_strerror(-1));
	memset(&w, 0, sizeof(w));
	CHECK(pmu_region_foreach(1, rows_cb, &w) > 0, "foreach");
	CHECK(w.total_calls == 3ull * threads, "task: %llu calls, %d threads made %d",
	      (unsigned long long)w.total_calls, threads, 3 * threads);
	CHECK(w.even == (uint64_t)(threads + 1) / 2 && w.odd == (uint64_t)threads / 2, "t-even %llu, t-odd %llu",
	      (unsigned long long)w.even, (unsigned long long)w.odd);
	CHECK(w.own_rows == KEPT && w.own_calls == 3 * KEPT, "the last %d threads kept, a row each: %llu rows, %llu calls",
	      KEPT, (unsigned long long)w.own_rows, (unsigned long long)w.own_calls);
	CHECK(w.folded_rows == 1 && w.folded_calls == 3ull * (threads - KEPT), "the %d folded: %llu rows, %llu calls",
	      threads - KEPT, (unsigned long long)w.folded_rows, (unsigned long long)w.folded_calls);
	CHECK(w.row_value == w.total_value, "task-clock: rows sum %llu, total %llu", (unsigned long long)w.row_value,
	      (unsigned long long)w.total_value);
	/* 2,800 more threads: at ~5.5 KB each, 15 MB; kept bounded, the same (allow 256 KB of noise). Under
	 * valgrind or ASan, whose allocators glibc's mallinfo2 does not see, it reads 0: not measured */
	if (at200)
		CHECK(end < at200 + 256 * 1024, "heap after 200 threads %zu bytes, after %d %zu (%+zd)", at200, threads,
		      end, (ssize_t)(end - at200));
	else
		printf("test-region-reclaim: the heap is not glibc's here (valgrind, ASan): its growth not measured\n");
	printf("test-region-reclaim: %d threads one after another; heap in use after 200: %zu bytes, after %d: %zu "
	       "(%+zd)\n", threads, at200, threads, end, (ssize_t)(end - at200));
	return test_done("test-region-reclaim");
}
