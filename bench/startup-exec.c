/* SPDX-License-Identifier: MIT */
/*
 * bench/startup-exec: a whole short-lived program, timed by bench/startup from exec to exit. Built
 * three ways by bench/startup.sh: -DWITH_LIBPMU (linked with libpmu.so: a context for Skylake-X and
 * the 10 names), -DWITH_LIBPFM (linked with libpfm4: pfm_initialize and the same 10 events), and
 * neither (an empty main: the cost of exec and exit alone). Exit 0 only if every name was encoded.
 * With an argument, it also prints the microseconds from just before the context (pmu_ctx_new,
 * pfm_initialize) to just after the tenth name (CLOCK_MONOTONIC): the first context of a fresh
 * program, with no parent's pages to copy on write, as a forked child has; then the minor page faults
 * taken over the same span (getrusage). bench/startup-pages.sh runs it under valgrind's lackey and
 * counts the pages first touched between pages_begin() and pages_end() (the same span, the clock and
 * fault counter calls outside it); with PAGES_MAPS set, the program writes its /proc/self/maps there
 * at exit, to name each page's mapping.
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
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/resource.h>
#include "startup-names.h"
#include "startup-meter.h"

/* the span's markers for bench/startup-pages.py (found by name in a non-PIE build) */
__attribute__((noinline)) void pages_begin(void)
{
	__asm__ volatile("");
}

__attribute__((noinline)) void pages_end(void)
{
	__asm__ volatile("");
}

static void write_maps(void)
{
	const char *to = getenv("PAGES_MAPS");
	FILE *in, *out;
	char line[512];

	if (!to || !(in = fopen("/proc/self/maps", "r")))
		return;
	if ((out = fopen(to, "w"))) {
		while (fgets(line, sizeof(line), in))
			fputs(line, out);
		fclose(out);
	}
	fclose(in);
}

int main(int argc, char **argv)
{
	double t0 = now(), t1;
	long f0 = faults(), f1;
#ifdef WITH_LIBPMU
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx;
	struct pmu_event_info e;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.cpuid = "GenuineIntel-6-55-4";
	f0 = faults();
	t0 = now();
	pages_begin();
	if (pmu_ctx_new(&ctx, &o) < 0)
		return 1;
	for (int i = 0; i < 10; i++)
		if (pmu_event_resolve(ctx, names[i], &e) < 0)
			return 1;
	pages_end();
	t1 = now();
	f1 = faults();
	pmu_ctx_free(ctx);
#elif defined(WITH_LIBPFM)
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;

	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	f0 = faults();
	t0 = now();
	pages_begin();
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
	pages_end();
	t1 = now();
	f1 = faults();
	pfm_terminate();
#else
	(void)names;
	(void)pfm_names;
	pages_begin();
	pages_end();
	t1 = now();
	f1 = faults();
#endif
	if (argc > 1)
		printf("%.1f %ld\n", t1 - t0, f1 - f0);
	(void)argv;
	write_maps();
	return 0;
}
