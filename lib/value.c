/* SPDX-License-Identifier: MIT */
/* The arithmetic on counted values (struct pmu_value): the delta of two reads, a count scaled to the
 * whole enabled time when it was multiplexed, and the share of the time it was counted. Depends on
 * the public header only. */
#include <stddef.h>
#include <stdint.h>
#include "pmu.h"
#include "common.h"

PMU_EXPORT void pmu_delta(const struct pmu_value *a, const struct pmu_value *b, size_t n,
			  struct pmu_value *out)
{
	if (!a || !b || !out)
		return;
	for (size_t i = 0; i < n; i++) {
		struct pmu_value d;
		d.value = b[i].value - a[i].value;
		d.enabled = b[i].enabled - a[i].enabled;
		d.running = b[i].running - a[i].running;
		out[i] = d;
	}
}

PMU_EXPORT uint64_t pmu_scale(const struct pmu_value *v)
{
	unsigned __int128 x;

	if (!v)
		return 0;
	if (v->running == v->enabled || v->running > v->enabled)
		return v->value;
	if (v->running == 0)
		return 0;
	x = (unsigned __int128)v->value * v->enabled + v->running / 2;
	x /= v->running;
	return x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
}

PMU_EXPORT double pmu_confidence(const struct pmu_value *v)
{
	if (!v)
		return 0.0;
	if (v->running >= v->enabled)
		return 1.0;
	if (v->running == 0)
		return 0.0;
	return (double)v->running / (double)v->enabled;
}
