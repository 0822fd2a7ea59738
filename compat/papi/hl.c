/* SPDX-License-Identifier: MIT */
/* PAPI's high-level API (papi.h) over libpmu's regions; $PAPI_EVENTS read at the first call. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../compat.h"
#include "papi.h"

#define LAYER "libpmu-papi"
#define EXPORT __attribute__((visibility("default")))

/* PAPI's default set (its high-level API's), as far as this machine counts it: a name it does not know,
 * or a hardware event without a hardware PMU, is left out; of the last three, the first known */
static const char *const default_events[] = {"perf::TASK-CLOCK", "PAPI_TOT_INS", "PAPI_TOT_CYC", "PAPI_FP_INS",
					     "PAPI_FP_OPS", "PAPI_DP_OPS", "PAPI_SP_OPS"};
#define DEFAULT_OPS 4 /* default_events[4..6]: one of them */

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int setup_err;

static int papi_error(int r)
{
	switch (r) {
	case 0:
		return PAPI_OK;
	case -EINVAL:
		return PAPI_EINVAL;
	case -ENOMEM:
		return PAPI_ENOMEM;
	case -ENOENT:
		return PAPI_ENOEVNT;
	case -EACCES:
	case -EPERM:
		return PAPI_EPERM;
	default:
		return r > -4096 && r < 0 ? PAPI_ESYS : PAPI_EMISC;
	}
}

/* $PAPI_EVENTS as libpmu's list: PAPI's per-event suffix "=instant" (a sampled event) is refused */
static void setup(void)
{
	const char *env = getenv("PAPI_EVENTS");
	const char *fix = "set it to presets ('pmu list PAPI_') or native events ('pmu list') of this machine";
	char list[1024] = "";
	struct pmu_ctx *ctx = NULL;
	struct pmu_event_info info;
	struct pmu_caps caps;
	int ops = 0;

	if (getenv("PAPI_OUTPUT_DIRECTORY") || getenv("PAPI_REPORT"))
		compat_say(LAYER, "PAPI_OUTPUT_DIRECTORY and PAPI_REPORT are not read: the report is libpmu's, "
			   "written where PMU_OUTPUT says (default stderr) in PMU_FORMAT (text, json, csv)");
	if (env && *env) {
		if (strchr(env, '=')) {
			compat_say(LAYER, "PAPI_EVENTS='%s': libpmu counts each event over the region ('=instant' "
				   "is PAPI's sampling); %s", env, fix);
			setup_err = PAPI_EINVAL;
			return;
		}
		setup_err = papi_error(compat_configure(LAYER, "PAPI_EVENTS", env, env, fix));
		return;
	}
	if (pmu_ctx_new(&ctx, NULL) == 0 && pmu_caps(ctx, &caps) == 0) {
		for (size_t i = 0; i < sizeof(default_events) / sizeof(*default_events); i++) {
			if (pmu_event_resolve(ctx, default_events[i], &info) < 0 ||
			    (!caps.hw_pmu && info.type != PERF_TYPE_SOFTWARE) || (i >= DEFAULT_OPS && ops++))
				continue;
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", *list ? "," : "",
				 default_events[i]);
		}
	}
	pmu_ctx_free(ctx);
	if (*list)
		setup_err = papi_error(compat_configure(LAYER, "PAPI's default events", list, list,
							"set PAPI_EVENTS or PMU_EVENTS to events this machine counts"));
}

/* pmu_region_begin (@begin) or pmu_region_end of @region, the thread's record of being inside it kept;
 * that record is looked up before the begin and after the end, outside what the region counts (the
 * counts are those of the same code calling libpmu directly, but for the calls' frames:
 * tests/lab/guest/lab-compat.c) */
static int hl_call(const char *region, int begin)
{
	struct compat_tag *t;
	int r;

	pthread_once(&once, setup);
	if (setup_err)
		return setup_err;
	t = begin && region ? compat_tag(region, 1) : NULL;
	r = begin ? pmu_region_begin(region) : pmu_region_end(region);
	if (!begin && region)
		t = compat_tag(region, 0);
	if (r == 0 && t)
		t->open = begin;
	return papi_error(r);
}

EXPORT int PAPI_hl_region_begin(const char *region)
{
	return hl_call(region, 1);
}

EXPORT int PAPI_hl_region_end(const char *region)
{
	return hl_call(region, 0);
}

EXPORT int PAPI_hl_read(const char *region)
{
	struct compat_tag *t = region ? compat_tag(region, 0) : NULL;

	if (!region || !*region)
		return PAPI_EINVAL;
	return t && t->open ? PAPI_OK : PAPI_ENOTRUN;
}

EXPORT int PAPI_hl_stop(void)
{
	return papi_error(compat_close(LAYER));
}
