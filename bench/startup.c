/* SPDX-License-Identifier: MIT */
/*
 * bench/startup: wall time of getting from nothing to encoded events.
 *   libpmu: pmu_ctx_new (CPU detection, sysfs scan) + 10 resolutions (the
 *           first loads the event tables) + pmu_ctx_free, for a chosen CPU;
 *   libpmu, large table: the same with an extra Intel-size table directory
 *           (PMU_EVENTS_PATH) that must be parsed before the first lookup;
 *   libpfm4 (baseline, same run): pfm_initialize + encoding 10 events +
 *           pfm_terminate.
 * "First in a process" runs each variant in a freshly forked child (before
 * the parent has created any context, so nothing is cached); the others
 * repeat in one process, where libpmu keeps the parsed built-in tables.
 * "Whole program" spawns the programs of startup-exec.c (linked with libpmu.so,
 * with libpfm4, with neither) and times exec to exit: what a short-lived tool
 * pays, the dynamic loader's work for the library included; each program also
 * times itself from just before its context to just after the 10th name (the
 * first context of a fresh program, without a forked child's copy-on-write).
 * Each variant runs ROUNDS times interleaved; medians and the ratio of
 * medians are printed. The first-in-a-process and whole-program variants also count their page faults
 * (getrusage), and the run measures what one costs here (a fresh page written, in a forked child): on
 * a virtual machine a fault can cost more than everything else a first context does.
 * usage: startup LARGE_TABLE_DIR [EXEC_LIBPMU EXEC_LIBPFM4 EXEC_NEITHER]
 */
#include <pmu.h> /* before libpfm4's header: it defers to <linux/perf_event.h> only in this order */
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define ROUNDS 201

#include "startup-names.h"
#include "startup-meter.h"
#include "startup-work.h"

static long last_faults; /* of the latest libpmu_once or pfm_once */

static double libpmu_once(const char *events_path)
{
	long f0 = faults();
	double t0 = now();
	if (startup_work(events_path) < 0)
		exit(1);
	t0 = now() - t0;
	last_faults = faults() - f0;
	return t0;
}

static double pfm_once(void)
{
	long f0 = faults();
	double t0 = now();
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	if (pfm_initialize() != PFM_SUCCESS)
		exit(1);
	for (int i = 0; i < 10; i++) {
		memset(&arg, 0, sizeof(arg));
		memset(&attr, 0, sizeof(attr));
		arg.attr = &attr;
		arg.size = sizeof(arg);
		if (pfm_get_os_event_encoding(pfm_names[i], PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg) != PFM_SUCCESS) {
			fprintf(stderr, "startup: libpfm4 cannot encode %s\n", pfm_names[i]);
			exit(1);
		}
	}
	pfm_terminate();
	t0 = now() - t0;
	last_faults = faults() - f0;
	return t0;
}

/* run f in a fresh child process and return the time it measured; in *nf the page faults it took */
static double in_child(double (*f)(const char *), const char *arg, double *nf)
{
	int p[2];
	double t[2] = { -1, 0 };
	pid_t pid;
	if (pipe(p) < 0)
		exit(1);
	pid = fork();
	if (pid == 0) {
		t[0] = f(arg);
		t[1] = (double)last_faults;
		if (write(p[1], t, sizeof(t)) != sizeof(t))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], t, sizeof(t)) != sizeof(t))
		exit(1);
	close(p[0]);
	waitpid(pid, NULL, 0);
	*nf = t[1];
	return t[0];
}

/* What one page fault costs here, in us: a forked child writes one byte to each of 256 fresh anonymous
 * pages (each write a fault that maps a zeroed page: the kind a first context's heap takes). */
static double fault_once(const char *unused)
{
	const size_t n = 256, pg = (size_t)sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, n * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long f0 = faults();
	double t0;
	(void)unused;
	if (m == MAP_FAILED)
		exit(1);
	t0 = now();
	for (size_t i = 0; i < n; i++)
		((volatile char *)m)[i * pg] = 1;
	t0 = now() - t0;
	last_faults = faults() - f0;
	if (last_faults < (long)n) { /* every write must have been a fault, or the figure means nothing */
		fprintf(stderr, "startup: %ld faults for %zu fresh pages\n", last_faults, n);
		exit(1);
	}
	return t0 / (double)last_faults;
}

static double pfm_once_arg(const char *unused)
{
	(void)unused;
	return pfm_once();
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* exec to exit of @prog, in us; in *inner the time the program measured itself (startup-exec.c), in
 * *nf the page faults it counted over the same span */
static double spawned(const char *prog, double *inner, double *nf)
{
	char *argv[] = { (char *)prog, (char *)"--time", NULL }, buf[64];
	posix_spawn_file_actions_t fa;
	double t0, t;
	int status, p[2];
	ssize_t n;
	pid_t pid;

	if (pipe(p) < 0 || posix_spawn_file_actions_init(&fa) != 0 || posix_spawn_file_actions_adddup2(&fa, p[1], 1) != 0 ||
	    posix_spawn_file_actions_addclose(&fa, p[0]) != 0)
		exit(1);
	t0 = now();
	if (posix_spawn(&pid, prog, &fa, NULL, argv, environ) != 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "startup: %s failed\n", prog);
		exit(1);
	}
	t = now() - t0;
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	n = read(p[0], buf, sizeof(buf) - 1);
	close(p[0]);
	buf[n > 0 ? n : 0] = 0;
	if (sscanf(buf, "%lf %lf", inner, nf) != 2) {
		fprintf(stderr, "startup: %s printed no time\n", prog);
		exit(1);
	}
	return t;
}

static void whole_programs(char **progs, double fault_us)
{
	static double t[3][ROUNDS], in[3][ROUNDS], nf[3][ROUNDS];
	static const char *what[3] = {
		"libpmu.so: ctx + 10 resolutions", "libpfm4: init + 10 encodings", "neither (an empty main)",
	};
	for (int i = 0; i < ROUNDS; i++)
		for (int k = 0; k < 3; k++)
			t[k][i] = spawned(progs[k], &in[k][i], &nf[k][i]);
	for (int k = 0; k < 3; k++) {
		qsort(t[k], ROUNDS, sizeof(double), cmp);
		qsort(in[k], ROUNDS, sizeof(double), cmp);
		qsort(nf[k], ROUNDS, sizeof(double), cmp);
	}
	printf("\n| whole program, exec to exit | median (us) | p10 | p90 | over the empty program (us) |\n"
	       "|---|---|---|---|---|\n");
	for (int k = 0; k < 3; k++)
		printf("| %s | %.0f | %.0f | %.0f | %.0f |\n", what[k], t[k][ROUNDS / 2], t[k][ROUNDS / 10],
		       t[k][ROUNDS * 9 / 10], t[k][ROUNDS / 2] - t[2][ROUNDS / 2]);
	printf("\n| the same programs, timed inside: from before the context to after the 10th name | median (us) "
	       "| p10 | p90 | ratio to libpfm4 | page faults (median) | faults x %.1f us |\n"
	       "|---|---|---|---|---|---|---|\n", fault_us);
	for (int k = 0; k < 2; k++)
		printf("| %s | %.0f | %.0f | %.0f | %.2f | %.0f | %.0f |\n", what[k], in[k][ROUNDS / 2], in[k][ROUNDS / 10],
		       in[k][ROUNDS * 9 / 10], in[k][ROUNDS / 2] / in[1][ROUNDS / 2], nf[k][ROUNDS / 2],
		       nf[k][ROUNDS / 2] * fault_us);
}

int main(int argc, char **argv)
{
	static double a[ROUNDS], b[ROUNDS], c[ROUNDS], ca[ROUNDS], cc[ROUNDS], fa[ROUNDS], fc[ROUNDS], fu[ROUNDS / 4];
	double fault_us, ignored;
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	if (argc < 2) {
		fprintf(stderr, "usage: startup LARGE_TABLE_DIR\n");
		return 2;
	}
	for (int i = 0; i < ROUNDS; i++) {
		ca[i] = in_child(libpmu_once, NULL, &fa[i]);
		cc[i] = in_child(pfm_once_arg, NULL, &fc[i]);
		if (i % 4 == 0 && i / 4 < ROUNDS / 4)
			fu[i / 4] = in_child(fault_once, NULL, &ignored);
	}
	qsort(fu, ROUNDS / 4, sizeof(double), cmp);
	fault_us = fu[ROUNDS / 8];
	for (int i = 0; i < ROUNDS; i++) {
		a[i] = libpmu_once(NULL);
		b[i] = libpmu_once(argv[1]);
		c[i] = pfm_once();
	}
	qsort(a, ROUNDS, sizeof(double), cmp);
	qsort(b, ROUNDS, sizeof(double), cmp);
	qsort(c, ROUNDS, sizeof(double), cmp);
	qsort(ca, ROUNDS, sizeof(double), cmp);
	qsort(cc, ROUNDS, sizeof(double), cmp);
	qsort(fa, ROUNDS, sizeof(double), cmp);
	qsort(fc, ROUNDS, sizeof(double), cmp);
	printf("A page fault here (a fresh page written, median of %d children of 256 faults each): %.1f us.\n"
	       "The columns \"faults x %.1f us\" price every fault at that figure: an estimate (a fault on a page of\n"
	       "code or tables already in memory costs another amount, and maps up to 16 pages).\n\n",
	       ROUNDS / 4, fault_us, fault_us);
	printf("| variant | median (us) | p10 (us) | p90 (us) | ratio to libpfm4 | page faults (median) | faults x %.1f us "
	       "|\n|---|---|---|---|---|---|---|\n", fault_us);
	printf("| first in a process: libpmu ctx + 10 resolutions | %.0f | %.0f | %.0f | %.2f | %.0f | %.0f |\n",
	       ca[ROUNDS / 2], ca[ROUNDS / 10], ca[ROUNDS * 9 / 10], ca[ROUNDS / 2] / cc[ROUNDS / 2], fa[ROUNDS / 2],
	       fa[ROUNDS / 2] * fault_us);
	printf("| first in a process: libpfm4 init + 10 encodings | %.0f | %.0f | %.0f | 1.00 | %.0f | %.0f |\n",
	       cc[ROUNDS / 2], cc[ROUNDS / 10], cc[ROUNDS * 9 / 10], fc[ROUNDS / 2], fc[ROUNDS / 2] * fault_us);
	printf("| libpmu: ctx + 10 resolutions (built-in tables) | %.0f | %.0f | %.0f | %.2f | | |\n", a[ROUNDS / 2],
	       a[ROUNDS / 10], a[ROUNDS * 9 / 10], a[ROUNDS / 2] / c[ROUNDS / 2]);
	printf("| libpmu: same + an Intel-size table directory | %.0f | %.0f | %.0f | %.2f | | |\n", b[ROUNDS / 2],
	       b[ROUNDS / 10], b[ROUNDS * 9 / 10], b[ROUNDS / 2] / c[ROUNDS / 2]);
	printf("| libpfm4: pfm_initialize + 10 encodings | %.0f | %.0f | %.0f | 1.00 | | |\n", c[ROUNDS / 2],
	       c[ROUNDS / 10], c[ROUNDS * 9 / 10]);
	/* resolution throughput on a warm context, against libpfm4 encoding the same names */
	{
		struct pmu_ctx_opts o;
		struct pmu_ctx *ctx;
		struct pmu_event_info e;
		struct perf_event_attr attr;
		pfm_perf_encode_arg_t arg;
		double t0, t1, t2;
		const int reps = 2000;
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.cpuid = "GenuineIntel-6-55-4";
		if (pmu_ctx_new(&ctx, &o) < 0 || pfm_initialize() != PFM_SUCCESS)
			return 1;
		pmu_event_resolve(ctx, names[0], &e); /* load the tables */
		t0 = now();
		for (int r = 0; r < reps; r++)
			for (int i = 0; i < 10; i++)
				pmu_event_resolve(ctx, names[i], &e);
		t1 = now();
		for (int r = 0; r < reps; r++)
			for (int i = 0; i < 10; i++) {
				memset(&arg, 0, sizeof(arg));
				arg.attr = &attr;
				arg.size = sizeof(arg);
				pfm_get_os_event_encoding(pfm_names[i], PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
			}
		t2 = now();
		printf("\n| resolution throughput (warm) | per name (us) | names per second | ratio to libpfm4 |\n|---|---|---|---|\n");
		printf("| libpmu pmu_event_resolve | %.2f | %.0f | %.2f |\n", (t1 - t0) / (reps * 10), reps * 10 / ((t1 - t0) / 1e6),
		       (t1 - t0) / (t2 - t1));
		printf("| libpfm4 pfm_get_os_event_encoding | %.2f | %.0f | 1.00 |\n", (t2 - t1) / (reps * 10),
		       reps * 10 / ((t2 - t1) / 1e6));
		pfm_terminate();
		pmu_ctx_free(ctx);
	}
	if (argc >= 5)
		whole_programs(argv + 2, fault_us);
	return 0;
}
