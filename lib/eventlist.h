/* SPDX-License-Identifier: MIT */
/* Event lists: commas, {groups}, modifiers after a group (lib/eventlist.c). Private. */
#ifndef PMU_EVENTLIST_H
#define PMU_EVENTLIST_H
#include <stddef.h>

struct pmu_ctx;

struct pmu_spec {
	char *name;
	int group;              /* explicit group number, or -1 */
	char *group_mods;       /* modifiers written after '}' or NULL */
};
struct pmu_speclist {
	struct pmu_spec *v;
	size_t n;
	int ngroups_explicit;
};
int pmu__speclist_parse(struct pmu_ctx *ctx, const char *events, struct pmu_speclist *out);
void pmu__speclist_free(struct pmu_speclist *l);

#endif
