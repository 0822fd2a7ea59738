/* SPDX-License-Identifier: MIT */
/*
 * count: measure a piece of code with an event set — the README example.
 * Counts hardware events where a PMU exists, software events otherwise; an
 * event the kernel cannot count here is shown as not supported.
 *
 * A read returns pmu_set_count() values, which can be more than the names
 * listed: a hybrid CPU counts a generic event once per core type
 * (cpu_core/cycles/, cpu_atom/cycles/). Size the arrays by it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <pmu.h>

static double work(int n)
{
	double s = 0;
	for (int i = 1; i <= n; i++)
		s += 1.0 / i;
	return s;
}

int main(void)
{
	struct pmu_ctx *ctx;
	struct pmu_set *set;
	struct pmu_caps caps;
	struct pmu_set_opts opts = { sizeof(opts), PMU_SET_SKIP_UNSUPPORTED, 0, -1 };
	const char *events;
	int r;

	if ((r = pmu_ctx_new(&ctx, NULL)) < 0) {
		fprintf(stderr, "count: %s\n", pmu_strerror(r));
		return 1;
	}
	pmu_caps(ctx, &caps);
	events = caps.hw_pmu ? "instructions:u,cycles:u,task-clock" : "task-clock,page-faults";
	if ((r = pmu_set_open(ctx, events, &opts, &set)) < 0) {
		fprintf(stderr, "count: %s\n", pmu_strerror(r));
		pmu_ctx_free(ctx);
		return 1;
	}

	size_t n = pmu_set_count(set);    /* values per read: 5 for these 3 names on a hybrid CPU */
	struct pmu_value *before = calloc(3 * n, sizeof(*before)), *after = before + n, *delta = after + n;
	if (!before) {
		pmu_set_close(set);
		pmu_ctx_free(ctx);
		return 1;
	}
	pmu_set_enable(set);
	pmu_set_read(set, before);
	double result = work(10 * 1000 * 1000);
	pmu_set_read(set, after);
	pmu_delta(before, after, n, delta);

	for (size_t i = 0; i < n; i++) {
		struct pmu_event_info e;
		pmu_set_event(set, i, &e);
		if (e.flags & PMU_EVF_UNSUPPORTED)
			printf("%-24s %14s\n", e.name, "<not supported>");
		else
			printf("%-24s %14llu  (%.0f%% of the time on a counter)\n", e.name,
			       (unsigned long long)pmu_scale(&delta[i]), 100 * pmu_confidence(&delta[i]));
	}
	printf("result %.6f\n", result);
	free(before);
	pmu_set_close(set);
	pmu_ctx_free(ctx);
	return 0;
}
