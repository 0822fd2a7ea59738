/* SPDX-License-Identifier: MIT */
/*
 * The lab's native twin of PAPI's high-level header (tests/lab/guest/lab-compat.c): PAPI's own
 * high_level.c compiled a second time, unchanged, against this header instead of libpmu-papi's, so
 * that its region calls are libpmu's pmu_region_begin and pmu_region_end called from the example's
 * own code (the events from $PMU_EVENTS). What the twin counts is what the layer's run must count.
 */
#ifndef LAB_NATIVE_PAPI_H
#define LAB_NATIVE_PAPI_H
#include <pmu.h>

#define PAPI_OK 0
#define PAPI_MAX_STR_LEN 128
#define PAPI_hl_region_begin(region) pmu_region_begin(region)
#define PAPI_hl_region_end(region) pmu_region_end(region)
#define PAPI_hl_read(region) PAPI_OK
#define PAPI_hl_stop() PAPI_OK
#endif
