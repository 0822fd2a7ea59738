/* SPDX-License-Identifier: MIT */
/* pmu__edit_distance (the "did you mean" distance: case-insensitive,
 * saturated at a cap, computed only in the band |i - j| < cap) against the
 * full Levenshtein table written here, over random strings and caps. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pmu.h"
#include "editdist.h"
#include "harness.h"

static unsigned reference(const char *a, const char *b, unsigned cap)
{
	size_t la = strlen(a), lb = strlen(b);
	static unsigned d[PMU_NAME_MAX + 1][PMU_NAME_MAX + 1];

	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			unsigned sub = d[i - 1][j - 1] + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
			unsigned del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
			d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
	return d[la][lb] < cap ? d[la][lb] : cap;
}

static void random_name(char *s, size_t max, unsigned *seed)
{
	static const char alpha[] = "aAbBcC.._-01XyZ";
	size_t n = (size_t)(rand_r(seed) % (int)max);
	for (size_t i = 0; i < n; i++)
		s[i] = alpha[rand_r(seed) % (int)(sizeof(alpha) - 1)];
	s[n] = 0;
}

int main(void)
{
	unsigned seed = 12345, differ = 0, n = 0;
	char a[PMU_NAME_MAX + 1], b[PMU_NAME_MAX + 1];

	for (int k = 0; k < 20000; k++) {
		unsigned cap = 1 + (unsigned)(rand_r(&seed) % 40);
		random_name(a, k % 3 ? 24 : PMU_NAME_MAX, &seed);
		if (k % 4 == 0) {          /* a near miss of a: a few edits */
			strcpy(b, a);
			for (int e = rand_r(&seed) % 5; e > 0 && strlen(b) > 1; e--)
				b[rand_r(&seed) % (int)strlen(b)] = 'q';
		} else {
			random_name(b, k % 3 ? 24 : PMU_NAME_MAX, &seed);
		}
		unsigned got = pmu__edit_distance(a, b, cap), want = reference(a, b, cap);
		n++;
		if (got != want && differ++ < 5)
			CHECK(0, "'%s' / '%s' cap %u: %u, reference %u", a, b, cap, got, want);
	}
	CHECK(pmu__edit_distance("INST.RET", "inst.ret", 5) == 0, "case is ignored");
	CHECK(pmu__edit_distance("kitten", "sitting", 10) == 3, "kitten/sitting is 3");
	CHECK(pmu__edit_distance("kitten", "sitting", 3) == 3, "saturated at the cap");
	CHECK(pmu__edit_distance("", "abc", 10) == 3 && pmu__edit_distance("abc", "", 2) == 2, "empty strings");
	printf("%u pairs, %u differ from the full table\n", n, differ);
	CHECK(differ == 0, "%u differ", differ);
	return test_done("test-edit-distance");
}
