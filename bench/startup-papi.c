/* SPDX-License-Identifier: MIT */
/*
 * bench/startup-papi: from nothing to 7 opened events, each variant in a
 * freshly forked process (what a tool or a short program pays), x86 host,
 * wall time, medians of ROUNDS interleaved rounds:
 *   libpmu: pmu_ctx_new + pmu_set_open of 7 software events + close + free
 *   PAPI:   PAPI_library_init + PAPI_create_eventset + 10 PAPI_add_named_event
 *           ("perf::..." names) + cleanup + PAPI_shutdown
 *   libpfm4 alone: pfm_initialize + pfm_terminate (no event opened)
 * Software events because this machine has no hardware PMU; both libraries
 * go through the same perf_event_open calls for them.
 */
#include <papi.h>
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <pmu.h>
#include "startup-meter.h"

#define ROUNDS 101
/* the software events both libraries know (PAPI's libpfm4 lacks alignment/emulation faults, dummy) */
#define NEV 7
static const char *pmu_list = "task-clock,page-faults,context-switches,cpu-migrations,minor-faults,major-faults,"
			      "cpu-clock";
static const char *papi_names[NEV] = { "perf::TASK-CLOCK", "perf::PAGE-FAULTS", "perf::CONTEXT-SWITCHES",
					"perf::CPU-MIGRATIONS", "perf::MINOR-FAULTS", "perf::MAJOR-FAULTS",
					"perf::CPU-CLOCK" };

static double v_libpmu(void)
{
	struct pmu_ctx *ctx;
	struct pmu_set *s;
	double t0 = now();
	if (pmu_ctx_new(&ctx, NULL) < 0 || pmu_set_open(ctx, pmu_list, NULL, &s) < 0)
		return -1;
	pmu_set_close(s);
	pmu_ctx_free(ctx);
	return now() - t0;
}

static double v_papi(void)
{
	int es = PAPI_NULL;
	double t0 = now();
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT || PAPI_create_eventset(&es) != PAPI_OK)
		return -1;
	for (int i = 0; i < NEV; i++)
		if (PAPI_add_named_event(es, papi_names[i]) != PAPI_OK)
			return -1;
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	return now() - t0;
}

static double v_pfm(void)
{
	double t0 = now();
	if (pfm_initialize() != PFM_SUCCESS)
		return -1;
	pfm_terminate();
	return now() - t0;
}

static double in_child(double (*f)(void))
{
	int p[2];
	double t = -1;
	pid_t pid;
	if (pipe(p) < 0)
		exit(1);
	if ((pid = fork()) == 0) {
		t = f();
		if (write(p[1], &t, sizeof(t)) != sizeof(t))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &t, sizeof(t)) != sizeof(t))
		t = -1;
	close(p[0]);
	waitpid(pid, NULL, 0);
	return t;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Whether PAPI can count the events here; if not, the reason in @why. PAPI's perf_event component
 * is disabled where the libpfm4 it is built with knows no PMU of this CPU (libpfm4 4.13 and AMD family
 * 26, Zen 5: "Error libpfm4 no default PMU found"), and then no perf:: event exists. */
static int papi_counts(char *why, size_t len)
{
	int es = PAPI_NULL, r = 0;
	const PAPI_component_info_t *ci;

	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		snprintf(why, len, "PAPI_library_init failed");
		return 0;
	}
	ci = PAPI_get_component_info(0);
	if (ci && ci->disabled)
		snprintf(why, len, "PAPI's %s component is disabled here (\"%s\")", ci->name, ci->disabled_reason);
	else if (PAPI_create_eventset(&es) != PAPI_OK || (r = PAPI_add_named_event(es, papi_names[0])) != PAPI_OK)
		snprintf(why, len, "PAPI cannot add %s here (%s)", papi_names[0], PAPI_strerror(r));
	else
		r = 1;
	PAPI_shutdown();
	return r == 1;
}

int main(void)
{
	static double a[ROUNDS], b[ROUNDS], c[ROUNDS];
	char why[1280];
	pid_t pid;
	int st;

	/* asked in a child: PAPI_shutdown does not return the process to its state before the init */
	if ((pid = fork()) == 0)
		_exit(papi_counts(why, sizeof(why)) ? 0 : (printf("PAPI not compared: %s.\n", why), fflush(stdout), 2));
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) == 1)
		return 1;
	if (WEXITSTATUS(st) == 2)
		return 0;
	for (int i = 0; i < ROUNDS; i++) {
		a[i] = in_child(v_libpmu);
		b[i] = in_child(v_papi);
		c[i] = in_child(v_pfm);
		if (a[i] < 0 || b[i] < 0 || c[i] < 0) {
			fprintf(stderr, "startup-papi: a variant failed (round %d: %g %g %g)\n", i, a[i], b[i], c[i]);
			return 1;
		}
	}
	qsort(a, ROUNDS, sizeof(double), cmp);
	qsort(b, ROUNDS, sizeof(double), cmp);
	qsort(c, ROUNDS, sizeof(double), cmp);
	printf("| first in a process, 7 software events | median (us) | p10 | p90 | ratio to PAPI |\n|---|---|---|---|---|\n");
	printf("| libpmu: context + open the set | %.0f | %.0f | %.0f | %.2f |\n", a[ROUNDS / 2], a[ROUNDS / 10],
	       a[ROUNDS * 9 / 10], a[ROUNDS / 2] / b[ROUNDS / 2]);
	printf("| PAPI: library_init + event set + add the events | %.0f | %.0f | %.0f | 1.00 |\n", b[ROUNDS / 2],
	       b[ROUNDS / 10], b[ROUNDS * 9 / 10]);
	printf("| libpfm4: pfm_initialize alone (nothing opened) | %.0f | %.0f | %.0f | %.2f |\n", c[ROUNDS / 2],
	       c[ROUNDS / 10], c[ROUNDS * 9 / 10], c[ROUNDS / 2] / b[ROUNDS / 2]);
	return 0;
}
