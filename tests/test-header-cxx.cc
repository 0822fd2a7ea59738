// SPDX-License-Identifier: MIT
// <pmu.h> must compile as C++, inline fast path included.
#include <pmu.h>

int main()
{
	pmu_value a = { 1, 2, 2 }, b = { 3, 4, 4 }, d;
	pmu_delta(&a, &b, 1, &d);
	const pmu_fast *f = pmu_set_fast(nullptr);
	int (*fast)(const pmu_fast *, pmu_value *) = pmu_fast_read;
	// a NULL set's plan: every read refuses it
	return (f != nullptr && fast(f, &d) == -EINVAL && pmu_scale(&d) == 2) ? 0 : 1;
}
