/* SPDX-License-Identifier: MIT */
/* Tracepoints: find tracefs where perf looks for it (<sys>/kernel/tracing,
 * <sys>/kernel/debug/tracing, then the mount table), read events/SYS/NAME/id,
 * expand SYS:NAME globs, and say plainly why a tracepoint cannot be found. */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "pmu.h"
#include "tracepoint.h"
#include "common.h"
#include "context.h"
#include "editdist.h"
#include "error.h"
#include "modifiers.h"
#include "util.h"

/* How far the search for tracefs got: smaller is better. */
enum tfs_state { TFS_FOUND, TFS_DENIED, TFS_UNMOUNTED, TFS_ABSENT };

struct tracefs {
	int state;
	char root[512];         /* FOUND: the directory holding events/; otherwise the best candidate */
	char mount[512];        /* the best candidate (where to remount, chmod) */
	char looked[600];       /* the candidates, ", "-separated */
};

static int try_root(const char *dir)
{
	char ev[600];
	struct stat st;
	DIR *d;

	if (pmu__path(ev, sizeof(ev), "%s/events", dir) < 0)
		return TFS_ABSENT;
	if ((d = opendir(ev))) {
		closedir(d);
		return TFS_FOUND;
	}
	if (errno == EACCES || errno == EPERM)
		return TFS_DENIED;
	if (stat(dir, &st) == 0)
		return S_ISDIR(st.st_mode) ? TFS_UNMOUNTED : TFS_ABSENT; /* a mount point with nothing on it */
	return errno == EACCES || errno == EPERM ? TFS_DENIED : TFS_ABSENT;
}

static void consider(struct tracefs *t, const char *dir)
{
	int s;

	if (t->state == TFS_FOUND || strlen(dir) >= sizeof(t->root))
		return;
	for (const char *p = t->looked; (p = strstr(p, dir)); p++)
		if ((p == t->looked || p[-1] == ' ') && (!p[strlen(dir)] || p[strlen(dir)] == ','))
			return; /* looked there already */
	pmu__list_add(t->looked, sizeof(t->looked), dir);
	s = try_root(dir);
	if (s < t->state) {
		t->state = s;
		pmu__strlcpy(t->root, dir, sizeof(t->root));
		pmu__strlcpy(t->mount, dir, sizeof(t->mount));
	}
}

/* A mount point as /proc/self/mounts writes it: space, tab, newline and backslash in octal (\040). */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' &&
		    s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
}

/*
 * Where perf looks: the tracefs mount point, debugfs's tracing/ (older
 * systems), under the context's sysfs root (a fixture tree in tests); then,
 * for the real /sys only, any tracefs or debugfs in the mount table.
 */
static void tracefs_find(struct pmu_ctx *ctx, struct tracefs *t)
{
	static const char *const under_sys[] = { "kernel/tracing", "kernel/debug/tracing" };
	char dir[512], line[1024];
	FILE *f;

	memset(t, 0, sizeof(*t));
	t->state = TFS_ABSENT;
	for (size_t i = 0; i < ARRAY_SIZE(under_sys); i++)
		if (pmu__path(dir, sizeof(dir), "%s/%s", ctx->sysfs_root, under_sys[i]) == 0)
			consider(t, dir);
	if (t->state == TFS_FOUND || strcmp(ctx->sysfs_root, "/sys") ||
	    pmu__path(dir, sizeof(dir), "%s/self/mounts", ctx->procfs_root) < 0 || !(f = fopen(dir, "re")))
		return;
	while (t->state != TFS_FOUND && fgets(line, sizeof(line), f)) {
		char mnt[400], type[64];
		if (sscanf(line, "%*s %399s %63s", mnt, type) != 2)
			continue;
		unescape(mnt);
		if (!strcmp(type, "tracefs"))
			consider(t, mnt);
		else if (!strcmp(type, "debugfs") && pmu__path(dir, sizeof(dir), "%s/tracing", mnt) == 0)
			consider(t, dir);
	}
	fclose(f);
}

/* The sentence for tracefs not found or not readable, after @lead ("... looked up in tracefs"). */
static int tracefs_error(struct pmu_ctx *ctx, const char *lead, const struct tracefs *t)
{
	if (t->state == TFS_DENIED)
		return pmu__err(ctx, -EACCES,
				"%s, and %s is not readable by this user (tracefs is root-only by default); run as "
				"root, or let a group read it: sudo mount -o remount,mode=750,gid=GROUP %s (you in "
				"GROUP). Counting a tracepoint then needs kernel.perf_event_paranoid <= 1 or "
				"CAP_PERFMON: tracepoints fire in kernel mode", lead, t->root, t->mount);
	if (t->state == TFS_UNMOUNTED)
		return pmu__err(ctx, -ENOENT, "%s, which is not mounted (looked in %s); mount it: sudo mount -t "
				"tracefs nodev %s", lead, t->looked, t->root);
	return pmu__err(ctx, -ENOENT,
			"%s, which this system does not have (looked in %s); a kernel built with tracing "
			"(CONFIG_TRACING) has the directory /sys/kernel/tracing to mount it on: sudo mount -t tracefs "
			"nodev /sys/kernel/tracing", lead, t->looked);
}

static bool is_dir(const char *dir, const struct dirent *de)
{
	char path[1024];
	struct stat st;

	if (de->d_type != DT_UNKNOWN)
		return de->d_type == DT_DIR;
	return pmu__path(path, sizeof(path), "%s/%s", dir, de->d_name) == 0 && stat(path, &st) == 0 &&
	       S_ISDIR(st.st_mode);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The subdirectories of @dir matching glob @glob (NULL: all), sorted; *n of them. 0 or -errno. */
static int subdirs(const char *dir, const char *glob, char ***out, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **v = NULL;
	size_t k = 0, cap = 0;

	*out = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || (glob && fnmatch(glob, de->d_name, 0)) || !is_dir(dir, de))
			continue;
		if (k == cap && pmu__grow(&v, &cap, 64, sizeof(*v)) < 0)
			goto nomem;
		if (!(v[k] = strdup(de->d_name)))
			goto nomem;
		k++;
	}
	closedir(d);
	if (k)
		qsort(v, k, sizeof(*v), by_name);
	*out = v;
	*n = k;
	return 0;
nomem:
	closedir(d);
	while (k)
		free(v[--k]);
	free(v);
	return -ENOMEM;
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* " (did you mean: a, b?)" with the up to three subdirectories of @dir closest to @want, or "". */
static void closest(const char *dir, const char *want, char *out, size_t len)
{
	unsigned limit = (unsigned)strlen(want) / 3 + 2, dist[3] = { ~0u, ~0u, ~0u };
	const char *best[3] = { NULL, NULL, NULL };
	char list[400] = "";
	char **v;
	size_t n;

	out[0] = 0;
	if (pmu__err_is_quiet() || subdirs(dir, NULL, &v, &n) < 0)
		return; /* nobody reads the message, or nothing to offer */
	for (size_t i = 0; i < n; i++) {
		unsigned d = pmu__edit_distance(want, v[i], limit + 1);
		if (strstr(v[i], want) || strstr(want, v[i]))
			d = d > 2 ? 2 : d; /* a substring ranks close */
		if (d > limit)
			continue;
		for (int j = 0; j < 3; j++)
			if (d < dist[j]) {
				for (int m = 2; m > j; m--) {
					dist[m] = dist[m - 1];
					best[m] = best[m - 1];
				}
				dist[j] = d;
				best[j] = v[i];
				break;
			}
	}
	for (int j = 0; j < 3 && best[j]; j++)
		pmu__list_add(list, sizeof(list), best[j]);
	if (list[0])
		snprintf(out, len, "; did you mean: %s?", list);
	free_names(v, n);
}

/* A subsystem or tracepoint name: letters, digits, '_', '-', '.', not starting with '.'. */
static bool valid_part(const char *s, size_t n, bool glob)
{
	if (n == 0 || n >= 128 || s[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
		      c == '-' || c == '.' || (glob && strchr("*?[]!", c))))
			return false;
	}
	return true;
}

int pmu__tracepoint_resolve(struct pmu_ctx *ctx, const char *name, const char *spec, struct pmu_event_info *out,
			    bool (*is_event)(struct pmu_ctx *ctx, const char *x))
{
	const char *colon = strchr(spec, ':');
	char sys[128], ev[128], path[1024], hint[480];
	struct tracefs t;
	struct stat st;
	long long id;
	int r;

	if (pmu__tracepoint_is_glob(spec))
		return pmu__err(ctx, -EINVAL, "'%s' is a tracepoint glob, which stands for several events: use it in an "
				"event list (pmu_set_open(), pmu stat -e), or name one tracepoint", name);
	if (!colon || strchr(colon + 1, ':') || !valid_part(spec, (size_t)(colon - spec), false) ||
	    !valid_part(colon + 1, strlen(colon + 1), false))
		return 1;
	memcpy(sys, spec, (size_t)(colon - spec));
	sys[colon - spec] = 0;
	pmu__strlcpy(ev, colon + 1, sizeof(ev));
	tracefs_find(ctx, &t);
	if (t.state == TFS_FOUND && pmu__path(path, sizeof(path), "%s/events/%s", t.root, sys) == 0 &&
	    stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (pmu__path(path, sizeof(path), "%s/events/%s/%s/id", t.root, sys, ev) < 0)
			return pmu__err(ctx, -EINVAL, "event '%s': the tracefs path is too long", name);
		r = pmu__read_int(path, &id);
		if (r == 0 && id >= 0 && id <= UINT32_MAX) {
			out->type = PERF_TYPE_TRACEPOINT;
			out->config = (uint64_t)id;
			out->config1 = out->config2 = out->config3 = 0;
			out->flags = 0;
			out->source = PMU_SRC_TRACEPOINT;
			pmu__strlcpy(out->pmu, "tracepoint", sizeof(out->pmu));
			out->desc = "kernel tracepoint: how often it fired (in kernel mode, where tracepoints fire)";
			out->unit = "";
			snprintf(out->origin, sizeof(out->origin), "tracefs: %s", path);
			return 0;
		}
		if (r == -EACCES || r == -EPERM) {
			snprintf(hint, sizeof(hint), "tracepoint '%s' is looked up in tracefs", name);
			pmu__strlcpy(t.root, path, sizeof(t.root));
			t.state = TFS_DENIED;
			return tracefs_error(ctx, hint, &t);
		}
		if (r == -ENOENT || r == -ENOTDIR) {
			pmu__path(path, sizeof(path), "%s/events/%s", t.root, sys);
			closest(path, ev, hint, sizeof(hint));
			return pmu__err(ctx, -ENOENT, "unknown tracepoint '%s': subsystem '%s' has no tracepoint '%s'%s "
					"(%s lists them)", name, sys, ev, hint, path);
		}
		return pmu__err(ctx, r < 0 ? r : -EINVAL, "event '%s': cannot read the tracepoint id %s: %s", name,
				path, r < 0 ? strerror(-r) : "not an id");
	}
	if (is_event(ctx, sys))
		return pmu__err(ctx, -EINVAL, "event '%s': '%s' is not a modifier; libpmu takes %s", name, ev,
				pmu__mods_accepted);
	if (t.state != TFS_FOUND) {
		snprintf(hint, sizeof(hint), "event '%s' is no event libpmu or libpfm4 knows, nor one with modifiers; "
			 "as a tracepoint SYS:NAME it is looked up in tracefs", name);
		return tracefs_error(ctx, hint, &t);
	}
	pmu__path(path, sizeof(path), "%s/events", t.root);
	closest(path, sys, hint, sizeof(hint));
	return pmu__err(ctx, -ENOENT, "unknown event '%s': no event '%s' to take modifiers, and tracefs has no "
			"tracepoint subsystem '%s'%s (%s lists them)", name, sys, sys, hint, path);
}

bool pmu__tracepoint_is_glob(const char *item)
{
	size_t base = pmu__mode_base(item);

	if (strchr(item, '/') || !memchr(item, ':', base))
		return false;
	for (size_t i = 0; i < base; i++)
		if (strchr("*?[", item[i]))
			return true;
	return false;
}

int pmu__tracepoint_glob(struct pmu_ctx *ctx, const char *item, int (*fn)(void *data, const char *name), void *data)
{
	size_t base = pmu__mode_base(item);
	const char *colon = memchr(item, ':', base), *mods = item + base;
	char sysg[128], evg[128], dir[1024], one[PMU_NAME_MAX];
	struct tracefs t;
	char **sys = NULL;
	size_t nsys = 0;
	int r, count = 0;

	if (!colon || memchr(colon + 1, ':', (size_t)(item + base - colon - 1)) ||
	    !valid_part(item, (size_t)(colon - item), true) ||
	    !valid_part(colon + 1, (size_t)(item + base - colon - 1), true))
		return pmu__err(ctx, -EINVAL, "event list item '%s': a tracepoint glob is SYS:NAME, each of letters, "
				"digits, '_', '-', '.' and the wildcards * ? [...]", item);
	memcpy(sysg, item, (size_t)(colon - item));
	sysg[colon - item] = 0;
	memcpy(evg, colon + 1, (size_t)(item + base - colon - 1));
	evg[item + base - colon - 1] = 0;
	tracefs_find(ctx, &t);
	if (t.state != TFS_FOUND) {
		char lead[PMU_NAME_MAX + 64];
		snprintf(lead, sizeof(lead), "tracepoints '%s' are looked up in tracefs", item);
		return tracefs_error(ctx, lead, &t);
	}
	pmu__path(dir, sizeof(dir), "%s/events", t.root);
	if ((r = subdirs(dir, sysg, &sys, &nsys)) < 0)
		return pmu__err(ctx, r, "tracepoints '%s': cannot list %s: %s", item, dir, strerror(-r));
	for (size_t i = 0; i < nsys; i++) {
		char **ev;
		size_t nev;
		if (pmu__path(dir, sizeof(dir), "%s/events/%s", t.root, sys[i]) < 0 ||
		    (r = subdirs(dir, evg, &ev, &nev)) < 0)
			continue; /* a subsystem that cannot be listed has nothing to offer */
		for (size_t j = 0; j < nev && r >= 0; j++) {
			if (pmu__path(one, sizeof(one), "%s:%s%s", sys[i], ev[j], mods) < 0)
				r = pmu__err(ctx, -ENAMETOOLONG, "tracepoint '%s:%s' (from '%s'): the name is longer than "
					     "%d characters", sys[i], ev[j], item, PMU_NAME_MAX - 1);
			else if ((r = fn(data, one)) == 0)
				count++;
		}
		free_names(ev, nev);
		if (r < 0) {
			free_names(sys, nsys);
			return r;
		}
	}
	free_names(sys, nsys);
	if (!count)
		return pmu__err(ctx, -ENOENT, "no tracepoint matches '%.*s' in %s/events", (int)base, item, t.root);
	return count;
}
