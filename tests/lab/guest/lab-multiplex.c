/* SPDX-License-Identifier: MIT */
/*
 * More events than counters: the kernel multiplexes. Each event counts the
 * same thing (user instructions) so the truth is known: a loop of 2N
 * instructions. Checks: some events ran only part of the time (running <
 * enabled) and report confidence < 1; at a read during counting some user
 * pages show index 0 and pmu_set_read falls back to read(2) for them; every
 * scaled value is within 10% of the truth and every raw value below it.
 */
#include "labutil.h"

#define NEV 40
#define LOOP 100000000ull

int main(void)
{
	struct pmu_ctx *ctx = lab_ctx();
	struct pmu_set *s;
	struct pmu_value a[NEV], b[NEV], d[NEV];
	char list[NEV * 16] = "";
	const struct pmu_fast *f;
	int r, idx0 = 0, partial = 0;

	lab_skip_unless_duplicates_count(ctx);
	for (int i = 0; i < NEV; i++)
		strcat(list, i ? ",instructions:u" : "instructions:u");
	r = pmu_set_open(ctx, list, NULL, &s);
	if (r < 0) {
		printf("FAIL: open %d events: %s\n", NEV, pmu_strerror(r));
		return 1;
	}
	f = pmu_set_fast(s);
	pmu_set_enable(s);
	pmu_set_read(s, a);
	lab_spin(LOOP);
	for (int i = 0; i < NEV; i++) {
		struct pmu_value v;
		if (pmu_page_read(f->pages[i], &v) == 1)
			idx0++;
	}
	pmu_set_read(s, b);
	pmu_delta(a, b, NEV, d);
	for (int i = 0; i < NEV; i++) {
		uint64_t sc = pmu_scale(&d[i]);
		double c = pmu_confidence(&d[i]), err = ((double)sc - 2.0 * LOOP) / (2.0 * LOOP);
		if (d[i].running < d[i].enabled)
			partial++;
		LAB_CHECK(d[i].value <= 2 * LOOP + 1000, "event %d raw %llu exceeds the truth", i,
			  (unsigned long long)d[i].value);
		LAB_CHECK(c > 0 && (d[i].running < d[i].enabled ? c < 1.0 : c == 1.0), "event %d confidence %.3f", i, c);
		LAB_CHECK(err > -0.10 && err < 0.10, "event %d scaled %llu vs truth %llu (%.1f%%, confidence %.2f)", i,
			  (unsigned long long)sc, 2 * LOOP, err * 100, c);
		if (i < 3 || i == NEV - 1)
			printf("event %2d: raw %llu scaled %llu confidence %.3f (%+.2f%%)\n", i,
			       (unsigned long long)d[i].value, (unsigned long long)sc, c, err * 100);
	}
	printf("%d of %d events multiplexed; %d user pages at index 0 during counting\n", partial, NEV, idx0);
	LAB_CHECK(partial > 0, "no event was multiplexed: more counters than %d?", NEV);
	LAB_CHECK(idx0 > 0, "every event was on a counter at once: no fallback exercised");
	pmu_set_close(s);
	pmu_ctx_free(ctx);
	return lab_done("lab-multiplex");
}
