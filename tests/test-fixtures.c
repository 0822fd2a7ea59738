/* SPDX-License-Identifier: MIT */
/* CPU and PMU detection on sysfs/procfs trees copied from real machines
 * (tests/fixtures/<machine>/{sys,proc}); each fixture's EXPECT file states
 * what libpmu must find, and encodings computed by hand from its format files. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <pmu.h>
#include "harness.h"

static const char *arch_names[] = { "unknown", "x86", "arm64", "riscv" };

static void check_encode(struct pmu_ctx *ctx, const char *m, char *line)
{
	/* "<event> type=N config=0x.. [config1=0x..]" */
	char *ev = strtok(line, " "), *tok;
	struct pmu_event_info e;
	int r = pmu_event_resolve(ctx, ev, &e);

	CHECK(r == 0, "%s: '%s' does not resolve: %s", m, ev, pmu_strerror(r));
	if (r)
		return;
	while ((tok = strtok(NULL, " "))) {
		char *eq = strchr(tok, '=');
		unsigned long long want, got;
		if (!eq)
			continue;
		*eq = 0;
		want = strtoull(eq + 1, NULL, 0);
		if (!strcmp(tok, "type"))
			got = e.type;
		else if (!strcmp(tok, "config"))
			got = e.config;
		else if (!strcmp(tok, "config1"))
			got = e.config1;
		else if (!strcmp(tok, "config2"))
			got = e.config2;
		else {
			CHECK(0, "%s: unknown key '%s' in EXPECT", m, tok);
			continue;
		}
		CHECK(got == want, "%s: '%s' %s = 0x%llx, expected 0x%llx", m, ev, tok, got, want);
	}
}

static int machine(const char *root, const char *m)
{
	char path[1024], sys[1024], proc[1024], line[512], advice[4096];
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx;
	struct pmu_caps c;
	FILE *f;
	int r, encodes = 0;

	snprintf(path, sizeof(path), "%s/%s/EXPECT", root, m);
	if (!(f = fopen(path, "r")))
		return 0;
	snprintf(sys, sizeof(sys), "%s/%s/sys", root, m);
	snprintf(proc, sizeof(proc), "%s/%s/proc", root, m);
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.sysfs_root = sys;
	o.procfs_root = proc;
	r = pmu_ctx_new(&ctx, &o);
	CHECK(r == 0, "%s: context: %s", m, pmu_strerror(r));
	if (r) {
		fclose(f);
		return 1;
	}
	pmu_caps(ctx, &c);
	pmu_advice(ctx, advice, sizeof(advice));
	while (fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '='), *v;
		line[strcspn(line, "\n")] = 0;
		if (!eq || line[0] == '#')
			continue;
		*eq = 0;
		v = eq + 1;
		if (!strcmp(line, "arch"))
			CHECK(!strcmp(arch_names[c.arch], v), "%s: arch %s, expected %s", m, arch_names[c.arch], v);
		else if (!strcmp(line, "cpuid"))
			CHECK(!strcasecmp(c.cpuid, v), "%s: cpuid %s, expected %s", m, c.cpuid, v);
		else if (!strcmp(line, "core_pmu"))
			CHECK(!strcmp(c.core_pmu, v), "%s: core PMU '%s', expected '%s'", m, c.core_pmu, v);
		else if (!strcmp(line, "hw_pmu"))
			CHECK(c.hw_pmu == atoi(v), "%s: hw_pmu %d, expected %s", m, c.hw_pmu, v);
		else if (!strcmp(line, "hybrid"))
			CHECK(c.hybrid == atoi(v), "%s: hybrid %d, expected %s", m, c.hybrid, v);
		else if (!strcmp(line, "n_pmus"))
			CHECK((int)c.n_pmus == atoi(v), "%s: %u PMUs, expected %s", m, c.n_pmus, v);
		else if (!strcmp(line, "paranoid"))
			CHECK(c.paranoid == atoi(v), "%s: paranoid %d, expected %s", m, c.paranoid, v);
		else if (!strncmp(line, "encode.", 7)) {
			check_encode(ctx, m, v);
			encodes++;
		}
	}
	fclose(f);
	CHECK(encodes >= 2, "%s: EXPECT has %d encodings, want at least 2", m, encodes);
	/* what pmu info says about the hardware */
	if (c.hw_pmu)
		CHECK(!strstr(advice, "No hardware PMU"), "%s: advice claims no PMU", m);
	else
		CHECK(strstr(advice, "No hardware PMU is exposed") != NULL, "%s: advice does not say there is no PMU",
		      m);
	if (c.arch == PMU_ARCH_ARM64 && c.user_access == 0)
		CHECK(strstr(advice, "perf_user_access=1") != NULL, "%s: advice lacks perf_user_access fix", m);
	if (c.paranoid == 2)
		CHECK(strstr(advice, "perf_event_paranoid=2") != NULL, "%s: advice lacks paranoid", m);
	/* arm64: the identity is sysfs's midr_el1, /proc/cpuinfo unread (a procfs without it, the same id) */
	pmu_ctx_free(ctx);
	if (c.arch == PMU_ARCH_ARM64) {
		char id[sizeof(c.cpuid)], none[1100];
		snprintf(id, sizeof(id), "%s", c.cpuid);
		snprintf(none, sizeof(none), "%s/%s/no-procfs-here", root, m);
		o.procfs_root = none;
		CHECK(pmu_ctx_new(&ctx, &o) == 0, "%s: context without procfs", m);
		pmu_caps(ctx, &c);
		CHECK(c.arch == PMU_ARCH_ARM64 && !strcmp(c.cpuid, id), "%s: without /proc/cpuinfo: %s %s, expected arm64 %s",
		      m, arch_names[c.arch], c.cpuid, id);
		pmu_ctx_free(ctx);
		o.procfs_root = proc;
	}
	/* overriding the CPU identity keeps the PMUs, changes the id */
	o.cpuid = "GenuineIntel-6-55-4";
	CHECK(pmu_ctx_new(&ctx, &o) == 0, "%s: override", m);
	pmu_caps(ctx, &c);
	CHECK(!strcmp(c.cpuid, "GenuineIntel-6-55-4") && c.cpuid_overridden && c.arch == PMU_ARCH_X86,
	      "%s: override gives %s", m, c.cpuid);
	pmu_ctx_free(ctx);
	printf("%s: ok\n", m);
	return 1;
}

int main(void)
{
	const char *src = getenv("PMU_TEST_SRCDIR");
	char root[1024];
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(root, sizeof(root), "%s/tests/fixtures", src ? src : ".");
	if (!(d = opendir(root))) {
		fprintf(stderr, "no fixtures at %s\n", root);
		return 1;
	}
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n += machine(root, e->d_name);
	closedir(d);
	CHECK(n >= 6, "found %d fixture machines, expected at least 6", n);

	/* malformed identities are refused with the accepted forms named */
	{
		struct pmu_ctx_opts o;
		struct pmu_ctx *ctx = NULL;
		const char *bad[] = { "GenuineIntel", "GenuineIntel-x-55", "0xZZ", "0x1-0x2", "-6-55", "Intel-6-55-4-9" };
		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			o.cpuid = bad[i];
			int r = pmu_ctx_new(&ctx, &o);
			CHECK(r == -EINVAL && strstr(pmu_strerror(r), "Vendor-Family-Model"), "cpuid '%s' refused (%d)",
			      bad[i], r);
		}
		/* well-formed ones of each architecture */
		o.cpuid = "0x00000000410fd0c0";
		CHECK(pmu_ctx_new(&ctx, &o) == 0, "arm64 MIDR accepted");
		{
			struct pmu_caps c;
			pmu_caps(ctx, &c);
			CHECK(c.arch == PMU_ARCH_ARM64 && !strcmp(c.cpuid, "0x00000000410fd0c0"), "arm64 id %s", c.cpuid);
		}
		pmu_ctx_free(ctx);
		o.cpuid = "0x489-0x8000000000000007-0x4210427";
		CHECK(pmu_ctx_new(&ctx, &o) == 0, "riscv id accepted");
		{
			struct pmu_caps c;
			pmu_caps(ctx, &c);
			CHECK(c.arch == PMU_ARCH_RISCV && !strcmp(c.cpuid, "0x489-0x8000000000000007-0x4210427"),
			      "riscv id %s", c.cpuid);
		}
		pmu_ctx_free(ctx);
	}
	return test_done("test-fixtures");
}
