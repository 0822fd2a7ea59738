/* SPDX-License-Identifier: MIT */
/* Uncore units of several boxes (lib/boxes.c): an event name spelled on one box, and every box's
 * encoding of an event counted on all of them (the boxes themselves: tables.h, pmu__tables_unit_boxes).
 * Private. */
#ifndef PMU_BOXES_H
#define PMU_BOXES_H
#include <stddef.h>

struct pmu_ctx;
struct pmu_event_info;

/* Every box's encoding of @name (resolved with PMU_EVF_BOXES, as @logical): box b's into @out[b] (up to
 * @cap), each labelled with its box ("uncore_imc_1/UNC_M_CAS_COUNT.RD/") and encoded by that box's own
 * type and format files, @mods_extra (a {group}'s modifiers) applied as to @logical. Returns how many
 * boxes (more than @cap: only @cap written), or an error naming the box that cannot count it. */
int pmu__boxes_resolve(struct pmu_ctx *ctx, const char *name, const char *mods_extra,
		       const struct pmu_event_info *logical, struct pmu_event_info *out, size_t cap);
#endif
