/* SPDX-License-Identifier: MIT */
/*
 * The regions' bookkeeping (issue 40 item 6), measured in time on this machine through the public API:
 *   names N:   the first use of N new names in one thread (a begin/end pair each; each first use
 *              interns the name process-wide), per name, the thread set up before; and a second pass
 *              over the same N names
 *              (found, not made), per name: the pass the first is compared with, measured in the same run
 *   report T:  pmu_region_foreach(1, ...) over T live threads that each used the same 100 names, per
 *              slot (T x 100 slots); and the same threads' begin/end of a known name, per call
 * One line per point: "BENCH names n=N first_ns=.. again_ns=.." / "BENCH report threads=T slots=S
 * foreach_ns=.. per_slot_ns=..". A point that costs more than $PMU_BENCH_BUDGET_S seconds (default 60)
 * ends the series with "... over budget": the quadratic library this replaced reaches it.
 *
 *   region-names names N... | report T...
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pmu.h>

#define NAMES_PER_THREAD 100

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int pair(const char *name)
{
	return pmu_region_begin(name) < 0 || pmu_region_end(name) < 0;
}

/* N names first used, then used again: ns per name each; -1 when over @budget_ns */
static int names(long n, int series, uint64_t budget_ns)
{
	char (*name)[32] = malloc((size_t)n * sizeof(*name));
	uint64_t t0, first, again;
	int bad = 0;

	if (!name)
		return 1;
	for (long i = 0; i < n; i++)
		snprintf(name[i], sizeof(name[i]), "s%d-n%ld", series, i);
	t0 = now_ns();
	for (long i = 0; i < n; i++) {
		bad |= pair(name[i]);
		if ((i & 1023) == 0 && now_ns() - t0 > budget_ns) {
			printf("BENCH names n=%ld over budget (%ld made in %.0f s)\n", n, i + 1, budget_ns / 1e9);
			free(name);
			return -1;
		}
	}
	first = now_ns() - t0;
	t0 = now_ns();
	for (long i = 0; i < n; i++)
		bad |= pair(name[i]);
	again = now_ns() - t0;
	free(name);
	if (bad) {
		fprintf(stderr, "region-names: a begin/end failed: %s\n", pmu_strerror(-1));
		return 1;
	}
	printf("BENCH names n=%ld first_ns=%.1f again_ns=%.1f\n", n, (double)first / n, (double)again / n);
	return 0;
}

static pthread_barrier_t ready, done;
static int count_cb(const struct pmu_region_result *r, void *data)
{
	(void)r;
	++*(long *)data;
	return 0;
}

static void *worker(void *p)
{
	char name[32];
	int bad = 0;

	(void)p;
	for (int i = 0; i < NAMES_PER_THREAD; i++) {
		snprintf(name, sizeof(name), "shared-%d", i);
		bad |= pair(name);
	}
	pthread_barrier_wait(&ready);
	pthread_barrier_wait(&done); /* alive (and kept) while the report runs */
	return (void *)(intptr_t)bad;
}

static int report(int threads)
{
	pthread_t *th = calloc((size_t)threads, sizeof(*th));
	uint64_t best = UINT64_MAX;
	long rows = 0;
	int bad = 0;

	if (!th)
		return 1;
	pthread_barrier_init(&ready, NULL, (unsigned)threads + 1);
	pthread_barrier_init(&done, NULL, (unsigned)threads + 1);
	for (int i = 0; i < threads; i++)
		if (pthread_create(&th[i], NULL, worker, NULL))
			return 1;
	pthread_barrier_wait(&ready);
	for (int k = 0; k < 5; k++) { /* the fastest of 5 */
		uint64_t t0 = now_ns(), t;
		rows = 0;
		if (pmu_region_foreach(1, count_cb, &rows) < 0)
			bad = 1;
		t = now_ns() - t0;
		if (t < best)
			best = t;
	}
	pthread_barrier_wait(&done);
	for (int i = 0; i < threads; i++) {
		void *r;
		pthread_join(th[i], &r);
		bad |= r != NULL;
	}
	pthread_barrier_destroy(&ready);
	pthread_barrier_destroy(&done);
	free(th);
	if (bad || rows < (long)NAMES_PER_THREAD * (threads + 1)) {
		fprintf(stderr, "region-names: report over %d threads: %ld rows, failures %d\n", threads, rows, bad);
		return 1;
	}
	printf("BENCH report threads=%d slots=%d rows=%ld foreach_ns=%llu per_slot_ns=%.1f\n", threads,
	       threads * NAMES_PER_THREAD, rows, (unsigned long long)best, (double)best / (threads * NAMES_PER_THREAD));
	return 0;
}

int main(int argc, char **argv)
{
	const char *b = getenv("PMU_BENCH_BUDGET_S");
	uint64_t budget = (uint64_t)(b ? atof(b) : 60) * 1000000000u;
	int r;

	if (argc < 3 || (strcmp(argv[1], "names") && strcmp(argv[1], "report"))) {
		fprintf(stderr, "usage: region-names names N... | report T...\n");
		return 2;
	}
	/* the thread's set-up (its events opened: a system call whose time varies by milliseconds here) is
	 * not part of any point */
	if (pair("set-up")) {
		fprintf(stderr, "region-names: regions cannot count here: %s\n", pmu_strerror(-1));
		return 1;
	}
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[1], "names"))
			r = names(atol(argv[i]), i, budget);
		else
			r = report(atoi(argv[i]));
		fflush(stdout);
		if (r < 0)
			break;
		if (r > 0)
			return 1;
	}
	return 0;
}
