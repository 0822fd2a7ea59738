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

	/* QEMU 7.2's riscv PMU advances only one counter per event type (seen:
	 * the second of two enabled instructions counters stays 0): with such a
	 * PMU, duplicate events cannot show multiplexing. Check, don't assume. */
	{
		struct pmu_set *two;
		struct pmu_value t0[2], t1[2];
		struct pmu_set_opts o;
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.flags = PMU_SET_ENABLE;
		if (pmu_set_open(ctx, "instructions:u,instructions:u", &o, &two) == 0) {
			pmu_set_read(two, t0);
			lab_spin(100000);
			pmu_set_read(two, t1);
			pmu_set_close(two);
			if (t1[0].value == t0[0].value || t1[1].value == t0[1].value)
				LAB_SKIP("this PMU advances only one of two identical events at a time (%llu and %llu over a "
					 "200000-instruction loop): duplicate events cannot demonstrate multiplexing here",
					 (unsigned long long)(t1[0].value - t0[0].value),
					 (unsigned long long)(t1[1].value - t0[1].value));
		}
	}
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
