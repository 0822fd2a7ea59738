/* SPDX-License-Identifier: MIT */
/*
 * bench/startup-exec: a whole short-lived program, timed by bench/startup from exec to exit. Built
 * three ways by bench/startup.sh: -DWITH_LIBPMU (linked with libpmu.so: a context for Skylake-X and
 * the 10 names), -DWITH_LIBPFM (linked with libpfm4: pfm_initialize and the same 10 events), and
 * neither (an empty main: the cost of exec and exit alone). Exit 0 only if every name was encoded.
 */
#ifdef WITH_LIBPMU
#include <pmu.h>
#include <string.h>
#endif
#ifdef WITH_LIBPFM
#include <perfmon/pfmlib_perf_event.h>
#include <stdlib.h>
#include <string.h>
#endif
#include "startup-names.h"

int main(void)
{
#ifdef WITH_LIBPMU
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx;
	struct pmu_event_info e;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.cpuid = "GenuineIntel-6-55-4";
	if (pmu_ctx_new(&ctx, &o) < 0)
		return 1;
	for (int i = 0; i < 10; i++)
		if (pmu_event_resolve(ctx, names[i], &e) < 0)
			return 1;
	pmu_ctx_free(ctx);
#elif defined(WITH_LIBPFM)
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;

	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	if (pfm_initialize() != PFM_SUCCESS)
		return 1;
	for (int i = 0; i < 10; i++) {
		memset(&arg, 0, sizeof(arg));
		memset(&attr, 0, sizeof(attr));
		arg.attr = &attr;
		arg.size = sizeof(arg);
		if (pfm_get_os_event_encoding(pfm_names[i], PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg) != PFM_SUCCESS)
			return 1;
	}
	pfm_terminate();
#else
	(void)names;
	(void)pfm_names;
#endif
	return 0;
}
