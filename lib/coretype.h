/* SPDX-License-Identifier: MIT */
/* The core types of a machine of several core PMUs (lib/coretype.c). */
#ifndef PMU_CORETYPE_H
#define PMU_CORETYPE_H
#include "internal.h"

/* The context whose event tables are core PMU @d's: on arm64, where @d's CPUs are another core than
 * CPU 0 (a big.LITTLE cluster), a context of its own, made at the first need with @d's identity (and
 * the same roots, tables path and log), kept with @ctx and freed with it; else @ctx. NULL when out of
 * memory or that context cannot be made (said). Thread-safe. pmu_ctx_free frees it with @ctx. */
struct pmu_ctx *pmu__core_ctx(struct pmu_ctx *ctx, const struct pmu_dev *d);
/* @d's core type in its architecture's words, into @buf: "Cortex-A76 (MIDR 0x...)", "P-core
 * (Intel Core)". */
void pmu__core_type_name(const struct pmu_ctx *ctx, const struct pmu_dev *d, char *buf, size_t len);

#endif
