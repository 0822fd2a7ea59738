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
 * without failures, or -ENOMEM. Machine: the intel-icx fixture (Intel layout,
 * cmask config:24-31). Two scenarios, values by hand below:
 * - built-in: the compiled x86/icelakex tables: l1_miss_split_unaccounted =
 *   MEM_LOAD_RETIRED.L1_MISS - (MEM_LOAD_RETIRED.L2_HIT + MEM_LOAD_RETIRED.L2_MISS),
 *   four metrics named l1_* (three of libpmu's, one of Intel's), MEM_LOAD_RETIRED.L1_MISS/L2_HIT/L2_MISS event 0xd1
 *   umask 0x08/0x02/0x10;
 * - disk: a PMU_EVENTS_PATH directory this program writes (events_path), its
 *   JSON parsed at the load (lib/jsonparse.c; json-c 0.16's tokener crashed when
 *   its allocations failed): a mapfile, DISK.L1_MISS/L2_HIT/L2_MISS and the
 *   metric disk_l1_split over them; the file ends its array with a comma, as
 *   json-c's default parse let tables do: it loads (the strict parse refuses it,
 *   the lax one takes it) and the sweep covers both parses.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pmu.h>
#include "harness.h"
#include "oom-inject.h"

#define NSTEPS 8
#define METRIC "l1_miss_split_unaccounted"
/* each step's result: 0 and the value, or its error */
struct results {
	int rc[NSTEPS];
	double val[NSTEPS];
};
struct scenario {
	const char *name;
	int nsteps;
	const char *const *step_names;
	const double *want; /* the values worked out by hand from the table and the fixture */
	void (*run)(struct results *out);
};
static const char *const builtin_steps[] __attribute__((unused)) = {
	"pmu_metric_info(" METRIC ")", "pmu_metric_eval(" METRIC ")", "pmu_metric_events(" METRIC ")",
	"resolve MEM_LOAD_RETIRED.L1_MISS:c1", "resolve cpu/MEM_LOAD_RETIRED.L2_HIT,cmask=2/",
	"resolve MEM_LOAD_RETIRED.L2_MISS", "pmu_event_foreach(l1_)", "has_event(MEM_LOAD_RETIRED.L1_MISS)",
};
static const double builtin_want[] __attribute__((unused)) = {
	1,                          /* the expression as the table writes it */
	100 - (60 + 30),            /* L1_MISS 100, L2_HIT 60, L2_MISS 30 */
	24 + 1 + 23 + 1 + 24,      /* strlen of the three names, comma-separated */
	0xd1 | 0x08 << 8 | 1u << 24,
	0xd1 | 0x02 << 8 | 2u << 24,
	0xd1 | 0x10 << 8,
	4,                          /* l1_miss_split_unaccounted l1_load_miss_rate l1_load_hit_rate (libpmu's),
				     * l1_i_code_read_misses_with_prefetches_per_instr (Intel's metrics) */
	1,
};
/* the disk table: escapes in a description (a quote, \u00e9, a surrogate pair), numbers as strings and as
 * JSON numbers, a comma before the closing ']' */
static const char disk_json[] =
	"[\n"
	" {\"EventName\": \"DISK.L1_MISS\", \"EventCode\": \"0xd1\", \"UMask\": \"0x8\", \"CounterMask\": \"1\",\n"
	"  \"BriefDescription\": \"L1 misses, \\\"quoted\\\", caf\\u00e9 \\ud83d\\ude00\", \"SampleAfterValue\": 100003},\n"
	" {\"EventName\": \"DISK.L2_HIT\", \"EventCode\": \"0xd1\", \"UMask\": \"0x2\", \"BriefDescription\": \"L2 hits\"},\n"
	" {\"EventName\": \"DISK.L2_MISS\", \"EventCode\": 209, \"UMask\": 16, \"BriefDescription\": \"L2 misses\"},\n"
	" {\"MetricName\": \"disk_l1_split\", \"MetricExpr\": \"DISK.L1_MISS - (DISK.L2_HIT + DISK.L2_MISS)\",\n"
	"  \"BriefDescription\": \"L1 misses neither L2 hits nor misses\", \"MetricGroup\": \"disk\", \"ScaleUnit\": \"1e0\"},\n"
	"]\n";
static const char *const disk_steps[] __attribute__((unused)) = {
	"pmu_metric_info(disk_l1_split)", "pmu_metric_eval(disk_l1_split)", "resolve DISK.L1_MISS",
	"DISK.L1_MISS's description", "resolve DISK.L2_MISS", "pmu_event_foreach(DISK.)",
};
static const double disk_want[] __attribute__((unused)) = {
	1,                          /* the expression as the table writes it */
	100 - (60 + 30),
	0xd1 | 0x08 << 8 | 1u << 24,
	1,                          /* L1 misses, "quoted", caf\u00e9 \U0001F600 */
	0xd1 | 0x10 << 8,           /* 209 and 16 as JSON numbers */
	3,
};

#ifndef PMU_SANITIZED
static char sys[1024], proc[1024], disk[1024];

static int count_entry(const struct pmu_event_entry *e, void *data)
{
	if (e->kind == PMU_ENTRY_METRIC)
		(*(int *)data)++;
	return 0;
}

static int count_any(const struct pmu_event_entry *e, void *data)
{
	(void)e;
	(*(int *)data)++;
	return 0;
}

/* A context on the fixture (@events_path: NULL or the disk tables), made with no failure injected: the
 * sweep covers the table load and the steps (a failure inside pmu_ctx_new is test-oom's). */
static int fixture_ctx(struct pmu_ctx **ctx, const char *events_path)
{
	struct pmu_ctx_opts o;
	int was = armed, r;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.sysfs_root = sys;
	o.procfs_root = proc;
	o.cpuid = "GenuineIntel-6-6A-6";
	o.events_path = events_path;
	armed = 0;
	r = pmu_ctx_new(ctx, &o);
	armed = was;
	return r;
}

static void builtin_run(struct results *out)
{
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
	if ((r = fixture_ctx(&ctx, NULL)) < 0) {
		for (int i = 0; i < NSTEPS; i++)
			out->rc[i] = r;
		return;
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

static void disk_run(struct results *out)
{
	struct pmu_ctx *ctx = NULL;
	struct pmu_event_info e;
	struct pmu_metric_info mi;
	const struct pmu_named_value v[] = { { "DISK.L1_MISS", 100 }, { "DISK.L2_HIT", 60 }, { "DISK.L2_MISS", 30 } };
	int r, n = 0;

	for (int i = 0; i < NSTEPS; i++)
		out->rc[i] = -EPROTO;
	if ((r = fixture_ctx(&ctx, disk)) < 0) {
		for (int i = 0; i < NSTEPS; i++)
			out->rc[i] = r;
		return;
	}
	r = pmu_metric_info(ctx, "disk_l1_split", &mi);
	out->rc[0] = r;
	out->val[0] = r == 0 && !strcmp(mi.expr, "DISK.L1_MISS - (DISK.L2_HIT + DISK.L2_MISS)") ? 1 : -1;
	out->rc[1] = pmu_metric_eval(ctx, "disk_l1_split", v, 3, &out->val[1]);
	memset(&e, 0, sizeof(e));
	out->rc[2] = out->rc[3] = pmu_event_resolve(ctx, "DISK.L1_MISS", &e);
	out->val[2] = (double)e.config;
	out->val[3] = e.desc && !strcmp(e.desc, "L1 misses, \"quoted\", caf\xc3\xa9 \xf0\x9f\x98\x80") ? 1 : -1;
	memset(&e, 0, sizeof(e));
	out->rc[4] = pmu_event_resolve(ctx, "DISK.L2_MISS", &e);
	out->val[4] = (double)e.config;
	r = pmu_event_foreach(ctx, "DISK.", count_any, &n);
	out->rc[5] = r < 0 ? r : 0;
	out->val[5] = n;
	pmu_ctx_free(ctx);
}

/* @sc once as it is (checked against the values by hand), then once with allocation n failing, for every
 * n until a run completes without a failure injected. */
static void sweep(const struct scenario *sc)
{
	struct results ref;
	int n, enomem = 0, ok = 0;

	armed = 1;
	nth = -1;
	count = 0;
	sc->run(&ref);
	armed = 0;
	for (int i = 0; i < sc->nsteps; i++)
		CHECK(ref.rc[i] == 0 && fabs(ref.val[i] - sc->want[i]) < 1e-9, "%s, without failures: %s: %d (%s), %g, "
		      "by hand %g", sc->name, sc->step_names[i], ref.rc[i], ref.rc[i] ? strerror(-ref.rc[i]) : "ok",
		      ref.val[i], sc->want[i]);
	if (count == 0)
		SKIP("the allocator is replaced by the memory checker (valgrind) here: no allocation reaches this "
		     "program's malloc; the plain run injects the failures");
	for (n = 1;; n++) {
		int st = 0, pipefd[2], f = 0;
		struct results got;
		char rbuf[16 + sizeof(struct results)];
		pid_t pid;
		if (pipe(pipefd) != 0)
			exit(1);
		fflush(stdout);
		if ((pid = fork()) == 0) {
			close(pipefd[0]);
			armed = 1;
			nth = n;
			count = 0;
			sc->run(&got);
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
			CHECK(0, "%s, allocation %d failing: the child died (%s)", sc->name, n,
			      WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) : "no result");
			continue;
		}
		close(pipefd[0]);
		sscanf(rbuf, "%d", &f);
		if (!f)
			break; /* past the last allocation */
		memcpy(&got, rbuf + 16, sizeof(got));
		for (int i = 0; i < sc->nsteps; i++) {
			if (got.rc[i] == -ENOMEM) {
				enomem++;
				continue;
			}
			if (got.rc[i] == 0 && fabs(got.val[i] - sc->want[i]) < 1e-9) {
				ok++;
				continue;
			}
			CHECK(0, "%s, allocation %d failing: %s: %d (%s), value %g, by hand %g: the failure passed off as "
			      "something else", sc->name, n, sc->step_names[i], got.rc[i],
			      got.rc[i] ? strerror(-got.rc[i]) : "ok", got.val[i], sc->want[i]);
		}
	}
	printf("%s: %d allocations failed one at a time: %d steps -ENOMEM, %d as without failures\n", sc->name,
	       n - 1, enomem, ok);
	CHECK(n > 10 && enomem > 0, "%s: only %d allocations, %d -ENOMEM", sc->name, n - 1, enomem);
}
#endif

int main(void)
{
#ifdef PMU_SANITIZED
	SKIP("the sanitizer owns the allocator here; the plain run injects the allocation failures");
#else
	static const struct scenario scenarios[] = {
		{ "built-in", 8, builtin_steps, builtin_want, builtin_run },
		{ "disk", 6, disk_steps, disk_want, disk_run },
	};
	const char *src = getenv("PMU_TEST_SRCDIR");
	char tmpl[] = "/tmp/pmu-oom-tables-XXXXXX", path[1200];
	FILE *f;

	snprintf(sys, sizeof(sys), "%s/tests/fixtures/intel-icx/sys", src ? src : ".");
	snprintf(proc, sizeof(proc), "%s/tests/fixtures/intel-icx/proc", src ? src : ".");
	if (!mkdtemp(tmpl))
		return 1;
	snprintf(disk, sizeof(disk), "%s", tmpl);
	snprintf(path, sizeof(path), "%s/mapfile.csv", disk);
	if (!(f = fopen(path, "w")) || fputs("Family-model,Version,Filename,EventType\nGenuineIntel-6-6A-[0-9],v1,"
					     "disk,core\n", f) < 0 || fclose(f) != 0)
		return 1;
	snprintf(path, sizeof(path), "%s/disk", disk);
	if (mkdir(path, 0700) != 0)
		return 1;
	snprintf(path, sizeof(path), "%s/disk/cache.json", disk);
	if (!(f = fopen(path, "w")) || fputs(disk_json, f) < 0 || fclose(f) != 0)
		return 1;
	if (getenv("PMU_OOM_ONLY")) { /* debugging: as the sweep's child n, in this process */
		for (size_t s = 0; s < sizeof(scenarios) / sizeof(scenarios[0]); s++) {
			struct results got;
			armed = 1;
			count = 0;
			nth = atoi(getenv("PMU_OOM_ONLY"));
			scenarios[s].run(&got);
			armed = 0;
			for (int i = 0; i < scenarios[s].nsteps; i++)
				printf("%s: %s: %d %g\n", scenarios[s].name, scenarios[s].step_names[i], got.rc[i], got.val[i]);
		}
	} else {
		for (size_t s = 0; s < sizeof(scenarios) / sizeof(scenarios[0]); s++)
			sweep(&scenarios[s]);
	}
	unlink(path);
	snprintf(path, sizeof(path), "%s/disk", disk);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/mapfile.csv", disk);
	unlink(path);
	rmdir(disk);
	return test_done("test-oom-tables");
#endif
}
