/* SPDX-License-Identifier: MIT */
/* pmu stat -G, --for-each-cgroup (stat-cgroup.h says what it is for). */
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "stat-cgroup.h"
#include "util.h"

/* Where the kernel's perf_event controller is mounted: a v1 hierarchy that has it, else cgroup2 (which
 * always has it). 0, or -1 when neither is. */
static int cgroup_mount(char *dir, size_t len)
{
	FILE *f = setmntent("/proc/self/mounts", "r");
	struct mntent *m;
	int v1 = 0, v2 = 0;

	if (!f)
		return -1;
	while ((m = getmntent(f)) && !v1) {
		if (!strcmp(m->mnt_type, "cgroup") && hasmntopt(m, "perf_event"))
			v1 = snprintf(dir, len, "%s", m->mnt_dir) < (int)len;
		else if (!strcmp(m->mnt_type, "cgroup2") && !v2)
			v2 = snprintf(dir, len, "%s", m->mnt_dir) < (int)len;
	}
	endmntent(f);
	return v1 || v2 ? 0 : -1;
}

/* The list's items: the names and {groups} between its top-level commas (not those inside braces or
 * PMU/.../ terms). */
static int items(const char *events, struct strv *out)
{
	int depth = 0;
	bool terms = false;
	const char *start = events;

	for (const char *p = events;; p++) {
		if (*p == '{')
			depth++;
		else if (*p == '}')
			depth--;
		else if (*p == '/')
			terms = !terms;
		else if ((*p == ',' && !depth && !terms) || !*p) {
			if (p > start && strv_add(out, start, (size_t)(p - start)) < 0)
				return -1;
			start = p + 1;
		}
		if (!*p)
			return 0;
	}
}

/* The entry of cgroup @name (NULL: every task) in @c, added (opened under @mount) if there is none. */
static struct stat_cgroup *entry(struct stat_cgroup **c, size_t *n, const char *mount, const char *name, int *code)
{
	struct stat_cgroup *nc, *e;
	char path[4096];

	for (size_t i = 0; i < *n; i++)
		if ((!name && !(*c)[i].name) || (name && (*c)[i].name && !strcmp((*c)[i].name, name)))
			return &(*c)[i];
	if (!(nc = realloc(*c, (*n + 1) * sizeof(*nc)))) {
		*code = 1;
		return NULL;
	}
	*c = nc;
	e = &nc[*n];
	memset(e, 0, sizeof(*e));
	e->fd = -1;
	if (name) {
		snprintf(path, sizeof(path), "%s/%s", mount, name + (*name == '/'));
		if ((e->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
			fprintf(stderr, "pmu stat: no cgroup '%s' to count: %s: %s (the cgroups are the directories under "
				"%s)\n", name, path, strerror(errno), mount);
			*code = 2;
			return NULL;
		}
		if (!(e->name = strdup(name))) {
			close(e->fd);
			*code = 1;
			return NULL;
		}
	}
	(*n)++;
	return e;
}

int stat_cgroups_make(const char *names, bool each, const char *events, struct stat_cgroup **out, size_t *n)
{
	struct strv nv = { NULL, 0 }, ev = { NULL, 0 };
	char mount[4096];
	int code = 0;

	*out = NULL;
	*n = 0;
	if (cgroup_mount(mount, sizeof(mount)) < 0) {
		fprintf(stderr, "pmu stat: %s: no cgroup file system is mounted (/proc/self/mounts has neither cgroup2 "
			"nor a cgroup hierarchy with perf_event): mount -t cgroup2 none /sys/fs/cgroup\n",
			each ? "--for-each-cgroup" : "-G");
		return 1;
	}
	/* the names, empty ones kept ("A,,B": the second event counts every task) */
	for (const char *p = names;; p++)
		if (*p == ',' || !*p) {
			if (strv_add(&nv, names, (size_t)(p - names)) < 0)
				code = 1;
			names = p + 1;
			if (!*p)
				break;
		}
	if (code == 0 && items(events, &ev) < 0)
		code = 1;
	if (code == 0 && !each && nv.n > 1 && nv.n != ev.n) {
		fprintf(stderr, "pmu stat: -G names %zu cgroups for %zu events: name one cgroup for every event, or one per "
			"event in their order ('' for every task: -G A,,B), as perf pairs them\n", nv.n, ev.n);
		code = 2;
	}
	for (size_t i = 0; code == 0 && i < nv.n; i++)
		if (each && !*nv.v[i]) {
			fprintf(stderr, "pmu stat: --for-each-cgroup names an empty cgroup; name each (/ for the root)\n");
			code = 2;
		} else {
			for (size_t j = 0; each && code == 0 && j < i; j++)
				if (!strcmp(nv.v[i], nv.v[j])) {
					fprintf(stderr, "pmu stat: --for-each-cgroup names '%s' twice, which would count "
						"it twice; name each once\n", nv.v[i]);
					code = 2;
				}
		}
	/* each event in its cgroup(s): --for-each-cgroup and one -G name, every event in each; else the i-th */
	for (size_t i = 0; code == 0 && i < nv.n; i++) {
		struct stat_cgroup *e = entry(out, n, mount, *nv.v[i] ? nv.v[i] : NULL, &code);
		bool all = each || nv.n == 1;
		if (e && str_append(&e->events, ",", all ? events : ev.v[i]) < 0)
			code = 1;
	}
	if (code == 1)
		fprintf(stderr, "pmu stat: out of memory\n");
	strv_free(&nv);
	strv_free(&ev);
	if (code) {
		stat_cgroups_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return code;
}

void stat_cgroups_free(struct stat_cgroup *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (c[i].fd >= 0)
			close(c[i].fd);
		free(c[i].name);
		free(c[i].events);
	}
	free(c);
}
