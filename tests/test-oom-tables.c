/* SPDX-License-Identifier: MIT */
/*
 * A table load that fails must be said as such: every caller that needs the
 * tables (a metric by name, its events, its description, a table event with
 * Intel's modifiers or with PMU terms, the list of names, has_event()) passes
 * the load's error on, never "no such metric" (-ENOENT) or a list without the
 * tables' names. The load fails here for want of memory: this program
 * defines malloc, calloc and realloc (as tests/test-oom.c does) and runs the
 * scenario once with the n-th allocation failing, for every n until a run
 * completes with no failure injected (the context itself is made before:
 * failures inside pmu_ctx_new are test-oom's). Each step must give what it gives
 * without failures, or -ENOMEM. Tables: the built-in x86/icelakex (compiled:
 * json-c's parser, which crashes when its own allocations fail, is not in
 * the way): l1_miss_split_unaccounted = MEM_LOAD_RETIRED.L1_MISS -
 * (MEM_LOAD_RETIRED.L2_HIT + MEM_LOAD_RETIRED.L2_MISS), three metrics named
 * l1_*, MEM_LOAD_RETIRED.L1_MISS/L2_HIT/L2_MISS event 0xd1 umask 0x08/0x02/
 * 0x10; machine: the intel-icx fixture (Intel layout, cmask config:24-31):
 * values by hand below.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pmu.h>
#include "harness.h"
#include "oom-inject.h"

#define NSTEPS 8
#define METRIC "l1_miss_split_unaccounted"
static const char *const step_names[NSTEPS] __attribute__((unused)) = {
	"pmu_metric_info(" METRIC ")", "pmu_metric_eval(" METRIC ")", "pmu_metric_events(" METRIC ")",
	"resolve MEM_LOAD_RETIRED.L1_MISS:c1", "resolve cpu/MEM_LOAD_RETIRED.L2_HIT,cmask=2/",
	"resolve MEM_LOAD_RETIRED.L2_MISS", "pmu_event_foreach(l1_)", "has_event(MEM_LOAD_RETIRED.L1_MISS)",
};
/* each step's result: 0 and the value, or its error */
struct results {
	int rc[NSTEPS];
	double val[NSTEPS];
};
/* the values worked out by hand from the table and the fixture */
static const double want[NSTEPS] __attribute__((unused)) = {
	1,                          /* the expression as the table writes it */
	100 - (60 + 30),            /* L1_MISS 100, L2_HIT 60, L2_MISS 30 */
	24 + 1 + 23 + 1 + 24,      /* strlen of the three names, comma-separated */
	0xd1 | 0x08 << 8 | 1u << 24,
	0xd1 | 0x02 << 8 | 2u << 24,
	0xd1 | 0x10 << 8,
	3,                          /* l1_miss_split_unaccounted l1_load_miss_rate l1_load_hit_rate */
	1,
};

#ifndef PMU_SANITIZED
static char sys[1024], proc[1024];

static int count_entry(const struct pmu_event_entry *e, void *data)
{
	if (e->kind == PMU_ENTRY_METRIC)
		(*(int *)data)++;
	return 0;
}

static void scenario(struct results *out)
{
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx = NULL;
	struct pmu_event_info e;
	struct pmu_metric_info mi;
	const struct pmu_named_value v[] = {
		{ "MEM_LOAD_RETIRED.L1_MISS", 100 }, { "MEM_LOAD_RETIRED.L2_HIT", 60 }, { "MEM_LOAD_RETIRED.L2_MISS", 30 },
	};
	const char *const specs[3] = { "MEM_LOAD_RETIRED.L1_MISS:c1", "cpu/MEM_LOAD_RETIRED.L2_HIT,cmask=2/",
				       "MEM_LOAD_RETIRED.L2_MISS" };
	char buf[128];
	int r, n = 0;

	for (int i = 0; i < NSTEPS; i++)
		out->rc[i] = -EPROTO;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.sysfs_root = sys;
	o.procfs_root = proc;
	o.cpuid = "GenuineIntel-6-6A-6";
	/* the context is made with no failure injected: the sweep covers the table load and the steps
	 * (a failure inside pmu_ctx_new is test-oom's) */
	{
		int was = armed;
		armed = 0;
		r = pmu_ctx_new(&ctx, &o);
		armed = was;
		if (r < 0) {
			for (int i = 0; i < NSTEPS; i++)
				out->rc[i] = r;
			return;
		}
	}
	r = pmu_metric_info(ctx, METRIC, &mi);
	out->rc[0] = r;
	out->val[0] = r == 0 && !strcmp(mi.expr, "MEM_LOAD_RETIRED.L1_MISS - (MEM_LOAD_RETIRED.L2_HIT + "
					 "MEM_LOAD_RETIRED.L2_MISS)") ? 1 : -1;
	out->rc[1] = pmu_metric_eval(ctx, METRIC, v, 3, &out->val[1]);
	r = pmu_metric_events(ctx, METRIC, buf, sizeof(buf));
	out->rc[2] = r < 0 ? r : 0;
	out->val[2] = r >= 0 && !strcmp(buf, "MEM_LOAD_RETIRED.L1_MISS,MEM_LOAD_RETIRED.L2_HIT,MEM_LOAD_RETIRED.L2_MISS")
		      ? (double)r : -1;
	for (int i = 0; i < 3; i++) {
		memset(&e, 0, sizeof(e));
		out->rc[3 + i] = pmu_event_resolve(ctx, specs[i], &e);
		out->val[3 + i] = (double)e.config;
	}
	r = pmu_event_foreach(ctx, "l1_", count_entry, &n);
	out->rc[6] = r < 0 ? r : 0;
	out->val[6] = n;
	out->rc[7] = pmu_metric_eval(ctx, "has_event(MEM_LOAD_RETIRED.L1_MISS)", NULL, 0, &out->val[7]);
	pmu_ctx_free(ctx);
}
#endif

int main(void)
{
#ifdef PMU_SANITIZED
	SKIP("the sanitizer owns the allocator here; the plain run injects the allocation failures");
#else
	const char *src = getenv("PMU_TEST_SRCDIR");
	struct results ref;
	int n, enomem = 0, ok = 0;

	snprintf(sys, sizeof(sys), "%s/tests/fixtures/intel-icx/sys", src ? src : ".");
	snprintf(proc, sizeof(proc), "%s/tests/fixtures/intel-icx/proc", src ? src : ".");
	armed = 1;
	nth = -1;
	count = 0;
	scenario(&ref);
	armed = 0;
	if (getenv("PMU_OOM_ONLY")) { /* debugging: as the sweep's child n, in this process */
		struct results got;
		armed = 1;
		count = 0;
		nth = atoi(getenv("PMU_OOM_ONLY"));
		scenario(&got);
		for (int i = 0; i < NSTEPS; i++)
			printf("%s: %d %g\n", step_names[i], got.rc[i], got.val[i]);
		return 0;
	}
	for (int i = 0; i < NSTEPS; i++)
		CHECK(ref.rc[i] == 0 && fabs(ref.val[i] - want[i]) < 1e-9, "without failures: %s: %d (%s), %g, by hand %g",
		      step_names[i], ref.rc[i], ref.rc[i] ? strerror(-ref.rc[i]) : "ok", ref.val[i], want[i]);
	if (count == 0)
		SKIP("the allocator is replaced by the memory checker (valgrind) here: no allocation reaches this "
		     "program's malloc; the plain run injects the failures");
	for (n = 1;; n++) {
		int st = 0, pipefd[2], f = 0;
		struct results got;
		char rbuf[16 + sizeof(struct results)];
		pid_t pid;
		if (pipe(pipefd) != 0)
			return 1;
		fflush(stdout);
		if ((pid = fork()) == 0) {
			close(pipefd[0]);
			armed = 1;
			nth = n;
			count = 0;
			scenario(&got);
			armed = 0;
			memset(rbuf, 0, sizeof(rbuf));
			snprintf(rbuf, 16, "%d", fired);
			memcpy(rbuf + 16, &got, sizeof(got));
			_exit(write(pipefd[1], rbuf, sizeof(rbuf)) == (ssize_t)sizeof(rbuf) ? 0 : 1);
		}
		close(pipefd[1]);
		waitpid(pid, &st, 0);
		if (read(pipefd[0], rbuf, sizeof(rbuf)) != (ssize_t)sizeof(rbuf) || WIFSIGNALED(st)) {
			close(pipefd[0]);
			CHECK(0, "allocation %d failing: the child died (%s)", n,
			      WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) : "no result");
			continue;
		}
		close(pipefd[0]);
		sscanf(rbuf, "%d", &f);
		if (!f)
			break; /* past the last allocation */
		memcpy(&got, rbuf + 16, sizeof(got));
		for (int i = 0; i < NSTEPS; i++) {
			if (got.rc[i] == -ENOMEM) {
				enomem++;
				continue;
			}
			if (got.rc[i] == 0 && fabs(got.val[i] - want[i]) < 1e-9) {
				ok++;
				continue;
			}
			CHECK(0, "allocation %d failing: %s: %d (%s), value %g, by hand %g: the failure passed off as "
			      "something else", n, step_names[i], got.rc[i], got.rc[i] ? strerror(-got.rc[i]) : "ok",
			      got.val[i], want[i]);
		}
	}
	printf("%d allocations failed one at a time: %d steps -ENOMEM, %d as without failures\n", n - 1, enomem, ok);
	CHECK(n > 10 && enomem > 0, "only %d allocations, %d -ENOMEM", n - 1, enomem);
	return test_done("test-oom-tables");
#endif
}
