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

/* @names split at commas, empty ones kept ("A,,B") */
static int names_of(const char *names, struct strv *out)
{
	for (const char *p = names;; p++)
		if (*p == ',' || !*p) {
			if (strv_add(out, names, (size_t)(p - names)) < 0)
				return -1;
			names = p + 1;
			if (!*p)
				return 0;
		}
}

int stat_cgroup_option(struct stat_cgroup_plan *pl, const char *events, const char *names)
{
	struct strv ev = { NULL, 0 }, nv = { NULL, 0 };
	int r = 0;

	if ((events && items(events, &ev) < 0) || names_of(names, &nv) < 0)
		r = -1;
	if (r == 0 && !ev.n) {
		fprintf(stderr, "pmu stat: -G %s comes before any event: name the events first (-e A,B -G %s), as perf "
			"wants them\n", names, names);
		r = 2;
	}
	for (size_t i = 0; r == 0 && i < nv.n; i++) {
		size_t k = (size_t)pl->names++;
		if (k >= ev.n) {
			fprintf(stderr, "pmu stat: -G names %d cgroups for the %zu events before it: the k-th name goes to "
				"the k-th event (as in perf; '' for every task)\n", pl->names, ev.n);
			r = 2;
		}
		while (r == 0 && pl->assigned.n <= k)
			if (strv_add(&pl->assigned, "", 0) < 0)
				r = -1;
		if (r == 0) {
			char *name = strdup(nv.v[i]);
			if (!name)
				r = -1;
			else {
				free(pl->assigned.v[k]);
				pl->assigned.v[k] = name;
			}
		}
	}
	/* one name so far: every event before it is in that cgroup (perf's "one cgroup for several events") */
	for (size_t i = 1; r == 0 && pl->names == 1 && i < ev.n; i++) {
		char *name = strdup(pl->assigned.v[0]);
		if (!name || (i >= pl->assigned.n && strv_add(&pl->assigned, "", 0) < 0)) {
			free(name);
			r = -1;
		} else {
			free(pl->assigned.v[i]);
			pl->assigned.v[i] = name;
		}
	}
	strv_free(&ev);
	strv_free(&nv);
	return r;
}

void stat_cgroup_plan_free(struct stat_cgroup_plan *pl)
{
	strv_free(&pl->assigned);
	pl->names = 0;
}

int stat_cgroups_make(const struct stat_cgroup_plan *pl, const char *each, const char *events,
		      struct stat_cgroup **out, size_t *n)
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
	if ((each && names_of(each, &nv) < 0) || items(events, &ev) < 0)
		code = 1;
	for (size_t i = 0; code == 0 && i < nv.n; i++) {
		if (!*nv.v[i]) {
			fprintf(stderr, "pmu stat: --for-each-cgroup names an empty cgroup; name each (/ for the root)\n");
			code = 2;
		}
		for (size_t j = 0; code == 0 && j < i; j++)
			if (!strcmp(nv.v[i], nv.v[j])) {
				fprintf(stderr, "pmu stat: --for-each-cgroup names '%s' twice, which would count it twice; "
					"name each once\n", nv.v[i]);
				code = 2;
			}
	}
	/* --for-each-cgroup: every event in each; -G: each event in its cgroup, or none */
	for (size_t i = 0; code == 0 && i < nv.n; i++) {
		struct stat_cgroup *e = entry(out, n, mount, nv.v[i], &code);
		if (e && str_append(&e->events, ",", events) < 0)
			code = 1;
	}
	for (size_t i = 0; code == 0 && !each && i < ev.n; i++) {
		const char *name = pl && i < pl->assigned.n && *pl->assigned.v[i] ? pl->assigned.v[i] : NULL;
		struct stat_cgroup *e = entry(out, n, mount, name, &code);
		if (e && str_append(&e->events, ",", ev.v[i]) < 0)
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
