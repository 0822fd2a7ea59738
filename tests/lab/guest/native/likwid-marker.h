/* SPDX-License-Identifier: MIT */
/*
 * The lab's native twin of LIKWID's marker header (tests/lab/guest/lab-compat.c): LIKWID's own
 * C-markerAPI.c compiled a second time, unchanged, against this header instead of libpmu-likwid's,
 * so that its START and STOP are libpmu's pmu_region_begin and pmu_region_end called from the
 * example's own code (the events from $PMU_EVENTS). What the twin counts is what the layer's run
 * must count. GET gives no events (the twin has no layer to keep them).
 */
#ifndef LAB_NATIVE_LIKWID_MARKER_H
#define LAB_NATIVE_LIKWID_MARKER_H
#include <pmu.h>

#define LIKWID_MARKER_INIT
#define LIKWID_MARKER_THREADINIT
#define LIKWID_MARKER_SWITCH
#define LIKWID_MARKER_REGISTER(tag) pmu_region_get((tag), &(struct pmu_region *){ 0 })
#define LIKWID_MARKER_START(tag) pmu_region_begin(tag)
#define LIKWID_MARKER_STOP(tag) pmu_region_end(tag)
#define LIKWID_MARKER_GET(tag, nevents, events, time, count) (*(nevents) = 0, *(time) = 0, *(count) = 0)
#define LIKWID_MARKER_RESET(tag)
#define LIKWID_MARKER_CLOSE
#endif
