/* SPDX-License-Identifier: MIT */
/* A kernel generic event (cycles, instructions, L1-dcache-load-misses) placed on one core PMU of a
 * machine with several: the PMU's type in config bits 32-63 where the kernel takes it, else the
 * PMU's own event for it, numbered as the kernel's driver maps it (arm64 PMUv3). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "pmu.h"
#include "generic-native.h"
#include "common.h"
#include "context.h"
#include "cpu.h"
#include "error.h"
#include "sysfs.h"
#include "util.h"

#define C(cache, op, result) (PERF_COUNT_HW_CACHE_##cache | PERF_COUNT_HW_CACHE_OP_##op << 8 | \
			      PERF_COUNT_HW_CACHE_RESULT_##result << 16)

/* An arm64 event: its number, and the name the kernel lists it under in a PMU's events/ when the
 * CPU has it (PMCEID; NULL: an implementation-defined event, not listed by name). */
struct arm64_event {
	uint64_t config;        /* PERF_COUNT_HW_* or a cache config (C()) */
	uint16_t number;
	const char *listed;
};

/* drivers/perf/arm_pmuv3.c (Linux 6.12): armv8_pmuv3_perf_map and armv8_pmuv3_perf_cache_map, the
 * common events; branch-instructions apart (BR_RETIRED, else PC_WRITE_RETIRED: arm64_event()). */
static const struct arm64_event common_hw[] = {
	{ PERF_COUNT_HW_CPU_CYCLES, 0x11, "cpu_cycles" },
	{ PERF_COUNT_HW_INSTRUCTIONS, 0x08, "inst_retired" },
	{ PERF_COUNT_HW_CACHE_REFERENCES, 0x04, "l1d_cache" },
	{ PERF_COUNT_HW_CACHE_MISSES, 0x03, "l1d_cache_refill" },
	{ PERF_COUNT_HW_BRANCH_MISSES, 0x10, "br_mis_pred" },
	{ PERF_COUNT_HW_BUS_CYCLES, 0x1d, "bus_cycles" },
	{ PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 0x23, "stall_frontend" },
	{ PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 0x24, "stall_backend" },
};
static const struct arm64_event common_cache[] = {
	{ C(L1D, READ, ACCESS), 0x04, "l1d_cache" },
	{ C(L1D, READ, MISS), 0x03, "l1d_cache_refill" },
	{ C(L1I, READ, ACCESS), 0x14, "l1i_cache" },
	{ C(L1I, READ, MISS), 0x01, "l1i_cache_refill" },
	{ C(DTLB, READ, MISS), 0x05, "l1d_tlb_refill" },
	{ C(DTLB, READ, ACCESS), 0x25, "l1d_tlb" },
	{ C(ITLB, READ, MISS), 0x02, "l1i_tlb_refill" },
	{ C(ITLB, READ, ACCESS), 0x26, "l1i_tlb" },
	{ C(LL, READ, MISS), 0x37, "ll_cache_miss_rd" },
	{ C(LL, READ, ACCESS), 0x36, "ll_cache_rd" },
	{ C(BPU, READ, ACCESS), 0x12, "br_pred" },
	{ C(BPU, READ, MISS), 0x10, "br_mis_pred" },
};

/* The same file's cache maps of particular cores, used where the common map has no event the CPU
 * has (implementation-defined numbers 0x40-0x61, and the cores' own above 0xc0). */
static const struct arm64_event a53_cache[] = {
	{ C(L1D, PREFETCH, MISS), 0xc2, NULL },
	{ C(NODE, READ, ACCESS), 0x60, NULL },
	{ C(NODE, WRITE, ACCESS), 0x61, NULL },
};
static const struct arm64_event a57_cache[] = {
	{ C(L1D, READ, ACCESS), 0x40, NULL },
	{ C(L1D, READ, MISS), 0x42, NULL },
	{ C(L1D, WRITE, ACCESS), 0x41, NULL },
	{ C(L1D, WRITE, MISS), 0x43, NULL },
	{ C(DTLB, READ, MISS), 0x4c, NULL },
	{ C(DTLB, WRITE, MISS), 0x4d, NULL },
	{ C(NODE, READ, ACCESS), 0x60, NULL },
	{ C(NODE, WRITE, ACCESS), 0x61, NULL },
};
static const struct arm64_event a73_cache[] = {
	{ C(L1D, READ, ACCESS), 0x40, NULL },
	{ C(L1D, WRITE, ACCESS), 0x41, NULL },
};
static const struct arm64_event thunder_cache[] = {
	{ C(L1D, READ, ACCESS), 0x40, NULL },
	{ C(L1D, READ, MISS), 0x42, NULL },
	{ C(L1D, WRITE, ACCESS), 0x41, NULL },
	{ C(L1D, WRITE, MISS), 0xe9, NULL },
	{ C(L1D, PREFETCH, ACCESS), 0xea, NULL },
	{ C(L1D, PREFETCH, MISS), 0xeb, NULL },
	{ C(L1I, PREFETCH, ACCESS), 0xec, NULL },
	{ C(L1I, PREFETCH, MISS), 0xed, NULL },
	{ C(DTLB, READ, ACCESS), 0x4e, NULL },
	{ C(DTLB, READ, MISS), 0x4c, NULL },
	{ C(DTLB, WRITE, ACCESS), 0x4f, NULL },
	{ C(DTLB, WRITE, MISS), 0x4d, NULL },
};
static const struct arm64_event vulcan_cache[] = {
	{ C(L1D, READ, ACCESS), 0x40, NULL },
	{ C(L1D, READ, MISS), 0x42, NULL },
	{ C(L1D, WRITE, ACCESS), 0x41, NULL },
	{ C(L1D, WRITE, MISS), 0x43, NULL },
	{ C(DTLB, READ, ACCESS), 0x4e, NULL },
	{ C(DTLB, WRITE, ACCESS), 0x4f, NULL },
	{ C(DTLB, READ, MISS), 0x4c, NULL },
	{ C(DTLB, WRITE, MISS), 0x4d, NULL },
	{ C(NODE, READ, ACCESS), 0x60, NULL },
	{ C(NODE, WRITE, ACCESS), 0x61, NULL },
};

/* The cores whose driver has a cache map of its own, by the PMU name it registers (PMUV3_INIT_MAP_EVENT). */
static const struct {
	const char *pmu;
	const struct arm64_event *map;
	size_t n;
} core_cache[] = {
	{ "armv8_cortex_a35", a53_cache, ARRAY_SIZE(a53_cache) },
	{ "armv8_cortex_a53", a53_cache, ARRAY_SIZE(a53_cache) },
	{ "armv8_cortex_a57", a57_cache, ARRAY_SIZE(a57_cache) },
	{ "armv8_cortex_a72", a57_cache, ARRAY_SIZE(a57_cache) },
	{ "armv8_cortex_a73", a73_cache, ARRAY_SIZE(a73_cache) },
	{ "armv8_cavium_thunder", thunder_cache, ARRAY_SIZE(thunder_cache) },
	{ "armv8_brcm_vulcan", vulcan_cache, ARRAY_SIZE(vulcan_cache) },
};

/* Does the CPU of @d have common event @name? Its events/ lists exactly those PMCEID says it has
 * (armv8pmu_event_attr_is_visible); a PMU without events/ says nothing: yes. */
static bool has_common(const struct pmu_dev *d, const char *name)
{
	if (!d->n_events)
		return true;
	for (size_t i = 0; i < d->n_events; i++)
		if (!strcmp(d->events[i].name, name))
			return true;
	return false;
}

static const struct arm64_event *find(const struct arm64_event *map, size_t n, uint64_t config)
{
	for (size_t i = 0; i < n; i++)
		if (map[i].config == config)
			return &map[i];
	return NULL;
}

/* The name of a PMU without the instance suffix the kernel adds to a second PMU of one core type
 * ("armv8_cortex_a53_0") is the driver's name. */
static bool driver_is(const char *pmu, const char *driver)
{
	size_t l = strlen(driver);
	return !strncmp(pmu, driver, l) && (pmu[l] == 0 || pmu[l] == '_');
}

int pmu__generic_arm64_event(const struct pmu_dev *d, uint32_t type, uint64_t config)
{
	const struct arm64_event *e = NULL;

	if (type == PERF_TYPE_HARDWARE && config == PERF_COUNT_HW_BRANCH_INSTRUCTIONS) {
		/* __armv8_pmuv3_map_event_id: BR_RETIRED where the CPU has it, else PC_WRITE_RETIRED */
		return has_common(d, "br_retired") ? 0x21 : has_common(d, "pc_write_retired") ? 0x0c : -1;
	}
	if (type == PERF_TYPE_HARDWARE)
		e = find(common_hw, ARRAY_SIZE(common_hw), config);
	else if (type == PERF_TYPE_HW_CACHE)
		e = find(common_cache, ARRAY_SIZE(common_cache), config);
	if (e && has_common(d, e->listed))
		return e->number;
	/* the common event is not the CPU's (or there is none): the core's own cache map */
	if (type != PERF_TYPE_HW_CACHE)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(core_cache); i++)
		if (driver_is(d->name, core_cache[i].pmu))
			return (e = find(core_cache[i].map, core_cache[i].n, config)) ? e->number : -1;
	return -1;
}

bool pmu__ext_type_ok(const struct pmu_ctx *ctx, const struct pmu_dev *d)
{
	struct pmu_dev *w = (struct pmu_dev *)d; /* the answer is cached in the shared context */
	struct perf_event_attr a;
	int v = __atomic_load_n(&w->ext_type, __ATOMIC_RELAXED), fd;

	if (ctx->cpu.arch == PMU_ARCH_X86)
		return true;
	if (v != PMU_UNKNOWN)
		return v == 1;
	if (strcmp(ctx->sysfs_root, "/sys")) {
		/* a written tree: the answer of the kernel its procfs states, arm_pmu having the extended type
		 * since v6.6 (commit 5c816728651a "arm_pmu: Add PERF_PMU_CAP_EXTENDED_HW_TYPE capability") */
		v = pmu__kernel_at_least(ctx, 6, 6);
	} else {
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_HARDWARE;
		a.config = PERF_COUNT_HW_CPU_CYCLES | (uint64_t)d->type << 32;
		a.disabled = 1;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		v = fd >= 0;
		if (fd >= 0)
			close(fd);
	}
	__atomic_store_n(&w->ext_type, v, __ATOMIC_RELAXED);
	return v == 1;
}

int pmu__generic_place(struct pmu_ctx *ctx, const struct pmu_dev *d, struct pmu_event_info *out)
{
	uint64_t id = out->config & 0xffffffffu;
	int number;

	pmu__strlcpy(out->pmu, d->name, sizeof(out->pmu));
	if (ctx->cpu.arch != PMU_ARCH_ARM64 || pmu__ext_type_ok(ctx, d)) {
		out->config = id | (uint64_t)d->type << 32;
		return 0;
	}
	if ((number = pmu__generic_arm64_event(d, out->type, id)) < 0)
		return pmu__err(ctx, -ENOENT, "the %s PMU has no event for the kernel generic %s event 0x%llx%s%s%s "
				"(its driver maps none that this CPU has)", d->name, out->type == PERF_TYPE_HARDWARE ?
				"hardware" : "cache", (unsigned long long)id, out->name[0] ? " ('" : "", out->name,
				out->name[0] ? "')" : "");
	{
		size_t o = strlen(out->origin);
		snprintf(out->origin + o, sizeof(out->origin) - o,
			 "; this kernel takes no PMU type in config bits 32-63 on %s: counted as its event 0x%x, "
			 "as its driver maps it", d->name, number);
	}
	out->type = d->type;
	out->config = (uint64_t)number;
	return 0;
}
