/* SPDX-License-Identifier: MIT */
/* arm64: index 32 is the cycle counter PMCCNTR_EL0; index n (1..31) is
 * PMEVCNTR<n-1>_EL0, read directly (no PMSELR write, no isb). Needs
 * kernel.perf_user_access=1 and config1 bit 1 on the event. The time source
 * is the virtual counter CNTVCT_EL0. */
#ifndef PMU_ARCH_ARM64_H
#define PMU_ARCH_ARM64_H
#define PMU_ARCH_FAST 1

#define PMU__EVCNTR(n) \
	case n: __asm__ __volatile__("mrs %0, pmevcntr" #n "_el0" : "=r"(v)); return v;

PMU_HOT uint64_t pmu_arch_counter(void *arg, uint32_t index)
{
	uint64_t v = 0;
	(void)arg;
	switch (index - 1) {
	case 31: __asm__ __volatile__("mrs %0, pmccntr_el0" : "=r"(v)); return v;
	PMU__EVCNTR(0) PMU__EVCNTR(1) PMU__EVCNTR(2) PMU__EVCNTR(3) PMU__EVCNTR(4)
	PMU__EVCNTR(5) PMU__EVCNTR(6) PMU__EVCNTR(7) PMU__EVCNTR(8) PMU__EVCNTR(9)
	PMU__EVCNTR(10) PMU__EVCNTR(11) PMU__EVCNTR(12) PMU__EVCNTR(13) PMU__EVCNTR(14)
	PMU__EVCNTR(15) PMU__EVCNTR(16) PMU__EVCNTR(17) PMU__EVCNTR(18) PMU__EVCNTR(19)
	PMU__EVCNTR(20) PMU__EVCNTR(21) PMU__EVCNTR(22) PMU__EVCNTR(23) PMU__EVCNTR(24)
	PMU__EVCNTR(25) PMU__EVCNTR(26) PMU__EVCNTR(27) PMU__EVCNTR(28) PMU__EVCNTR(29)
	PMU__EVCNTR(30)
	}
	return v;
}
#undef PMU__EVCNTR

PMU_HOT uint64_t pmu_arch_time(void *arg)
{
	uint64_t v;
	(void)arg;
	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}
#endif
