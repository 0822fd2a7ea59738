/* SPDX-License-Identifier: MIT */
/*
 * threads: regions in several threads at once. Each thread sorts its own
 * array inside the region "sort" and checks it inside "verify"; the report
 * (per thread and summed) is printed before exit.
 *   usage: threads [THREADS] [ELEMENTS]   (default 4, 200000)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <pmu.h>

static int elements = 200000;

static int cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? -1 : x > y;
}

static void *work(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u + 1, *v = malloc(sizeof(*v) * (size_t)elements);
	long bad = 0;

	if (!v)
		return (void *)1;
	for (int i = 0; i < elements; i++)
		v[i] = seed = seed * 1103515245u + 12345u;
	pmu_region_begin("sort");
	qsort(v, (size_t)elements, sizeof(*v), cmp);
	pmu_region_end("sort");
	pmu_region_begin("verify");
	for (int i = 1; i < elements; i++)
		bad += v[i - 1] > v[i];
	pmu_region_end("verify");
	free(v);
	return (void *)bad;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	pthread_t t[64];
	long bad = 0;

	if (argc > 2)
		elements = atoi(argv[2]);
	if (n < 1 || n > 64 || elements < 2) {
		fprintf(stderr, "threads: 1..64 threads, at least 2 elements\n");
		return 2;
	}
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, work, (void *)(uintptr_t)i);
	for (int i = 0; i < n; i++) {
		void *r;
		pthread_join(t[i], &r);
		bad += (long)r;
	}
	printf("threads: %d threads sorted %d elements each, %s\n", n, elements, bad ? "NOT SORTED" : "all sorted");
	/* the threads have ended; their counts are still there */
	pmu_region_report("-", PMU_FORMAT_TEXT, 1);
	pmu_region_reset(); /* already reported: nothing more at exit */
	return bad ? 1 : 0;
}
