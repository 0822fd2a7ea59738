/* SPDX-License-Identifier: MIT */
/*
 * Regions with socket-wide events (issue 43): a fixed history of region calls in three threads, whose
 * socket-wide reads test-region-socket.sh counts by hand. The events are $PMU_EVENTS; the report goes
 * where pmu_region_report(argv[1], JSON, or CSV with argv[2] "csv") puts it. The history, in order:
 *   main:     "alone" begun and ended 3 times
 *   then, in phases that barriers keep apart (struct step):
 *     A begins "both"; main begins and ends "tick"; B begins and ends "both"; A ends "both";
 *     A begins "both"; B begins "both"; A ends "both"; main begins and ends "tick"; B ends "both";
 *     A begins "left" and exits without ending it
 *   main:     "outer" begun, "inner" begun and ended, "outer" ended
 *   a forked child: "child" begun and ended, reported to REPORT.child
 * Prints "configure: <error>" and exits 3 when pmu_region_configure refuses the events.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pmu.h"

static pthread_barrier_t bar;

static void must(int r, const char *what)
{
	if (r < 0) {
		fprintf(stderr, "%s: %s\n", what, pmu_strerror(r));
		exit(1);
	}
}

/* Who does what in each phase: 0 main, 1 A, 2 B; begin and/or end of the name. */
static const struct step {
	int who;
	bool begin, end;
	const char *name;
} steps[] = {
	{ 1, true, false, "both" }, { 0, true, true, "tick" }, { 2, true, true, "both" }, { 1, false, true, "both" },
	{ 1, true, false, "both" }, { 2, true, false, "both" }, { 1, false, true, "both" }, { 0, true, true, "tick" },
	{ 2, false, true, "both" }, { 1, true, false, "left" },
};

static void *history(void *arg)
{
	int me = (int)(intptr_t)arg;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (steps[i].who == me && steps[i].begin)
			must(pmu_region_begin(steps[i].name), steps[i].name);
		if (steps[i].who == me && steps[i].end)
			must(pmu_region_end(steps[i].name), steps[i].name);
		pthread_barrier_wait(&bar);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	int r;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: region-socket REPORT [csv]\n");
		return 2;
	}
	if ((r = pmu_region_configure(NULL, -1)) < 0) {
		printf("configure: %s\n", pmu_strerror(r));
		return 3;
	}
	for (int i = 0; i < 3; i++) {
		must(pmu_region_begin("alone"), "begin alone");
		must(pmu_region_end("alone"), "end alone");
	}
	/* each thread's first region call sets it up, its calibration reading no socket-wide value */
	pthread_barrier_init(&bar, NULL, 3);
	if (pthread_create(&a, NULL, history, (void *)(intptr_t)1) || pthread_create(&b, NULL, history, (void *)(intptr_t)2)) {
		fprintf(stderr, "pthread_create failed\n");
		return 1;
	}
	history((void *)(intptr_t)0);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	must(pmu_region_begin("outer"), "begin outer");
	must(pmu_region_begin("inner"), "begin inner");
	must(pmu_region_end("inner"), "end inner");
	must(pmu_region_end("outer"), "end outer");
	must(pmu_region_report(argv[1], argc == 3 && !strcmp(argv[2], "csv") ? PMU_FORMAT_CSV : PMU_FORMAT_JSON, 1),
	     "report");
	must(pmu_region_report("-", PMU_FORMAT_TEXT, 1), "text report");
	pmu_region_reset(); /* no report at exit */
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) { /* the child starts with no regions: its first begin opens the socket-wide set again */
		char path[4096];
		snprintf(path, sizeof(path), "%s.child", argv[1]);
		must(pmu_region_begin("child"), "child begin");
		must(pmu_region_end("child"), "child end");
		must(pmu_region_report(path, PMU_FORMAT_JSON, 0), "child report");
		pmu_region_reset();
		exit(0);
	}
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "the forked child failed (status 0x%x)\n", st);
		return 1;
	}
	return 0;
}
