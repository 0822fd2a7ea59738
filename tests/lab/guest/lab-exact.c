/* SPDX-License-Identifier: MIT */
/*
 * Exact counts on a real kernel with an emulated PMU (-icount shift=0 makes
 * instruction counts deterministic).
 *
 * 1. The user page offers a fast read (cap_user_rdpmc, index != 0) for
 *    instructions:u and cycles:u, and the fast value equals read(2) taken
 *    right after it, minus the user instructions between the two reads (which
 *    is itself measured exactly: fast-then-fast around nothing).
 * 2. INST.RET, user only, around lab_loop_N() is exactly 2N+1 more than around
 *    lab_loop_empty(). Calibration: the reads' own instructions and the call
 *    are the same in both measurements, so they cancel; the check is
 *      count(loop_N) - count(loop_empty) == 2N + 1
 *    and count(loop_empty) itself is the same in every repetition (each
 *    measurement: one warm-up run, then the minimum of three).
 *    Done on the inline fast path, the exported twin, pmu_set_read and the
 *    read(2) path.
 */
#include "labutil.h"

LAB_LOOP(1)
LAB_LOOP(10)
LAB_LOOP(1000)
LAB_LOOP(2000)

typedef int (*reader)(struct pmu_set *s, struct pmu_value *v);

static int rd_inline(struct pmu_set *s, struct pmu_value *v) { return pmu_fast_read(pmu_set_fast(s), v); }
static int rd_twin(struct pmu_set *s, struct pmu_value *v) { return pmu_fast_read_fn(pmu_set_fast(s), v); }

/* count of event 0 around body(): run once unmeasured so the emulator has
 * translated the code, then the minimum of three measurements (an interrupt
 * can only add instructions, on guests whose PMU does not filter kernel mode) */
static uint64_t measure(struct pmu_set *s, reader rd, void (*body)(void))
{
	struct pmu_value a[2], b[2];
	uint64_t best = UINT64_MAX;

	rd(s, a);
	body();
	rd(s, b);
	for (int i = 0; i < 3; i++) {
		rd(s, a);
		body();
		rd(s, b);
		if (b[0].value - a[0].value < best)
			best = b[0].value - a[0].value;
	}
	return best;
}

static void exact(struct pmu_set *s, reader rd, const char *how)
{
	static void (*const loops[])(void) = { lab_loop_1, lab_loop_10, lab_loop_1000, lab_loop_2000 };
	static const uint64_t n[] = { 1, 10, 1000, 2000 };
	uint64_t empty = measure(s, rd, lab_loop_empty), again;

	for (int rep = 0; rep < 3; rep++) {
		again = measure(s, rd, lab_loop_empty);
		LAB_CHECK(again == empty, "%s: empty region %llu then %llu instructions (not deterministic)", how,
			  (unsigned long long)empty, (unsigned long long)again);
	}
	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		uint64_t c = measure(s, rd, loops[i]);
		LAB_CHECK(c - empty == 2 * n[i] + 1, "%s: loop of %llu: %llu - %llu = %llu, expected %llu", how,
			  (unsigned long long)n[i], (unsigned long long)c, (unsigned long long)empty,
			  (unsigned long long)(c - empty), (unsigned long long)(2 * n[i] + 1));
	}
	printf("%s: empty region %llu instructions, loops exact\n", how, (unsigned long long)empty);
}

int main(void)
{
	struct pmu_ctx *ctx = lab_ctx();
	struct pmu_caps caps;
	struct pmu_set *s;
	struct pmu_value v[2], w[2], x[2];
	const struct pmu_fast *f;
	int r;

	pmu_caps(ctx, &caps);
	printf("cpu %s, core PMU %s, perf_user_access %d, fast_read %d\n", caps.cpuid, caps.core_pmu,
	       caps.user_access, caps.fast_read);
	LAB_CHECK(caps.hw_pmu, "no hardware PMU detected in the guest");
	LAB_CHECK(caps.fast_read, "fast reads not reported available");

	r = pmu_set_open(ctx, "instructions:u,cycles:u", NULL, &s);
	if (r < 0) {
		printf("FAIL: open: %s\n", pmu_strerror(r));
		return 1;
	}
	pmu_set_enable(s);
	f = pmu_set_fast(s);
	for (int i = 0; i < 2; i++) {
		const struct perf_event_mmap_page *pg = f->pages[i];
		LAB_CHECK(pg != NULL, "event %d has no user page", i);
		if (!pg)
			continue;
		printf("event %d: index %u pmc_width %u cap_user_rdpmc %u cap_user_time %u short %u\n", i, pg->index,
		       pg->pmc_width, (unsigned)pg->cap_user_rdpmc, (unsigned)pg->cap_user_time,
		       (unsigned)pg->cap_user_time_short);
		LAB_CHECK(pg->cap_user_rdpmc && pg->index, "event %d cannot be read from user space", i);
		LAB_CHECK(pmu_page_read(pg, &v[i]) == 0, "pmu_page_read did not take the fast path");
	}
	/* the plan's per-group flag is private since PMU_FAST_ABI 3: a group of
	 * the owner's hardware events is planned for user space when every
	 * member has its page in the plan */
	LAB_CHECK(f->pages[0] && f->pages[1], "groups not marked fast");

	/* fast vs read(2), back to back: the difference is the user instructions
	 * between the two reads, measured the same way (fast, fast) */
	{
		/* The gap between two reads is the instructions of one read (plus,
		 * where the PMU does not filter kernel mode, the system call's).
		 * fast-then-read(2) must equal the gap of the same pair measured
		 * the other way round (read(2)-then-read(2) minus its own extra),
		 * i.e. both paths see the same counter value at the same point. */
		uint64_t gap_ff, gap_fs, gap_ss;
		rd_inline(s, v);
		rd_inline(s, w);
		gap_ff = w[0].value - v[0].value;
		rd_inline(s, v);
		pmu_set_read_syscall(s, w);
		gap_fs = w[0].value - v[0].value;
		pmu_set_read_syscall(s, v);
		pmu_set_read_syscall(s, x);
		gap_ss = x[0].value - v[0].value;
		printf("instructions between reads: fast->fast %llu, fast->read(2) %llu, read(2)->read(2) %llu\n",
		       (unsigned long long)gap_ff, (unsigned long long)gap_fs, (unsigned long long)gap_ss);
		LAB_CHECK(gap_fs <= gap_ss + gap_ff, "read(2) after a fast read is %llu ahead: not the same counter",
			  (unsigned long long)gap_fs);
		rd_inline(s, v);
		pmu_set_read_syscall(s, w);
		LAB_CHECK(w[1].value >= v[1].value, "cycles: read(2) %llu < fast %llu", (unsigned long long)w[1].value,
			  (unsigned long long)v[1].value);
		/* all entry points agree in order: inline <= twin <= set_read, each one read apart */
		rd_inline(s, v);
		rd_twin(s, w);
		pmu_set_read(s, x);
		LAB_CHECK(v[0].value < w[0].value && w[0].value < x[0].value && x[0].value - v[0].value < 3 * gap_ff,
			  "inline %llu, twin %llu, set_read %llu", (unsigned long long)v[0].value,
			  (unsigned long long)w[0].value, (unsigned long long)x[0].value);
		/* time extrapolation: enabled == running (not multiplexed) and rising */
		LAB_CHECK(x[0].enabled == x[0].running && x[0].enabled >= v[0].enabled,
			  "times: enabled %llu running %llu", (unsigned long long)x[0].enabled,
			  (unsigned long long)x[0].running);
	}

	exact(s, rd_inline, "inline pmu_fast_read");
	exact(s, rd_twin, "exported pmu_fast_read_fn");
	exact(s, pmu_set_read, "pmu_set_read");
	exact(s, pmu_set_read_syscall, "read(2)");

	/* disabled: index 0, values through read(2), stable */
	pmu_set_disable(s);
	LAB_CHECK(pmu_page_read(f->pages[0], &v[0]) == 1, "disabled event still readable from user space");
	pmu_set_read(s, v);
	lab_loop_1000();
	pmu_set_read(s, w);
	LAB_CHECK(v[0].value == w[0].value, "disabled set counted %llu", (unsigned long long)(w[0].value - v[0].value));
	pmu_set_close(s);
	pmu_ctx_free(ctx);
	return lab_done("lab-exact");
}
