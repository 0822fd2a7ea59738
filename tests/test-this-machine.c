/* SPDX-License-Identifier: MIT */
/*
 * What a context learns about the machine it runs on, each fact against a second source:
 * - the CPU (x86: the cpuid instruction, as perf asks it, not /proc/cpuinfo, which the kernel formats
 *   for every CPU at each read) against the test's own reading of /proc/cpuinfo: perf's id
 *   Vendor-Family-Model-Stepping and the model name; with PMU_CPUID naming this CPU the name is kept,
 *   naming another it is not (not compared under valgrind, which answers cpuid with a CPU of its own).
 *   The kernel reads the brand string once, at boot: a virtual machine restored from a snapshot or
 *   moved to another host can answer the instruction otherwise since (seen: the kernel's "AMD EPYC"
 *   against "Oxide Virtual Turin-like Processor" padded with blanks to 48 bytes). So the name is
 *   compared with the test's own cpuid reading, trimmed as the kernel trims it, and with
 *   /proc/cpuinfo wherever that reading and the kernel's agree (said when they do not);
 * - the capabilities (capget(2) for /proc, one system call) against the CapEff line of
 *   /proc/self/status, which the library reads under another procfs root: a root holding a copy of
 *   this process's status gives the same answers, and written CapEff values the bits counted here by
 *   hand (CAP_SYS_ADMIN is bit 21, CAP_PERFMON bit 38).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "fixture.h"
#include "harness.h"
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

static char root[] = "/tmp/pmu-this-machine-XXXXXX";

/* "key : value" of cpuinfo's first block into @val; 0 if absent */
static int cpuinfo(const char *text, const char *key, char *val, size_t len)
{
	size_t kl = strlen(key);

	for (const char *p = text; p && *p && *p != '\n'; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *colon = strchr(p, ':'), *eol = strchr(p, '\n');
		size_t n;
		if (strncmp(p, key, kl) || !colon || (eol && colon > eol) || (p[kl] != '\t' && p[kl] != ' ' && p[kl] != ':'))
			continue;
		for (colon++; *colon == ' '; colon++)
			;
		n = (size_t)((eol ? eol : colon + strlen(colon)) - colon);
		n = n < len - 1 ? n : len - 1;
		memcpy(val, colon, n);
		val[n] = 0;
		return 1;
	}
	return 0;
}

static struct pmu_ctx *ctx_with(const char *cpuid, const char *procfs)
{
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx = NULL;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.cpuid = cpuid;
	o.procfs_root = procfs;
	return pmu_ctx_new(&ctx, &o) == 0 ? ctx : NULL;
}

static int caps_of(const char *cpuid, const char *procfs, struct pmu_caps *c)
{
	struct pmu_ctx *ctx = ctx_with(cpuid, procfs);
	int r = ctx ? pmu_caps(ctx, c) : -1;

	pmu_ctx_free(ctx);
	return r;
}

/* The brand string as the cpuid instruction gives it now, without the blanks before and the white space
 * after it, the kernel's trimming (get_model_name, arch/x86/kernel/cpu/common.c); "" elsewhere. */
static void brand_now(char *out, size_t len)
{
	*out = 0;
#if defined(__x86_64__) || defined(__i386__)
	{
		unsigned r[12], top, b, c, d;
		char s[49], *p = s;
		size_t n;
		if (!__get_cpuid(0x80000000, &top, &b, &c, &d) || top < 0x80000004)
			return;
		for (unsigned i = 0; i < 3; i++)
			__get_cpuid(0x80000002 + i, &r[4 * i], &r[4 * i + 1], &r[4 * i + 2], &r[4 * i + 3]);
		memcpy(s, r, 48);
		s[48] = 0;
		while (*p == ' ')
			p++;
		n = strlen(p);
		while (n && isspace((unsigned char)p[n - 1]))
			n--;
		p[n] = 0;
		snprintf(out, len, "%s", p);
	}
#endif
}

static void identity(void)
{
	static char text[1 << 16];
	char vendor[64], fam[16], model[16], step[16], name[128], want[64], now[64];
	struct pmu_caps c;
	size_t n;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f) {
		printf("identity: no /proc/cpuinfo: not compared\n");
		return;
	}
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = 0;
	fclose(f);
	if (!cpuinfo(text, "vendor_id", vendor, sizeof(vendor)) || !cpuinfo(text, "cpu family", fam, sizeof(fam)) ||
	    !cpuinfo(text, "model", model, sizeof(model)) || !cpuinfo(text, "stepping", step, sizeof(step))) {
		printf("identity: not an x86 cpuinfo (the library reads cpuinfo itself here): not compared\n");
		return;
	}
	if (!cpuinfo(text, "model name", name, sizeof(name)))
		name[0] = 0;
	if (getenv("LD_PRELOAD") && strstr(getenv("LD_PRELOAD"), "vgpreload")) {
		/* valgrind answers the cpuid instruction with a CPU of its own, as perf would see it there */
		printf("identity: under valgrind, whose cpuid instruction names its own CPU: not compared\n");
		return;
	}
	snprintf(want, sizeof(want), "%s-%s-%lX-%lX", vendor, fam, strtoul(model, NULL, 10), strtoul(step, NULL, 10));
	CHECK(caps_of(NULL, NULL, &c) == 0, "caps: %s", pmu_strerror(-1));
	CHECK(!strcmp(c.cpuid, want) && !c.cpuid_overridden, "this CPU: '%s', /proc/cpuinfo says '%s'", c.cpuid, want);
	brand_now(now, sizeof(now));
	if (strcmp(now, name))
		printf("identity: the cpuid instruction names this CPU '%s' now, the kernel named it '%s' at boot (a "
		       "virtual machine whose hypervisor answers otherwise since): the model name is compared with the "
		       "instruction's\n",
		       now, name);
	CHECK(!strcmp(c.cpu_name, now), "model name: '%s', the cpuid instruction says '%s' (trimmed; /proc/cpuinfo '%s')",
	      c.cpu_name, now, name);
	CHECK(caps_of(want, NULL, &c) == 0 && c.cpuid_overridden && !strcmp(c.cpu_name, now),
	      "PMU_CPUID naming this CPU keeps its name: '%s'", c.cpu_name);
	CHECK(caps_of(strcmp(want, "GenuineIntel-6-55-4") ? "GenuineIntel-6-55-4" : "GenuineIntel-6-55-5", NULL, &c) == 0 &&
	      c.cpuid_overridden && !c.cpu_name[0], "PMU_CPUID naming another CPU drops this one's name: '%s'", c.cpu_name);
	printf("identity: %s (%s), as /proc/cpuinfo%s says\n", want, now, strcmp(now, name) ? " (the id)" : "");
}

static void capabilities(void)
{
	static char status[1 << 16];
	char proc[1024];
	struct pmu_caps real, copy;
	long long paranoid = 0;
	size_t n;
	FILE *f = fopen("/proc/self/status", "r");

	CHECK(f != NULL, "/proc/self/status");
	if (!f)
		return;
	n = fread(status, 1, sizeof(status) - 1, f);
	status[n] = 0;
	fclose(f);
	CHECK(strstr(status, "CapEff:") != NULL, "/proc/self/status has CapEff");
	if ((f = fopen("/proc/sys/kernel/perf_event_paranoid", "r"))) {
		if (fscanf(f, "%lld", &paranoid) != 1)
			paranoid = 2;
		fclose(f);
	}
	{
		char p[32];
		snprintf(p, sizeof(p), "%lld\n", paranoid);
		fixture_put(root, "proc/sys/kernel/perf_event_paranoid", p);
	}
	fixture_put(root, "proc/self/status", status);
	snprintf(proc, sizeof(proc), "%s/proc", root);
	CHECK(caps_of("GenuineIntel-6-55-4", NULL, &real) == 0 && caps_of("GenuineIntel-6-55-4", proc, &copy) == 0,
	      "caps: %s", pmu_strerror(-1));
	CHECK(real.cap_sys_admin == copy.cap_sys_admin && real.cap_perfmon == copy.cap_perfmon &&
	      real.paranoid == copy.paranoid && real.can_count_kernel == copy.can_count_kernel,
	      "capget says sys_admin %d perfmon %d (paranoid %d, kernel %d), the CapEff line %d %d (%d, %d)",
	      real.cap_sys_admin, real.cap_perfmon, real.paranoid, real.can_count_kernel, copy.cap_sys_admin,
	      copy.cap_perfmon, copy.paranoid, copy.can_count_kernel);
	printf("capabilities: CAP_SYS_ADMIN %d, CAP_PERFMON %d both ways\n", real.cap_sys_admin, real.cap_perfmon);
	/* written values, read through the status file (paranoid 3: only a capability allows kernel mode) */
	fixture_put(root, "proc/sys/kernel/perf_event_paranoid", "3\n");
	fixture_put(root, "proc/self/status", "Name:\tx\nCapEff:\t0000004000000000\n");
	CHECK(caps_of("GenuineIntel-6-55-4", proc, &copy) == 0 && copy.cap_perfmon == 1 && copy.cap_sys_admin == 0 &&
	      copy.can_count_kernel == 1, "CapEff bit 38: perfmon %d sys_admin %d kernel %d", copy.cap_perfmon,
	      copy.cap_sys_admin, copy.can_count_kernel);
	fixture_put(root, "proc/self/status", "Name:\tx\nCapEff:\t0000000000200000\n");
	CHECK(caps_of("GenuineIntel-6-55-4", proc, &copy) == 0 && copy.cap_perfmon == 0 && copy.cap_sys_admin == 1 &&
	      copy.can_count_kernel == 1, "CapEff bit 21: perfmon %d sys_admin %d kernel %d", copy.cap_perfmon,
	      copy.cap_sys_admin, copy.can_count_kernel);
	fixture_put(root, "proc/self/status", "Name:\tx\nCapEff:\t000001ffffdfffff\n");
	CHECK(caps_of("GenuineIntel-6-55-4", proc, &copy) == 0 && copy.cap_perfmon == 1 && copy.cap_sys_admin == 0,
	      "CapEff all but bit 21: perfmon %d sys_admin %d", copy.cap_perfmon, copy.cap_sys_admin);
	fixture_put(root, "proc/self/status", "Name:\tx\nCapEff:\t0000000000000000\n");
	CHECK(caps_of("GenuineIntel-6-55-4", proc, &copy) == 0 && !copy.cap_perfmon && !copy.cap_sys_admin &&
	      !copy.can_count_kernel, "CapEff 0, paranoid 3: perfmon %d sys_admin %d kernel %d", copy.cap_perfmon,
	      copy.cap_sys_admin, copy.can_count_kernel);
}

int main(void)
{
	if (!mkdtemp(root))
		SKIP("cannot make a directory under /tmp");
	identity();
	capabilities();
	fixture_remove(root);
	return test_done("test-this-machine");
}
