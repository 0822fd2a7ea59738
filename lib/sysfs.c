/* SPDX-License-Identifier: MIT */
/* PMUs under <sysfs>/bus/event_source/devices: type, format/ and events/,
 * and encoding "term=value,..." through the format files. A core PMU's
 * type, format/ and the list of its events/ are read with the scan; another's
 * (uncore, RAPL, software...: a server has hundreds) at the first need,
 * pmu__pmu_load(), its type too where its name says that it cannot be a core
 * PMU. A named event's file is read at that event's first use. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "pmu.h"
#include "sysfs.h"
#include "common.h"
#include "context.h"
#include "cpu.h"
#include "error.h"
#include "fork.h"
#include "util.h"

#define MAX_TERMS_DEPTH 4

static bool name_is_core(const char *n, uint32_t type)
{
	size_t l = strlen(n);

	if (type == PERF_TYPE_RAW)
		return true;
	if (!strcmp(n, "cpu") || !strcmp(n, "cpu_core") || !strcmp(n, "cpu_atom") ||
	    !strcmp(n, "cpu_lowpower"))
		return true;
	if (!strncmp(n, "armv8_", 6) || !strncmp(n, "armv9_", 6))
		return true;
	return !strncmp(n, "apple_", 6) && l > 10 && !strcmp(n + l - 4, "_pmu");
}

/* The type of the kernel's own PMUs, fixed by the ABI (PERF_TYPE_SOFTWARE, _TRACEPOINT, _BREAKPOINT:
 * their drivers register these numbers); -1 for any other. */
static long long abi_type(const char *n)
{
	return !strcmp(n, "software") ? PERF_TYPE_SOFTWARE : !strcmp(n, "tracepoint") ? PERF_TYPE_TRACEPOINT :
	       !strcmp(n, "breakpoint") ? PERF_TYPE_BREAKPOINT : -1;
}

/*
 * Whether the scan may leave PMU @n's type file unread: its driver registers a type of its own, given
 * by the kernel at boot, never PERF_TYPE_RAW, so it is no core PMU (name_is_core's other test). Each
 * type file costs 4 system calls, 12 us on the development VM; a server has hundreds of uncore PMUs.
 * Read at the first need: pmu__pmu_load, or pmu__pmu_by_type for a type it does not know.
 */
static bool type_can_wait(const char *n)
{
	static const char *const exact[] = { "kprobe", "uprobe", "msr", "power", "intel_pt", "intel_bts" };
	static const char *const prefix[] = { "uncore_", "cstate_", "power_", "amd_", "ibs_", "arm_cmn",
					      "arm_dsu", "arm_spe", "smmuv3_pmcg", "hisi_" };

	for (size_t i = 0; i < ARRAY_SIZE(exact); i++)
		if (!strcmp(n, exact[i]))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(prefix); i++)
		if (!strncmp(n, prefix[i], strlen(prefix[i])))
			return true;
	return false;
}

/* "config:0-7,32-35" -> field 0, mask */
static int parse_format(const char *text, struct pmu_format *f)
{
	const char *p = strchr(text, ':');
	size_t fl;

	if (!p)
		return -EINVAL;
	fl = (size_t)(p - text);
	if (fl == 6 && !strncmp(text, "config", 6))
		f->field = 0;
	else if (fl == 7 && !strncmp(text, "config", 6) && text[6] >= '1' && text[6] <= '3')
		f->field = text[6] - '0';
	else
		return -EINVAL;
	f->mask = 0;
	p++;
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;
		if (end == p)
			return -EINVAL;
		if (*end == '-') {
			p = end + 1;
			hi = strtoul(p, &end, 10);
			if (end == p)
				return -EINVAL;
		}
		if (lo > 63 || hi > 63 || hi < lo)
			return -EINVAL;
		for (unsigned long b = lo; b <= hi; b++)
			f->mask |= 1ull << b;
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			return -EINVAL;
	}
	{
		int bits = __builtin_popcountll(f->mask);
		f->width_mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
	}
	return f->mask ? 0 : -EINVAL;
}

static bool is_aux_file(const char *n)
{
	static const char *const sfx[] = { ".unit", ".scale", ".per-pkg", ".snapshot" };
	size_t l = strlen(n);

	for (size_t i = 0; i < ARRAY_SIZE(sfx); i++) {
		size_t s = strlen(sfx[i]);
		if (l > s && !strcmp(n + l - s, sfx[i]))
			return true;
	}
	return false;
}

/*
 * Paths here are relative to an open directory @at (openat(2)): the scan opens devices/ once and names a
 * PMU's files from there (a PMU's directory, then its format/ and events/, from theirs), as walking
 * <sysfs>/bus/event_source/devices/<pmu>/format/<term> again for each file was most of its cost; with
 * AT_FDCWD they are whole paths (a PMU read later, at its first need).
 */

/* The text of file @path in *out (to free; NULL when it cannot be read). Returns 0 or -ENOMEM. */
static int read_dup(int at, const char *path, char **out)
{
	char buf[4096];

	*out = NULL;
	if (pmu__read_file_at(at, path, buf, sizeof(buf)) < 0)
		return 0;
	return (*out = strdup(buf)) ? 0 : -ENOMEM;
}

/* opendir(@dir); NULL with *err 0 when it is not there or not readable, -ENOMEM when out of memory.
 * Relative to a directory: openat(2) and fdopendir(3), two fcntl(2) calls more than opendir(3) makes,
 * fewer than the walk they save. */
static DIR *open_dir(int at, const char *dir, int *err)
{
	int fd = at == AT_FDCWD ? -1 : openat(at, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), e;
	DIR *dh = at == AT_FDCWD ? opendir(dir) : fd < 0 ? NULL : fdopendir(fd);

	e = errno;
	if (fd >= 0 && !dh)
		close(fd);
	*err = !dh && e == ENOMEM ? -ENOMEM : 0;
	return dh;
}

/* @file of PMU @d's directory, relative to @at: devices/ open (the scan), or AT_FDCWD (the whole path) */
static int pmu_file(const struct pmu_ctx *ctx, int at, const struct pmu_dev *d, const char *file, char *out,
		    size_t len)
{
	if (at == AT_FDCWD)
		return pmu__path(out, len, "%s/bus/event_source/devices/%s/%s", ctx->sysfs_root, d->name, file);
	return pmu__path(out, len, "%s/%s", d->name, file);
}

static int cmp_format(const void *a, const void *b)
{
	return strcmp(((const struct pmu_format *)a)->name, ((const struct pmu_format *)b)->name);
}

static int cmp_event(const void *a, const void *b)
{
	return strcmp(((const struct pmu_named_event *)a)->name,
		      ((const struct pmu_named_event *)b)->name);
}

static int cmp_dev(const void *a, const void *b)
{
	const struct pmu_dev *x = a, *y = b;

	/* core PMUs first; among them the one with PERF_TYPE_RAW (cpu, cpu_core) */
	if (x->is_core != y->is_core)
		return x->is_core ? -1 : 1;
	if ((x->type == PERF_TYPE_RAW) != (y->type == PERF_TYPE_RAW))
		return x->type == PERF_TYPE_RAW ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int scan_formats(struct pmu_ctx *ctx, int at, const char *dir, struct pmu_dev *d)
{
	char text[256];
	struct dirent *e;
	size_t cap = 0;
	int r;
	DIR *dh = open_dir(at, dir, &r);

	if (!dh)
		return r;
	while ((e = readdir(dh))) {
		struct pmu_format f;
		if (e->d_name[0] == '.' || pmu__read_file_at(dirfd(dh), e->d_name, text, sizeof(text)) < 0)
			continue;
		memset(&f, 0, sizeof(f));
		if (strlen(e->d_name) >= sizeof(f.name) || parse_format(text, &f) < 0) {
			pmu__log(ctx, PMU_LOG_WARN, "PMU %s: ignoring unreadable format file %s ('%s')",
				 d->name, e->d_name, text);
			continue;
		}
		pmu__strlcpy(f.name, e->d_name, sizeof(f.name));
		if (d->n_formats == cap && pmu__grow(&d->formats, &cap, 16, sizeof(*d->formats)) < 0) {
			closedir(dh);
			return -ENOMEM;
		}
		d->formats[d->n_formats++] = f;
	}
	closedir(dh);
	if (d->n_formats)
		qsort(d->formats, d->n_formats, sizeof(*d->formats), cmp_format);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* events/<@name>@sfx (".unit", ".scale") in *out when the listing @files (@n, sorted) has it: 0 or -ENOMEM */
static int read_aux(int at, const char *dir, char *const *files, size_t n, const char *name, const char *sfx,
		    char **out)
{
	char file[512], path[1024];
	const char *key = file;

	*out = NULL;
	if ((size_t)snprintf(file, sizeof(file), "%s%s", name, sfx) >= sizeof(file) ||
	    !bsearch(&key, files, n, sizeof(*files), cmp_str) || pmu__path(path, sizeof(path), "%s/%s", dir, file) < 0)
		return 0;
	return read_dup(at, path, out);
}

/* The directory listing of @dir, sorted (names to free), so that an event's .unit and .scale are
 * opened only where they exist. 0 (*files NULL: no directory) or -ENOMEM. */
static int list_dir(int at, const char *dir, char ***files, size_t *n)
{
	struct dirent *e;
	size_t cap = 0;
	int r;
	DIR *dh = open_dir(at, dir, &r);

	*files = NULL;
	*n = 0;
	if (!dh)
		return r;
	while ((e = readdir(dh))) {
		if (e->d_name[0] == '.')
			continue;
		if ((*n == cap && pmu__grow(files, &cap, 32, sizeof(**files)) < 0) ||
		    !((*files)[*n] = strdup(e->d_name))) {
			r = -ENOMEM;
			break;
		}
		++*n;
	}
	closedir(dh);
	if (r == 0 && *n)
		qsort(*files, *n, sizeof(**files), cmp_str);
	return r;
}

/* The factor of @ev's .scale: 1 without one; a text that is no positive finite number is said and
 * dropped with the unit (a count labelled with a unit it is not in would be wrong without a word) */
static void event_factor(struct pmu_ctx *ctx, const struct pmu_dev *d, struct pmu_named_event *ev)
{
	char *end;
	double v;

	ev->factor = 1;
	if (!ev->scale)
		return;
	v = strtod(ev->scale, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (end == ev->scale || *end || !(v > 0) || !isfinite(v)) {
		pmu__log(ctx, PMU_LOG_WARN, "PMU %s: event %s: ignoring its unit and scale: the scale file holds '%s', "
			 "not a positive number", d->name, ev->name, ev->scale);
		free(ev->unit);
		ev->unit = NULL;
		return;
	}
	ev->factor = v;
}

/* events/ of @d: every named event's name, its .unit and .scale where the listing has them; not its
 * terms (pmu__sysfs_encode_event reads them at the event's first use: a core PMU lists 20 to 70 events,
 * each file 4 system calls (open, two reads, close), most of pmu_ctx_new's kernel work, and a program
 * uses few or none) */
static int scan_events(struct pmu_ctx *ctx, int at, const char *dir, struct pmu_dev *d)
{
	char **files;
	size_t cap = 0, n;
	int r = list_dir(at, dir, &files, &n);

	for (size_t f = 0; r == 0 && f < n; f++) {
		struct pmu_named_event *ev;
		if (is_aux_file(files[f]))
			continue;
		if (d->n_events == cap && pmu__grow(&d->events, &cap, 32, sizeof(*d->events)) < 0) {
			r = -ENOMEM;
			break;
		}
		ev = &d->events[d->n_events];
		memset(ev, 0, sizeof(*ev));
		if (!(ev->name = strdup(files[f])) || read_aux(at, dir, files, n, files[f], ".unit", &ev->unit) < 0 ||
		    read_aux(at, dir, files, n, files[f], ".scale", &ev->scale) < 0) {
			free(ev->name);
			free(ev->unit);
			r = -ENOMEM;
			break;
		}
		event_factor(ctx, d, ev);
		d->n_events++;
	}
	for (size_t f = 0; f < n; f++)
		free(files[f]);
	free(files);
	if (r == 0 && d->n_events)
		qsort(d->events, d->n_events, sizeof(*d->events), cmp_event);
	return r;
}

static void dev_free(struct pmu_dev *d)
{
	for (size_t i = 0; i < d->n_events; i++) {
		free(d->events[i].name);
		free(d->events[i].terms);
		free(d->events[i].unit);
		free(d->events[i].scale);
	}
	free(d->events);
	free(d->formats);
	free(d->cpumask);
	free(d->cpus);
	d->cpus = NULL;
	d->events = NULL;
	d->formats = NULL;
	d->cpumask = NULL;
	d->n_events = d->n_formats = 0;
}

/* The type file of @d into d->type: 0, or the error (-ENOENT, -EINVAL: not a type). */
static int read_type(const struct pmu_ctx *ctx, int at, struct pmu_dev *d)
{
	char path[1024];
	long long type;
	int r;

	if ((r = pmu_file(ctx, at, d, "type", path, sizeof(path))) < 0 || (r = pmu__read_int_at(at, path, &type)) < 0)
		return r;
	if (type < 0 || type >= PMU_NO_TYPE)
		return -EINVAL;
	d->type = (uint32_t)type;
	__atomic_store_n(&d->typed, true, __ATOMIC_RELEASE);
	return 0;
}

/* The cpumask of @d, a PMU that counts CPUs rather than tasks: 0 (none, or not a CPU list: @d counts
 * tasks), or -ENOMEM. A core PMU's is never read: it counts tasks (hybrid ones list "cpus"). */
static int read_cpumask(const struct pmu_ctx *ctx, int at, struct pmu_dev *d)
{
	char path[1024], buf[4096];
	struct pmu_cpulist c;

	if (d->is_core || pmu_file(ctx, at, d, "cpumask", path, sizeof(path)) < 0 ||
	    pmu__read_file_at(at, path, buf, sizeof(buf)) < 0 || pmu__cpulist(buf, -1, &c) < 0)
		return 0;
	buf[strcspn(buf, " \t\n")] = 0;
	return (d->cpumask = strdup(buf)) ? 0 : -ENOMEM;
}

/* format/, events/ and cpumask of @d: 0, or -ENOMEM with nothing kept */
static int dev_read(struct pmu_ctx *ctx, int at, struct pmu_dev *d)
{
	char path[1024];
	int r = 0;

	if (pmu_file(ctx, at, d, "format", path, sizeof(path)) < 0 || (r = scan_formats(ctx, at, path, d)) < 0 ||
	    pmu_file(ctx, at, d, "events", path, sizeof(path)) < 0 || (r = scan_events(ctx, at, path, d)) < 0 ||
	    (r = read_cpumask(ctx, at, d)) < 0)
		dev_free(d);
	return r;
}

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

void pmu__sysfs_fork_lock(bool take)
{
	pmu__fork_mutex(&load_lock, take);
}

int pmu__pmu_load(const struct pmu_ctx *ctx, const struct pmu_dev *pmu)
{
	/* the scan's result, completed once: the context is shared for resolution, hence the lock */
	struct pmu_dev *d = (struct pmu_dev *)pmu;
	int r = 0;

	if (__atomic_load_n(&d->loaded, __ATOMIC_ACQUIRE))
		return 0;
	pthread_mutex_lock(&load_lock);
	if (!d->typed && (r = read_type(ctx, AT_FDCWD, d)) < 0) {
		pthread_mutex_unlock(&load_lock);
		return pmu__err((struct pmu_ctx *)ctx, r == -ENOMEM ? r : -ENOENT,
				"PMU %s: cannot read its type from %s/bus/event_source/devices/%s/type (%s): the PMU has "
				"gone, or sysfs is not the kernel's", d->name, ctx->sysfs_root, d->name, strerror(-r));
	}
	if (!d->loaded && (r = dev_read((struct pmu_ctx *)ctx, AT_FDCWD, d)) == 0)
		__atomic_store_n(&d->loaded, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&load_lock);
	if (r < 0)
		return pmu__err((struct pmu_ctx *)ctx, r, "PMU %s: out of memory reading its format and events (sysfs)",
				d->name);
	return 0;
}

void pmu__sysfs_free(struct pmu_ctx *ctx)
{
	for (size_t i = 0; i < ctx->n_pmus; i++)
		dev_free(&ctx->pmus[i]);
	free(ctx->pmus);
	ctx->pmus = NULL;
	ctx->n_pmus = 0;
}

/* On a machine of several core PMUs, each core PMU's CPUs and their identity (sysfs.h: pmu_dev's cpus,
 * cpuid): read at the end of the scan. Nothing with one core PMU. 0, or -ENOMEM. */
static int core_types_read(struct pmu_ctx *ctx)
{
	if (pmu__n_core_pmus(ctx) < 2)
		return 0;
	for (size_t i = 0; i < ctx->n_pmus; i++) {
		struct pmu_dev *d = &ctx->pmus[i];
		char path[512], list[256], v[64];
		struct pmu_cpulist cl;
		uint64_t midr;
		if (!d->is_core)
			continue;
		pmu__strlcpy(d->cpuid, ctx->cpu.cpuid, sizeof(d->cpuid));
		if (pmu__path(path, sizeof(path), "%s/bus/event_source/devices/%s/cpus", ctx->sysfs_root, d->name) < 0 ||
		    pmu__read_file(path, list, sizeof(list)) <= 0)
			continue;
		if (!(d->cpus = strdup(list)))
			return -ENOMEM;
		/* arm64: the MIDR of its first CPU, as cpu.c reads CPU 0's; a forced identity (PMU_CPUID) is
		 * every core's */
		if (ctx->cpu.arch != PMU_ARCH_ARM64 || ctx->cpu.overridden || pmu__cpulist(list, -1, &cl) < 0 ||
		    pmu__path(path, sizeof(path), "%s/devices/system/cpu/cpu%ld/regs/identification/midr_el1",
			      ctx->sysfs_root, cl.first) < 0 ||
		    pmu__read_file(path, v, sizeof(v)) <= 0 || pmu__parse_u64(v, &midr) < 0)
			continue;
		snprintf(d->cpuid, sizeof(d->cpuid), "0x%016llx", (unsigned long long)midr);
	}
	return 0;
}

int pmu__sysfs_scan(struct pmu_ctx *ctx)
{
	char base[512], path[1024];
	struct dirent *e;
	size_t cap = 0;
	DIR *dh;
	int r = 0;

	if (pmu__path(base, sizeof(base), "%s/bus/event_source/devices", ctx->sysfs_root) < 0)
		return -ENAMETOOLONG;
	dh = open_dir(AT_FDCWD, base, &r);
	if (!dh) {
		if (r == 0)
			pmu__log(ctx, PMU_LOG_WARN, "no PMUs: cannot open %s (%s)", base, strerror(errno));
		return r;
	}
	while ((e = readdir(dh))) {
		struct pmu_dev d;
		long long type;
		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(d.name))
			continue;
		memset(&d, 0, sizeof(d));
		pmu__strlcpy(d.name, e->d_name, sizeof(d.name));
		d.type = PMU_NO_TYPE;
		if ((type = abi_type(d.name)) >= 0) {
			d.type = (uint32_t)type;
			d.typed = true;
		} else if (!type_can_wait(d.name) && read_type(ctx, dirfd(dh), &d) < 0) {
			continue; /* not a PMU (no type file), as before the type was read lazily */
		}
		d.is_core = d.typed && name_is_core(d.name, d.type);
		d.ext_type = PMU_UNKNOWN;
		d.rdpmc = PMU_UNKNOWN; /* the core PMU's (x86: not looked for under an arm64 core PMU's name) */
		if (d.is_core && strncmp(d.name, "armv", 4) &&
		    pmu_file(ctx, dirfd(dh), &d, "rdpmc", path, sizeof(path)) == 0 &&
		    pmu__read_int_at(dirfd(dh), path, &type) == 0)
			d.rdpmc = (int)type;
		if (d.is_core && (r = dev_read(ctx, dirfd(dh), &d)) < 0)
			goto fail;
		d.loaded = d.is_core;
		if (ctx->n_pmus == cap && pmu__grow(&ctx->pmus, &cap, 16, sizeof(*ctx->pmus)) < 0) {
			r = -ENOMEM;
			goto fail;
		}
		ctx->pmus[ctx->n_pmus++] = d;
		continue;
fail:
		dev_free(&d);
		closedir(dh);
		return r ? r : -ENOMEM;
	}
	closedir(dh);
	if (ctx->n_pmus)
		qsort(ctx->pmus, ctx->n_pmus, sizeof(*ctx->pmus), cmp_dev);
	return core_types_read(ctx);
}

const struct pmu_dev *pmu__pmu_by_name(const struct pmu_ctx *ctx, const char *name)
{
	for (size_t i = 0; i < ctx->n_pmus; i++)
		if (!strcmp(ctx->pmus[i].name, name))
			return &ctx->pmus[i];
	return NULL;
}

static const struct pmu_dev *typed_with(const struct pmu_ctx *ctx, uint32_t type)
{
	for (size_t i = 0; i < ctx->n_pmus; i++)
		if (__atomic_load_n(&ctx->pmus[i].typed, __ATOMIC_ACQUIRE) && ctx->pmus[i].type == type)
			return &ctx->pmus[i];
	return NULL;
}

const struct pmu_dev *pmu__pmu_by_type(const struct pmu_ctx *ctx, uint32_t type)
{
	const struct pmu_dev *d = typed_with(ctx, type);

	/* the fixed types (< PERF_TYPE_MAX) are known after the scan: PERF_TYPE_RAW is a core PMU's, the
	 * kernel's own PMUs have theirs from the ABI; a type given at boot may be an unread PMU's */
	if (d || type < PERF_TYPE_MAX || type == PMU_NO_TYPE)
		return d;
	pthread_mutex_lock(&load_lock);
	for (size_t i = 0; i < ctx->n_pmus; i++)
		if (!ctx->pmus[i].typed)
			read_type(ctx, AT_FDCWD, (struct pmu_dev *)&ctx->pmus[i]); /* one that cannot be read has no type */
	pthread_mutex_unlock(&load_lock);
	return typed_with(ctx, type);
}

const struct pmu_dev *pmu__core_pmu(const struct pmu_ctx *ctx)
{
	return ctx->n_pmus && ctx->pmus[0].is_core ? &ctx->pmus[0] : NULL;
}

const char *pmu__core_pmu_name(const struct pmu_ctx *ctx)
{
	const struct pmu_dev *c = pmu__core_pmu(ctx);
	return c ? c->name : "cpu";
}

size_t pmu__n_core_pmus(const struct pmu_ctx *ctx)
{
	size_t n = 0;
	for (size_t i = 0; i < ctx->n_pmus; i++)
		n += ctx->pmus[i].is_core;
	return n;
}

static const struct pmu_format *find_format(const struct pmu_dev *d, const char *name)
{
	for (size_t i = 0; i < d->n_formats; i++)
		if (!strcmp(d->formats[i].name, name))
			return &d->formats[i];
	return NULL;
}

static const struct pmu_named_event *find_event(const struct pmu_dev *d, const char *name)
{
	for (size_t i = 0; i < d->n_events; i++)
		if (!strcasecmp(d->events[i].name, name))
			return &d->events[i];
	return NULL;
}

static uint64_t deposit(uint64_t value, uint64_t mask)
{
	uint64_t out = 0;

	for (int b = 0; b < 64 && mask; b++) {
		if (mask & (1ull << b)) {
			if (value & 1)
				out |= 1ull << b;
			value >>= 1;
		}
	}
	return out;
}

static uint64_t *field_ptr(struct pmu_event_info *info, int field)
{
	switch (field) {
	case 1: return &info->config1;
	case 2: return &info->config2;
	case 3: return &info->config3;
	default: return &info->config;
	}
}

static void list_formats(const struct pmu_dev *d, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < d->n_formats && o + 2 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", d->formats[i].name);
	if (o + 2 < len)
		snprintf(buf + o, len - o, "%sconfig, config1, config2", d->n_formats ? ", " : "");
}

int pmu__sysfs_place(struct pmu_ctx *ctx, const struct pmu_dev *pmu, const char *term, uint64_t v,
		     const char *event_name, struct pmu_event_info *info)
{
	const struct pmu_format *f;
	int r;

	if (!strcmp(term, "config") || !strcmp(term, "config1") || !strcmp(term, "config2") ||
	    !strcmp(term, "config3")) {
		*field_ptr(info, term[6] ? term[6] - '0' : 0) = v;
		return 0;
	}
	if ((r = pmu__pmu_load(ctx, pmu)) < 0)
		return r;
	if (!(f = find_format(pmu, term))) {
		char known[512];
		list_formats(pmu, known, sizeof(known));
		return pmu__err(ctx, -EINVAL, "event '%s': PMU %s has no format term or named event '%s'; its terms are: %s",
				event_name, pmu->name, term, known);
	}
	if (v & ~f->width_mask)
		return pmu__err(ctx, -EINVAL, "event '%s': value 0x%llx does not fit term '%s' of PMU %s (%d bits)",
				event_name, (unsigned long long)v, term, pmu->name, __builtin_popcountll(f->mask));
	*field_ptr(info, f->field) = (*field_ptr(info, f->field) & ~f->mask) | deposit(v, f->mask);
	return 0;
}

int pmu__sysfs_encode_event(struct pmu_ctx *ctx, const struct pmu_dev *pmu, const struct pmu_named_event *ev,
			    const char *event_name, struct pmu_event_info *info, int depth)
{
	struct pmu_named_event *e = (struct pmu_named_event *)ev; /* its terms completed once, as pmu__pmu_load */
	char path[1024];
	char *terms = __atomic_load_n(&e->terms, __ATOMIC_ACQUIRE);
	int r = 0;

	if (!terms) {
		pthread_mutex_lock(&load_lock);
		if (!(terms = e->terms) &&
		    (r = pmu__path(path, sizeof(path), "%s/bus/event_source/devices/%s/events/%s", ctx->sysfs_root,
				   pmu->name, ev->name)) == 0 &&
		    (r = read_dup(AT_FDCWD, path, &terms)) == 0 && terms)
			__atomic_store_n(&e->terms, terms, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&load_lock);
		if (r == -ENOMEM)
			return pmu__err(ctx, r, "out of memory reading the named event %s of PMU %s", ev->name, pmu->name);
		if (!terms)
			return pmu__err(ctx, -ENOENT, "event '%s': cannot read %s/bus/event_source/devices/%s/events/%s, "
					"listed when the context was created: the PMU or the event has gone",
					event_name, ctx->sysfs_root, pmu->name, ev->name);
	}
	return pmu__sysfs_encode(ctx, pmu, terms, event_name, info, depth);
}

int pmu__sysfs_encode(struct pmu_ctx *ctx, const struct pmu_dev *pmu, const char *terms,
		      const char *event_name, struct pmu_event_info *info, int depth)
{
	char *copy, *save = NULL, *tok;
	int r = 0;

	if (depth > MAX_TERMS_DEPTH)
		return pmu__err(ctx, -ELOOP, "event '%s': named events on PMU %s refer to each other too deeply",
				event_name, pmu->name);
	if ((r = pmu__pmu_load(ctx, pmu)) < 0)
		return r;
	copy = strdup(terms);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		const char *val = eq ? eq + 1 : NULL;
		const struct pmu_named_event *ne;
		uint64_t v = 1;

		while (*tok == ' ')
			tok++;
		if (eq)
			*eq = 0;
		if (!*tok) {
			r = pmu__err(ctx, -EINVAL, "event '%s': empty term in '%s'", event_name, terms);
			break;
		}
		/* perf's terms that encode nothing: name= labels the event; the sampling ones (period=, freq=,
		 * call-graph=, stack-size=, max-stack=) have no effect when counting, as modifier S */
		if (!strcmp(tok, "name")) {
			if (!val || !*val) {
				r = pmu__err(ctx, -EINVAL, "event '%s': term 'name' needs a value, the label to show "
					     "(name=LABEL)", event_name);
				break;
			}
			pmu__strlcpy(info->name, val, sizeof(info->name));
			continue;
		}
		if (val && (!strcmp(tok, "period") || !strcmp(tok, "freq") || !strcmp(tok, "call-graph") ||
			    !strcmp(tok, "stack-size") || !strcmp(tok, "max-stack")))
			continue;
		if (val && !strcmp(val, "?")) {
			r = pmu__err(ctx, -EINVAL,
				     "event '%s': term '%s' of PMU %s needs a value (write %s=N)",
				     event_name, tok, pmu->name, tok);
			break;
		}
		if (val && (r = pmu__parse_u64(val, &v)) < 0) {
			r = pmu__err(ctx, -EINVAL, "event '%s': value '%s' of term '%s' is not a number%s",
				     event_name, val, tok, r == -ERANGE ? " that fits in 64 bits" : "");
			break;
		}
		if (!val && (!strcmp(tok, "config") || !strcmp(tok, "config1") || !strcmp(tok, "config2") ||
			     !strcmp(tok, "config3"))) {
			r = pmu__err(ctx, -EINVAL, "event '%s': term '%s' needs a value", event_name, tok);
			break;
		}
		/* a term without a value that is no format term: one of the PMU's named events */
		ne = !val && !find_format(pmu, tok) ? find_event(pmu, tok) : NULL;
		if (ne) {
			r = pmu__sysfs_encode_event(ctx, pmu, ne, event_name, info, depth + 1);
			if (r < 0)
				break;
			if (!info->desc || !*info->desc)
				info->desc = "named event of the PMU (sysfs)";
			if (ne->unit)
				info->unit = ne->unit;
			if (ne->factor != 1)
				info->flags |= PMU_EVF_SCALED;
			continue;
		}
		if ((r = pmu__sysfs_place(ctx, pmu, tok, v, event_name, info)) < 0)
			break;
	}
	free(copy);
	return r;
}

int pmu__sysfs_scale(struct pmu_ctx *ctx, const struct pmu_event_info *e, double *scale)
{
	/* an event of a unit's boxes names the unit ("uncore_imc"): its encoding is the first box's */
	const struct pmu_dev *d = (e->flags & PMU_EVF_BOXES) ? pmu__pmu_by_type(ctx, e->type) : pmu__pmu_by_name(ctx, e->pmu);
	int r;

	if (!d)
		return -ENOENT;
	if ((r = pmu__pmu_load(ctx, d)) < 0)
		return r;
	/* the scaled named event of the PMU with @e's encoding */
	for (size_t i = 0; i < d->n_events; i++) {
		struct pmu_event_info x;
		if (d->events[i].factor == 1)
			continue;
		memset(&x, 0, sizeof(x));
		pmu__err_quiet(true);
		r = pmu__sysfs_encode_event(ctx, d, &d->events[i], d->events[i].name, &x, 0);
		pmu__err_quiet(false);
		if (r == 0 && x.config == e->config && x.config1 == e->config1 && x.config2 == e->config2 &&
		    x.config3 == e->config3) {
			*scale = d->events[i].factor;
			return 0;
		}
	}
	return -ENOENT;
}
