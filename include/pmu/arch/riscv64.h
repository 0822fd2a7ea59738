/* SPDX-License-Identifier: MIT */
/* riscv64: index n is counter CSR 0xC00 + n - 1 (cycle 0xC00, instret
 * 0xC02, hpmcounter3..31 0xC03..0xC1F); the CSR number is an immediate, so
 * it is a switch. With the SBI PMU driver perf_user_access=1 allows these
 * reads for the task's own events; the legacy mode 2 opens only
 * cycle/time/instret directly. The time source is the time CSR. */
#ifndef PMU_ARCH_RISCV64_H
#define PMU_ARCH_RISCV64_H
#define PMU_ARCH_FAST 1

#define PMU__CSR(n) \
	case n - 0xC00: __asm__ __volatile__("csrr %0, " #n : "=r"(v)); return v;

PMU_HOT uint64_t pmu_arch_counter(void *arg, uint32_t index)
{
	uint64_t v = 0;
	(void)arg;
	/* RV64 loads 32-bit values sign-extended: switching on the signed value
	 * saves the zero-extension (indices are 1..32; anything else is default) */
	switch ((int64_t)(int32_t)index - 1) {
	PMU__CSR(0xC00) PMU__CSR(0xC01) PMU__CSR(0xC02) PMU__CSR(0xC03)
	PMU__CSR(0xC04) PMU__CSR(0xC05) PMU__CSR(0xC06) PMU__CSR(0xC07)
	PMU__CSR(0xC08) PMU__CSR(0xC09) PMU__CSR(0xC0A) PMU__CSR(0xC0B)
	PMU__CSR(0xC0C) PMU__CSR(0xC0D) PMU__CSR(0xC0E) PMU__CSR(0xC0F)
	PMU__CSR(0xC10) PMU__CSR(0xC11) PMU__CSR(0xC12) PMU__CSR(0xC13)
	PMU__CSR(0xC14) PMU__CSR(0xC15) PMU__CSR(0xC16) PMU__CSR(0xC17)
	PMU__CSR(0xC18) PMU__CSR(0xC19) PMU__CSR(0xC1A) PMU__CSR(0xC1B)
	PMU__CSR(0xC1C) PMU__CSR(0xC1D) PMU__CSR(0xC1E) PMU__CSR(0xC1F)
	}
	return v;
}
#undef PMU__CSR

PMU_HOT uint64_t pmu_arch_time(void *arg)
{
	uint64_t v;
	(void)arg;
	__asm__ __volatile__("csrr %0, 0xC01" : "=r"(v));
	return v;
}
#endif
