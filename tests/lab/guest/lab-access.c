/* SPDX-License-Identifier: MIT */
/*
 * kernel.perf_user_access=0: no user-space counter access. The user page
 * says so (cap_user_rdpmc 0), pmu_page_read refuses, and pmu_set_read still
 * gives exact counts through read(2): count(loop_1000) - count(empty) ==
 * 2001 (each the minimum of lab_tries() measurements: more than one where
 * the PMU counts kernel work, see labutil.h).
 */
#include "labutil.h"

LAB_LOOP(1000)

int main(void)
{
	struct pmu_ctx *ctx;
	struct pmu_caps caps;
	struct pmu_set *s;
	struct pmu_value v;
	uint64_t e, l;
	unsigned tries;
	int r;

	if (lab_user_access(0) != 0)
		LAB_SKIP("cannot write /proc/sys/kernel/perf_user_access");
	ctx = lab_ctx();
	tries = lab_tries(ctx);
	pmu_caps(ctx, &caps);
	LAB_CHECK(caps.user_access == 0 && !caps.fast_read, "caps: user_access %d fast_read %d", caps.user_access,
		  caps.fast_read);
	r = pmu_set_open(ctx, "instructions:u", NULL, &s);
	if (r < 0) {
		printf("FAIL: open: %s\n", pmu_strerror(r));
		return 1;
	}
	pmu_set_enable(s);
	{
		const struct perf_event_mmap_page *pg = pmu_set_fast(s)->pages[0];
		if (pg) {
			printf("page: cap_user_rdpmc %u index %u\n", (unsigned)pg->cap_user_rdpmc, pg->index);
			LAB_CHECK(pmu_page_read(pg, &v) == 1, "user-space read allowed with perf_user_access=0");
		}
	}
	e = lab_window(s, lab_loop_empty, tries, NULL);
	l = lab_window(s, lab_loop_1000, tries, NULL);
	printf("through read(2): empty %llu, loop %llu\n", (unsigned long long)e, (unsigned long long)l);
	LAB_CHECK(l - e == 2001, "loop of 1000: %llu, expected 2001", (unsigned long long)(l - e));
	pmu_set_close(s);
	pmu_ctx_free(ctx);
	lab_user_access(1);
	return lab_done("lab-access");
}
