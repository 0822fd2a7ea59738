/* SPDX-License-Identifier: MIT */
/* Constants of metric formulas: the parameters a program sets (pmu_ctx_set_param) and the machine
 * constants perf's metrics use (#smt_on, num_cores, #system_tsc_freq, ...), read from the counted
 * machine's sysfs and procfs (its PMU_SYSFS_ROOT / PMU_PROCFS_ROOT) and listed with where each came
 * from (pmu_constant_foreach). metric.c evaluates with them. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "pmu.h"
#include "constants.h"
#include "common.h"
#include "context.h"
#include "cpu.h"
#include "error.h"
#include "sysfs.h"
#include "tables.h"
#include "util.h"

PMU_EXPORT int pmu_ctx_set_param(struct pmu_ctx *ctx, const char *name, double value)
{
	pmu__err_clear();
	if (!ctx || !name || !*name || strlen(name) >= sizeof(ctx->params[0].name))
		return pmu__err(ctx, -EINVAL, "pmu_ctx_set_param: bad name");
	for (size_t i = 0; i < ctx->nparams; i++)
		if (!strcasecmp(ctx->params[i].name, name)) {
			ctx->params[i].value = value;
			return 0;
		}
	if (ctx->nparams == ARRAY_SIZE(ctx->params))
		return pmu__err(ctx, -ENOSPC, "pmu_ctx_set_param: at most %zu parameters", ARRAY_SIZE(ctx->params));
	pmu__strlcpy(ctx->params[ctx->nparams].name, name, sizeof(ctx->params[0].name));
	ctx->params[ctx->nparams++].value = value;
	return 0;
}

/* ---- the machine's constants ---- */

/* Read a CPU list file of this context's sysfs ("devices/system/cpu/online"): 0, or a negative errno. */
static int read_cpulist(const struct pmu_ctx *ctx, const char *rel, long *count, long *top, char *origin, size_t ol)
{
	char path[512], buf[4096];
	struct pmu_cpulist c;
	int r;

	if (pmu__path(path, sizeof(path), "%s/%s", ctx->sysfs_root, rel) < 0 || pmu__read_file(path, buf, sizeof(buf)) < 0)
		return -ENOENT;
	snprintf(origin, ol, "%s", path);
	if ((r = pmu__cpulist(buf, -1, &c)) == 0) {
		*count = c.count;
		*top = c.top;
	}
	return r;
}

/*
 * How many different texts topology file @file (core_cpus_list, die_cpus_list, package_cpus_list:
 * the CPUs that share the CPU's core, die, package) has over the online CPUs, as perf counts cores,
 * dies and packages. -ENOENT when the machine's sysfs has no such file.
 */
static int topo_distinct(const struct pmu_ctx *ctx, const char *file, long *out, char *origin, size_t ol)
{
	char path[512], buf[4096], online[4096], **seen = NULL;
	const char *s;
	long n = 0, cap = 0, tried = 0;
	int r = 0;

	if (pmu__path(path, sizeof(path), "%s/devices/system/cpu/online", ctx->sysfs_root) < 0 ||
	    pmu__read_file(path, online, sizeof(online)) < 0)
		return -ENOENT;
	for (s = online; *s && r == 0;) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;
		if (end == s)
			break;
		s = end;
		if (*s == '-') {
			hi = strtol(s + 1, &end, 10);
			s = end;
		}
		if (*s == ',')
			s++;
		for (long cpu = lo; cpu <= hi && cpu - lo < 65536 && r == 0; cpu++) {
			bool dup = false;
			if (pmu__path(path, sizeof(path), "%s/devices/system/cpu/cpu%ld/topology/%s", ctx->sysfs_root, cpu,
				      file) < 0 || pmu__read_file(path, buf, sizeof(buf)) < 0)
				continue;
			tried++;
			for (long i = 0; i < n && !dup; i++)
				dup = !strcmp(seen[i], buf);
			if (dup)
				continue;
			if (n == cap) {
				char **ns = realloc(seen, (size_t)(cap = cap ? cap * 2 : 16) * sizeof(*ns));
				if (!ns) {
					r = -ENOMEM;
					break;
				}
				seen = ns;
			}
			if (!(seen[n] = strdup(buf)))
				r = -ENOMEM;
			else
				n++;
		}
	}
	for (long i = 0; i < n; i++)
		free(seen[i]);
	free(seen);
	if (r < 0)
		return r;
	if (!tried)
		return -ENOENT;
	snprintf(origin, ol, "%s/devices/system/cpu/cpu*/topology/%s (%ld distinct)", ctx->sysfs_root, file, n);
	*out = n;
	return 0;
}

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* The TSC's frequency, as perf finds it: CPUID leaf 0x15 on this Intel CPU, else the frequency the
 * model name ends with ("... @ 2.80GHz"). -ENOENT when neither tells. */
static int tsc_freq(const struct pmu_ctx *ctx, double *out, char *origin, size_t ol)
{
	const char *at;
	double ghz;

	if (ctx->cpu.arch != PMU_ARCH_X86)
		return -ENOENT;
#if defined(__x86_64__) || defined(__i386__)
	/* only when the context describes the CPU this runs on (no PMU_CPUID, the real /proc) */
	if (!ctx->cpu.overridden && !strcmp(ctx->procfs_root, "/proc") && !strcmp(ctx->cpu.vendor, "GenuineIntel")) {
		unsigned a, b, c, d;
		if (__get_cpuid_count(0x15, 0, &a, &b, &c, &d) && a && b && c) {
			*out = (double)c * b / a;
			snprintf(origin, ol, "CPUID leaf 0x15 (crystal %u Hz * %u / %u)", c, b, a);
			return 0;
		}
	}
#endif
	if ((at = strstr(ctx->cpu.name, " @ ")) && sscanf(at, " @ %lfGHz", &ghz) == 1 && ghz > 0) {
		*out = ghz * 1e9;
		snprintf(origin, ol, "the CPU's model name ('%s')", ctx->cpu.name);
		return 0;
	}
	return -ENOENT;
}

/*
 * The machine constants perf's metrics use (#SMT_on, #num_cpus_online, ...), read from this
 * context's machine (its sysfs root, its CPU). Each returns 0 with the value and where it came from,
 * -ENOENT when the machine does not tell, or -ENOMEM.
 */
static const char *const mc_names[MC_N] = {
	"smt_on", "num_cpus", "num_cpus_online", "num_packages", "num_dies", "num_cores", "core_wide", "has_pmem",
	"slots", "chas_per_socket", "system_tsc_freq",
};

int pmu__mc_index(const char *name)
{
	for (int i = 0; i < MC_N; i++)
		if (!strcasecmp(name, mc_names[i]))
			return i;
	return -1;
}

int pmu__mc_read(struct pmu_ctx *ctx, int which, double *out, char *origin, size_t ol)
{
	char path[512];
	long long v;
	long n, top;
	int r;

	switch (which) {
	case MC_SMT_ON:
		if (pmu__path(path, sizeof(path), "%s/devices/system/cpu/smt/active", ctx->sysfs_root) == 0 &&
		    pmu__read_int(path, &v) == 0) {
			*out = v > 0;
			snprintf(origin, ol, "%s", path);
			return 0;
		}
		{
			/* more CPUs online than cores: siblings share cores */
			long cores, online;
			char o2[256];
			if (topo_distinct(ctx, "core_cpus_list", &cores, origin, ol) == 0 &&
			    read_cpulist(ctx, "devices/system/cpu/online", &online, &top, o2, sizeof(o2)) == 0) {
				*out = online > cores;
				return 0;
			}
		}
		*out = 0;
		snprintf(origin, ol, "%s/devices/system/cpu has no smt/active or topology: taken as off", ctx->sysfs_root);
		return 0;
	case MC_NUM_CPUS:
		if (read_cpulist(ctx, "devices/system/cpu/present", &n, &top, origin, ol) == 0) {
			*out = (double)top; /* perf: the highest present CPU + 1 */
			return 0;
		}
		*out = (double)sysconf(_SC_NPROCESSORS_CONF);
		snprintf(origin, ol, "sysconf(_SC_NPROCESSORS_CONF) (%s/devices/system/cpu/present is absent)",
			 ctx->sysfs_root);
		return 0;
	case MC_NUM_CPUS_ONLINE:
		if (read_cpulist(ctx, "devices/system/cpu/online", &n, &top, origin, ol) == 0) {
			*out = (double)n;
			return 0;
		}
		*out = (double)sysconf(_SC_NPROCESSORS_ONLN);
		snprintf(origin, ol, "sysconf(_SC_NPROCESSORS_ONLN) (%s/devices/system/cpu/online is absent)",
			 ctx->sysfs_root);
		return 0;
	case MC_NUM_PACKAGES:
	case MC_NUM_DIES:
	case MC_NUM_CORES: {
		static const char *const files[][2] = {
			[MC_NUM_PACKAGES - MC_NUM_PACKAGES] = { "package_cpus_list", "core_siblings_list" },
			[MC_NUM_DIES - MC_NUM_PACKAGES] = { "die_cpus_list", NULL },
			[MC_NUM_CORES - MC_NUM_PACKAGES] = { "core_cpus_list", "thread_siblings_list" },
		};
		for (int f = 0; f < 2 && files[which - MC_NUM_PACKAGES][f]; f++) {
			if ((r = topo_distinct(ctx, files[which - MC_NUM_PACKAGES][f], &n, origin, ol)) == 0) {
				*out = (double)n;
				return 0;
			}
			if (r == -ENOMEM)
				return r;
		}
		if (which == MC_NUM_DIES) { /* no dies listed: one per package */
			char o2[256];
			if ((r = pmu__mc_read(ctx, MC_NUM_PACKAGES, out, o2, sizeof(o2))) == 0)
				snprintf(origin, ol, "num_packages (no die_cpus_list): %s", o2);
			return r;
		}
		if (which == MC_NUM_CORES) {
			double smt = 0, cpus = 0;
			char o2[256];
			pmu__mc_read(ctx, MC_SMT_ON, &smt, o2, sizeof(o2));
			pmu__mc_read(ctx, MC_NUM_CPUS_ONLINE, &cpus, o2, sizeof(o2));
			*out = cpus / (smt > 0 ? 2 : 1);
			snprintf(origin, ol, "num_cpus_online / (smt_on + 1) (no core_cpus_list in %s/devices/system/cpu)",
				 ctx->sysfs_root);
			return 0;
		}
		*out = 1;
		snprintf(origin, ol, "one package (no package_cpus_list in %s/devices/system/cpu)", ctx->sysfs_root);
		return 0;
	}
	case MC_CORE_WIDE:
		*out = 0;
		snprintf(origin, ol, "libpmu counts per thread");
		return 0;
	case MC_HAS_PMEM: {
		/* perf's test: an ACPI NFIT table (persistent memory) */
		struct stat st;
		if (pmu__path(path, sizeof(path), "%s/firmware/acpi/tables/NFIT", ctx->sysfs_root) < 0)
			return -ENOENT;
		*out = stat(path, &st) == 0;
		snprintf(origin, ol, "%s %s", path, *out ? "exists" : "is absent");
		return 0;
	}
	case MC_SLOTS: {
		const struct pmu_dev *core = pmu__core_pmu(ctx);
		if (core && pmu__path(path, sizeof(path), "%s/bus/event_source/devices/%s/caps/slots", ctx->sysfs_root,
				      core->name) == 0 && pmu__read_int(path, &v) == 0 && v > 0) {
			*out = (double)v;
			snprintf(origin, ol, "%s", path);
			return 0;
		}
		return -ENOENT;
	}
	case MC_CHAS_PER_SOCKET: {
		/* the kernel's uncore driver makes one PMU per CHA box, each counting on every socket */
		const struct pmu_dev *first;
		size_t boxes = pmu__tables_unit_pmus(ctx, "CHA", &first);
		if (!boxes)
			return -ENOENT;
		*out = (double)boxes;
		snprintf(origin, ol, "%zu CHA PMUs in %s/bus/event_source/devices (%s, ...)", boxes, ctx->sysfs_root,
			 first->name);
		return 0;
	}
	case MC_SYSTEM_TSC_FREQ:
		return tsc_freq(ctx, out, origin, ol);
	}
	return -ENOENT;
}

PMU_EXPORT int pmu_constant_foreach(struct pmu_ctx *ctx, pmu_constant_cb cb, void *data)
{
	struct pmu_constant_info c;
	char origin[512];
	int n = 0, r;

	pmu__err_clear();
	if (!ctx || !cb)
		return pmu__err(ctx, -EINVAL, "pmu_constant_foreach: NULL context or callback");
	for (size_t i = 0; i < ctx->nparams; i++) {
		c.name = ctx->params[i].name;
		c.value = ctx->params[i].value;
		c.source = PMU_CONST_PARAM;
		c.origin = "pmu_ctx_set_param";
		n++;
		if ((r = cb(&c, data)))
			return r;
	}
	for (int i = 0; i < MC_N; i++) {
		bool set = false;
		for (size_t k = 0; k < ctx->nparams && !set; k++)
			set = !strcasecmp(ctx->params[k].name, mc_names[i]);
		if (set)
			continue; /* said above: the parameter is what metrics get */
		r = pmu__mc_read(ctx, i, &c.value, origin, sizeof(origin));
		if (r == -ENOMEM)
			return pmu__err(ctx, r, "pmu_constant_foreach: out of memory reading %s", mc_names[i]);
		if (r < 0)
			continue;
		c.name = mc_names[i];
		c.source = PMU_CONST_MACHINE;
		c.origin = origin;
		n++;
		if ((r = cb(&c, data)))
			return r;
	}
	return n;
}
