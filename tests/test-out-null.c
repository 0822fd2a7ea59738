/* SPDX-License-Identifier: MIT */
/*
 * Every function of <pmu.h> that makes an object through an out pointer
 * (pmu_ctx_new, pmu_set_open, pmu_region_get) writes NULL to it on each
 * failure, as the header says: code that goes on after an unchecked failure
 * then closes NULL (which every destroyer takes) instead of reading an
 * unwritten pointer (issue 39, item 8: README's snippet read an
 * uninitialised set in four calls). The out pointer is filled with a
 * non-NULL pattern before each call; the oracle is the header's contract.
 */
#include <stdbool.h>
#include <string.h>
#include <pmu.h>
#include "harness.h"

static void *const POISON = (void *)(uintptr_t)0x5a5a5a5a;

int main(void)
{
	struct pmu_ctx *ctx = POISON;
	struct pmu_set *set;
	struct pmu_region *reg;
	struct pmu_ctx_opts bad_ctx = { 0 };
	struct pmu_set_opts bad_size = { 0 }, cpu_neg = { sizeof(cpu_neg), PMU_SET_CPU, -1, -1 };
	int r;

	bad_ctx.size = 1; /* smaller than any struct pmu_ctx_opts */
	r = pmu_ctx_new(&ctx, &bad_ctx);
	CHECK(r == -EINVAL && ctx == NULL, "pmu_ctx_new(opts->size 1): %d, ctx %p", r, (void *)ctx);

	if ((r = pmu_ctx_new(&ctx, NULL)) < 0)
		SKIP("no context here: %s", pmu_strerror(r));
	const struct {
		const char *what, *events;
		bool no_ctx;
		const struct pmu_set_opts *opts;
	} opens[] = {
		{ "a NULL context", "task-clock", true, NULL },
		{ "NULL events", NULL, false, NULL },
		{ "opts->size 0", "task-clock", false, &bad_size },
		{ "PMU_SET_CPU with cpu -1", "task-clock", false, &cpu_neg },
		{ "an unknown event", "no-such-event-xyz", false, NULL },
		{ "a malformed list", "{task-clock", false, NULL },
		{ "a tool event in braces", "{task-clock,duration_time}", false, NULL },
	};
	for (size_t i = 0; i < sizeof(opens) / sizeof(opens[0]); i++) {
		set = POISON;
		r = pmu_set_open(opens[i].no_ctx ? NULL : ctx, opens[i].events, opens[i].opts, &set);
		CHECK(r < 0 && set == NULL, "pmu_set_open with %s: %d, set %p", opens[i].what, r, (void *)set);
	}
	/* README's list: refused where no PMU counts it (this VM), else opened */
	set = POISON;
	r = pmu_set_open(ctx, "instructions:u,cycles:u", NULL, &set);
	CHECK(r < 0 ? set == NULL : set != NULL && set != POISON, "pmu_set_open(instructions:u,cycles:u): %d, set %p",
	      r, (void *)set);
	if (r == 0)
		pmu_set_close(set);
	reg = POISON;
	r = pmu_region_get(NULL, &reg);
	CHECK(r < 0 && reg == NULL, "pmu_region_get(NULL name): %d, handle %p", r, (void *)reg);
	pmu_ctx_free(ctx);
	return test_done("test-out-null");
}
