/* SPDX-License-Identifier: MIT */
/* <pmu.h> must compile as strict C99 with -pedantic -Werror. */
#include <pmu.h>

int main(void)
{
	struct pmu_value a = { 1, 2, 2 }, b = { 3, 4, 4 }, d;
	pmu_delta(&a, &b, 1, &d);
	return pmu_scale(&d) == 2 && pmu_x86_rdpmc_fixed(3) == 0x40000003u ? 0 : 1;
}
