/* SPDX-License-Identifier: MIT */
/* Performance groups in LIKWID's file shape (SHORT, EVENTSET, METRICS, LONG): LIKWID's own, read where
 * its package installed them, and libpmu's (events/groups/<arch>/); found for this CPU, parsed, each
 * counter line mapped to a libpmu event (likwid-map.c) and each metric translated into perf's
 * MetricExpr language (pmu_group_open, pmu_group_foreach). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "common.h"
#include "context.h"
#include "cpu.h"
#include "error.h"
#include "likwid.h"
#include "tables.h"
#include "util.h"

#ifndef PMU_GROUPS_DIR
#define PMU_GROUPS_DIR "/usr/share/libpmu/groups"
#endif
#define LIKWID_GROUPS_DIR "/usr/share/likwid/perfgroups"
#define GROUP_MAX_BYTES (1 << 20)

/* inverseClock: 1 / the TSC's frequency, LIKWID's clock (its timer's), libpmu's #system_tsc_freq */
#define INVERSE_CLOCK "(1 / #system_tsc_freq)"

struct pmu_group {
	struct pmu_group_info info;
	struct pmu_group_event *ev;
	struct pmu_group_metric *m;
	char *strings[8];
};

/* The directories to look in for this CPU, in order: LIKWID's, then libpmu's own (its CPU's, then the
 * groups over standard names that every CPU of libpmu's own groups counts). */
#define NDIRS 3
static int group_dirs(struct pmu_ctx *ctx, char dirs[NDIRS][4096], const char *archs[NDIRS])
{
	const char *la = pmu__likwid_arch(&ctx->cpu), *ga = pmu__groups_arch(&ctx->cpu);
	const char *lroot = pmu__getenv("PMU_LIKWID_GROUPS"), *groot = pmu__getenv("PMU_GROUPS_DIR");
	int n = 0;

	if (la) {
		snprintf(dirs[n], 4096, "%s/%s", lroot && *lroot ? lroot : LIKWID_GROUPS_DIR, la);
		archs[n++] = la;
	}
	if (ga) {
		snprintf(dirs[n], 4096, "%s/%s", groot && *groot ? groot : PMU_GROUPS_DIR, ga);
		archs[n++] = ga;
		snprintf(dirs[n], 4096, "%s/standard", groot && *groot ? groot : PMU_GROUPS_DIR);
		archs[n++] = "standard";
	}
	return n;
}

static bool txt_name(const char *f, char *name, size_t nl)
{
	size_t l = strlen(f);

	if (l < 5 || strcmp(f + l - 4, ".txt") || l - 4 >= nl)
		return false;
	snprintf(name, nl, "%.*s", (int)(l - 4), f);
	return true;
}

/* The SHORT line of a group file, into @out. */
static void short_of(const char *path, char *out, size_t ol)
{
	char line[512];
	FILE *f = fopen(path, "re");

	*out = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "SHORT", 5) && isspace((unsigned char)line[5])) {
			char *s = line + 5;
			while (isspace((unsigned char)*s))
				s++;
			s[strcspn(s, "\r\n")] = '\0';
			pmu__strlcpy(out, s, ol);
			break;
		}
	fclose(f);
}

PMU_EXPORT int pmu_group_foreach(struct pmu_ctx *ctx, pmu_group_cb cb, void *data)
{
	char dirs[NDIRS][4096], name[256], path[4400], sh[256];
	const char *archs[NDIRS];
	int nd, count = 0;

	if (!ctx || !cb)
		return pmu__err(ctx, -EINVAL, "pmu_group_foreach: NULL context or callback");
	nd = group_dirs(ctx, dirs, archs);
	for (int d = 0; d < nd; d++) {
		struct dirent **ents;
		int n = scandir(dirs[d], &ents, NULL, alphasort);
		for (int i = 0; i < n; i++) {
			int r = 0;
			if (txt_name(ents[i]->d_name, name, sizeof(name))) {
				snprintf(path, sizeof(path), "%s/%s", dirs[d], ents[i]->d_name);
				short_of(path, sh, sizeof(sh));
				r = cb(name, archs[d], path, sh, data);
				count++;
			}
			free(ents[i]);
			if (r) {
				for (int k = i + 1; k < n; k++)
					free(ents[k]);
				free(ents);
				return r;
			}
		}
		if (n >= 0)
			free(ents);
	}
	return count;
}

PMU_EXPORT int pmu_group_arch(struct pmu_ctx *ctx, char *buf, size_t len)
{
	const char *a;

	if (!ctx || !buf || !len)
		return pmu__err(ctx, -EINVAL, "pmu_group_arch: NULL argument");
	a = pmu__likwid_arch(&ctx->cpu);
	if (!a)
		a = pmu__groups_arch(&ctx->cpu);
	if (!a)
		return pmu__err(ctx, -ENOENT, "CPU %s: neither LIKWID nor libpmu has performance groups for it; "
				"count events and metrics by name (pmu list)", ctx->cpu.cpuid);
	pmu__strlcpy(buf, a, len);
	return 0;
}

/* The file of group @name here: 0 with @path and *@arch, or -ENOENT said. */
static int find_group(struct pmu_ctx *ctx, const char *name, char *path, size_t pl, const char **arch)
{
	char dirs[NDIRS][4096], n2[256];
	const char *archs[NDIRS];
	int nd = group_dirs(ctx, dirs, archs), total = 0;

	if (!nd)
		return pmu__err(ctx, -ENOENT, "group %s: CPU %s has no performance groups (LIKWID has no directory "
				"for it, nor libpmu): count events and metrics by name (pmu list)", name, ctx->cpu.cpuid);
	for (int d = 0; d < nd; d++) {
		DIR *dir = opendir(dirs[d]);
		struct dirent *e;
		if (!dir)
			continue;
		while ((e = readdir(dir)))
			if (txt_name(e->d_name, n2, sizeof(n2))) {
				total++;
				if (!strcasecmp(n2, name)) {
					snprintf(path, pl, "%s/%s", dirs[d], e->d_name);
					*arch = archs[d];
					closedir(dir);
					return 0;
				}
			}
		closedir(dir);
	}
	if (!total)
		return pmu__err(ctx, -ENOENT, "group %s: no group files in %s%s%s (LIKWID's groups are in Debian's likwid "
				"package; PMU_LIKWID_GROUPS names another directory of them)", name, dirs[0],
				nd > 1 ? " or " : "", nd > 1 ? dirs[1] : "");
	return pmu__err(ctx, -ENOENT, "group %s: no such group for this CPU (%s%s%s): 'pmu list groups' lists them",
			name, archs[0], nd > 1 ? " and " : "", nd > 1 ? archs[nd - 1] : "");
}

/* A formula in LIKWID's words translated: counters to their events' names, time to duration_time,
 * inverseClock to 1 / #system_tsc_freq. 0, or -EINVAL with @why. */
static int translate(const struct pmu_group *g, char **vars, const char *f, char **out, char *why, size_t wl)
{
	size_t cap = strlen(f) * 4 + 64, k = 0;
	char *o = malloc(cap);

	if (!o)
		return -ENOMEM;
	for (const char *p = f; *p;) {
		const char *piece;
		char tok[128];
		size_t tl;
		if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
			const char *s = p;
			while (isdigit((unsigned char)*p) || *p == '.')
				p++;
			if ((*p == 'e' || *p == 'E') && (isdigit((unsigned char)p[1]) ||
			    ((p[1] == '-' || p[1] == '+') && isdigit((unsigned char)p[2])))) {
				p += 2;
				while (isdigit((unsigned char)*p))
					p++;
			}
			/* "1.E-06": perf's language wants a digit after the point */
			tl = (size_t)(p - s);
			snprintf(tok, sizeof(tok), "%.*s", (int)tl, s);
			char *dot = strchr(tok, '.');
			if (dot && (dot[1] == 'E' || dot[1] == 'e' || !dot[1])) {
				memmove(dot + 2, dot + 1, strlen(dot + 1) + 1);
				dot[1] = '0';
			}
			piece = tok;
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			const char *s = p;
			while (isalnum((unsigned char)*p) || *p == '_' || (*p == ':' && isalpha((unsigned char)p[1])))
				p++;
			snprintf(tok, sizeof(tok), "%.*s", (int)(p - s), s);
			piece = NULL;
			if (!strcmp(tok, "time"))
				piece = "duration_time";
			else if (!strcmp(tok, "inverseClock"))
				piece = INVERSE_CLOCK;
			for (size_t i = 0; !piece && i < g->info.nevents; i++)
				if (!strcmp(g->ev[i].counter, tok)) {
					if (!vars[i] || !*vars[i]) {
						snprintf(why, wl, "the formula uses %s, whose event %s %s", tok,
							 g->ev[i].likwid, vars[i] ? "counts nothing (MERGE)" : "is not mapped");
						free(o);
						return -EINVAL;
					}
					piece = vars[i];
				}
			if (!piece) {
				snprintf(why, wl, "the formula names '%s', which is no counter of the EVENTSET, 'time' or "
					 "'inverseClock': add its counter line, or correct the name", tok);
				free(o);
				return -EINVAL;
			}
		} else if (strchr("+-*/() \t", *p)) {
			tok[0] = *p++;
			tok[1] = '\0';
			piece = tok;
		} else {
			snprintf(why, wl, "the formula has '%c' (at %zu), which LIKWID's formulas do not: only numbers, "
				 "counters, time, inverseClock, + - * / and parentheses", *p, (size_t)(p - f));
			free(o);
			return -EINVAL;
		}
		tl = strlen(piece);
		if (k + tl + 1 >= cap) {
			char *n = realloc(o, cap = (k + tl + 1) * 2);
			if (!n) {
				free(o);
				return -ENOMEM;
			}
			o = n;
		}
		memcpy(o + k, piece, tl);
		k += tl;
		o[k] = '\0';
	}
	*out = o;
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

PMU_EXPORT void pmu_group_free(struct pmu_group *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->info.nevents; i++) {
		free((char *)g->ev[i].counter);
		free((char *)g->ev[i].likwid);
		free((char *)g->ev[i].event);
		free((char *)g->ev[i].why);
	}
	for (size_t i = 0; i < g->info.nmetrics; i++) {
		free((char *)g->m[i].name);
		free((char *)g->m[i].unit);
		free((char *)g->m[i].formula);
		free((char *)g->m[i].expr);
		free((char *)g->m[i].why);
	}
	free(g->ev);
	free(g->m);
	for (size_t i = 0; i < ARRAY_SIZE(g->strings); i++)
		free(g->strings[i]);
	free(g);
}

/* Parse the text of a group file into @g, mapping events (@partial: an unmappable one kept with its
 * reason, not refused). 0 or a negative errno said naming the line. */
static int parse(struct pmu_ctx *ctx, struct pmu_group *g, char *text, unsigned flags)
{
	enum { NONE, EVENTSET, METRICS, LONG } sec = NONE;
	char *save = NULL, *longbuf = NULL, why[512];
	char **vars = NULL;
	size_t longlen = 0, evcap = 0, mcap = 0, events_len = 0;
	int lineno = 0, r = 0;
	const char *path = g->info.path;

	for (char *raw = strtok_r(text, "\n", &save); raw; raw = strtok_r(NULL, "\n", &save)) {
		char *line = trim(raw);
		lineno++; /* blank lines are skipped by strtok_r: numbers count lines that say something */
		if (sec == LONG) {
			size_t l = strlen(raw);
			char *n = realloc(longbuf, longlen + l + 2);
			if (!n) {
				r = -ENOMEM;
				goto out;
			}
			longbuf = n;
			memcpy(longbuf + longlen, raw, l);
			longlen += l;
			longbuf[longlen++] = '\n';
			longbuf[longlen] = '\0';
			continue;
		}
		if (!*line || *line == '#')
			continue;
		if (!strncmp(line, "SHORT", 5) && (!line[5] || isspace((unsigned char)line[5]))) {
			free(g->strings[3]);
			g->strings[3] = strdup(trim(line + 5));
			g->info.short_desc = g->strings[3];
			continue;
		}
		if (!strcmp(line, "EVENTSET")) { sec = EVENTSET; continue; }
		if (!strcmp(line, "METRICS")) { sec = METRICS; continue; }
		if (!strcmp(line, "LONG")) { sec = LONG; continue; }
		if (!strcmp(line, "REQUIRE_NOHT")) /* LIKWID: the group wants SMT off; its counts are still right */
			continue;
		if (sec == EVENTSET) {
			char counter[64], event[256], extra[8];
			int nf = sscanf(line, "%63s %255s %7s", counter, event, extra);
			if (nf != 2) {
				r = pmu__err(ctx, -EINVAL, "group %s (%s): EVENTSET line '%s' is not 'COUNTER EVENT[:OPTIONS]': "
					     "correct the file", g->info.name, path, line);
				goto out;
			}
			if (g->info.nevents == evcap) {
				evcap = evcap ? evcap * 2 : 16;
				struct pmu_group_event *n = realloc(g->ev, evcap * sizeof(*n));
				char **nv = realloc(vars, evcap * sizeof(*nv));
				if (n)
					g->ev = n;
				if (nv)
					vars = nv;
				if (!n || !nv) {
					r = -ENOMEM;
					goto out;
				}
			}
			struct pmu_group_event *e = &g->ev[g->info.nevents];
			char *sp = NULL, *var = NULL;
			memset(e, 0, sizeof(*e));
			vars[g->info.nevents] = NULL;
			e->counter = strdup(counter);
			e->likwid = strdup(event);
			g->info.nevents++;
			if (!e->counter || !e->likwid) {
				r = -ENOMEM;
				goto out;
			}
			for (size_t i = 0; i + 1 < g->info.nevents; i++)
				if (!strcmp(g->ev[i].counter, counter)) {
					r = pmu__err(ctx, -EINVAL, "group %s (%s): counter %s is named twice in EVENTSET: "
						     "give each counter one event", g->info.name, path, counter);
					goto out;
				}
			why[0] = '\0';
			char base[64], evopts[400];
			char *cc = strchr(counter, ':');
			snprintf(base, sizeof(base), "%.*s", cc ? (int)(cc - counter) : (int)strlen(counter), counter);
			snprintf(evopts, sizeof(evopts), "%s%s", event, cc ? cc : "");
			r = pmu__likwid_map(ctx, g->info.arch, base, evopts, &sp, &var, why, sizeof(why));
			if (r == -ENOMEM)
				goto out;
			if (r < 0 && !(flags & PMU_GROUP_PARTIAL)) {
				r = pmu__err(ctx, -EOPNOTSUPP, "group %s (%s): EVENTSET line '%s' cannot be counted: %s",
					     g->info.name, path, line, why);
				goto out;
			}
			if (r < 0 && !(e->why = strdup(why))) {
				r = -ENOMEM;
				goto out;
			}
			r = 0;
			e->event = sp;
			vars[g->info.nevents - 1] = var;
			continue;
		}
		if (sec == METRICS) {
			char *f = line + strlen(line), *name = line, *unit = NULL, *expr = NULL;
			while (f > line && !isspace((unsigned char)f[-1]))
				f--;
			if (f == line) {
				r = pmu__err(ctx, -EINVAL, "group %s (%s): METRICS line '%s' has a formula but no name: "
					     "write 'Name [unit] formula'", g->info.name, path, line);
				goto out;
			}
			f[-1] = '\0';
			name = trim(name);
			char *lb = strrchr(name, '['), *rb = lb ? strchr(lb, ']') : NULL;
			if (lb && rb && !rb[1]) {
				*rb = '\0';
				unit = trim(lb + 1);
				*lb = '\0';
				name = trim(name);
			}
			why[0] = '\0';
			r = translate(g, vars, f, &expr, why, sizeof(why));
			if (r == -EINVAL && strstr(why, "is not mapped") && !(flags & PMU_GROUP_PARTIAL)) {
				r = pmu__err(ctx, -EINVAL, "group %s (%s): metric '%s': %s", g->info.name, path, name, why);
				goto out;
			}
			/* a formula over a counter the EVENTSET lacks (LIKWID's own files have a few): that metric
			 * has no value, the group's others do */
			if (r == -EINVAL)
				r = 0, expr = NULL;
			if (r < 0)
				goto out;
			if (g->info.nmetrics == mcap) {
				mcap = mcap ? mcap * 2 : 16;
				struct pmu_group_metric *n = realloc(g->m, mcap * sizeof(*n));
				if (!n) {
					free(expr);
					r = -ENOMEM;
					goto out;
				}
				g->m = n;
			}
			struct pmu_group_metric *m = &g->m[g->info.nmetrics++];
			m->name = strdup(name);
			m->unit = strdup(unit ? unit : "");
			m->formula = strdup(f);
			m->expr = expr;
			m->why = expr ? NULL : strdup(why);
			if (!m->name || !m->unit || !m->formula || (!expr && !m->why)) {
				r = -ENOMEM;
				goto out;
			}
			continue;
		}
		r = pmu__err(ctx, -EINVAL, "group %s (%s): '%s' is outside the sections SHORT, EVENTSET, METRICS and "
			     "LONG: correct the file", g->info.name, path, line);
		goto out;
	}
	if (!g->info.nevents) {
		r = pmu__err(ctx, -EINVAL, "group %s (%s): no EVENTSET lines: a group counts at least one event",
			     g->info.name, path);
		goto out;
	}
	/* the event list, each event once */
	for (size_t i = 0; i < g->info.nevents; i++)
		events_len += g->ev[i].event ? strlen(g->ev[i].event) + 1 : 0;
	g->strings[4] = calloc(1, events_len + 1);
	if (!g->strings[4]) {
		r = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < g->info.nevents; i++) {
		const char *e = g->ev[i].event;
		bool dup = false;
		for (size_t j = 0; e && *e && j < i; j++)
			dup |= g->ev[j].event && !strcmp(g->ev[j].event, e);
		if (!e || !*e || dup)
			continue;
		if (*g->strings[4])
			strcat(g->strings[4], ",");
		strcat(g->strings[4], e);
	}
	g->info.events = g->strings[4];
	g->strings[5] = longbuf ? strdup(trim(longbuf)) : strdup("");
	g->info.long_desc = g->strings[5];
	if (!g->info.short_desc)
		g->info.short_desc = "";
	r = g->strings[5] ? 0 : -ENOMEM;
out:
	free(longbuf);
	for (size_t i = 0; vars && i < g->info.nevents; i++)
		free(vars[i]);
	free(vars);
	(void)lineno;
	return r;
}

PMU_EXPORT int pmu_group_open(struct pmu_ctx *ctx, const char *name, unsigned flags, struct pmu_group **out)
{
	char path[4400], *text = NULL;
	const char *arch = NULL;
	struct pmu_group *g;
	size_t len;
	int r;

	if (!ctx || !name || !out)
		return pmu__err(ctx, -EINVAL, "pmu_group_open: NULL argument");
	*out = NULL;
	if ((r = pmu__tables_load(ctx)) < 0)
		return r;
	if (!strncmp(name, "likwid:", 7))
		name += 7;
	if (strchr(name, '/')) { /* a file: the arch is this CPU's */
		pmu__strlcpy(path, name, sizeof(path));
		arch = pmu__likwid_arch(&ctx->cpu);
		if (!arch)
			arch = pmu__groups_arch(&ctx->cpu);
		if (!arch)
			arch = "";
	} else if ((r = find_group(ctx, name, path, sizeof(path), &arch)) < 0) {
		return r;
	}
	FILE *f = fopen(path, "re");
	if (!f)
		return pmu__err(ctx, -errno, "group %s: cannot read %s (%s)", name, path, strerror(errno));
	text = malloc(GROUP_MAX_BYTES + 1);
	len = text ? fread(text, 1, GROUP_MAX_BYTES + 1, f) : 0;
	fclose(f);
	if (!text)
		return pmu__err(ctx, -ENOMEM, "out of memory");
	if (len > GROUP_MAX_BYTES) {
		free(text);
		return pmu__err(ctx, -EFBIG, "group %s: %s is over %d bytes, no group file", name, path, GROUP_MAX_BYTES);
	}
	text[len] = '\0';
	if (memchr(text, '\0', len)) {
		free(text);
		return pmu__err(ctx, -EINVAL, "group %s: %s has a NUL byte: no group file (text)", name, path);
	}
	g = calloc(1, sizeof(*g));
	if (!g) {
		free(text);
		return pmu__err(ctx, -ENOMEM, "out of memory");
	}
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	g->strings[0] = strndup(base, strlen(base) > 4 && !strcmp(base + strlen(base) - 4, ".txt") ?
				strlen(base) - 4 : strlen(base));
	g->strings[1] = strdup(arch);
	g->strings[2] = strdup(path);
	g->info.name = g->strings[0];
	g->info.arch = g->strings[1];
	g->info.path = g->strings[2];
	g->info.clock = "inverseClock is 1 / #system_tsc_freq (the TSC's frequency, LIKWID's clock)";
	r = g->strings[0] && g->strings[1] && g->strings[2] ? parse(ctx, g, text, flags) : -ENOMEM;
	free(text);
	g->info.event = g->ev;
	g->info.metric = g->m;
	if (r < 0) {
		pmu_group_free(g);
		return r == -ENOMEM ? pmu__err(ctx, r, "out of memory") : r;
	}
	*out = g;
	return 0;
}

PMU_EXPORT const struct pmu_group_info *pmu_group_info(const struct pmu_group *g)
{
	return g ? &g->info : NULL;
}
