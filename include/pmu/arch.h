/* SPDX-License-Identifier: MIT */
/*
 * Per-architecture hardware access for the fast path: pmu_arch_counter()
 * reads the counter a user page's index names, pmu_arch_time() the clock its
 * time fields convert. PMU_ARCH_FAST is 1 where user-space reads exist.
 * Included by <pmu/fast.h>.
 */
#ifndef PMU_ARCH_H
#define PMU_ARCH_H

/* The hot path must not become calls: force inlining where the compiler allows it. */
#if defined(__GNUC__) || defined(__clang__)
#define PMU_HOT static inline __attribute__((always_inline))
#else
#define PMU_HOT static inline
#endif

#if defined(PMU_ARCH_CUSTOM)
/* Test hook: the includer defines PMU_ARCH_FAST, pmu_arch_counter() and
 * pmu_arch_time() itself before including <pmu.h> (a simulated PMU). */
#elif defined(__x86_64__) || defined(__i386__)
#include <pmu/arch/x86.h>
#elif defined(__aarch64__)
#include <pmu/arch/arm64.h>
#elif defined(__riscv) && __riscv_xlen == 64
#include <pmu/arch/riscv64.h>
#else
#define PMU_ARCH_FAST 0
static inline uint64_t pmu_arch_counter(void *arg, uint32_t index) { (void)arg; (void)index; return 0; }
static inline uint64_t pmu_arch_time(void *arg) { (void)arg; return 0; }
#endif

#endif /* PMU_ARCH_H */
