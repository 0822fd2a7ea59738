/* SPDX-License-Identifier: MIT */
/* Fuzz target: pmu report's reader (tools/report-read.c, schema-check.c,
 * report-sum.c, report-merge.c): the bounds taken before parsing, strict
 * JSON, the schemas' checks, and the sums, each document added twice (a
 * second file with the same names), and whether a row's sum counts a
 * package twice (saved_stat_overlap). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "report-merge.h"
#include "report-read.h"
#include "report-sum.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *err = NULL;
	enum report_kind kind;
	json_object *doc;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0; /* report_parse() wants the NUL after the text */
	if (report_parse("fuzz", text, size, &doc, &kind, &err) == 0) {
		if (kind == REPORT_STAT) {
			struct saved_stat s;
			memset(&s, 0, sizeof(s));
			for (int i = 0; i < 2; i++) {
				free(err);
				err = NULL;
				saved_stat_add(&s, "fuzz", doc, &err);
			}
			/* the sums' verdict per row: two files counted at once are two files that were added */
			for (size_t k = 0; k < s.rows.n; k++) {
				int a = -1, b = -1;
				if (saved_stat_overlap(&s, s.rows.v[k].info.name, &a, &b) == SUM_OVERLAP &&
				    !(a >= 0 && a < b && b < s.files))
					abort();
			}
			saved_stat_free(&s);
		} else {
			struct saved_regions r;
			memset(&r, 0, sizeof(r));
			for (int i = 0; i < 2; i++) {
				free(err);
				err = NULL;
				saved_regions_add(&r, "fuzz", doc, &err);
			}
			saved_regions_free(&r);
		}
		json_object_put(doc);
	}
	free(err);
	free(text);
	return 0;
}
