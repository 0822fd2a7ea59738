/* SPDX-License-Identifier: MIT */
/*
 * Out of memory at every allocation. This program defines malloc, calloc
 * and realloc (forwarding to glibc's __libc_* functions); libpmu.so's and
 * json-c's calls resolve to them. A scenario — a context, resolution (a
 * standard name, a table event, an unknown name with suggestions), a set of
 * software events in groups, reads, a metric evaluated over it, built-in
 * metrics with #constants, the tables listed, the set closed — runs once with the n-th allocation failing, for
 * every n until a run completes with no failure injected. Each run must end
 * in -ENOMEM, or in success with the results of the run without failures
 * (the encodings, the metric's value, the number of INST names listed):
 * another error, or a success with less, is the failure passed off as
 * something else. Never a crash: each run is a forked child; in the parent
 * the memory checkers of the test command (valgrind) see every run's frees.
 *
 * PMU_OOM_ONLY=N runs child N's case in this process (for a debugger).
 *
 * Under AddressSanitizer or ThreadSanitizer the allocator belongs to the
 * sanitizer and cannot be replaced here: the program says so and skips;
 * the plain and valgrind runs cover it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pmu.h>
#include "harness.h"
#include "oom-inject.h"

#ifndef PMU_SANITIZED
/* What a run produced: compared with the run without failures. */
struct results {
	unsigned long long inst_config, clock_config;
	unsigned inst_type, clock_type;
	int listed;
	double metric;
	double table_metric;
	int pmus, formats, events;     /* the intel-icx fixture's sysfs */
	char table[64];                /* its CPU's table (pmu_caps) */
	char table_root[16];           /* where that table came from ("built-in") */
	char unit[16];                 /* power/energy-pkg/'s unit (events/energy-pkg.unit) */
	unsigned long long pfm_config; /* fresh_scenario: libpfm4's encoding */
};
static struct results got;

static int count_entry(const struct pmu_event_entry *e, void *data)
{
	(void)e;
	(*(int *)data)++;
	return 0;
}

/* 0 on success, else the first negative errno; every step is attempted; results in got. */
static int scenario(void)
{
	struct pmu_ctx *ctx = NULL;
	struct pmu_set *s = NULL;
	struct pmu_event_info e;
	struct pmu_value v[8];
	double m = -1;
	int r, first = 0;

	memset(&got, 0, sizeof(got));

#define STEP(x) do { r = (x); if (r < 0 && !first) first = r; } while (0)
	STEP(pmu_ctx_new(&ctx, NULL));
	if (!ctx)
		return first;
	memset(&e, 0, sizeof(e));
	STEP(pmu_event_resolve(ctx, "INST.RET", &e));
	got.inst_type = e.type;
	got.inst_config = e.config;
	memset(&e, 0, sizeof(e));
	STEP(pmu_event_resolve(ctx, "task-clock:u", &e));
	got.clock_type = e.type;
	got.clock_config = e.config;
	r = pmu_event_resolve(ctx, "task-clokc", &e); /* unknown: -ENOENT expected, with suggestions */
	if (r != -ENOENT && r != -ENOMEM && !first)
		first = r < 0 ? r : -EPROTO;
	STEP(pmu_set_open(ctx, "task-clock,{page-faults,context-switches},cpu-clock", NULL, &s));
	if (s) {
		STEP(pmu_set_enable(s));
		STEP(pmu_set_read(s, v));
		STEP(pmu_set_read_syscall(s, v));
		/* the values as read made the same in every run: the metric's value is then known */
		for (int i = 0; i < 4; i++)
			v[i] = (struct pmu_value){ 1000 + (uint64_t)i, 10, 10 };
		STEP(pmu_metric_eval_set(ctx, "page\\-faults / (task\\-clock + 1)", s, v, &m));
		got.metric = m;
		pmu_set_close(s);
	}
	{
		/* metrics with #constants (MetricParams a=0,b=0) of the built-in Skylake server tables, one
		 * used twice (its value kept): d_ratio(10 + 20, 10 + 50) + d_ratio(30, 60) + the first again */
		struct pmu_named_value nv[] = { { "MEM_LOAD_RETIRED.FB_HIT", 10 }, { "MEM_LOAD_RETIRED.L3_MISS", 20 },
						{ "MEM_LOAD_RETIRED.L2_MISS", 50 }, { "MEM_LOAD_RETIRED.L3_HIT", 30 } };
		struct pmu_ctx_opts o;
		struct pmu_ctx *mc = NULL;
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.cpuid = "GenuineIntel-6-55-4";
		STEP(pmu_ctx_new(&mc, &o));
		if (mc) {
			m = -1;
			STEP(pmu_metric_eval(mc, "l3_load_miss_rate_local + l3_load_hit_rate_local + l3_load_miss_rate_local",
					     nv, 4, &m));
			got.table_metric = m;
			pmu_ctx_free(mc);
		}
	}
	{
		/* a machine of the fixtures: its PMUs' formats and events (with .unit and .scale files), and
		 * pmu_caps loading its tables first */
		struct pmu_ctx_opts o;
		struct pmu_ctx *fx = NULL;
		struct pmu_caps caps;
		char sys[1024], proc[1024];
		const char *src = getenv("PMU_TEST_SRCDIR") ? getenv("PMU_TEST_SRCDIR") : ".";
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		snprintf(sys, sizeof(sys), "%s/tests/fixtures/intel-icx/sys", src);
		snprintf(proc, sizeof(proc), "%s/tests/fixtures/intel-icx/proc", src);
		o.sysfs_root = sys;
		o.procfs_root = proc;
		STEP(pmu_ctx_new(&fx, &o));
		if (fx) {
			memset(&caps, 0, sizeof(caps));
			STEP(pmu_caps(fx, &caps));
			snprintf(got.table, sizeof(got.table), "%s", caps.events_table);
			snprintf(got.table_root, sizeof(got.table_root), "%s", caps.events_table_root);
			for (size_t i = 0; i < pmu_pmu_count(fx); i++) {
				struct pmu_pmu_info pi;
				STEP(pmu_pmu_get(fx, i, &pi));
				got.pmus++;
				got.formats += (int)pi.n_formats;
				got.events += (int)pi.n_events;
			}
			memset(&e, 0, sizeof(e));
			STEP(pmu_event_resolve(fx, "power/energy-pkg/", &e));
			snprintf(got.unit, sizeof(got.unit), "%s", e.unit ? e.unit : "");
			pmu_ctx_free(fx);
		}
	}
	STEP(pmu_event_foreach(ctx, "INST", NULL, NULL) == -EINVAL ? 0 : -EPROTO);
	STEP(pmu_event_foreach(ctx, "INST", count_entry, &got.listed));
	pmu_ctx_free(ctx);
	return first;
#undef STEP
}

/* What is set up once per process: libpfm4 (with the environment that lets it encode for CPUs other
 * than this one: a Nehalem event here). */
static int fresh_scenario(void)
{
	struct pmu_ctx *ctx = NULL;
	struct pmu_event_info e;
	int r;

	memset(&got, 0, sizeof(got));
	if ((r = pmu_ctx_new(&ctx, NULL)) < 0)
		return r;
	memset(&e, 0, sizeof(e));
	r = pmu_event_resolve(ctx, "nhm::INST_RETIRED:ANY_P", &e);
	got.pfm_config = r == 0 ? e.config : 0;
	pmu_ctx_free(ctx);
	return r;
}

/* Runs @fn in a forked child with allocation @n failing (-1: none): its result, whether a failure was
 * injected and how many allocations it made in *r, *fired, *made, its results in got. -1: the child
 * crashed (signal in *sig) or said nothing. */
static int run_child(int (*fn)(void), int n, int *r, int *fired_out, int *made, int *sig)
{
	char rbuf[64 + sizeof(struct results)] = "";
	int st = 0, pipefd[2];
	ssize_t nr;
	pid_t pid;

	if (pipe(pipefd) != 0)
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int rr;
		close(pipefd[0]);
		armed = 1;
		nth = n;
		count = 0;
		rr = fn();
		armed = 0;
		snprintf(rbuf, 64, "%d %d %d", fired, rr, count);
		memcpy(rbuf + 64, &got, sizeof(got));
		if (write(pipefd[1], rbuf, sizeof(rbuf)) != (ssize_t)sizeof(rbuf))
			_exit(1);
		_exit(0);
	}
	close(pipefd[1]);
	waitpid(pid, &st, 0);
	nr = read(pipefd[0], rbuf, sizeof(rbuf));
	close(pipefd[0]);
	*sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	if (*sig || nr != (ssize_t)sizeof(rbuf) || sscanf(rbuf, "%d %d %d", fired_out, r, made) != 3)
		return -1;
	memcpy(&got, rbuf + 64, sizeof(got));
	return 0;
}

/* Fail each allocation of @fn once, in a forked child each, and compare with @ref (the run without
 * failures). Returns the number of allocations. */
static int sweep(const char *what, int (*fn)(void), const struct results *ref)
{
	int n, crashes = 0, bad = 0, enomem = 0, ok = 0, other = 0, less = 0;

	for (n = 1;; n++) {
		int f = 0, r = 0, made = 0, sig = 0;
		if (run_child(fn, n, &r, &f, &made, &sig) < 0) {
			if (sig) {
				crashes++;
				CHECK(0, "%s: allocation %d failing: killed by signal %d (%s)", what, n, sig, strsignal(sig));
			} else {
				bad++;
				CHECK(0, "%s: allocation %d failing: no result from the child", what, n);
			}
			continue;
		}
		if (!f) /* nothing failed: past the last allocation */
			break;
		if (r == -ENOMEM) {
			enomem++;
		} else if (r == 0 && !memcmp(&got, ref, sizeof(got))) {
			ok++;
		} else if (r == 0) {
			/* success with less: the failure swallowed */
			CHECK(less++ >= 10, "%s: allocation %d failing: success, but INST.RET %u:0x%llx (0x%llx without "
			      "failures), task-clock %u:0x%llx, %d INST names listed (%d), metric %g (%g), table metrics %g "
			      "(%g), fixture: %d PMUs (%d), %d formats (%d), %d events (%d), table '%s' ('%s'), "
			      "power/energy-pkg/ unit '%s' ('%s'), libpfm4 0x%llx (0x%llx)", what, n, got.inst_type,
			      got.inst_config, ref->inst_config, got.clock_type, got.clock_config, got.listed, ref->listed,
			      got.metric, ref->metric, got.table_metric, ref->table_metric, got.pmus, ref->pmus, got.formats,
			      ref->formats, got.events, ref->events, got.table, ref->table, got.unit, ref->unit,
			      got.pfm_config, ref->pfm_config);
		} else {
			/* another error is the allocation failure passed off as something else */
			CHECK(other++ >= 10, "%s: allocation %d failing: %s, not -ENOMEM", what, n, strerror(-r));
		}
		if (n > 100000) {
			CHECK(0, "%s: more than 100,000 allocations?", what);
			break;
		}
	}
	printf("%s: %d allocations, each failed once: %d crashed, %d ended in -ENOMEM, %d completed with every "
	       "result, %d completed with less, %d reported another error\n", what, n - 1, crashes, enomem, ok, less,
	       other);
	CHECK(!less && !other, "%s: %d runs completed with less, %d reported another error than -ENOMEM", what, less,
	      other);
	return n - 1;
}

#endif

int main(void)
{
#ifdef PMU_SANITIZED
	SKIP("the sanitizer owns the allocator here; the plain and valgrind runs inject allocation failures");
#else
	struct results ref;
	int r = 0, f = 0, made = 0, sig = 0;

	/* libpfm4's "perf" PMU reads every tracepoint of a mounted debugfs at pfm_initialize (as root,
	 * where systemd mounts it: a strdup per tracepoint, 20-30 ms a run; the sweep took 66 s of the 120
	 * allowed instead of 4, and timed out on a loaded machine). The fresh-process scenario encodes a
	 * Nehalem event and needs none of them: libpfm4 leaves that PMU out on every machine alike (its
	 * check of the list allocates too, failures it ignores: 626 runs instead of 245, about 7 s) */
	setenv("LIBPFM_DISABLED_PMUS", "perf", 1);
	if (getenv("PMU_OOM_ONLY")) { /* debugging: as the sweep's child n, in this process */
		int (*fn)(void) = getenv("PMU_OOM_FRESH") ? fresh_scenario : scenario;
		if (!getenv("PMU_OOM_FRESH"))
			scenario();
		armed = 1;
		count = 0;
		nth = atoi(getenv("PMU_OOM_ONLY"));
		printf("allocation %d failing: %d\n", nth, fn());
		return 0;
	}
	/* set-ups done once per process (libpfm4's), each run in a process of its own, the reference too;
	 * first, before this process sets anything up that the children would inherit */
	CHECK(run_child(fresh_scenario, -1, &r, &f, &made, &sig) == 0 && (r == 0 || r == -ENOENT), "the fresh-process "
	      "scenario fails without any injected failure: %d (signal %d)", r, sig);
	ref = got;
	if (r == -ENOENT) { /* -Dlibpfm=disabled */
		printf("fresh process: nhm::INST_RETIRED:ANY_P is unknown without libpfm4: not swept\n");
	} else {
		CHECK(ref.pfm_config == 0xc0, "nhm::INST_RETIRED:ANY_P without failures: 0x%llx, libpfm4's is 0xc0",
		      ref.pfm_config);
		sweep("fresh process", fresh_scenario, &ref);
	}
	/* the scenario works with no failure at all, and its allocations come here */
	armed = 1;
	nth = -1;
	count = 0;
	CHECK(scenario() == 0, "the scenario fails without any injected failure");
	armed = 0;
	ref = got;
	CHECK(ref.listed > 0 && ref.metric > 0, "the scenario without failures listed %d names, metric %g", ref.listed,
	      ref.metric);
	CHECK(ref.table_metric == 1.5, "the scenario without failures: table metrics %g, expected 1.5", ref.table_metric);
	/* the intel-icx fixture's sysfs: 8 PMUs, 14 files in their format/, 22 in events/ besides .unit and
	 * .scale (ls), x86/icelakex for its GenuineIntel-6-6A-6 (events/x86/mapfile.csv), energy-pkg.unit */
	CHECK(ref.pmus == 8 && ref.formats == 14 && ref.events == 22 && !strcmp(ref.table, "x86/icelakex+x86/intel/icelakex") &&
	      !strcmp(ref.table_root, "built-in") && !strcmp(ref.unit, "Joules"), "the fixture without failures: %d "
	      "PMUs, %d formats, %d events, table '%s' from '%s', unit '%s'", ref.pmus, ref.formats, ref.events,
	      ref.table, ref.table_root, ref.unit);
	if (count == 0)
		SKIP("the allocator is replaced by the memory checker (valgrind) here: no allocation reaches this "
		     "program's malloc; the plain run injects the failures");
	CHECK(sweep("scenario", scenario, &ref) > 50, "only a few allocations: is malloc replaced?");
	return test_done("test-oom");
#endif
}
