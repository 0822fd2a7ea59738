/* SPDX-License-Identifier: MIT */
/* x86: rdpmc takes the user page's index - 1 in ECX. The kernel already
 * encodes fixed counters there (bit 30 set); the TSC is the time source. */
#ifndef PMU_ARCH_X86_H
#define PMU_ARCH_X86_H
#define PMU_ARCH_FAST 1

PMU_HOT uint64_t pmu_arch_counter(void *arg, uint32_t index)
{
	uint32_t lo, hi;
	(void)arg;
	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(index - 1));
	return lo | ((uint64_t)hi << 32);
}

PMU_HOT uint64_t pmu_arch_time(void *arg)
{
	uint32_t lo, hi;
	(void)arg;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return lo | ((uint64_t)hi << 32);
}
#endif
