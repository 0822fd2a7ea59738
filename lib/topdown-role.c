/* SPDX-License-Identifier: MIT */
/* Topdown, the roles: the one table saying which events are Intel's SLOTS event and which the
 * PERF_METRICS pseudo-events — by encoding, by a table's TopdownRole, by sysfs and by standard
 * name. Depends on the PMU list only (sysfs.c), so the table code and the resolver can use it. */
#include <stdbool.h>
#include <string.h>
#include <strings.h>
#include "pmu.h"
#include "context.h"
#include "cpu.h"
#include "sysfs.h"
#include "topdown.h"

const struct pmu_td_role pmu__td_roles[PMU_TD_ROLES] = {
	{ "slots", "slots", "TOPDOWN.SLOTS" },
	{ "retiring", "topdown-retiring", "TOPDOWN.RETIRING.SLOTS" },
	{ "bad-spec", "topdown-bad-spec", "TOPDOWN.BAD_SPECULATION.SLOTS" },
	{ "fe-bound", "topdown-fe-bound", "TOPDOWN.FRONTEND_BOUND.SLOTS" },
	{ "be-bound", "topdown-be-bound", "TOPDOWN.BACKEND_BOUND.SLOTS" },
	{ "heavy-ops", "topdown-heavy-ops", "TOPDOWN.RETIRING.HEAVY_OPS.SLOTS" },
	{ "br-mispredict", "topdown-br-mispredict", "TOPDOWN.BAD_SPECULATION.CONTROL_FLOW.SLOTS" },
	{ "fetch-lat", "topdown-fetch-lat", "TOPDOWN.FRONTEND_BOUND.LATENCY.SLOTS" },
	{ "mem-bound", "topdown-mem-bound", "TOPDOWN.BACKEND_BOUND.MEMORY.SLOTS" },
};
/* The encodings (Intel SDM: the fixed SLOTS counter as event 0x00 umask 0x04; the metric
 * pseudo-events event 0x00, umask 0x80 + field) */
#define TD_SLOTS_UMASK 0x04
#define TD_METRIC_UMASK 0x80

int pmu__topdown_role(const struct pmu_event_info *e)
{
	if (e->flags & PMU_EVF_TOPDOWN_SLOTS)
		return 0;
	if (e->flags & PMU_EVF_TOPDOWN_METRIC) {
		unsigned umask = (unsigned)(e->config >> 8) & 0xff;
		return pmu__topdown_metric_code(0, umask) ? (int)(umask - TD_METRIC_UMASK) + 1 : -1;
	}
	for (size_t i = 0; i < PMU_TD_ROLES; i++) {
		size_t l = strlen(pmu__td_roles[i].std);
		if (!strncasecmp(e->name, pmu__td_roles[i].std, l) && (e->name[l] == 0 || e->name[l] == ':'))
			return (int)i;
	}
	return -1;
}

bool pmu__topdown_metric_code(uint64_t event, uint64_t umask)
{
	return event == 0 && umask >= TD_METRIC_UMASK && umask < TD_METRIC_UMASK + PMU_TD_ROLES - 1;
}

void pmu__topdown_mark(const struct pmu_ctx *ctx, struct pmu_event_info *info)
{
	const struct pmu_dev *d = pmu__pmu_by_type(ctx, info->type);
	uint64_t ev = info->config & 0xff, umask = (info->config >> 8) & 0xff;

	if (ctx->cpu.arch != PMU_ARCH_X86 || !d || !d->is_core || !pmu__pmu_by_name(ctx, d->name))
		return;
	if (strcmp(ctx->cpu.vendor, "GenuineIntel") != 0)
		return;
	/* by the final encoding, not the table entry's role: a modifier may have changed it (slots:u131 is
	 * umask 0x83, PERF_METRICS' backend-bound field, not SLOTS) */
	info->flags &= ~(unsigned)(PMU_EVF_TOPDOWN_SLOTS | PMU_EVF_TOPDOWN_METRIC);
	if (ev == 0 && umask == TD_SLOTS_UMASK)
		info->flags |= PMU_EVF_TOPDOWN_SLOTS;
	else if (pmu__topdown_metric_code(ev, umask))
		info->flags |= PMU_EVF_TOPDOWN_METRIC;
}

unsigned pmu__topdown_role_flags(const char *role)
{
	if (!role)
		return 0;
	if (!strcmp(role, pmu__td_roles[0].role))
		return PMU_EVF_TOPDOWN_SLOTS;
	return strchr(role, '.') ? 0 : PMU_EVF_TOPDOWN_METRIC;
}
