/* SPDX-License-Identifier: MIT */
/* Event lists: "a,b,{c,d}:u,cpu/event=0x3c,umask=0/". Commas inside a
 * PMU/.../ spec do not separate events; braces make a group; a tracepoint
 * glob ("sched:sched_*") stands for every tracepoint it matches. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pmu.h"
#include "eventlist.h"
#include "error.h"
#include "topdown.h"
#include "tracepoint.h"

void pmu__speclist_free(struct pmu_speclist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].group_mods);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int push(struct pmu_speclist *l, const char *s, size_t n, int group)
{
	struct pmu_spec *nv = realloc(l->v, (l->n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	l->v = nv;
	nv[l->n].name = strndup(s, n);
	nv[l->n].group = group;
	nv[l->n].group_mods = NULL;
	if (!nv[l->n].name)
		return -ENOMEM;
	l->n++;
	return 0;
}

struct glob_push {
	struct pmu_speclist *l;
	int group;
};

static int push_glob(void *data, const char *name)
{
	struct glob_push *g = data;

	return push(g->l, name, strlen(name), g->group);
}

int pmu__speclist_parse(struct pmu_ctx *ctx, const char *events, struct pmu_speclist *out)
{
	const char *p = events, *start;
	int group = -1, r;
	size_t group_first = 0;

	memset(out, 0, sizeof(*out));
	if (!events || !*events)
		return pmu__err(ctx, -EINVAL, "empty event list");
	while (*p) {
		bool slash = false;

		while (*p == ' ')
			p++;
		if (*p == '{') {
			if (group >= 0) {
				r = pmu__err(ctx, -EINVAL, "event list '%s': groups cannot nest ('{' inside '{')",
					     events);
				goto fail;
			}
			group = out->ngroups_explicit++;
			group_first = out->n;
			p++;
			continue;
		}
		start = p;
		while (*p && (slash || (*p != ',' && *p != '}' && *p != '{'))) {
			if (*p == '/')
				slash = !slash;
			p++;
		}
		if (slash) {
			r = pmu__err(ctx, -EINVAL, "event list '%s': '%s' has no closing '/'", events, start);
			goto fail;
		}
		if (p == start) {
			r = pmu__err(ctx, -EINVAL, "event list '%s': empty event name at offset %d", events,
				     (int)(start - events));
			goto fail;
		}
		if (*p == '{') {
			r = pmu__err(ctx, -EINVAL, "event list '%s': '{' must start an item (missing ','?)",
				     events);
			goto fail;
		}
		if ((size_t)(p - start) >= 7 && !strncasecmp(start, "TOPDOWN", 7) &&
		    (p - start == 7 || start[7] == ':')) {
			/* the TOPDOWN keyword: this CPU's topdown events, as one group */
			char names[1024];
			int g = group >= 0 ? group : out->ngroups_explicit++;
			if ((r = pmu__topdown_events(ctx, names, sizeof(names))) < 0)
				goto fail;
			for (char *save = NULL, *tok = strtok_r(names, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				char item[PMU_NAME_MAX];
				snprintf(item, sizeof(item), "%s%.*s", tok, (int)(p - start - 7), start + 7);
				if ((r = push(out, item, strlen(item), g)) < 0)
					goto fail;
			}
		} else if (memchr(start, ':', (size_t)(p - start)) && (size_t)(p - start) < PMU_NAME_MAX &&
			   !memchr(start, '/', (size_t)(p - start))) {
			/* a tracepoint glob stands for the tracepoints it matches, in its place */
			char item[PMU_NAME_MAX];
			struct glob_push gp = { out, group };
			memcpy(item, start, (size_t)(p - start));
			item[p - start] = 0;
			if (pmu__tracepoint_is_glob(item))
				r = pmu__tracepoint_glob(ctx, item, push_glob, &gp);
			else
				r = push(out, start, (size_t)(p - start), group);
			if (r < 0)
				goto fail;
		} else if ((r = push(out, start, (size_t)(p - start), group)) < 0) {
			goto fail;
		}
		if (*p == '}') {
			if (group < 0) {
				r = pmu__err(ctx, -EINVAL, "event list '%s': '}' without '{'", events);
				goto fail;
			}
			p++;
			if (*p == ':') {
				const char *m = ++p;
				while (*p && *p != ',')
					p++;
				for (size_t i = group_first; i < out->n; i++) {
					out->v[i].group_mods = strndup(m, (size_t)(p - m));
					if (!out->v[i].group_mods) {
						r = -ENOMEM;
						goto fail;
					}
				}
			}
			group = -1;
			if (*p && *p != ',') {
				r = pmu__err(ctx, -EINVAL, "event list '%s': expected ',' after '}'", events);
				goto fail;
			}
		}
		if (*p == ',') {
			p++;
			if (!*p) {
				r = pmu__err(ctx, -EINVAL, "event list '%s': trailing ','", events);
				goto fail;
			}
		}
	}
	if (group >= 0) {
		r = pmu__err(ctx, -EINVAL, "event list '%s': '{' without '}'", events);
		goto fail;
	}
	return 0;
fail:
	pmu__speclist_free(out);
	return r;
}
