/* SPDX-License-Identifier: MIT */
/* A CPU's socket, die, cluster, core, node and cache from sysfs (topology.h says what each is for). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "topology.h"
#include "util.h"

static const struct {
	const char *word;
	int width;     /* perf's aggr_header_lens */
} modes[] = {
	[AGGR_NONE] = { "", 0 },
	[AGGR_SOCKET] = { "socket", 6 },
	[AGGR_DIE] = { "die", 12 },
	[AGGR_CLUSTER] = { "cluster", 20 },
	[AGGR_CACHE] = { "cache", 22 },
	[AGGR_CORE] = { "core", 18 },
	[AGGR_NODE] = { "node", 6 },
};

const char *aggr_mode_word(enum aggr_mode m)
{
	return (unsigned)m < sizeof(modes) / sizeof(modes[0]) ? modes[m].word : "";
}

int aggr_mode_width(enum aggr_mode m)
{
	return (unsigned)m < sizeof(modes) / sizeof(modes[0]) ? modes[m].width : 0;
}

int aggr_cache_level(const char *arg, int *level)
{
	if (!arg) {
		*level = 0;
		return 0;
	}
	/* perf's form: L or l, then one digit */
	if (strlen(arg) != 2 || (arg[0] != 'L' && arg[0] != 'l') || arg[1] < '1' || arg[1] > '0' + AGGR_CACHE_LEVEL_MAX)
		return -1;
	*level = arg[1] - '0';
	return 0;
}

/* Walk CPU list @list: calls @fn(lo, hi, data) per range until it returns true; -1 if malformed. */
static int cpulist_walk(const char *list, bool (*fn)(long lo, long hi, void *data), void *data)
{
	const char *p = list + strspn(list, " \t");

	if (!*p || *p == '\n')
		return 0;
	for (;;) {
		char *end;
		long lo, hi;
		if (*p < '0' || *p > '9')
			return -1;
		lo = hi = strtol(p, &end, 10);
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -1;
			hi = strtol(p, &end, 10);
			if (hi < lo)
				return -1;
		}
		if (fn(lo, hi, data))
			return 0;
		p = end;
		if (*p == ',') {
			p++;
			continue;
		}
		return *p == '\n' || *p == 0 ? 0 : -1;
	}
}

static bool take_min(long lo, long hi, void *data)
{
	long *min = data;

	(void)hi;
	if (*min < 0 || lo < *min)
		*min = lo;
	return false;
}

int cpulist_first(const char *list)
{
	long min = -1;

	if (cpulist_walk(list, take_min, &min) < 0 || min > 0x7fffffff)
		return -1;
	return (int)min;
}

static bool holds(long lo, long hi, void *data)
{
	long *cpu = data;

	if (*cpu >= lo && *cpu <= hi) {
		*cpu = -1; /* found */
		return true;
	}
	return false;
}

bool cpulist_has(const char *list, int cpu)
{
	long c = cpu;

	return cpu >= 0 && cpulist_walk(list, holds, &c) == 0 && c == -1;
}

/* @root/devices/system/cpu/cpu@cpu/@rel into @path; its whole decimal number into *@v: 0, -ENOENT when
 * there is no such file, -EINVAL when it holds no number. */
static int read_int(const char *root, int cpu, const char *rel, char *path, size_t plen, int *v)
{
	char text[64], *end;
	long x;

	snprintf(path, plen, "%s/devices/system/cpu/cpu%d/%s", root, cpu, rel);
	if (read_text(path, text, sizeof(text)) < 0)
		return errno == ENOENT ? -ENOENT : -EIO;
	x = strtol(text, &end, 10);
	if (end == text || (*end && *end != '\n') || x < -1 || x > 0x7fffffff)
		return -EINVAL;
	*v = (int)x;
	return 0;
}

/* A topology file perf needs for the mode: *@v, or -1 with the sentence */
static int topo_needed(const char *root, int cpu, const char *file, const char *opt, int *v, char *err, size_t len)
{
	char path[4096];
	int r = read_int(root, cpu, file, path, sizeof(path), v);

	if (r == -ENOENT)
		snprintf(err, len, "%s: CPU %d has no %s (the kernel does not say where the CPU is, or the CPU is "
			 "offline): count with -A (a row per CPU) instead, or name online CPUs with -C", opt, cpu, path);
	else if (r < 0)
		snprintf(err, len, "%s: %s is not a number (%s): a sysfs tree written by hand? Fix the file, or "
			 "count with -A (a row per CPU)", opt, path, r == -EINVAL ? "malformed" : strerror(EIO));
	return r < 0 ? -1 : 0;
}

/* die_id, cluster_id: absent before Linux 5.2 and 5.16, taken as 0 as perf takes it; *@absent said */
static int topo_optional(const char *root, int cpu, const char *file, const char *opt, int *v, bool *absent,
			 char *err, size_t len)
{
	char path[4096];
	int r = read_int(root, cpu, file, path, sizeof(path), v);

	if (r == -ENOENT) {
		*v = 0;
		*absent = true;
		return 0;
	}
	if (r < 0)
		snprintf(err, len, "%s: %s is not a number: a sysfs tree written by hand? Fix the file, or count with "
			 "-A (a row per CPU)", opt, path);
	return r < 0 ? -1 : 0;
}

/* The NUMA node whose cpulist names @cpu (@root/devices/system/node/node*), -1 with the sentence if none */
static int node_of(const char *root, int cpu, int *node, char *err, size_t len)
{
	char dir[4096], path[4400], text[8192];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/devices/system/node", root);
	*node = -1;
	if (!(d = opendir(dir))) {
		snprintf(err, len, "--per-node: there is no %s (%s): this kernel has no NUMA nodes (CONFIG_NUMA off); "
			 "count with --per-socket instead", dir, strerror(errno));
		return -1;
	}
	while (*node < 0 && (de = readdir(d))) {
		char *end;
		long n;
		if (strncmp(de->d_name, "node", 4) || de->d_name[4] < '0' || de->d_name[4] > '9')
			continue;
		n = strtol(de->d_name + 4, &end, 10);
		if (*end || n > 0x7fffffff)
			continue;
		snprintf(path, sizeof(path), "%s/%s/cpulist", dir, de->d_name);
		if (read_text(path, text, sizeof(text)) >= 0 && cpulist_has(text, cpu))
			*node = (int)n;
	}
	closedir(d);
	if (*node < 0)
		snprintf(err, len, "--per-node: no %s/node*/cpulist names CPU %d: it is in no NUMA node the kernel "
			 "lists; count with --per-socket or -A instead", dir, cpu);
	return *node < 0 ? -1 : 0;
}

/* --per-cache: the level (@level; 0: the highest) and the first CPU sharing it, from cache/indexN, N =
 * 0, 1, ... until one is absent (perf's walk); the last index of the level wanted, or the first of the
 * highest level (perf's choice where L1's data and instruction caches are two indexes) */
static int cache_of(const char *root, int cpu, int level, struct aggr_id *id, char *err, size_t len)
{
	char path[4096], text[8192], dir[4096];
	int best = -1, best_level = 0;

	for (int i = 0; i < 64; i++) {
		int lv;
		char rel[64];
		snprintf(rel, sizeof(rel), "cache/index%d/level", i);
		int r = read_int(root, cpu, rel, path, sizeof(path), &lv);
		if (r == -ENOENT)
			break;
		if (r < 0) {
			snprintf(err, len, "--per-cache: %s is not a number: fix the file, or count with -A", path);
			return -1;
		}
		if (level ? lv == level : lv > best_level) {
			best = i;
			best_level = lv;
		}
	}
	snprintf(dir, sizeof(dir), "%s/devices/system/cpu/cpu%d/cache", root, cpu);
	if (best < 0) {
		if (level)
			snprintf(err, len, "--per-cache=L%d: CPU %d has no level %d cache in %s/index*/level: name a level "
				 "it has (L1, L2, ...), or --per-cache alone for its highest", level, cpu, level, dir);
		else
			snprintf(err, len, "--per-cache: CPU %d has no %s/index0/level (the kernel describes no cache of "
				 "it): count with --per-core or -A instead", cpu, dir);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/index%d/shared_cpu_list", dir, best);
	if (read_text(path, text, sizeof(text)) < 0) {
		snprintf(err, len, "--per-cache: CPU %d has no %s (%s): without it the CPUs sharing the cache are "
			 "unknown; count with --per-core or -A instead", cpu, path, strerror(errno));
		return -1;
	}
	id->cache_level = best_level;
	/* perf's cache id: the first CPU that shares it; an empty list: the CPU itself */
	id->cache = cpulist_first(text);
	if (id->cache < 0 && strspn(text, " \t\n") != strlen(text)) {
		snprintf(err, len, "--per-cache: %s is not a CPU list ('%.40s'): fix the file, or count with -A", path,
			 text);
		return -1;
	}
	if (id->cache < 0)
		id->cache = cpu;
	return 0;
}

int aggr_id_of(const char *root, int cpu, enum aggr_mode mode, int cache_level, struct aggr_id *out,
	       struct aggr_guess *guess, char *err, size_t len)
{
	static const char *const opt[] = {
		[AGGR_SOCKET] = "--per-socket", [AGGR_DIE] = "--per-die", [AGGR_CLUSTER] = "--per-cluster",
		[AGGR_CACHE] = "--per-cache", [AGGR_CORE] = "--per-core", [AGGR_NODE] = "--per-node",
	};
	struct aggr_guess g = { false, false, cpu };
	struct aggr_id id = { -1, -1, -1, -1, -1, -1, -1 };
	const char *o;
	int r = 0;

	if (mode <= AGGR_NONE || mode > AGGR_NODE) {
		snprintf(err, len, "no aggregation mode");
		return -1;
	}
	o = opt[mode];
	if (mode == AGGR_NODE) {
		r = node_of(root, cpu, &id.node, err, len);
	} else {
		r = topo_needed(root, cpu, "topology/physical_package_id", o, &id.socket, err, len);
		if (r == 0 && mode != AGGR_SOCKET)
			r = topo_optional(root, cpu, "topology/die_id", o, &id.die, &g.no_die, err, len);
		if (r == 0 && (mode == AGGR_CLUSTER || mode == AGGR_CORE))
			r = topo_optional(root, cpu, "topology/cluster_id", o, &id.cluster, &g.no_cluster, err, len);
		if (r == 0 && mode == AGGR_CORE)
			r = topo_needed(root, cpu, "topology/core_id", o, &id.core, err, len);
		if (r == 0 && mode == AGGR_CACHE)
			r = cache_of(root, cpu, cache_level, &id, err, len);
	}
	if (r < 0)
		return -1;
	*out = id;
	if (guess && (g.no_die || g.no_cluster) && !guess->no_die && !guess->no_cluster)
		*guess = g;
	return 0;
}

void aggr_id_text(enum aggr_mode m, const struct aggr_id *id, char *buf, size_t len)
{
	/* perf 6.12's print_aggr_id_std() */
	switch (m) {
	case AGGR_SOCKET:
		snprintf(buf, len, "S%d", id->socket);
		break;
	case AGGR_DIE:
		snprintf(buf, len, "S%d-D%d", id->socket, id->die);
		break;
	case AGGR_CLUSTER:
		snprintf(buf, len, "S%d-D%d-CLS%d", id->socket, id->die, id->cluster);
		break;
	case AGGR_CACHE:
		snprintf(buf, len, "S%d-D%d-L%d-ID%d", id->socket, id->die, id->cache_level, id->cache);
		break;
	case AGGR_CORE:
		snprintf(buf, len, "S%d-D%d-C%d", id->socket, id->die, id->core);
		break;
	case AGGR_NODE:
		snprintf(buf, len, "N%d", id->node);
		break;
	default:
		snprintf(buf, len, "%s", "");
	}
}

static int cmp_int(int a, int b)
{
	return (a > b) - (a < b);
}

int aggr_id_cmp(const struct aggr_id *a, const struct aggr_id *b)
{
	/* perf's aggr_cpu_id__cmp() */
	return cmp_int(a->node, b->node) ?: cmp_int(a->socket, b->socket) ?: cmp_int(a->die, b->die) ?:
	       cmp_int(a->cluster, b->cluster) ?: cmp_int(a->cache_level, b->cache_level) ?:
	       cmp_int(a->cache, b->cache) ?: cmp_int(a->core, b->core);
}
