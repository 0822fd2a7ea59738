/* SPDX-License-Identifier: MIT */
/* The "did you mean" distance (lib/editdist.c, compiled into the library and the pmu command). */
#ifndef PMU_EDITDIST_H
#define PMU_EDITDIST_H

/* Case-insensitive Levenshtein distance of two names of at most PMU_NAME_MAX characters, capped at
 * @cap (@cap for longer names). */
unsigned pmu__edit_distance(const char *a, const char *b, unsigned cap);

#endif
