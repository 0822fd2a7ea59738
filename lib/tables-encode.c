/* SPDX-License-Identifier: MIT */
/* Event tables, encoding: a native entry into perf_event_attr fields on its PMU (the x86 PERF_CTL
 * layout, the PMU's sysfs format files, arm64 and RISC-V event numbers), with its provenance. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "internal.h"
#include "tables.h"
#include "topdown.h"

/* The PMU that counts @e: its Unit's PMU (the one of that name, else the one PMU perf's name for the
 * Unit names here), else the core PMU. NULL when the Unit names no PMU here, or several (*boxes). */
static const struct pmu_dev *entry_pmu(const struct pmu_ctx *ctx, const struct pmu_tentry *e, size_t *boxes)
{
	const struct pmu_dev *d;

	*boxes = 0;
	if (e->unit && *e->unit) {
		if ((d = pmu__pmu_by_name(ctx, e->unit)))
			return d;
		*boxes = pmu__tables_unit_pmus(ctx, e->unit, &d);
		return *boxes == 1 ? d : NULL;
	}
	return pmu__core_pmu(ctx);
}

int pmu__tables_encode(struct pmu_ctx *ctx, const struct pmu_tentry *e, const char *name,
		       struct pmu_event_info *info)
{
	size_t boxes;
	const struct pmu_dev *d = entry_pmu(ctx, e, &boxes);
	/* the layout follows the table's architecture directory, else the CPU's */
	bool x86 = !strncmp(e->dir, "x86/", 4) ||
		   (ctx->cpu.arch == PMU_ARCH_X86 && strncmp(e->dir, "arm64/", 6) && strncmp(e->dir, "riscv/", 6));
	int r;

	if (e->unit && *e->unit && !d && boxes > 1) {
		const struct pmu_dev *first;
		pmu__tables_unit_pmus(ctx, e->unit, &first);
		return pmu__err(ctx, -EINVAL, "event '%s' (%s) is counted by each of the %zu PMUs of Unit %s here (%s, ...; "
				"perf sums them): libpmu counts a table event on one PMU, name one, e.g. %s/%s/", name,
				e->file, boxes, e->unit, first->name, first->name, e->name);
	}
	if (e->unit && *e->unit && !d)
		return pmu__err(ctx, -ENOENT, "event '%s' (%s) is counted by PMU '%s', which this machine does not have",
				name, e->file, e->unit);
	if (!(e->have & (PMU_TF_EVENT | PMU_TF_CONFIG)))
		return pmu__err(ctx, -EINVAL, "event '%s' in %s has no EventCode to encode (ArchStdEvent references "
				"are not supported)", name, e->file);
	{
		char why[200];
		int arch = x86 ? PMU_ARCH_X86 : pmu__tables_dir_arch(e->dir) ? pmu__tables_dir_arch(e->dir) : ctx->cpu.arch;
		if (!pmu__tables_fields_fit(e, arch, why, sizeof(why)))
			return pmu__err(ctx, -EINVAL, "event '%s' in %s: %s; correct the table", name, e->file, why);
	}
	info->type = d ? d->type : PERF_TYPE_RAW;
	pmu__strlcpy(info->pmu, d ? d->name : "cpu", sizeof(info->pmu));
	info->config = info->config1 = info->config2 = info->config3 = 0;
	if (e->have & PMU_TF_CONFIG) {
		info->config = e->config_code;
	} else if (x86 && d && d->n_formats) {
		/* the PMU's own format files say where each field goes */
		char terms[256];
		int n = snprintf(terms, sizeof(terms), "event=0x%llx", (unsigned long long)e->event);
		if (e->have & PMU_TF_UMASK)
			n += snprintf(terms + n, sizeof(terms) - (size_t)n, ",umask=0x%llx", (unsigned long long)e->umask);
		if ((e->have & PMU_TF_CMASK) && e->cmask)
			n += snprintf(terms + n, sizeof(terms) - (size_t)n, ",cmask=0x%llx", (unsigned long long)e->cmask);
		if ((e->have & PMU_TF_INV) && e->inv)
			n += snprintf(terms + n, sizeof(terms) - (size_t)n, ",inv=1");
		if ((e->have & PMU_TF_EDGE) && e->edge)
			n += snprintf(terms + n, sizeof(terms) - (size_t)n, ",edge=1");
		if ((e->have & PMU_TF_ANY) && e->any)
			n += snprintf(terms + n, sizeof(terms) - (size_t)n, ",any=1");
		if ((e->have & PMU_TF_MSR) && e->msr_value) {
			const char *t = e->msr_index == 0x3f6 ? "ldlat" : e->msr_index == 0x3f7 ? "frontend" : "offcore_rsp";
			snprintf(terms + n, sizeof(terms) - (size_t)n, ",%s=0x%llx", t, (unsigned long long)e->msr_value);
		}
		if ((r = pmu__sysfs_encode(ctx, d, terms, name, info, 0)) < 0)
			return r;
	} else if (x86) {
		/* architectural layout (Intel SDM / AMD APM PERF_CTL) */
		info->config = (e->event & 0xff) | ((e->event >> 8) & 0xf) << 32 | (e->umask & 0xff) << 8 |
			       (e->edge & 1) << 18 | (e->any & 1) << 21 | (e->inv & 1) << 23 | (e->cmask & 0xff) << 24;
		if ((e->have & PMU_TF_MSR) && e->msr_value)
			info->config1 = e->msr_value;
	} else {
		/* arm64 and RISC-V: the event number is the raw config */
		info->config = e->event;
	}
	info->source = PMU_SRC_TABLE;
	snprintf(info->origin, sizeof(info->origin), "table %s: %s", e->file, e->name);
	info->desc = e->desc ? e->desc : "";
	info->note = e->notes ? e->notes : "";
	/* a native event is what it is: only a standard name it serves can be approximate (resolve.c) */
	info->approx_note = "";
	if (e->approx && e->kind == PMU_T_STANDARD) {
		info->flags |= PMU_EVF_APPROX;
		info->approx_note = e->approx_note ? e->approx_note : "";
	}
	info->flags |= pmu__topdown_role_flags(e->topdown);
	return 0;
}
