/* SPDX-License-Identifier: MIT */
/* The kernel's generic events under perf's names (lib/generic.c). Private. */
#ifndef PMU_GENERIC_H
#define PMU_GENERIC_H
#include <stdbool.h>
#include <stdint.h>

struct pmu_ctx;
struct pmu_dev;
struct pmu_event_info;

struct pmu_generic {
	const char *name;
	uint32_t type;
	uint64_t config;
	const char *desc;
	const char *unit;
};
/* Look up a generic name (hardware, software, cache). Returns 0 or -ENOENT. */
int pmu__generic_lookup(const char *name, struct pmu_generic *out);
/* Fill @out with generic hardware/cache event @g on core PMU @d (on a machine of several core PMUs placed
 * on @d: pmu__generic_place of generic-native.h). 0, or -ENOENT said: @d has no event for it. */
int pmu__generic_on(struct pmu_ctx *ctx, const struct pmu_dev *d, const struct pmu_generic *g,
		     struct pmu_event_info *out);
/* Visit every generic name; stops when cb returns non-zero. */
int pmu__generic_foreach(int (*cb)(const struct pmu_generic *g, void *data), void *data);
/* Does core PMU @d have generic hardware event @id (PERF_COUNT_HW_*)? From its sysfs events/ where the
 * kernel lists them (x86, arm64); true where nothing says otherwise. */
bool pmu__generic_hw_on(const struct pmu_ctx *ctx, const struct pmu_dev *d, uint64_t id);

#endif
