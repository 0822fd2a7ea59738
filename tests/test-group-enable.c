/* SPDX-License-Identifier: MIT */
/*
 * A {group} opened counting (PMU_SET_ENABLE) counts with every member from the start. The kernel does
 * not schedule a member added to a running group of the calling task until the task is next switched
 * in: opened with its leader enabled, the last group opened counted 0 page faults in its page-faults
 * member on this machine's kernel (6.18) until the thread slept, while its leader counted. The oracle
 * is a hand count: 256 page faults taken in user mode (page-faults.h), each a fault of one page, so
 * every page-faults event must count from 256 to 256 + 32 (the reads' own), leader or member, in each
 * of three sets opened one after the other, by pmu_set_open() and by a plan.
 */
#include <string.h>
#include <pmu.h>
#include "harness.h"
#include "page-faults.h"

static void faults_counted(struct pmu_ctx *ctx, const char *list, int plan)
{
	struct pmu_set_opts o = { .size = sizeof(o), .flags = PMU_SET_ENABLE };
	struct pmu_set *s[3] = { NULL, NULL, NULL };
	struct pmu_value v0[3][8], v1[3][8];
	struct pmu_plan *p = NULL;

	if (plan && pmu_plan_new(ctx, list, &o, &p) < 0) {
		CHECK(0, "plan '%s': %s", list, pmu_strerror(-1));
		return;
	}
	for (int i = 0; i < 3; i++) {
		int r = plan ? pmu_plan_open(p, 0, -1, &s[i]) : pmu_set_open(ctx, list, &o, &s[i]);
		CHECK(r == 0 && pmu_set_count(s[i]) <= 8, "open '%s': %s", list, pmu_strerror(r));
		if (r)
			goto out;
	}
	for (int i = 0; i < 3; i++)
		CHECK(pmu_set_read(s[i], v0[i]) == 0, "read '%s'", list);
	CHECK(user_faults() == 0, "no memory for the faults");
	for (int i = 0; i < 3; i++)
		CHECK(pmu_set_read(s[i], v1[i]) == 0, "read '%s'", list);
	for (int i = 0; i < 3; i++)
		for (size_t k = 0; k < pmu_set_count(s[i]); k++) {
			struct pmu_event_info e;
			unsigned long long d = v1[i][k].value - v0[i][k].value;
			pmu_set_event(s[i], k, &e);
			if (!strcmp(e.name, "page-faults") || !strcmp(e.name, "minor-faults"))
				CHECK(d >= PAGE_FAULTS && d <= PAGE_FAULTS + 32, "'%s' (%s), set %d of 3: %s counted %llu "
				      "page faults, %d taken", list, plan ? "plan" : "pmu_set_open", i + 1, e.name, d,
				      PAGE_FAULTS);
			else
				CHECK(d > 0, "'%s' (%s), set %d of 3: %s counted nothing", list,
				      plan ? "plan" : "pmu_set_open", i + 1, e.name);
		}
out:
	for (int i = 0; i < 3; i++)
		pmu_set_close(s[i]);
	pmu_plan_free(p);
}

int main(void)
{
	static const char *const lists[] = { "{task-clock,page-faults}", "{page-faults,task-clock,minor-faults}",
					     "{cpu-clock,page-faults},task-clock", "page-faults,task-clock" };
	struct pmu_ctx *ctx = NULL;

	if (pmu_ctx_new(&ctx, NULL) < 0) {
		fprintf(stderr, "context: %s\n", pmu_strerror(-1));
		return 1;
	}
	for (size_t i = 0; i < sizeof(lists) / sizeof(*lists); i++)
		for (int plan = 0; plan < 2; plan++)
			faults_counted(ctx, lists[i], plan);
	pmu_ctx_free(ctx);
	return test_done("test-group-enable");
}
