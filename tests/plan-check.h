/* SPDX-License-Identifier: MIT */
/* How a set would be opened (pmu__set_plan, nothing opened): the events'
 * names in order and their group numbers, checked against the expected
 * lists. Returns the planned set for further checks (caller closes it), or
 * NULL when planning failed (a failure recorded). Needs lib/set.h. */
#ifndef PMU_TEST_PLAN_CHECK_H
#define PMU_TEST_PLAN_CHECK_H
#include <string.h>
#include "harness.h"

static struct pmu_set *plan_check(struct pmu_ctx *ctx, const char *events, const struct pmu_set_opts *o,
				  const char *want_order, const char *want_groups)
{
	struct pmu_set *s = NULL;
	char order[1024] = "", groups[128] = "";
	int r = pmu__set_plan(ctx, events, o, &s);

	CHECK(r == 0, "plan '%s': %s", events, pmu_strerror(r));
	if (r)
		return NULL;
	for (size_t i = 0; i < pmu_set_count(s); i++) {
		size_t l = strlen(order), g = strlen(groups);
		snprintf(order + l, sizeof(order) - l, "%s%s", i ? "," : "", pmu__set_info(s, i)->name);
		snprintf(groups + g, sizeof(groups) - g, "%s%d", i ? "," : "", pmu_set_group_of(s, i));
	}
	CHECK(!strcmp(order, want_order), "'%s' planned as '%s', expected '%s'", events, order, want_order);
	CHECK(!strcmp(groups, want_groups), "'%s' groups %s, expected %s", events, groups, want_groups);
	return s;
}
#endif
