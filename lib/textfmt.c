/* SPDX-License-Identifier: MIT */
/* How counts and metric units are written for people: digit groups, perf's ScaleUnit, the cells of
 * a region table. Compiled into the library (its region report) and into the pmu command (stat
 * and report), so both print the same way. Depends only on the public header. */
#include <inttypes.h>
#include <stdlib.h>
#include "pmu.h"
#include "textfmt.h"

void pmu__group_digits(uint64_t v, char *buf, size_t len)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%" PRIu64, v), o = 0;

	if (!len)
		return;
	for (int i = 0; i < n && (size_t)o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = 0;
}

double pmu__scale_unit(const char *su, const char **unit)
{
	char *end;
	double f;

	*unit = "";
	if (!su || !*su)
		return 1;
	f = strtod(su, &end);
	if (end == su)
		return *unit = su, 1;
	*unit = end;
	return f;
}

int pmu__text_name_width(int longest)
{
	return longest > PMU_TEXT_NAMEW ? longest : PMU_TEXT_NAMEW;
}

int pmu__text_col_width(size_t label_len)
{
	return label_len > PMU_TEXT_COLW ? (int)label_len : PMU_TEXT_COLW;
}

int pmu__text_count_cell(FILE *f, int w, const struct pmu_value *v)
{
	char num[40];
	int scaled;

	if (!v) {
		fprintf(f, " %*s", w, "<not counted>");
		return 0;
	}
	scaled = pmu_confidence(v) < 1.0;
	pmu__group_digits(pmu_scale(v), num, sizeof(num));
	fprintf(f, " %*s%s", w - 1, num, scaled ? "*" : " ");
	return scaled;
}
