/* SPDX-License-Identifier: MIT */
/*
 * A libpfm4 whose getenv() libpmu cannot answer (tests/pfm-shim.c: libpfm4's functions, forwarding to
 * libpfm.so.4, with no getenv() of its own) encodes this machine's PMUs only, and libpmu says so where
 * another CPU's name is asked for, instead of calling it unknown: the error names the cause, the file and
 * what to do. Its own PMUs still encode (libpfm4's perf::, which every machine has), the table validator
 * does not compare the other CPU's table with it (and says so), and the environment is left alone.
 * tests/test-pfm-host-only SHIM
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <pmu.h>
#include "harness.h"
#include "pfm-probe.h"

extern char **environ;

static char logged[65536];

static void on_log(void *data, int level, const char *msg)
{
	(void)data, (void)level;
	if (strlen(logged) + strlen(msg) + 2 < sizeof(logged)) {
		strcat(logged, msg);
		strcat(logged, "\n");
	}
}

static void on_problem(void *data, const char *file, const char *entry, const char *msg)
{
	(void)data, (void)file, (void)entry, (void)msg;
}

/* family 6 model 0x55 */

int main(int argc, char **argv)
{
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx = NULL;
	struct pmu_event_info e;
	const char *msg, *src = getenv("PMU_TEST_SRCDIR");
	char dir[1024];
	int r;

#if !HAVE_LIBPFM
	SKIP("built without libpfm4 (-Dlibpfm=disabled)");
#endif
#if !defined(__x86_64__)
	SKIP("the other CPU this test asks libpfm4 for is an x86 one; this is not an x86-64 build");
#endif
	if (argc < 2)
		SKIP("usage: test-pfm-host-only SHIM (meson gives it)");
	if (skylake_sp())
		SKIP("this machine is a Skylake-SP or Cascade Lake (libpfm4's skx or clx): the other CPU would be its own");
	setenv("PMU_LIBPFM", argv[1], 1);
	unsetenv("LIBPFM_ENCODE_INACTIVE");
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.log_fn = on_log;
	o.log_level = PMU_LOG_INFO;
	o.cpuid = "GenuineIntel-6-55-4"; /* Skylake-SP: libpfm4's skx, which this machine is not (else skip) */
	CHECK(pmu_ctx_new(&ctx, &o) == 0, "context: %s", pmu_strerror(-1));
	if (!ctx)
		return test_done("test-pfm-host-only");
	r = pmu_event_resolve(ctx, "perf::PERF_COUNT_HW_INSTRUCTIONS", &e);
	CHECK(r == 0 && e.source == PMU_SRC_LIBPFM && e.type == 0 && e.config == 1,
	      "libpfm4's perf::PERF_COUNT_HW_INSTRUCTIONS: %d %s type %u config %#llx", r, r ? pmu_strerror(r) : "",
	      e.type, (unsigned long long)e.config);
	r = pmu_event_resolve(ctx, "skx::L1D:REPLACEMENT", &e);
	msg = pmu_strerror(r);
	printf("skx::L1D:REPLACEMENT: %s\n", msg);
	CHECK(r == -EINVAL, "skx::L1D:REPLACEMENT through the shim: %d (%s)", r, msg);
	CHECK(strstr(msg, "libpfm4 encodes this machine's PMUs only, not skx") && strstr(msg, argv[1]) &&
	      strstr(msg, "calls no getenv()") && strstr(msg, "encode it on a machine with that CPU"),
	      "the error names the cause, the file and the fix: %s", msg);
	r = pmu_event_resolve(ctx, "L1D:REPLACEMENT", &e);
	CHECK(r == -EINVAL && strstr(pmu_strerror(r), "not skx"), "L1D:REPLACEMENT as CPU %s: %d (%s)", o.cpuid, r,
	      pmu_strerror(r));
	snprintf(dir, sizeof(dir), "%s/events", src ? src : ".");
	logged[0] = 0;
	pmu_tables_check(ctx, dir, on_problem, NULL);
	CHECK(strstr(logged, "x86/skylakex: encodings not compared with libpfm4: it has PMU skx but encodes this "
		      "machine's PMUs only here (") && strstr(logged, "calls no getenv()"),
	      "pmu_tables_check compared x86/skylakex with a libpfm4 that cannot encode it, or gave another reason "
	      "(not \"has no PMU\"): %s", logged);
	for (char **v = environ; *v; v++)
		CHECK(strncmp(*v, "LIBPFM_", 7) != 0, "libpfm4's variable in the environment: %s", *v);
	pmu_ctx_free(ctx);
	return test_done("test-pfm-host-only");
}
