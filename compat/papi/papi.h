/* SPDX-License-Identifier: MIT */
/* libpmu's PAPI high-level layer (libpmu-papi): PAPI's high-level region calls over libpmu's
 * regions, so that code instrumented with PAPI_hl_region_begin/end builds and runs unchanged
 * against libpmu. Only the high-level API is declared here. Events come from $PAPI_EVENTS (presets
 * such as PAPI_TOT_INS, native names), else PAPI's default set as far as this machine counts it;
 * the report is libpmu's region report ($PMU_OUTPUT, $PMU_FORMAT). See doc/migration-papi.md.
 *
 * Installed as <libpmu/papi/papi.h>, found as "papi.h" through `pkg-config --cflags libpmu-papi`. */
#ifndef PMU_PAPI_H
#define PMU_PAPI_H

#ifdef __cplusplus
extern "C" {
#endif

/* PAPI's return codes, with PAPI's values, of those these calls return */
#define PAPI_OK 0          /* success */
#define PAPI_EINVAL -1     /* a bad argument: a NULL or empty name, end without begin */
#define PAPI_ENOMEM -2     /* out of memory */
#define PAPI_ESYS -3       /* a system call failed (opening the events) */
#define PAPI_ENOEVNT -7    /* an event of $PAPI_EVENTS that this machine does not know (said on stderr) */
#define PAPI_ENOTRUN -9    /* PAPI_hl_read of a region the thread is not inside */
#define PAPI_EPERM -15     /* the kernel refused the events (perf_event_paranoid) */
#define PAPI_EMISC -14     /* any other failure */

#define PAPI_MAX_STR_LEN 128 /* PAPI's length of a name buffer, which programs size arrays with */

/* pmu_region_begin(@region) / pmu_region_end(@region) in the calling thread; the first call of the
 * process reads $PAPI_EVENTS. Returns PAPI_OK or an error above. */
int PAPI_hl_region_begin(const char *region);
int PAPI_hl_region_end(const char *region);
/* PAPI keeps a read of an open region apart in its report; libpmu's regions do not: checks that the
 * calling thread is inside @region (PAPI_ENOTRUN if not) and records nothing. */
int PAPI_hl_read(const char *region);
/* Writes libpmu's region report now and clears the regions (no second report at exit). */
int PAPI_hl_stop(void);

#ifdef __cplusplus
}
#endif

#endif
