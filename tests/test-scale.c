/* SPDX-License-Identifier: MIT */
/* pmu_delta, pmu_scale, pmu_confidence: hand-computed vectors. */
#include <stdint.h>
#include <pmu.h>
#include "harness.h"

static uint64_t sc(uint64_t v, uint64_t e, uint64_t r)
{
	struct pmu_value x = { v, e, r };
	return pmu_scale(&x);
}

int main(void)
{
	struct pmu_value a[2] = { { 10, 100, 100 }, { UINT64_MAX - 5, 7, 3 } };
	struct pmu_value b[2] = { { 25, 300, 200 }, { 4, 17, 8 } };
	struct pmu_value d[2];

	/* not multiplexed: unchanged, including 0/0 (no time known) */
	CHECK(sc(12345, 1000, 1000) == 12345, "equal times");
	CHECK(sc(777, 0, 0) == 777, "no time information");
	/* never on a counter */
	CHECK(sc(0, 1000, 0) == 0, "never ran");
	/* 1000 * 3 / 2 = 1500 exactly */
	CHECK(sc(1000, 3, 2) == 1500, "exact");
	/* running > enabled cannot happen in the kernel; treated as exact */
	CHECK(sc(10, 2, 3) == 10, "running > enabled");
	CHECK(sc(10, 3, 2) == 15, "10*3/2");
	CHECK(sc(10, 9, 3) == 30, "10*9/3");
	CHECK(sc(10, 10, 3) == 33, "33.33 rounds down");
	CHECK(sc(10, 20, 3) == 67, "66.67 rounds up");
	CHECK(sc(5, 3, 2) == 8, "7.5 rounds half up");
	/* needs 128 bits: 2^40 * 2^30 / 2^20 = 2^50 */
	CHECK(sc(1ull << 40, 1ull << 30, 1ull << 20) == 1ull << 50, "128-bit intermediate");
	/* (2^63) * 4 / 2 = 2^64 -> saturates */
	CHECK(sc(1ull << 63, 4, 2) == UINT64_MAX, "saturation");
	CHECK(sc(UINT64_MAX, UINT64_MAX, UINT64_MAX - 1) == UINT64_MAX, "saturation near max");

	{
		struct pmu_value v = { 10, 100, 25 };
		CHECK(pmu_confidence(&v) == 0.25, "confidence 0.25");
		v.running = 0;
		CHECK(pmu_confidence(&v) == 0.0, "confidence never ran");
		v.running = 100;
		CHECK(pmu_confidence(&v) == 1.0, "confidence exact");
		v.enabled = v.running = 0;
		CHECK(pmu_confidence(&v) == 1.0, "confidence without times");
	}

	pmu_delta(a, b, 2, d);
	CHECK(d[0].value == 15 && d[0].enabled == 200 && d[0].running == 100, "delta");
	/* a 64-bit wrap: (UINT64_MAX - 5) -> 4 is 10 events */
	CHECK(d[1].value == 10 && d[1].enabled == 10 && d[1].running == 5, "delta across wrap");
	CHECK(pmu_scale(&d[0]) == 30, "scaled delta 15*200/100");
	/* aliasing output with input */
	pmu_delta(a, b, 2, b);
	CHECK(b[0].value == 15 && b[1].value == 10, "delta in place");
	return test_done("test-scale");
}
