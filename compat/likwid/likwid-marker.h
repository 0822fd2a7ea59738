/* SPDX-License-Identifier: MIT */
/* libpmu's LIKWID marker layer (libpmu-likwid): LIKWID's marker API over libpmu's regions, so that
 * code instrumented for LIKWID builds and runs unchanged against libpmu. Counted events come from
 * $LIKWID_EVENTS (a performance group, "MEM_DP", or "EVENT:COUNTER,..." as likwid-perfctr -g takes
 * them), else $PMU_EVENTS; the report is libpmu's region report ($PMU_OUTPUT, $PMU_FORMAT). No
 * access daemon and no likwid-perfctr are needed. See doc/migration-likwid.md.
 *
 * Installed as <libpmu/likwid/likwid-marker.h>, found as <likwid-marker.h> through
 * `pkg-config --cflags libpmu-likwid`, which also defines LIKWID_PERFMON. Without LIKWID_PERFMON
 * the macros expand to nothing, as LIKWID's do. */
#ifndef PMU_LIKWID_MARKER_H
#define PMU_LIKWID_MARKER_H

#ifdef __cplusplus
extern "C" {
#endif

/* Reads $LIKWID_EVENTS (else $PMU_EVENTS) and sets libpmu's region events; a bad value is said once on
 * stderr, naming it and the fix, and the region calls then return a negative errno. Call once, before
 * any region. */
void likwid_markerInit(void);
/* Nothing to do: libpmu opens a thread's events at its first region call. */
void likwid_markerThreadInit(void);
/* libpmu counts one group: with several in $LIKWID_EVENTS ("A|B") the first is counted throughout
 * (said once at init); this does nothing. */
void likwid_markerNextGroup(void);
/* Writes libpmu's region report now ($PMU_OUTPUT, $PMU_FORMAT) and clears the regions. */
void likwid_markerClose(void);
/* Opens the calling thread's events and its slot for @regionTag. Returns 0 or a negative errno. */
int likwid_markerRegisterRegion(const char *regionTag);
/* pmu_region_begin / pmu_region_end of @regionTag in the calling thread. 0 or a negative errno. */
int likwid_markerStartRegion(const char *regionTag);
int likwid_markerStopRegion(const char *regionTag);
/* From now on likwid_markerGetRegion() of @regionTag in the calling thread counts from zero; the
 * region report at close still has the calls before it. 0, or -ENOENT (no completed call here). */
int likwid_markerResetRegion(const char *regionTag);
/* The calling thread's counts of @regionTag: *@nr_events (in: the room of @events, out: the number
 * written) values in the order of the events, *@time the seconds spent inside, *@count the calls.
 * A region the thread has not completed gives 0 events, 0 s, 0 calls. */
void likwid_markerGetRegion(const char *regionTag, int *nr_events, double *events, double *time, int *count);

#ifdef __cplusplus
}
#endif

#ifdef LIKWID_PERFMON
#define LIKWID_MARKER_INIT likwid_markerInit()
#define LIKWID_MARKER_THREADINIT likwid_markerThreadInit()
#define LIKWID_MARKER_SWITCH likwid_markerNextGroup()
#define LIKWID_MARKER_REGISTER(tag) likwid_markerRegisterRegion(tag)
#define LIKWID_MARKER_START(tag) likwid_markerStartRegion(tag)
#define LIKWID_MARKER_STOP(tag) likwid_markerStopRegion(tag)
#define LIKWID_MARKER_CLOSE likwid_markerClose()
#define LIKWID_MARKER_RESET(tag) likwid_markerResetRegion(tag)
#define LIKWID_MARKER_GET(tag, nevents, events, time, count) likwid_markerGetRegion(tag, nevents, events, time, count)
#else
#define LIKWID_MARKER_INIT
#define LIKWID_MARKER_THREADINIT
#define LIKWID_MARKER_SWITCH
#define LIKWID_MARKER_REGISTER(tag)
#define LIKWID_MARKER_START(tag)
#define LIKWID_MARKER_STOP(tag)
#define LIKWID_MARKER_CLOSE
#define LIKWID_MARKER_RESET(tag)
#define LIKWID_MARKER_GET(tag, nevents, events, time, count)
#endif

#endif
