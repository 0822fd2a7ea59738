/* SPDX-License-Identifier: MIT */
/* Uncore units of several boxes. A server's memory controllers, caching agents, UPI links and IIO
 * stacks are each a PMU of their own (uncore_imc_0 ... uncore_imc_N, uncore_cha_*, uncore_upi_*,
 * uncore_iio_*; AMD's amd_umc_*, Arm's arm_cmn_*), and perf counts an event of the unit on every box,
 * each with that box's type and format files, and reports the sum. So does libpmu: a name of the unit
 * (a table event whose Unit has several PMUs here, uncore_imc/event=.../, imc/.../) resolves into one
 * logical event (PMU_EVF_BOXES: box 0's encoding, the unit's name, the number of boxes: the boxes found
 * and the event marked by tables-encode.c, pmu__tables_unit_boxes), and the set opens each box's
 * encoding, which this file gives (pmu__boxes_resolve), and sums them (set.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pmu.h"
#include "boxes.h"
#include "error.h"
#include "modifiers.h"
#include "resolve.h"
#include "sysfs.h"
#include "tables.h"
#include "util.h"

/* @name as written for box @box: the unit's name replaced by the box's (imc/event=1/u: uncore_imc_1/event=1/u),
 * an EVENT/TERMS/ written on the box (uncore_imc_1/EVENT,TERMS/), a name without PMU on it
 * (uncore_imc_1/UNC_M_CAS_COUNT.RD/). 0 or -ENAMETOOLONG. */
static int box_spelling(const struct pmu_ctx *ctx, const char *name, const char *box, char *buf, size_t len)
{
	const char *s1 = strchr(name, '/'), *s2 = strrchr(name, '/');
	char head[PMU_NAME_MAX];
	size_t hl = s1 ? (size_t)(s1 - name) : 0;
	int k;

	if (!s1)
		return pmu__name_on_pmu(buf, len, box, name);
	if (hl >= sizeof(head) || s1 == s2)
		return -EINVAL;
	memcpy(head, name, hl);
	head[hl] = 0;
	if (pmu__tables_unit_boxes(ctx, head, NULL, 0) > 1)
		return (size_t)snprintf(buf, len, "%s%s", box, s1) < len ? 0 : -ENAMETOOLONG;
	/* EVENT/TERMS/mods */
	k = snprintf(buf, len, "%s/%s%s%.*s%s", box, head, s2 > s1 + 1 ? "," : "", (int)(s2 - s1 - 1), s1 + 1, s2);
	return k >= 0 && (size_t)k < len ? 0 : -ENAMETOOLONG;
}

int pmu__boxes_resolve(struct pmu_ctx *ctx, const char *name, const char *mods_extra,
		       const struct pmu_event_info *logical, struct pmu_event_info *out, size_t cap)
{
	const struct pmu_dev **v;
	size_t n = pmu__tables_unit_boxes(ctx, logical->pmu, NULL, 0);
	int r = 0;

	if (n < 2 || n != logical->boxes)
		return pmu__err(ctx, -EINVAL, "event '%s': its unit %s has %zu boxes here, and it was resolved on %u",
				name, logical->pmu, n, (unsigned)logical->boxes);
	if (!(v = calloc(n, sizeof(*v))))
		return pmu__err(ctx, -ENOMEM, "out of memory resolving '%s' on each box of %s", name, logical->pmu);
	pmu__tables_unit_boxes(ctx, logical->pmu, v, n);
	for (size_t b = 0; b < n && b < cap && r == 0; b++) {
		char spelled[PMU_NAME_MAX + 80];
		if (box_spelling(ctx, name, v[b]->name, spelled, sizeof(spelled)) < 0) {
			r = pmu__err(ctx, -ENAMETOOLONG, "event '%s': too long once written for box %s", name,
				     v[b]->name);
			break;
		}
		pmu__err_quiet(true);
		r = pmu__resolve(ctx, spelled, mods_extra, &out[b]);
		pmu__err_quiet(false);
		if (r == -ENOMEM) {
			r = pmu__err(ctx, r, "out of memory resolving '%s' on box %s", name, v[b]->name);
		} else if (r < 0) {
			char why[400];
			pmu__strlcpy(why, pmu__err_msg(), sizeof(why));
			r = pmu__err(ctx, r, "event '%s' is counted on each of the %zu boxes of %s, and box %s cannot "
				     "count it (%s): its driver gives that box other format files; count the boxes "
				     "that can, each named (%s/...)", name, n, logical->pmu, v[b]->name, why,
				     v[0]->name);
		} else if (out[b].flags & PMU_EVF_BOXES) {
			r = pmu__err(ctx, -EINVAL, "event '%s': '%s' names a unit, not box %s", name, spelled,
				     v[b]->name);
		}
	}
	free(v);
	return r < 0 ? r : (int)n;
}
