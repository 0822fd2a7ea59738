/* SPDX-License-Identifier: MIT */
/* Performance groups in LIKWID's file shape (lib/likwid.c): LIKWID's architecture directory of a CPU,
 * and a group file's counter lines mapped to libpmu's events (lib/likwid-map.c). Private. */
#ifndef PMU_LIKWID_H
#define PMU_LIKWID_H
#include <stddef.h>

struct pmu_ctx;
struct pmu_cpu;

/* LIKWID's perfgroups directory name for @c ("skylakeX", "ICX", "zen3", "arm8_n1", ...), NULL if
 * LIKWID has none for it. */
const char *pmu__likwid_arch(const struct pmu_cpu *c);
/* libpmu's own groups directory name for @c (events/groups/<name>), NULL if none. */
const char *pmu__groups_arch(const struct pmu_cpu *c);

/* One counter line "COUNTER EVENT[:OPT...]" of arch @arch mapped to a libpmu event spelling (malloc'd
 * into *@event; "" for a pseudo event that counts nothing) and the name a metric expression gives its
 * value (*@var, malloc'd: the spelling, '@'-quoted where it has a '/'; with its scale: RAPL's joules).
 * 0, or -EOPNOTSUPP with the reason and the fix in @why; -ENOMEM. */
int pmu__likwid_map(struct pmu_ctx *ctx, const char *arch, const char *counter, const char *event, char **spelling,
		    char **var, char *why, size_t wl);
#endif
