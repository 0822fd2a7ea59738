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

/*
 * pmu_arch_thread() - the calling thread's thread pointer, one instruction
 * where the architecture keeps it in a register: what the fast path
 * compares with the owner of a set (the owner's value is stored by the
 * library, compiled with this same function). Not a hook of PMU_ARCH_CUSTOM:
 * a simulated PMU runs in real threads.
 */
#if defined(__x86_64__) && defined(__GNUC__)
PMU_HOT uintptr_t pmu_arch_thread(void)
{
	uintptr_t tp;
	__asm__("mov %%fs:0, %0" : "=r"(tp)); /* the TCB's pointer to itself (x86-64 ABI) */
	return tp;
}
#elif defined(__i386__) && defined(__GNUC__)
PMU_HOT uintptr_t pmu_arch_thread(void)
{
	uintptr_t tp;
	__asm__("mov %%gs:0, %0" : "=r"(tp));
	return tp;
}
#elif defined(__aarch64__) && defined(__GNUC__)
PMU_HOT uintptr_t pmu_arch_thread(void)
{
	uintptr_t tp;
	__asm__("mrs %0, tpidr_el0" : "=r"(tp));
	return tp;
}
#elif defined(__riscv) && defined(__GNUC__)
PMU_HOT uintptr_t pmu_arch_thread(void)
{
	uintptr_t tp;
	__asm__("mv %0, tp" : "=r"(tp));
	return tp;
}
#else
static inline uintptr_t pmu_arch_thread(void)
{
	return (uintptr_t)pthread_self();
}
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
