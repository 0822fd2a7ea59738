/* SPDX-License-Identifier: MIT */
/* The kernel's portable events: PERF_TYPE_HARDWARE, PERF_TYPE_SOFTWARE and
 * PERF_TYPE_HW_CACHE, under the names perf uses. */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "internal.h"

static const struct pmu_generic table[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "core clock cycles", "" },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "core clock cycles", "" },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions retired", "" },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES,
	  "cache accesses (usually last-level cache)", "" },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES,
	  "cache misses (usually last-level cache)", "" },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "branch instructions retired", "" },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
	  "branch instructions retired", "" },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "mispredicted branches", "" },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, "bus cycles", "" },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,
	  "cycles the front end delivered no work", "" },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,
	  "cycles the front end delivered no work", "" },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND,
	  "cycles the back end accepted no work", "" },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND,
	  "cycles the back end accepted no work", "" },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES,
	  "reference cycles (constant rate, unaffected by frequency scaling)", "" },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "CPU clock timer", "ns" },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "time the task ran on a CPU", "ns" },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page faults", "" },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page faults", "" },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context switches", "" },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context switches", "" },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS,
	  "moves of the task to another CPU", "" },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "moves of the task to another CPU", "" },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, "page faults served without I/O", "" },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, "page faults that needed I/O", "" },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS, "alignment faults", "" },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS,
	  "instructions emulated by the kernel", "" },
	{ "dummy", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, "counts nothing (placeholder)", "" },
	{ "cgroup-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES, "cgroup switches", "" },
};

struct cache_name {
	const char *name;
	unsigned id;
	const char *desc;
};

static const struct cache_name caches[] = {
	{ "L1-dcache", PERF_COUNT_HW_CACHE_L1D, "level 1 data cache" },
	{ "L1-icache", PERF_COUNT_HW_CACHE_L1I, "level 1 instruction cache" },
	{ "LLC", PERF_COUNT_HW_CACHE_LL, "last-level cache" },
	{ "dTLB", PERF_COUNT_HW_CACHE_DTLB, "data TLB" },
	{ "iTLB", PERF_COUNT_HW_CACHE_ITLB, "instruction TLB" },
	{ "branch", PERF_COUNT_HW_CACHE_BPU, "branch predictor" },
	{ "node", PERF_COUNT_HW_CACHE_NODE, "local memory node" },
};

static const struct cache_name ops[] = {
	{ "load", PERF_COUNT_HW_CACHE_OP_READ, "loads" },
	{ "store", PERF_COUNT_HW_CACHE_OP_WRITE, "stores" },
	{ "prefetch", PERF_COUNT_HW_CACHE_OP_PREFETCH, "prefetches" },
};

/* The cache events: every cache with every operation, accessed or missed (7 x 3 x 2 = 42), in that
 * order; names, descriptions and encodings made once (pthread_once), looked up by every resolution
 * of a name that is not a table event. */
#define N_CACHE_EVENTS (ARRAY_SIZE(caches) * ARRAY_SIZE(ops) * 2)
static struct pmu_generic cache_events[N_CACHE_EVENTS];
static char cache_names[N_CACHE_EVENTS][32];  /* the longest: "L1-icache-prefetch-misses" */
static char cache_descs[N_CACHE_EVENTS][64];
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

/* @a @sep @b @c into @dst of @len bytes (cut short if it does not fit); not snprintf: 84 of them cost
 * ~95,000 instructions, a tenth of a first context's */
static void join(char *dst, size_t len, const char *a, const char *sep, const char *b, const char *c)
{
	const char *parts[4] = { a, sep, b, c };
	size_t o = 0;

	for (size_t i = 0; i < 4 && o + 1 < len; i++) {
		pmu__strlcpy(dst + o, parts[i], len - o);
		o += strlen(dst + o);
	}
}

static void cache_init(void)
{
	size_t k = 0;

	for (size_t c = 0; c < ARRAY_SIZE(caches); c++)
		for (size_t o = 0; o < ARRAY_SIZE(ops); o++)
			for (int miss = 0; miss < 2; miss++, k++) {
				struct pmu_generic *g = &cache_events[k];
				join(cache_names[k], sizeof(cache_names[k]), caches[c].name, "-", ops[o].name,
				     miss ? "-misses" : o == 2 ? "es" : "s"); /* loads, stores, prefetches */
				join(cache_descs[k], sizeof(cache_descs[k]), caches[c].desc, " ", ops[o].desc,
				     miss ? " that missed" : "");
				g->name = cache_names[k];
				g->type = PERF_TYPE_HW_CACHE;
				g->config = caches[c].id | ops[o].id << 8 |
					    (uint64_t)(miss ? PERF_COUNT_HW_CACHE_RESULT_MISS
							    : PERF_COUNT_HW_CACHE_RESULT_ACCESS) << 16;
				g->desc = cache_descs[k];
				g->unit = "";
			}
}

int pmu__generic_lookup(const char *name, struct pmu_generic *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		if (!strcasecmp(table[i].name, name)) {
			*out = table[i];
			return 0;
		}
	pthread_once(&cache_once, cache_init);
	for (size_t k = 0; k < N_CACHE_EVENTS; k++)
		if (!strcasecmp(cache_names[k], name)) {
			*out = cache_events[k];
			out->name = NULL; /* caller keeps its own spelling */
			return 0;
		}
	return -ENOENT;
}

int pmu__generic_foreach(int (*cb)(const struct pmu_generic *g, void *data), void *data)
{
	int r;

	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		if ((r = cb(&table[i], data)))
			return r;
	pthread_once(&cache_once, cache_init);
	for (size_t k = 0; k < N_CACHE_EVENTS; k++)
		if ((r = cb(&cache_events[k], data)))
			return r;
	return 0;
}

/*
 * Does core PMU @d have the kernel's generic hardware event @id? Its sysfs
 * events/ says so where the kernel lists them: x86 shows exactly the generic
 * events the CPU maps (arch/x86/events/core.c: EVENT_ATTR names, is_visible()
 * hides an event whose event_map() is 0, and event_init then fails with
 * ENOENT); arm64 lists the architectural events PMCEID says the CPU has,
 * under the names the generic ones map to (drivers/perf/arm_pmuv3.c:
 * armv8_pmuv3_perf_map; branch-instructions is BR_RETIRED, else
 * PC_WRITE_RETIRED; ref-cycles has no mapping). Elsewhere, or for a PMU
 * without events/, nothing says otherwise: true.
 */
bool pmu__generic_hw_on(const struct pmu_ctx *ctx, const struct pmu_dev *d, uint64_t id)
{
	static const char *const x86[] = { "cpu-cycles", "instructions", "cache-references", "cache-misses",
					   "branch-instructions", "branch-misses", "bus-cycles",
					   "stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles" };
	static const char *const arm64[][2] = { { "cpu_cycles" }, { "inst_retired" }, { "l1d_cache" },
						{ "l1d_cache_refill" }, { "br_retired", "pc_write_retired" },
						{ "br_mis_pred" }, { "bus_cycles" }, { "stall_frontend" },
						{ "stall_backend" }, { NULL } };
	const char *want[2] = { NULL, NULL };

	if (!d->n_events || id >= ARRAY_SIZE(x86))
		return true;
	if (ctx->cpu.arch == PMU_ARCH_X86) {
		want[0] = x86[id];
	} else if (ctx->cpu.arch == PMU_ARCH_ARM64) {
		want[0] = arm64[id][0];
		want[1] = arm64[id][1];
		if (!want[0])
			return false;
	} else {
		return true;
	}
	for (size_t i = 0; i < d->n_events; i++)
		for (int k = 0; k < 2; k++)
			if (want[k] && !strcmp(d->events[i].name, want[k]))
				return true;
	return false;
}

/*
 * A kernel generic hardware or cache event counted by core PMU @d. On a
 * hybrid CPU the PMU's type goes into config bits 32-63 (the kernel's
 * "extended type"): without it the kernel gives the event to the first core
 * PMU only (cpu_core), and a thread on the other core type is not counted.
 */
void pmu__generic_on(struct pmu_ctx *ctx, const struct pmu_dev *d, const struct pmu_generic *g,
		     struct pmu_event_info *out)
{
	bool ext = pmu__n_core_pmus(ctx) > 1;

	out->type = g->type;
	out->config = g->config | (ext ? (uint64_t)d->type << 32 : 0);
	out->source = PMU_SRC_GENERIC;
	out->desc = g->desc;
	out->unit = g->unit;
	pmu__strlcpy(out->pmu, d->name, sizeof(out->pmu));
	snprintf(out->origin, sizeof(out->origin), "kernel generic event: %s config 0x%llx on PMU %s%s",
		 g->type == PERF_TYPE_HARDWARE ? "PERF_TYPE_HARDWARE" : "PERF_TYPE_HW_CACHE",
		 (unsigned long long)g->config, d->name, ext ? " (its type in config bits 32-63)" : "");
}
