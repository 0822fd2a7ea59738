// SPDX-License-Identifier: MIT
// <pmu/riscv-csr.h> and the generated <pmu/ibex-events.h> must compile as
// C++ (here against a trivial simulated CSR file: every CSR reads 0).
#define PMU_CSR_SIM
#include <pmu/riscv-csr.h>
#include <pmu/ibex-events.h>

static pmu_csr_reg_t csr_file[4096];

pmu_csr_reg_t pmu_csr_sim_read(unsigned csr) { return csr_file[csr & 4095]; }
void pmu_csr_sim_write(unsigned csr, pmu_csr_reg_t v) { csr_file[csr & 4095] = v; }

int main()
{
	pmu_csr_region r;
	const uint8_t ids[2] = { PMU_STD_INST_RET_COUNTER, PMU_IBEX_NUMLOADS_COUNTER };
	const uint8_t widths[2] = { PMU_STD_INST_RET_WIDTH, PMU_IBEX_NUMLOADS_WIDTH };
	if (pmu_csr_region_init(&r, ids, widths, 2) != 0)
		return 1;
	pmu_csr_region_calibrate(&r, 2);
	pmu_csr_region_begin(&r);
	csr_file[PMU_CSR_COUNTER_BASE + 2] += 42;
	pmu_csr_region_end(&r);
	pmu_csr_counter_write(3, 0x123456789ull);
	pmu_csr_inhibit_set(PMU_CSR_BIT(2));
	return r.total[0] == 42 && r.calls == 1 && pmu_csr_counter_read(3) == 0x123456789ull &&
	       pmu_csr_inhibit_clear(PMU_CSR_BIT(2)) == 4u &&
	       pmu_csr_delta(0xfffffffff0ull, 5, PMU_IBEX_NUMLOADS_WIDTH) == 21 ? 0 : 1;
}
