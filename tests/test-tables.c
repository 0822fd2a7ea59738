/* SPDX-License-Identifier: MIT */
/*
 * Event tables: the shipped tables validate clean (Intel's own data, x86/intel/, noted differing from
 * libpfm4 only where perf's tree does, as tests/perf-corpus-libpfm4.txt lists it); files in the structure of
 * perf's x86 and RISC-V trees and of Intel's perfmon files load unchanged and
 * resolve to the codes they state; every deliberately broken table in
 * tests/tables/broken/ is caught with the problem named (EXPECT).
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <pmu.h>
#include "harness.h"
#include "perf-libpfm4.h"

static char src[512];

struct probs {
	int n;
	char text[8192];
};

static void collect(void *data, const char *file, const char *entry, const char *msg)
{
	struct probs *p = data;
	size_t l = strlen(p->text);
	p->n++;
	snprintf(p->text + l, sizeof(p->text) - l, "%s: %s: %s\n", file, entry ? entry : "-", msg);
}

/* A problem of the shipped tables that is no problem of theirs: an event of Intel's perfmon data
 * (x86/intel/DIR, the version perf 6.12's DIR was made from) encoded otherwise than libpfm4 encodes its
 * name, where perf's own DIR differs from libpfm4 the same way: tests/perf-corpus-libpfm4.txt lists
 * it (dir, event, libpmu's config, libpfm4's), checked against perf's tree by perf-corpus.py. */
static bool perf_differs_too(const char *file, const char *entry, const char *msg)
{
	const char *d = strstr(file, "/events/x86/intel/"), *m = strstr(msg, "encoding config=");
	const char *pf = strstr(msg, "differs from libpfm4's ");
	char dir[64];
	unsigned long long ours, theirs;

	if (!d || !m || !pf || !entry || sscanf(d + 18, "%63[^/]", dir) != 1 ||
	    sscanf(m, "encoding config=%llx", &ours) != 1 || !(pf = strstr(pf, ": config=")) ||
	    sscanf(pf, ": config=%llx", &theirs) != 1)
		return false;
	return perf_libpfm4_listed(src, dir, entry, ours, theirs);
}

static int perf_known; /* the shipped tables' libpfm4 differences perf's tree has too */

static void collect_shipped(void *data, const char *file, const char *entry, const char *msg)
{
	if (perf_differs_too(file, entry, msg))
		perf_known++;
	else if (strncmp(msg, "note: ", 6) || strstr(msg, "libpfm4"))
		collect(data, file, entry, msg); /* a problem, or a libpfm4 difference perf's tree does not have */
}

static struct pmu_ctx *ctx_for(const char *cpuid, const char *events_path)
{
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx = NULL;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.cpuid = cpuid;
	o.events_path = events_path;
	if (pmu_ctx_new(&ctx, &o) < 0)
		return NULL;
	return ctx;
}

static void resolves(struct pmu_ctx *ctx, const char *name, uint64_t config, uint64_t config1, int source)
{
	struct pmu_event_info e;
	int r = pmu_event_resolve(ctx, name, &e);
	CHECK(r == 0, "'%s': %s", name, pmu_strerror(r));
	if (r)
		return;
	CHECK(e.config == config && e.config1 == config1 && e.source == source,
	      "'%s': config 0x%llx config1 0x%llx source %d (%s), expected 0x%llx 0x%llx %d", name,
	      (unsigned long long)e.config, (unsigned long long)e.config1, e.source, e.origin,
	      (unsigned long long)config, (unsigned long long)config1, source);
}

static int read_expect(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 1;
}

int main(void)
{
	extern char **environ;
	char **env0 = environ;   /* libpfm4's set-up must leave the environment as it was */
	const int inactive0 = getenv("LIBPFM_ENCODE_INACTIVE") != NULL;
	char path[1024];
	struct pmu_ctx *ctx;
	struct probs p;
	const char *s = getenv("PMU_TEST_SRCDIR");
	int r;

	snprintf(src, sizeof(src), "%s", s ? s : ".");
	ctx = ctx_for(NULL, NULL);
	if (!ctx)
		return 1;

	/* 1. the shipped tables are clean */
	memset(&p, 0, sizeof(p));
	snprintf(path, sizeof(path), "%s/events", src);
	r = pmu_tables_check(ctx, path, collect_shipped, &p);
	CHECK(r == 0 && p.n == 0 && perf_known > 0, "shipped tables: %d problems, %d libpfm4 differences of Intel's data "
	      "that perf's tree has too, these others:\n%s", r, perf_known, p.text);
	printf("shipped tables: no problem; %d notes of Intel's data differing from libpfm4, each as perf's tree does\n",
	       perf_known);

	/* 2. perf / perfmon structures validate and load unchanged */
	const char *fixtures[] = { "perf-x86", "perf-riscv", "intel-perfmon" };
	for (size_t i = 0; i < 3; i++) {
		memset(&p, 0, sizeof(p));
		snprintf(path, sizeof(path), "%s/tests/tables/%s", src, fixtures[i]);
		r = pmu_tables_check(ctx, path, collect, &p);
		CHECK(r == 0, "%s: %d problems:\n%s", fixtures[i], r, p.text);
	}
	pmu_ctx_free(ctx);

	/* a mapfile row of two directories, "x86/own+x86/vendor": both loaded, a name the first defines is the
	 * first's (events/README.md); each directory checked by pmu tables_check */
	snprintf(path, sizeof(path), "%s/tests/tables/two-dirs", src);
	memset(&p, 0, sizeof(p));
	if ((ctx = ctx_for(NULL, NULL))) {
		r = pmu_tables_check(ctx, path, collect, &p);
		CHECK(r == 0, "two-dirs: %d problems:\n%s", r, p.text);
		pmu_ctx_free(ctx);
	}
	if ((ctx = ctx_for("GenuineIntel-6-55-4", path))) {
		struct pmu_caps c;
		pmu_caps(ctx, &c);
		CHECK(!strcmp(c.events_table, "x86/own+x86/vendor"), "two-dirs chosen for 6-55-4: '%s'", c.events_table);
		resolves(ctx, "SHARED.EVENT", 0x0110, 0, PMU_SRC_TABLE);
		resolves(ctx, "OWN.ONLY", 0x0211, 0, PMU_SRC_TABLE);
		resolves(ctx, "VENDOR.ONLY", 0x0812, 0, PMU_SRC_TABLE);
		pmu_ctx_free(ctx);
	}

	snprintf(path, sizeof(path), "%s/tests/tables/perf-x86", src);
	if ((ctx = ctx_for("GenuineIntel-6-55-4", path))) {
		struct pmu_caps c;
		pmu_caps(ctx, &c);
		CHECK(!strcmp(c.events_table, "skylakex") && !strcmp(c.events_table_root, path),
		      "perf-x86 chosen for 6-55-4: '%s' from '%s'", c.events_table, c.events_table_root);
		/* Intel layout: event | umask << 8 | cmask << 24; offcore MSR value in config1 */
		resolves(ctx, "MEM_LOAD_RETIRED.L1_HIT", 0x01d1, 0, PMU_SRC_TABLE);
		resolves(ctx, "mem_load_retired.l3_miss", 0x20d1, 0, PMU_SRC_TABLE);
		resolves(ctx, "L1D_PEND_MISS.PENDING_CYCLES", 0x1000148, 0, PMU_SRC_TABLE);
		resolves(ctx, "OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_HIT.ANY_SNOOP", 0x01b7, 0x3FC01C0001ull, PMU_SRC_TABLE);
		{
			struct pmu_event_info e;
			r = pmu_event_resolve(ctx, "fixture_l1_share", &e);
			CHECK(r == -EINVAL && strstr(pmu_strerror(r), "is a metric"), "metric used as an event: %s",
			      pmu_strerror(r));
		}
		pmu_ctx_free(ctx);
	}
	/* a stepping the mapfile does not list selects nothing */
	if ((ctx = ctx_for("GenuineIntel-6-55-7", path))) {
		struct pmu_caps c;
		pmu_caps(ctx, &c);
		CHECK(strcmp(c.events_table, "skylakex") != 0, "6-55-7 must not match [01234]");
		pmu_ctx_free(ctx);
	}
	snprintf(path, sizeof(path), "%s/tests/tables/perf-riscv", src);
	if ((ctx = ctx_for("0x489-0x8000000000000007-0x4210427", path))) {
		resolves(ctx, "INTEGER_LOAD_RETIRED", 0x200, 0, PMU_SRC_TABLE);
		/* ArchStdEvent filled from the architecture-level file */
		resolves(ctx, "FW_MISALIGNED_STORE", 0x8000000000000001ull, 0, PMU_SRC_TABLE);
		pmu_ctx_free(ctx);
	}
	snprintf(path, sizeof(path), "%s/tests/tables/intel-perfmon", src);
	if ((ctx = ctx_for("GenuineIntel-6-55-4", path))) {
		/* a flat directory applies to every CPU */
		resolves(ctx, "MEM_LOAD_RETIRED.L1_MISS", 0x08d1, 0, PMU_SRC_TABLE);
		/* Intel's modifiers (perfmon metric files use them): event 0x0e umask 0x01, cmask << 24,
		 * edge << 18, inv << 23, umask override << 8 */
		resolves(ctx, "UOPS_ISSUED.ANY:c1", 0x100010e, 0, PMU_SRC_TABLE);
		resolves(ctx, "UOPS_ISSUED.ANY:c1:e1:i1", 0x184010e, 0, PMU_SRC_TABLE);
		resolves(ctx, "UOPS_ISSUED.ANY:u0x02", 0x020e, 0, PMU_SRC_TABLE);
		resolves(ctx, "UOPS_ISSUED.ANY:c=4:u", 0x400010e, 0, PMU_SRC_TABLE);
		{
			struct pmu_event_info e;
			r = pmu_event_resolve(ctx, "UOPS_ISSUED.ANY:c1:u", &e);
			CHECK(r == 0 && (e.flags & PMU_EVF_EXCL_KERNEL) && !(e.flags & PMU_EVF_EXCL_USER),
			      "perf's :u among Intel's: %d flags 0x%x", r, e.flags);
			r = pmu_event_resolve(ctx, "UOPS_ISSUED.ANY:c256", &e);
			CHECK(r == -EINVAL && strstr(pmu_strerror(r), "'c256' is not a modifier"), "cmask 256: %s",
			      pmu_strerror(r));
			r = pmu_event_resolve(ctx, "UOPS_ISSUED.ANY:q", &e);
			CHECK(r == -EINVAL && strstr(pmu_strerror(r), "'q' is not a modifier"), ":q: %s", pmu_strerror(r));
		}
		/* perfmon metric files: aliases replaced, constants mapped, thresholds by LegacyName */
		{
			struct pmu_metric_info mi;
			struct pmu_named_value v[] = {
				{ "CPU_CLK_UNHALTED.THREAD_P", 3000 }, { "INST_RETIRED.ANY_P", 1000 },
				{ "UOPS_ISSUED.ANY:c1", 1200 }, { "L1D.REPLACEMENT", 1000 }, { "duration_time", 0.5 },
				{ "UOPS_ISSUED.ANY", 5000 },
			};
			double x = 0;
			int crossed = -1;
			r = pmu_metric_info(ctx, "issue_cycles", &mi);
			CHECK(r == 0 && !strcmp(mi.expr, "100 * ( UOPS_ISSUED.ANY:c1 / ( CPU_CLK_UNHALTED.THREAD_P ) )") &&
			      !strcmp(mi.threshold, "issue_cycles < 50 & cpi > 1") && !strcmp(mi.scale_unit, "1%") &&
			      !strcmp(mi.group, "Frontend;Fixture"),
			      "issue_cycles: %d expr '%s' threshold '%s' unit '%s' group '%s'", r, r ? "" : mi.expr,
			      r ? "" : mi.threshold, r ? "" : mi.scale_unit, r ? "" : mi.group);
			r = pmu_metric_eval(ctx, "cpi", v, 6, &x);
			CHECK(r == 0 && x == 3.0, "cpi 3000/1000: %d %g", r, x);
			r = pmu_metric_eval(ctx, "issue_cycles", v, 6, &x);
			CHECK(r == 0 && x == 40.0, "issue_cycles 100*1200/3000: %d %g", r, x);
			r = pmu_metric_threshold(ctx, "issue_cycles", v, 6, &crossed);
			CHECK(r == 0 && crossed == 1, "threshold 40 < 50 & 3 > 1: %d %d", r, crossed);
			/* (5000 - 1000) / 3000 */
			r = pmu_metric_eval(ctx, "issue_excess", v, 6, &x);
			CHECK(r == 0 && fabs(x - 4000.0 / 3000.0) < 1e-12, "issue_excess: %d %g", r, x);
			/* constants: THREADS_PER_CORE = #smt_on + 1, SYSTEM_TSC_FREQ needs -D system_tsc_freq */
			r = pmu_metric_eval(ctx, "l1d_replacements_per_core_second", v, 6, &x);
			CHECK(r < 0 && strstr(pmu_strerror(r), "system_tsc_freq"), "no TSC frequency: %d %s", r,
			      pmu_strerror(r));
			pmu_ctx_set_param(ctx, "smt_on", 1);
			pmu_ctx_set_param(ctx, "system_tsc_freq", 2e9);
			r = pmu_metric_eval(ctx, "l1d_replacements_per_core_second", v, 6, &x);
			CHECK(r == 0 && x == 4000.0, "1000 * 2 / 0.5 s: %d %g", r, x);
		}
		pmu_ctx_free(ctx);
	}

	/* perfmon's constants, a metric of 70 aliases, a metric named 4K_Aliasing, PERF_METRICS events
	 * (tests/tables/intel-perfmon/skylakex_metrics_more.json; values by hand) */
	if ((ctx = ctx_for("GenuineIntel-6-55-4", path))) {
		struct pmu_named_value v[] = {
			{ "INST_RETIRED.ANY_P", 1000 }, { "duration_time", 0.5 }, { "L1D.REPLACEMENT", 1000 },
			{ "CPU_CLK_UNHALTED.THREAD_P", 3000 }, { "topdown-retiring", 300 }, { "topdown-be-bound", 100 },
		};
		struct pmu_metric_info mi;
		double x = 0;
		int crossed = -1;
		pmu_ctx_set_param(ctx, "smt_on", 1);
		pmu_ctx_set_param(ctx, "num_cpus_online", 16);
		pmu_ctx_set_param(ctx, "chas_per_socket", 3);
		/* 1000 * 20 / (0.5 s * 1000) = 40 ('a > = 0' holds), 16 CPUs * 1000, 3 CHAs * 100, SMT on * 10 */
		r = pmu_metric_eval(ctx, "const_mix", v, 6, &x);
		CHECK(r == 0 && fabs(x - (40 + 16000 + 300 + 10)) < 1e-9, "const_mix: %d %s %g", r, r ? pmu_strerror(r) : "",
		      x);
		r = pmu_metric_info(ctx, "const_mix", &mi);
		CHECK(r == 0 && strstr(mi.expr, "(20)") && strstr(mi.expr, "(duration_time * 1000)") &&
		      strstr(mi.expr, "#smt_on") && strstr(mi.expr, "#num_cpus_online") && strstr(mi.expr, "#chas_per_socket") &&
		      strstr(mi.expr, ">="), "const_mix expr: %s", r ? pmu_strerror(r) : mi.expr);
		r = pmu_metric_eval(ctx, "many_aliases", v, 6, &x);
		CHECK(r == 0 && x == 70 * 1000.0, "70 aliases: %d %s %g", r, r ? pmu_strerror(r) : "", x);
		/* 100 * 1000 / 3000, its threshold 'a > 20' written as 4K_Aliasing > 20 */
		r = pmu_metric_eval(ctx, "4K_Aliasing", v, 6, &x);
		CHECK(r == 0 && fabs(x - 100.0 / 3) < 1e-9, "4K_Aliasing: %d %s %g", r, r ? pmu_strerror(r) : "", x);
		r = pmu_metric_threshold(ctx, "4K_Aliasing", v, 6, &crossed);
		CHECK(r == 0 && crossed == 1, "4K_Aliasing > 20: %d %s %d", r, r ? pmu_strerror(r) : "", crossed);
		/* 100 * 300 / (300 + 100) */
		r = pmu_metric_eval(ctx, "topdown_share", v, 6, &x);
		CHECK(r == 0 && x == 75.0, "topdown_share: %d %s %g", r, r ? pmu_strerror(r) : "", x);
		pmu_ctx_free(ctx);
	}

	/* 3. every Intel encoding equals the libpfm4 reference recorded in
	 *    tests/tables/intel/expected-encodings.txt (made by make-expected.sh) */
	{
		static const struct { const char *dir, *cpuid; } models[] = {
			{ "ivybridge", "GenuineIntel-6-3A-9" }, { "haswell", "GenuineIntel-6-3C-3" },
			{ "broadwell", "GenuineIntel-6-3D-4" }, { "skylake", "GenuineIntel-6-5E-3" },
			{ "skylakex", "GenuineIntel-6-55-4" }, { "icelake", "GenuineIntel-6-7E-5" },
			{ "icelakex", "GenuineIntel-6-6A-6" }, { "sapphirerapids", "GenuineIntel-6-8F-8" },
		};
		char line[512];
		FILE *f;
		int lines = 0;
		snprintf(path, sizeof(path), "%s/tests/tables/intel/expected-encodings.txt", src);
		f = fopen(path, "r");
		CHECK(f != NULL, "no %s", path);
		while (f && fgets(line, sizeof(line), f)) {
			char dir[64], ev[160];
			unsigned long long cfg;
			const char *cpuid = NULL;
			if (line[0] == '#' || sscanf(line, "%63s %159s config=%llx", dir, ev, &cfg) != 3)
				continue;
			for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
				if (!strcmp(models[i].dir, dir))
					cpuid = models[i].cpuid;
			CHECK(cpuid != NULL, "unknown directory %s", dir);
			if (!cpuid)
				continue;
			if ((ctx = ctx_for(cpuid, NULL))) {
				struct pmu_event_info e;
				r = pmu_event_resolve(ctx, ev, &e);
				CHECK(r == 0 && e.source == PMU_SRC_TABLE && e.config == cfg,
				      "%s %s: %s config 0x%llx (%s), libpfm4 says 0x%llx", dir, ev, r ? pmu_strerror(r) : "",
				      (unsigned long long)e.config, e.origin, cfg);
				pmu_ctx_free(ctx);
				lines++;
			}
		}
		if (f)
			fclose(f);
		CHECK(lines >= 140, "only %d reference encodings checked", lines);
		printf("%d Intel encodings equal the libpfm4 reference\n", lines);
	}

	/* 4. broken tables: each problem found and named */
	ctx = ctx_for(NULL, NULL);
	snprintf(path, sizeof(path), "%s/tests/tables/broken", src);
	{
		DIR *d = opendir(path);
		struct dirent *de;
		int cases = 0;
		CHECK(d != NULL, "no %s", path);
		while (d && (de = readdir(d))) {
			char dir[1200], exp[256], f[1300];
			int libpfm_only = 0;
			if (de->d_name[0] == '.')
				continue;
			snprintf(dir, sizeof(dir), "%s/%s", path, de->d_name);
			snprintf(f, sizeof(f), "%s/EXPECT", dir);
			if (!read_expect(f, exp, sizeof(exp))) {
				snprintf(f, sizeof(f), "%s/EXPECT_LIBPFM", dir);
				if (!read_expect(f, exp, sizeof(exp)))
					continue;
				libpfm_only = 1;
			}
			memset(&p, 0, sizeof(p));
			r = pmu_tables_check(ctx, dir, collect, &p);
#if !HAVE_LIBPFM
			if (libpfm_only) {
				printf("%s: skipped (built without libpfm4)\n", de->d_name);
				continue;
			}
#else
			(void)libpfm_only;
#endif
			cases++;
			CHECK(r >= 1, "broken/%s: no problem found", de->d_name);
			CHECK(strstr(p.text, exp) != NULL, "broken/%s: problems do not mention '%s':\n%s", de->d_name, exp,
			      p.text);
			printf("broken/%-28s %s", de->d_name, p.text);
		}
		if (d)
			closedir(d);
		CHECK(cases >= 18, "only %d broken cases ran", cases);
	}
	CHECK(pmu_tables_check(ctx, "/nonexistent/dir", NULL, NULL) == -ENOENT, "missing directory");
	pmu_ctx_free(ctx);
	CHECK(environ == env0 && (getenv("LIBPFM_ENCODE_INACTIVE") != NULL) == inactive0,
	      "the environment changed: environ %p -> %p, LIBPFM_ENCODE_INACTIVE %s", (void *)env0, (void *)environ,
	      getenv("LIBPFM_ENCODE_INACTIVE") ? getenv("LIBPFM_ENCODE_INACTIVE") : "(unset)");
	return test_done("test-tables");
}
