/* SPDX-License-Identifier: MIT */
/* A kernel generic event placed on one core PMU of a machine with several (lib/generic-native.c). */
#ifndef PMU_GENERIC_NATIVE_H
#define PMU_GENERIC_NATIVE_H
#include <stdbool.h>
#include <stdint.h>

struct pmu_ctx;
struct pmu_dev;
struct pmu_event_info;

/*
 * Place generic hardware or cache event @out (type PERF_TYPE_HARDWARE or PERF_TYPE_HW_CACHE, the
 * kernel's id in config bits 0-31) on core PMU @d of a machine with several core PMUs: where the
 * kernel takes the "extended type" for @d, its type goes into config bits 32-63; where it does not
 * (arm64 before arm_pmu took it: Debian 12's 6.1), the event becomes @d's own event, as the kernel's
 * map for @d would encode it (type @d->type, the event number in config), so that it is never refused.
 * @out's pmu and origin say which. 0, or -ENOENT said: @d has no event for it.
 */
int pmu__generic_place(struct pmu_ctx *ctx, const struct pmu_dev *d, struct pmu_event_info *out);

/* Does the kernel take a generic event with @d's type in config bits 32-63? x86: yes (its hybrid
 * PMUs came with it); elsewhere asked of the running kernel once per PMU (an event opened, disabled,
 * for the calling thread), and no for a written sysfs tree (PMU_SYSFS_ROOT), which no kernel answers
 * for. */
bool pmu__ext_type_ok(const struct pmu_ctx *ctx, const struct pmu_dev *d);

/* The arm64 event number the kernel's PMUv3 driver gives generic event @type/@config on @d (its
 * common map, then the core's own cache map, as drivers/perf/arm_pmuv3.c's map_event does), or -1. */
int pmu__generic_arm64_event(const struct pmu_dev *d, uint32_t type, uint64_t config);

#endif
