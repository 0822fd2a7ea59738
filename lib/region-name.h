/* SPDX-License-Identifier: MIT */
/*
 * How a region's name is compared: by content, a byte at a time (a caller's buffer reused for another
 * name is another region). One copy, used by the region files (region.h) and by the floor the region
 * benchmark measures them against (bench/region-floor.h), so that the floor by name compares exactly
 * as the library does.
 */
#ifndef PMU_REGION_NAME_H
#define PMU_REGION_NAME_H

#include <stdbool.h>

/* The caller's @name equals the slot's copy @own: an inline byte loop (region names are short; a call
 * of strcmp costs more than the loop). It reads no byte of @name past its first difference from @own,
 * so never past the end of @name. */
static inline bool pmu__region_name_eq(const char *own, const char *name)
{
	while (*own == *name) {
		if (!*own)
			return true;
		own++;
		name++;
	}
	return false;
}

#endif
