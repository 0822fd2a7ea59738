/* SPDX-License-Identifier: MIT */
/* Event tables, encoding: a native entry into perf_event_attr fields on its PMU (the x86 PERF_CTL
 * layout, the PMU's sysfs format files, arm64 and RISC-V event numbers), with its provenance. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pmu.h"
#include "common.h"
#include "context.h"
#include "cpu.h"
#include "error.h"
#include "sysfs.h"
#include "tables.h"
#include "topdown.h"
#include "util.h"

/* The architecture a table directory's layout is ("x86", "x86/skylakex", "arm64/..."); 0: unknown
 * (a flat PMU_EVENTS_PATH directory: the encoder checks against the CPU's layout). */
int pmu__tables_dir_arch(const char *dir)
{
	static const struct { const char *name; int arch; } a[] = {
		{ "x86", PMU_ARCH_X86 }, { "arm64", PMU_ARCH_ARM64 }, { "riscv", PMU_ARCH_RISCV },
	};

	for (size_t i = 0; i < ARRAY_SIZE(a); i++) {
		size_t l = strlen(a[i].name);
		if (!strncmp(dir, a[i].name, l) && (dir[l] == '/' || !dir[l]))
			return a[i].arch;
	}
	return 0;
}

/*
 * The widest value each encoding field of a native event holds in the layout of @arch (0: unknown,
 * the widest of the three), so that no bit of a table's number is dropped when encoded. x86 core
 * PMUs (Intel SDM / AMD APM PERF_CTL, and the kernel's cpu format): event bits 0-7 with AMD's
 * extended event bits 8-11 (config 32-35), umask 8 bits, cmask 8 bits, edge, any, inv 1 bit each.
 * arm64 (PMUv3's format): event config:0-15. RISC-V (the SBI PMU's format): event config:0-47.
 * Another PMU's (Unit: an uncore PMU) fields are its sysfs format's, checked when encoding.
 */
static const struct field_limit {
	unsigned bit;
	const char *key;
	uint64_t x86, arm64, riscv;
} field_limits[] = {
	{ PMU_TF_EVENT, "EventCode", 0xfff, 0xffff, 0xffffffffffffull },
	{ PMU_TF_UMASK, "UMask", 0xff, 0xff, 0xff },
	{ PMU_TF_CMASK, "CounterMask", 0xff, 0xff, 0xff },
	{ PMU_TF_INV, "Invert", 1, 1, 1 },
	{ PMU_TF_EDGE, "EdgeDetect", 1, 1, 1 },
	{ PMU_TF_ANY, "AnyThread", 1, 1, 1 },
};

static uint64_t field_value(const struct pmu_tentry *e, unsigned bit)
{
	return bit == PMU_TF_EVENT ? e->event : bit == PMU_TF_UMASK ? e->umask : bit == PMU_TF_CMASK ? e->cmask :
	       bit == PMU_TF_INV ? e->inv : bit == PMU_TF_EDGE ? e->edge : e->any;
}

bool pmu__tables_core_unit(const char *unit)
{
	return !strcasecmp(unit, "cpu") || !strcasecmp(unit, "core") || !strcasecmp(unit, "cpu_core") ||
	       !strcasecmp(unit, "cpu_atom") || !strcasecmp(unit, "armv8_pmuv3") || !strncasecmp(unit, "armv8_", 6);
}

/* Whether a core PMU counts @e (no Unit, or the core PMUs' names): the fixed layouts apply. */
static bool core_unit(const struct pmu_tentry *e)
{
	return !e->unit || pmu__tables_core_unit(e->unit);
}

/* Whether PMU @dev is @base or an instance of it (@base followed by '_' and digits). */
static bool pmu_instance_of(const char *dev, const char *base)
{
	size_t l = strlen(base);

	if (strncasecmp(dev, base, l))
		return false;
	if (!dev[l])
		return true;
	if (dev[l] != '_' || !dev[l + 1])
		return false;
	for (const char *c = dev + l + 1; *c; c++)
		if (!isdigit((unsigned char)*c))
			return false;
	return true;
}

/* The PMU name perf gives Unit @unit: "uncore_" + the unit, or its own name for the Units perf's tables
 * write otherwise (facts of perf's jevents.py). */
static void unit_perf_name(const char *unit, char *out, size_t len)
{
	static const struct { const char *unit, *pmu; } renamed[] = {
		{ "CBO", "uncore_cbox" }, { "QPI LL", "uncore_qpi" }, { "SBO", "uncore_sbox" },
		{ "iMPH-U", "uncore_arb" }, { "UPI LL", "uncore_upi" }, { "L3PMC", "amd_l3" },
		{ "DFPMC", "amd_df" }, { "UMCPMC", "amd_umc" },
	};

	snprintf(out, len, "uncore_%s", unit);
	for (size_t i = 0; i < ARRAY_SIZE(renamed); i++)
		if (!strcmp(unit, renamed[i].unit))
			pmu__strlcpy(out, renamed[i].pmu, len);
}

/* perf's perf_pmu__match_ignoring_suffix: @pmu is @tok, or @tok followed by [_]digits (or by [_]hex
 * digits, more than two of them, when one is a letter). */
static bool match_ignoring_suffix(const char *pmu, const char *tok)
{
	const char *p, *suffix;
	bool has_hex = false;

	if (strncmp(pmu, tok, strlen(tok)))
		return false;
	suffix = p = pmu + strlen(tok);
	if (!*p)
		return true;
	if (*p == '_')
		suffix = ++p;
	for (;;) {
		if (!isxdigit((unsigned char)*p))
			return false;
		if (!has_hex)
			has_hex = !isdigit((unsigned char)*p);
		if (!*++p)
			break;
	}
	return has_hex ? p - suffix > 2 : true;
}

bool pmu__tables_alias_match(const char *unit, const char *name)
{
	char buf[128], *tok, *save = NULL;

	if (!strchr(unit, ','))
		return match_ignoring_suffix(name, unit);
	if (strlen(unit) >= sizeof(buf))
		return false;
	strcpy(buf, unit);
	tok = strtok_r(buf, ",", &save);
	if (!tok || strncmp(unit, tok, strlen(tok)))
		return false;
	for (;;) {
		char *next = strtok_r(NULL, ",", &save);
		name = strstr(name, tok);
		if (!name || (!next && !match_ignoring_suffix(name, tok)))
			return false;
		if (!next)
			return true;
		tok = next;
		name += strlen(tok); /* as perf does: the next token's length */
	}
}

bool pmu__tables_unit_is(const char *unit, const char *dev)
{
	char perf_name[96];

	if (strchr(unit, ',')) /* HiSilicon's "hisi_sccl,ddrc": every hisi_sccl<N>_ddrc<M> */
		return pmu__tables_alias_match(unit, dev);
	unit_perf_name(unit, perf_name, sizeof(perf_name));
	return pmu_instance_of(dev, unit) || pmu_instance_of(dev, perf_name);
}

/* The length of @name without its box number ("uncore_imc_12": 10), and that number (-1: none). */
static size_t box_base(const char *name, long *num)
{
	size_t l = strlen(name), d = l;

	while (d && isdigit((unsigned char)name[d - 1]))
		d--;
	if (d == l || d < 2 || name[d - 1] != '_') {
		*num = -1;
		return l;
	}
	*num = strtol(name + d, NULL, 10);
	return d - 1;
}

/* Box order: the names without their numbers, then the numbers. */
static int box_cmp(const struct pmu_dev *a, const struct pmu_dev *b)
{
	long na, nb;
	size_t la = box_base(a->name, &na), lb = box_base(b->name, &nb);
	int c = strncmp(a->name, b->name, la < lb ? la : lb);

	if (c || la != lb)
		return c ? c : la < lb ? -1 : 1;
	return na < nb ? -1 : na > nb;
}

size_t pmu__tables_unit_boxes(const struct pmu_ctx *ctx, const char *unit, const struct pmu_dev **v, size_t cap)
{
	size_t n = 0;

	if (pmu__pmu_by_name(ctx, unit))
		return 0; /* a PMU of that very name: not a unit of boxes */
	for (size_t i = 0; i < ctx->n_pmus; i++) {
		const struct pmu_dev *d = &ctx->pmus[i];
		size_t at;
		if (d->is_core || !pmu__tables_unit_is(unit, d->name))
			continue;
		/* insertion in box order, the first @cap kept */
		for (at = n < cap ? n : cap; v && at > 0 && box_cmp(d, v[at - 1]) < 0; at--)
			if (at < cap)
				v[at] = v[at - 1];
		if (v && at < cap)
			v[at] = d;
		n++;
	}
	return n;
}

void pmu__tables_boxes_mark(struct pmu_event_info *out, const struct pmu_dev *box0, size_t n, const char *unit)
{
	long num;
	size_t base = box_base(box0->name, &num), o = strlen(out->origin);

	out->flags |= PMU_EVF_BOXES;
	out->boxes = (uint32_t)n;
	if (unit && strchr(unit, ',')) /* "hisi_sccl,ddrc": its boxes hisi_sccl1_ddrc0, hisi_sccl3_ddrc1, ... */
		pmu__strlcpy(out->pmu, unit, sizeof(out->pmu));
	else
		snprintf(out->pmu, sizeof(out->pmu), "%.*s", (int)base, box0->name);
	snprintf(out->origin + o, sizeof(out->origin) - o, "; counted on each of the %zu %s boxes (%s_*), summed",
		 n, out->pmu, out->pmu);
}

size_t pmu__tables_unit_pmus(const struct pmu_ctx *ctx, const char *unit, const struct pmu_dev **first)
{
	size_t n = 0;

	if (first)
		*first = NULL;
	for (size_t i = 0; i < ctx->n_pmus; i++)
		if (!strcasecmp(ctx->pmus[i].name, unit)) {
			if (first)
				*first = &ctx->pmus[i];
			return 1;
		}
	for (size_t i = 0; i < ctx->n_pmus; i++)
		if (pmu__tables_unit_is(unit, ctx->pmus[i].name)) {
			if (first && !*first)
				*first = &ctx->pmus[i];
			n++;
		}
	return n;
}

/* The first field of @e over its limit in layout @arch: false and @why saying entry's field, value
 * and limit; true if all fit. */
bool pmu__tables_fields_fit(const struct pmu_tentry *e, int arch, char *why, size_t wl)
{
	if (!core_unit(e))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(field_limits); i++) {
		const struct field_limit *f = &field_limits[i];
		uint64_t max = arch == PMU_ARCH_X86 ? f->x86 : arch == PMU_ARCH_ARM64 ? f->arm64 : f->riscv;
		uint64_t v = field_value(e, f->bit);
		if (!(e->have & f->bit) || v <= max)
			continue;
		snprintf(why, wl, "%s %llu (0x%llx) does not fit the field it is encoded into (%s: at most 0x%llx)",
			 f->key, (unsigned long long)v, (unsigned long long)v,
			 arch == PMU_ARCH_X86 ? "x86" : arch == PMU_ARCH_ARM64 ? "arm64" : arch == PMU_ARCH_RISCV ?
			 "riscv" : "any architecture", (unsigned long long)max);
		return false;
	}
	return true;
}

uint64_t pmu__tables_x86_config(const struct pmu_tentry *e)
{
	/* architectural layout (Intel SDM / AMD APM PERF_CTL) */
	return (e->event & 0xff) | ((e->event >> 8) & 0xf) << 32 | (e->umask & 0xff) << 8 | (e->edge & 1) << 18 |
	       (e->any & 1) << 21 | (e->inv & 1) << 23 | (e->cmask & 0xff) << 24;
}

uint64_t pmu__tables_raw_config(const struct pmu_tentry *e, bool x86)
{
	/* arm64 and RISC-V: the event number is the raw config */
	return x86 ? pmu__tables_x86_config(e) : e->event;
}

/* The PMU that counts @e: its Unit's PMU (the one of that name, else the one PMU perf's name for the
 * Unit names here), else the core PMU. Where the Unit is an uncore unit of several boxes here, the first
 * box, their number into *@boxes (the event is counted on each: boxes.c). NULL when the Unit names no PMU
 * here, or several that are not one unit's boxes. */
static const struct pmu_dev *entry_pmu(const struct pmu_ctx *ctx, const struct pmu_tentry *e, size_t *boxes)
{
	const struct pmu_dev *d;

	*boxes = 0;
	if (e->unit && *e->unit) {
		if ((d = pmu__pmu_by_name(ctx, e->unit)))
			return d;
		*boxes = pmu__tables_unit_pmus(ctx, e->unit, &d);
		if (*boxes > 1)
			return pmu__tables_unit_boxes(ctx, e->unit, &d, 1) == *boxes ? d : NULL;
		return *boxes == 1 ? d : NULL;
	}
	return pmu__core_pmu(ctx);
}

/* An event's ScaleUnit, perf's "<factor><unit>" ("64Bytes": each count is 64 Bytes; "9.765625e-4KB"): the
 * factor, *@unit where the unit begins in the entry's string; 0 for a metric, none, or one that does not
 * begin with a positive number. */
static double event_factor(const struct pmu_tentry *e, const char **unit)
{
	char *end;
	double v;

	if (e->kind == PMU_T_METRIC || !e->scale_unit)
		return 0;
	v = strtod(e->scale_unit, &end);
	if (end == e->scale_unit || !(v > 0) || !isfinite(v))
		return 0;
	*unit = end;
	return v;
}

int pmu__tables_scale(const struct pmu_ctx *ctx, const struct pmu_event_info *info, double *factor)
{
	for (size_t i = 0; info->unit && i < ctx->tables.n; i++) {
		const char *unit = NULL;
		double v = event_factor(pmu__tables_entry(&ctx->tables, i), &unit);
		if (v > 0 && unit == info->unit) {
			*factor = v;
			return 0;
		}
	}
	return -ENOENT;
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
		return pmu__err(ctx, -EINVAL, "event '%s' (%s): Unit %s names %zu PMUs here (%s, ...) that are not the "
				"boxes of one unit (a core PMU among them): name the PMU, e.g. %s/%s/", name, e->file,
				e->unit, boxes, first->name, first->name, e->name);
	}
	if (e->unit && *e->unit && !d)
		return pmu__err(ctx, -ENOENT, "event '%s' (%s) is counted by PMU '%s', which this machine does not have",
				name, e->file, e->unit);
	if (!(e->have & (PMU_TF_EVENT | PMU_TF_CONFIG)))
		return pmu__err(ctx, -EINVAL, "event '%s' in %s has no EventCode to encode (ArchStdEvent references "
				"are not supported)", name, e->file);
	if (d && (r = pmu__pmu_load(ctx, d)) < 0) /* its format files place the fields */
		return r;
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
		/* the PMU's own format files say where each field goes (a flag's term gets 1) */
		const struct { bool on; const char *term; uint64_t v; } f[] = {
			{ true, "event", e->event },
			{ e->have & PMU_TF_UMASK, "umask", e->umask },
			{ (e->have & PMU_TF_CMASK) && e->cmask, "cmask", e->cmask },
			{ (e->have & PMU_TF_INV) && e->inv, "inv", 1 },
			{ (e->have & PMU_TF_EDGE) && e->edge, "edge", 1 },
			{ (e->have & PMU_TF_ANY) && e->any, "any", 1 },
			{ (e->have & PMU_TF_MSR) && e->msr_value,
			  e->msr_index == 0x3f6 ? "ldlat" : e->msr_index == 0x3f7 ? "frontend" : "offcore_rsp", e->msr_value },
		};
		for (size_t i = 0; i < ARRAY_SIZE(f); i++)
			if (f[i].on && (r = pmu__sysfs_place(ctx, d, f[i].term, f[i].v, name, info)) < 0)
				return r;
		/* PortMask, FCMask, RdWrMask, ..., Filter (event_terms): by the PMU's format too (an unknown term is refused, not dropped) */
		if (e->terms && (r = pmu__sysfs_encode(ctx, d, e->terms, name, info, 0)) < 0)
			return r;
	} else if (e->terms) {
		return pmu__err(ctx, -EINVAL, "event '%s' in %s has terms '%s' (PortMask, FCMask, RdWrMask, ... or Filter) that only "
				"a PMU's format files place, and PMU %s has none here", name, e->file, e->terms,
				d ? d->name : "cpu");
	} else {
		info->config = pmu__tables_raw_config(e, x86);
		if (x86 && (e->have & PMU_TF_MSR) && e->msr_value)
			info->config1 = e->msr_value;
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
	{
		/* perf's ScaleUnit on an event (uncore tables: "64Bytes" per CAS): the count is in fractions of
		 * that unit, as a sysfs .scale says (pmu_event_scale()) */
		const char *unit = NULL;
		double f = event_factor(e, &unit);
		if (f > 0) {
			info->unit = unit;
			if (f != 1)
				info->flags |= PMU_EVF_SCALED;
		}
	}
	if (boxes > 1)
		pmu__tables_boxes_mark(info, d, boxes, e->unit);
	return 0;
}
