/* SPDX-License-Identifier: MIT */
/*
 * The kernel's generic events under perf's names, resolved through the
 * public API on this machine's context: each name's attr.type and config
 * equal what the kernel ABI (linux/perf_event.h) defines for it, written
 * out here by hand, not taken from libpmu. The 42 cache events: config =
 * cache id | (operation << 8) | (result << 16) (perf_event_open(2),
 * PERF_TYPE_HW_CACHE), names as perf spells them (tools/perf/util/evsel.c:
 * "L1-dcache-load-misses", "...-prefetches"); any case. Near-misses of those
 * names are no cache event. Several threads resolving cache names at once
 * as the first use in the process (a context and its tables made by each)
 * agree. Each cache event is described, as a miss exactly when it counts
 * misses.
 */
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>
#include <linux/perf_event.h>
#include <pmu.h>
#include "harness.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define L1D PERF_COUNT_HW_CACHE_L1D
#define L1I PERF_COUNT_HW_CACHE_L1I
#define LL PERF_COUNT_HW_CACHE_LL
#define DTLB PERF_COUNT_HW_CACHE_DTLB
#define ITLB PERF_COUNT_HW_CACHE_ITLB
#define BPU PERF_COUNT_HW_CACHE_BPU
#define NODE PERF_COUNT_HW_CACHE_NODE
#define RD PERF_COUNT_HW_CACHE_OP_READ
#define WR PERF_COUNT_HW_CACHE_OP_WRITE
#define PF PERF_COUNT_HW_CACHE_OP_PREFETCH
#define ACC PERF_COUNT_HW_CACHE_RESULT_ACCESS
#define MISS PERF_COUNT_HW_CACHE_RESULT_MISS

static const struct cache_case {
	const char *name;
	unsigned id, op, result;
} cache_cases[] = {
	{ "L1-dcache-loads", L1D, RD, ACC },        { "L1-dcache-load-misses", L1D, RD, MISS },
	{ "L1-dcache-stores", L1D, WR, ACC },       { "L1-dcache-store-misses", L1D, WR, MISS },
	{ "L1-dcache-prefetches", L1D, PF, ACC },   { "L1-dcache-prefetch-misses", L1D, PF, MISS },
	{ "L1-icache-loads", L1I, RD, ACC },        { "L1-icache-load-misses", L1I, RD, MISS },
	{ "L1-icache-stores", L1I, WR, ACC },       { "L1-icache-store-misses", L1I, WR, MISS },
	{ "L1-icache-prefetches", L1I, PF, ACC },   { "L1-icache-prefetch-misses", L1I, PF, MISS },
	{ "LLC-loads", LL, RD, ACC },               { "LLC-load-misses", LL, RD, MISS },
	{ "LLC-stores", LL, WR, ACC },              { "LLC-store-misses", LL, WR, MISS },
	{ "LLC-prefetches", LL, PF, ACC },          { "LLC-prefetch-misses", LL, PF, MISS },
	{ "dTLB-loads", DTLB, RD, ACC },            { "dTLB-load-misses", DTLB, RD, MISS },
	{ "dTLB-stores", DTLB, WR, ACC },           { "dTLB-store-misses", DTLB, WR, MISS },
	{ "dTLB-prefetches", DTLB, PF, ACC },       { "dTLB-prefetch-misses", DTLB, PF, MISS },
	{ "iTLB-loads", ITLB, RD, ACC },            { "iTLB-load-misses", ITLB, RD, MISS },
	{ "iTLB-stores", ITLB, WR, ACC },           { "iTLB-store-misses", ITLB, WR, MISS },
	{ "iTLB-prefetches", ITLB, PF, ACC },       { "iTLB-prefetch-misses", ITLB, PF, MISS },
	{ "branch-loads", BPU, RD, ACC },           { "branch-load-misses", BPU, RD, MISS },
	{ "branch-stores", BPU, WR, ACC },          { "branch-store-misses", BPU, WR, MISS },
	{ "branch-prefetches", BPU, PF, ACC },      { "branch-prefetch-misses", BPU, PF, MISS },
	{ "node-loads", NODE, RD, ACC },            { "node-load-misses", NODE, RD, MISS },
	{ "node-stores", NODE, WR, ACC },           { "node-store-misses", NODE, WR, MISS },
	{ "node-prefetches", NODE, PF, ACC },       { "node-prefetch-misses", NODE, PF, MISS },
};

static const struct other_case {
	const char *name;
	unsigned type;
	unsigned long long config;
} other_cases[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	{ "cgroup-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES },
};

static unsigned long long cache_config(const struct cache_case *c)
{
	return (unsigned long long)c->id | (unsigned long long)c->op << 8 | (unsigned long long)c->result << 16;
}

/* @name (any spelling of a generic name) resolves to @type:@config, from the kernel's generic events */
static void resolves(struct pmu_ctx *ctx, const char *name, unsigned type, unsigned long long config)
{
	struct pmu_event_info e;
	int r = pmu_event_resolve(ctx, name, &e);

	CHECK(r == 0, "'%s' does not resolve: %s", name, pmu_strerror(r));
	if (r)
		return;
	CHECK(e.type == type && e.config == config, "'%s': %u:0x%llx, the kernel's is %u:0x%llx", name, e.type,
	      (unsigned long long)e.config, type, config);
	CHECK(e.source == PMU_SRC_GENERIC, "'%s': source %d, not the kernel's generic events", name, e.source);
}

/* The same name with every letter's case swapped: "l1-DCACHE-LOADS". */
static void swap_case(const char *in, char *out, size_t len)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < len; i++)
		out[i] = (char)(in[i] >= 'a' && in[i] <= 'z' ? in[i] - 32 : in[i] >= 'A' && in[i] <= 'Z' ? in[i] + 32 : in[i]);
	out[i] = 0;
}

struct worker {
	int bad;
};

static void *resolve_all(void *arg)
{
	struct worker *w = arg;
	struct pmu_ctx *ctx = NULL;

	if (pmu_ctx_new(&ctx, NULL) < 0) {
		w->bad = -1;
		return NULL;
	}
	for (int round = 0; round < 50; round++)
		for (size_t i = 0; i < ARRAY_SIZE(cache_cases); i++) {
			struct pmu_event_info e;
			if (pmu_event_resolve(ctx, cache_cases[i].name, &e) != 0 || e.type != PERF_TYPE_HW_CACHE ||
			    e.config != cache_config(&cache_cases[i]))
				w->bad++;
		}
	pmu_ctx_free(ctx);
	return NULL;
}

static int count_cache(const struct pmu_event_entry *e, void *data)
{
	if (e->source != PMU_SRC_GENERIC)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(cache_cases); i++)
		if (!strcmp(e->name, cache_cases[i].name)) {
			/* described, and as a miss exactly when it counts misses */
			bool miss = cache_cases[i].result == MISS;
			((int *)data)[i]++;
			CHECK(e->desc && *e->desc && !strstr(e->desc, "missed") == !miss,
			      "'%s' is described as '%s'", e->name, e->desc ? e->desc : "(null)");
		}
	return 0;
}

int main(void)
{
	/* near misses perf 6.1 refuses too ("event syntax error"); "L1-dcache-load", "L1-dcache-store-miss",
	 * "LLC-loads-misses", "L1-dcache" and "LLC" were here: perf takes them (its cache aliases, config
	 * 0x0, 0x10100, 0x10002, 0x0, 0x2 by perf stat -vv), and so does libpmu now (test-cache-aliases) */
	static const char *const near[] = { "L1-dcache-loadss", "L1-dcache-prefetchs", "dTLB-load-misses ",
					     "L2-dcache-loads", "node-loads-", "" };
	struct worker w[8] = { 0 };
	pthread_t th[8];
	struct pmu_ctx *ctx;
	int seen[ARRAY_SIZE(cache_cases)] = { 0 };
	char name[64];

	CHECK(ARRAY_SIZE(cache_cases) == 42, "%zu cache events written here, perf has 42", ARRAY_SIZE(cache_cases));
	/* first use in the process from 8 threads at once */
	for (int i = 0; i < 8; i++)
		CHECK(pthread_create(&th[i], NULL, resolve_all, &w[i]) == 0, "thread %d", i);
	for (int i = 0; i < 8; i++) {
		pthread_join(th[i], NULL);
		CHECK(w[i].bad == 0, "thread %d: %d cache names resolved otherwise", i, w[i].bad);
	}

	if (pmu_ctx_new(&ctx, NULL) < 0)
		return 1;
	for (size_t i = 0; i < ARRAY_SIZE(cache_cases); i++) {
		resolves(ctx, cache_cases[i].name, PERF_TYPE_HW_CACHE, cache_config(&cache_cases[i]));
		swap_case(cache_cases[i].name, name, sizeof(name));
		resolves(ctx, name, PERF_TYPE_HW_CACHE, cache_config(&cache_cases[i]));
	}
	for (size_t i = 0; i < ARRAY_SIZE(other_cases); i++) {
		resolves(ctx, other_cases[i].name, other_cases[i].type, other_cases[i].config);
		swap_case(other_cases[i].name, name, sizeof(name));
		resolves(ctx, name, other_cases[i].type, other_cases[i].config);
	}
	for (size_t i = 0; i < ARRAY_SIZE(near); i++) {
		struct pmu_event_info e;
		int r = pmu_event_resolve(ctx, near[i], &e);
		CHECK(r < 0 || e.source != PMU_SRC_GENERIC, "'%s' is no generic event, resolved as %u:0x%llx", near[i],
		      e.type, (unsigned long long)e.config);
	}
	/* the list has each cache event once */
	CHECK(pmu_event_foreach(ctx, NULL, count_cache, seen) >= 42, "pmu_event_foreach");
	for (size_t i = 0; i < ARRAY_SIZE(cache_cases); i++)
		CHECK(seen[i] == 1, "'%s' listed %d times", cache_cases[i].name, seen[i]);
	pmu_ctx_free(ctx);
	return test_done("test-generic");
}
