/* SPDX-License-Identifier: MIT */
/* The "did you mean" distance between two names; compiled into the pmu command too (its commands). */
#include <ctype.h>
#include <string.h>
#include "editdist.h"
#include "../include/pmu.h"

unsigned pmu__edit_distance(const char *a, const char *b, unsigned cap)
{
	/* Levenshtein distance, case-insensitive, saturated at @cap. A cell
	 * (i, j) with |i - j| >= cap is at least cap, so only the band
	 * |i - j| < cap is computed (O(cap * |a|)); cells just outside it are
	 * kept at cap. */
	size_t la = strlen(a), lb = strlen(b);
	unsigned v0[PMU_NAME_MAX + 2], v1[PMU_NAME_MAX + 2], *prev = v0, *cur = v1;
	unsigned char lb_[PMU_NAME_MAX];

	if (la > PMU_NAME_MAX || lb > PMU_NAME_MAX || cap == 0 || (la > lb ? la - lb : lb - la) >= cap)
		return cap;
	for (size_t j = 0; j < lb; j++)
		lb_[j] = (unsigned char)tolower((unsigned char)b[j]);
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j < cap ? (unsigned)j : cap;
	for (size_t i = 1; i <= la; i++) {
		unsigned char ca = (unsigned char)tolower((unsigned char)a[i - 1]);
		size_t lo = i >= cap ? i - cap + 1 : 1, hi = i + cap - 1 < lb ? i + cap - 1 : lb;
		unsigned best;
		unsigned *t;
		cur[lo - 1] = lo == 1 ? (i < cap ? (unsigned)i : cap) : cap;
		best = cur[lo - 1];
		for (size_t j = lo; j <= hi; j++) {
			unsigned d = prev[j - 1] + (ca != lb_[j - 1]);
			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			cur[j] = d < cap ? d : cap;
			if (cur[j] < best)
				best = cur[j];
		}
		if (hi + 1 <= lb)
			cur[hi + 1] = cap;
		if (best >= cap)
			return cap;
		t = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb] < cap ? prev[lb] : cap;
}
