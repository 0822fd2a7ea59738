/* SPDX-License-Identifier: MIT */
/* The core types of a machine of several core PMUs named (lib/coretype.c). */
#ifndef PMU_CORETYPE_H
#define PMU_CORETYPE_H
#include <stddef.h>

struct pmu_ctx;
struct pmu_dev;

/* @d's core type in its architecture's words, into @buf: "Cortex-A76 (MIDR 0x...)", "P-core
 * (Intel Core)". */
void pmu__core_type_name(const struct pmu_ctx *ctx, const struct pmu_dev *d, char *buf, size_t len);

#endif
