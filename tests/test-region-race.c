/* SPDX-License-Identifier: MIT */
/*
 * Reports while other threads make new region names (issue 40 item 2): a thread's first use of a name
 * grows its slot array, which a report (pmu_region_foreach, pmu_region_report) walks at the same time;
 * the array was reallocated outside the lock and the report read the freed one (ASan: heap use after
 * free; valgrind: invalid read). Writers make NAMES names each, the reader reports in a loop until they
 * are done; then the totals are checked against what the writers did (each name's calls, counted here).
 *
 *   test-region-race [WRITERS [NAMES]]
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmu.h>
#include "harness.h"

static int nwriters = 4, nnames = 1500;
static atomic_int done;

static void *writer(void *p)
{
	int w = (int)(intptr_t)p, bad = 0;
	char name[64];

	for (int i = 0; i < nnames; i++) {
		snprintf(name, sizeof(name), "w%d-%d", w, i);
		for (int k = 0; k < 1 + i % 3; k++) /* name i is called 1 + i % 3 times */
			bad |= pmu_region_begin(name) < 0 || pmu_region_end(name) < 0;
	}
	atomic_fetch_add(&done, 1);
	return (void *)(intptr_t)bad;
}

struct tally {
	uint64_t calls, rows;
};

static int tally_cb(const struct pmu_region_result *r, void *data)
{
	struct tally *t = data;
	if (r->tid == -1 && r->name[0] == 'w') {
		t->calls += r->calls;
		t->rows++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t th[64];
	struct tally t;
	uint64_t want = 0;
	long reports = 0;
	int bad = 0;

	if (argc > 1)
		nwriters = atoi(argv[1]);
	if (argc > 2)
		nnames = atoi(argv[2]);
	if (nwriters < 1 || nwriters > 64 || nnames < 1)
		return 2;
	setenv("PMU_EVENTS", "task-clock", 0);
	setenv("PMU_OUTPUT", "/dev/null", 0); /* the report at exit */
	for (int w = 0; w < nwriters; w++)
		if (pthread_create(&th[w], NULL, writer, (void *)(intptr_t)w))
			return 1;
	while (atomic_load(&done) < nwriters) {
		memset(&t, 0, sizeof(t));
		CHECK(pmu_region_foreach(1, tally_cb, &t) >= 0, "foreach: %s", pmu_strerror(-1));
		if (reports % 16 == 0)
			CHECK(pmu_region_report("/dev/null", (int)(reports / 16 % 3), 1) == 0, "report: %s",
			      pmu_strerror(-1));
		reports++;
	}
	for (int w = 0; w < nwriters; w++) {
		void *r;
		pthread_join(th[w], &r);
		bad |= r != NULL;
	}
	CHECK(!bad, "every writer's begin/end succeeded: %s", pmu_strerror(-1));
	for (int i = 0; i < nnames; i++)
		want += (uint64_t)nwriters * (1 + i % 3);
	memset(&t, 0, sizeof(t));
	pmu_region_foreach(0, tally_cb, &t);
	CHECK(t.rows == (uint64_t)nwriters * nnames && t.calls == want,
	      "after: %llu names with %llu calls, the writers made %d with %llu", (unsigned long long)t.rows,
	      (unsigned long long)t.calls, nwriters * nnames, (unsigned long long)want);
	printf("test-region-race: %d writers x %d new names, %ld reports taken while they ran\n", nwriters, nnames,
	       reports);
	CHECK(reports > 1, "the reports ran while the names were made (%ld)", reports);
	return test_done("test-region-race");
}
