/* SPDX-License-Identifier: MIT */
/*
 * libpfm4 is loaded when a name first needs it, not with the library (linking it cost every program
 * about 0.8 ms and 290 page faults at start). Seen from outside, in /proc/self/maps: no libpfm after
 * a context is made and the standard, table and kernel names are resolved; libpfm.so after a name only
 * libpfm4 knows, whose encoding is the one Intel's manual gives (L1D.REPLACEMENT: event 0x51, umask
 * 0x01). Where it cannot be loaded ($PMU_LIBPFM naming a missing file) the unknown-name error says so
 * and how to fix it, and the failure is not kept: the next need loads it.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pmu.h>
#include "harness.h"
#include "pfm-probe.h"

#define PFM_ONLY "skx::L1D:REPLACEMENT" /* libpfm4's syntax: no table of this library spells it */

static char warned[65536]; /* the context's warnings, one per line */

static void on_log(void *data, int level, const char *msg)
{
	(void)data;
	if (level <= PMU_LOG_WARN && strlen(warned) + strlen(msg) + 2 < sizeof(warned)) {
		strcat(warned, msg);
		strcat(warned, "\n");
	}
}

static void on_problem(void *data, const char *file, const char *entry, const char *msg)
{
	(void)data, (void)file, (void)entry, (void)msg;
}

static struct pmu_ctx *skx(void)
{
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx = NULL;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.log_fn = on_log;
	o.cpuid = "GenuineIntel-6-55-4";
	if (pmu_ctx_new(&ctx, &o) < 0)
		return NULL;
	return ctx;
}

/* in a fresh child (nothing loaded yet): the file is missing, said; then it is there */
static int missing(void)
{
	struct pmu_event_info e;
	struct pmu_ctx *ctx = skx();
	const char *msg;
	int r;

	CHECK(ctx != NULL, "context: %s", pmu_strerror(-1));
	if (!ctx)
		return test_done("test-pfm-lazy (missing)");
	setenv("PMU_LIBPFM", "/nonexistent/libpfm.so.4", 1);
	r = pmu_event_resolve(ctx, PFM_ONLY, &e);
	msg = pmu_strerror(r);
	CHECK(r == -ENOENT, "%s without libpfm4: %d (%s)", PFM_ONLY, r, msg);
	CHECK(strstr(msg, "libpfm4") && strstr(msg, "cannot be loaded") && strstr(msg, "/nonexistent/libpfm.so.4") &&
	      strstr(msg, "install libpfm4"), "the error names libpfm4, the file and the fix: %s", msg);
	CHECK(!pfm_mapped(), "nothing mapped after the failed load");
	/* the table validator says it compared nothing with libpfm4, and why */
	{
		const char *src = getenv("PMU_TEST_SRCDIR");
		char dir[1024];
		snprintf(dir, sizeof(dir), "%s/events", src ? src : ".");
		warned[0] = 0;
		pmu_tables_check(ctx, dir, on_problem, NULL);
		CHECK(strstr(warned, "x86/skylakex: encodings not compared with libpfm4, which cannot be loaded") &&
		      strstr(warned, "install libpfm4"), "pmu_tables_check without libpfm4 warned: '%s'", warned);
	}
	CHECK(pmu_event_resolve(ctx, "INST.RET", &e) == 0, "a standard name still resolves: %s", pmu_strerror(-1));
	unsetenv("PMU_LIBPFM");
	r = pmu_event_resolve(ctx, PFM_ONLY, &e);
	CHECK(r == 0 && e.source == PMU_SRC_LIBPFM && (e.config & 0xffff) == 0x0151,
	      "the next need loads it (the failure is not kept): %d %s config %#llx", r, r ? pmu_strerror(r) : "",
	      (unsigned long long)e.config);
	pmu_ctx_free(ctx);
	return test_done("test-pfm-lazy (missing, then present)");
}

int main(void)
{
	static const char *plain[] = { "INST.RET", "GEN.CYCLES", "MEM_LOAD_RETIRED.L3_MISS", "cycles", "task-clock",
				       "L1-dcache-load-misses", "duration_time" };
	struct pmu_event_info e;
	struct pmu_ctx *ctx;
	int status = 0, r;
	pid_t pid;

#if !HAVE_LIBPFM
	SKIP("built without libpfm4 (-Dlibpfm=disabled): no libpfm4 to load");
#endif
	CHECK(!pfm_mapped(), "libpfm mapped before any context: the library links it");
	pid = fork();
	if (pid == 0) {
		status = missing();
		fflush(stdout);
		_exit(status);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the missing-libpfm4 child failed (its messages above)");
	ctx = skx();
	CHECK(ctx != NULL, "context: %s", pmu_strerror(-1));
	if (!ctx)
		return test_done("test-pfm-lazy");
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		CHECK(pmu_event_resolve(ctx, plain[i], &e) == 0, "%s: %s", plain[i], pmu_strerror(-1));
	CHECK(!pfm_mapped(), "libpfm mapped after a context and %zu names libpfm4 is not needed for",
	      sizeof(plain) / sizeof(plain[0]));
	r = pmu_event_resolve(ctx, PFM_ONLY, &e);
	CHECK(r == 0 && e.source == PMU_SRC_LIBPFM, "%s: %s", PFM_ONLY, r ? pmu_strerror(r) : "not libpfm4's");
	CHECK((e.config & 0xffff) == 0x0151, "%s: config %#llx, Intel's manual: event 0x51 umask 0x01",
	      PFM_ONLY, (unsigned long long)e.config);
	CHECK(pfm_mapped(), "libpfm not mapped after a name only libpfm4 knows");
	pmu_ctx_free(ctx);
	return test_done("test-pfm-lazy");
}
