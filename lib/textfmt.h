/* SPDX-License-Identifier: MIT */
/* How counts and metric units are written for people, the same in the library's region report
 * and the pmu command (lib/textfmt.c is compiled into both: one rule, one source). */
#ifndef PMU_TEXTFMT_H
#define PMU_TEXTFMT_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pmu_value;

/* @v in decimal with a comma every three digits ("1,234,567") into @buf (cut to fit @len). */
void pmu__group_digits(uint64_t v, char *buf, size_t len);

/* perf's ScaleUnit "<factor><unit>" ("100%", "1per_kinst", "1e-9s"): returns the factor (1 when
 * @su is NULL, empty or starts with no number) and points *@unit at the unit ("" when none). */
double pmu__scale_unit(const char *su, const char **unit);

/* Region tables: the name column is as wide as the longest name, at least 28; a count column as
 * wide as its label, at least 18. */
enum { PMU_TEXT_NAMEW = 28, PMU_TEXT_COLW = 18 };
int pmu__text_name_width(int longest);
int pmu__text_col_width(size_t label_len);

/* One count cell of width @w: " 1,234,567*" (the star: multiplexed, scaled from part of the time)
 * or " <not counted>" when @v is NULL. Returns whether the count was scaled. */
int pmu__text_count_cell(FILE *f, int w, const struct pmu_value *v);

#endif
