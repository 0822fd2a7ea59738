/* SPDX-License-Identifier: MIT */
/* The kernel's portable events: PERF_TYPE_HARDWARE, PERF_TYPE_SOFTWARE and
 * PERF_TYPE_HW_CACHE, under the names perf uses. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "pmu.h"
#include "generic.h"
#include "common.h"
#include "context.h"
#include "cpu.h"
#include "generic-native.h"
#include "sysfs.h"
#include "util.h"

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

/*
 * The cache events: every cache with every operation, accessed or missed (7 x 3 x 2 = 42), in that
 * order, under perf's names ("L1-dcache-load-misses", "...-prefetches"). Constant data, names and
 * descriptions joined by the compiler: a first use writes nothing (made at run time, they were 5.7 KB
 * of two pages first written by a first context that names one).
 */
#define CACHE_CONFIG(cache, op, result) ((uint64_t)(cache) | (uint64_t)(op) << 8 | (uint64_t)(result) << 16)
#define CACHE_RESULTS(c, cdesc, cache, o, odesc, op, plural)                                                  \
	{ c "-" o plural, PERF_TYPE_HW_CACHE, CACHE_CONFIG(cache, op, PERF_COUNT_HW_CACHE_RESULT_ACCESS),     \
	  cdesc " " odesc, "" },                                                                              \
	{ c "-" o "-misses", PERF_TYPE_HW_CACHE, CACHE_CONFIG(cache, op, PERF_COUNT_HW_CACHE_RESULT_MISS),    \
	  cdesc " " odesc " that missed", "" }
#define CACHE_OPS(c, cdesc, cache)                                                                          \
	CACHE_RESULTS(c, cdesc, cache, "load", "loads", PERF_COUNT_HW_CACHE_OP_READ, "s"),                    \
	CACHE_RESULTS(c, cdesc, cache, "store", "stores", PERF_COUNT_HW_CACHE_OP_WRITE, "s"),                 \
	CACHE_RESULTS(c, cdesc, cache, "prefetch", "prefetches", PERF_COUNT_HW_CACHE_OP_PREFETCH, "es")

static const struct pmu_generic cache_events[] = {
	CACHE_OPS("L1-dcache", "level 1 data cache", PERF_COUNT_HW_CACHE_L1D),
	CACHE_OPS("L1-icache", "level 1 instruction cache", PERF_COUNT_HW_CACHE_L1I),
	CACHE_OPS("LLC", "last-level cache", PERF_COUNT_HW_CACHE_LL),
	CACHE_OPS("dTLB", "data TLB", PERF_COUNT_HW_CACHE_DTLB),
	CACHE_OPS("iTLB", "instruction TLB", PERF_COUNT_HW_CACHE_ITLB),
	CACHE_OPS("branch", "branch predictor", PERF_COUNT_HW_CACHE_BPU),
	CACHE_OPS("node", "local memory node", PERF_COUNT_HW_CACHE_NODE),
};

/*
 * perf's other spellings of a cache event (tools/perf/util/evsel.c's evsel__hw_cache, _op and _result;
 * parse-events.c's parse_events__decode_legacy_cache): a cache, then an operation, a result, or both in
 * either order, each one of its aliases (any case) and joined by '-'; without an operation, loads;
 * without a result, accesses. "l1d-load-misses" is L1-dcache-load-misses, "L1-icache-misses"
 * L1-icache-load-misses. Returns the index of that event in cache_events (cache x 6 + operation x 2 +
 * result: their order), or -1.
 */
static int cache_alias(const char *name)
{
	static const char *const caches[][5] = {
		{ "L1-dcache", "l1-d", "l1d", "L1-data" }, { "L1-icache", "l1-i", "l1i", "L1-instruction" },
		{ "LLC", "L2" }, { "dTLB", "d-tlb", "Data-TLB" }, { "iTLB", "i-tlb", "Instruction-TLB" },
		{ "branch", "branches", "bpu", "btb", "bpc" }, { "node" },
	};
	static const char *const ops[][5] = {
		{ "load", "loads", "read" }, { "store", "stores", "write" },
		{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
	};
	static const char *const results[][5] = { { "refs", "Reference", "ops", "access" }, { "misses", "miss" } };
	int cache = -1, op = -1, result = -1;
	size_t at = 0;

	/* the longest alias of one of @n rows @v that @name has at @at, followed by '-' or its end: its row */
#define ALIAS(v, n)                                                                                        \
	({                                                                                                 \
		int row_ = -1;                                                                             \
		size_t best_ = 0;                                                                          \
		for (size_t i_ = 0; i_ < (n); i_++)                                                        \
			for (size_t j_ = 0; j_ < 5 && (v)[i_][j_]; j_++) {                                 \
				size_t l_ = strlen((v)[i_][j_]);                                            \
				if (l_ > best_ && !strncasecmp(name + at, (v)[i_][j_], l_) &&               \
				    (name[at + l_] == '-' || !name[at + l_])) {                             \
					best_ = l_;                                                          \
					row_ = (int)i_;                                                      \
				}                                                                            \
			}                                                                                  \
		at += best_ + (name[at + best_] == '-');                                                   \
		row_;                                                                                      \
	})
	if ((cache = ALIAS(caches, ARRAY_SIZE(caches))) < 0)
		return -1;
	for (int part = 0; part < 2 && name[at]; part++) {
		int k;
		if (op < 0 && (k = ALIAS(ops, ARRAY_SIZE(ops))) >= 0)
			op = k;
		else if (result < 0 && (k = ALIAS(results, ARRAY_SIZE(results))) >= 0)
			result = k;
		else
			return -1;
	}
#undef ALIAS
	if (name[at] || name[at - 1] == '-')
		return -1;
	return cache * 6 + (op < 0 ? 0 : op) * 2 + (result < 0 ? 0 : result);
}

int pmu__generic_lookup(const char *name, struct pmu_generic *out)
{
	int idx;

	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		if (!strcasecmp(table[i].name, name)) {
			*out = table[i];
			return 0;
		}
	for (size_t k = 0; k < ARRAY_SIZE(cache_events); k++)
		if (!strcasecmp(cache_events[k].name, name)) {
			*out = cache_events[k];
			out->name = NULL; /* caller keeps its own spelling */
			return 0;
		}
	if ((idx = cache_alias(name)) >= 0) {
		*out = cache_events[idx];
		out->name = NULL;
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
	for (size_t k = 0; k < ARRAY_SIZE(cache_events); k++)
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
 * machine of several core PMUs it is placed on @d (pmu__generic_place): the
 * PMU's type in config bits 32-63 (the kernel's "extended type"; without it
 * the kernel gives the event to one core PMU only, and a thread on another
 * core type is not counted), or @d's own event where the kernel takes no
 * extended type.
 */
int pmu__generic_on(struct pmu_ctx *ctx, const struct pmu_dev *d, const struct pmu_generic *g,
		    struct pmu_event_info *out)
{
	bool several = pmu__n_core_pmus(ctx) > 1;

	out->type = g->type;
	out->config = g->config;
	out->source = PMU_SRC_GENERIC;
	out->desc = g->desc;
	out->unit = g->unit;
	pmu__strlcpy(out->pmu, d->name, sizeof(out->pmu));
	snprintf(out->origin, sizeof(out->origin), "kernel generic event: %s config 0x%llx on PMU %s%s",
		 g->type == PERF_TYPE_HARDWARE ? "PERF_TYPE_HARDWARE" : "PERF_TYPE_HW_CACHE",
		 (unsigned long long)g->config, d->name,
		 several && (ctx->cpu.arch != PMU_ARCH_ARM64 || pmu__ext_type_ok(ctx, d)) ?
			 " (its type in config bits 32-63)" : "");
	return several ? pmu__generic_place(ctx, d, out) : 0;
}
