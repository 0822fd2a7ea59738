/* SPDX-License-Identifier: MIT */
/* Hybrid CPUs (Intel cpu_core + cpu_atom, Arm big.LITTLE with one PMU per core type): a set's
 * events placed on the core PMUs. A generic event that names no PMU becomes one event per core
 * type; an event of one core PMU is labelled with it, as perf names them. The other hybrid rule
 * — a table or standard name that exists on several core PMUs must name one — is resolve.c's
 * (it refuses the name before a set exists). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "pmu.h"
#include "hybrid.h"
#include "common.h"
#include "context.h"
#include "error.h"
#include "eventlist.h"
#include "generic-native.h"
#include "modifiers.h"
#include "resolve.h"
#include "set-layout.h"
#include "sysfs.h"
#include "util.h"

/* Does cpulist @list ("0-7,16,18-19") contain @cpu? */
static bool cpulist_has(const char *list, int cpu)
{
	const char *p = list;

	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;
		if (end == p)
			return false;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (cpu >= a && cpu <= b)
			return true;
		p = end;
		while (*p == ',' || *p == '\n' || *p == ' ')
			p++;
	}
	return false;
}

/* A core PMU's event in config bits 32-63 (extended type), or its sysfs type. */
static bool counts_on(const struct pmu_ev *e, const struct pmu_dev *d)
{
	if (e->info.type == PERF_TYPE_HARDWARE || e->info.type == PERF_TYPE_HW_CACHE)
		return (e->info.config >> 32) == d->type;
	return e->info.type == d->type;
}

/* A generic hardware/cache event that names no PMU, a raw code (rNNNN), or a table name each core PMU
 * counts with its own event: on a hybrid CPU it is split per core type. */
static bool splits(const struct pmu_ev *e)
{
	return e->per_core_name || (e->info.type == PERF_TYPE_RAW && e->info.source == PMU_SRC_RAW) ||
	       ((e->info.type == PERF_TYPE_HARDWARE || e->info.type == PERF_TYPE_HW_CACHE) &&
		(e->info.config >> 32) == 0);
}

/* Name @in as counted by PMU @pmu, as perf does on a hybrid CPU: "cpu_core/cycles/", "cpu_core/cycles/:u". */
static void pmu_label(struct pmu_event_info *in, const char *pmu)
{
	size_t base = pmu__mode_base(in->name);
	char name[PMU_NAME_MAX];

	snprintf(name, sizeof(name), "%s/%.*s/%s", pmu, (int)base, in->name, in->name + base);
	pmu__strlcpy(in->name, name, sizeof(in->name));
}

int pmu__part_total_name(const char *label, char *out, size_t len)
{
	const char *a = strchr(label, '/'), *b = a ? strchr(a + 1, '/') : NULL;

	if (!b)
		return -EINVAL;
	/* the modes after the slash: ":u" as listed, "u" where the user-mode fallback added it */
	return (size_t)snprintf(out, len, "%.*s%s%s", (int)(b - a - 1), a + 1, b[1] && b[1] != ':' ? ":" : "",
				b + 1) < len ? 0 : -ENAMETOOLONG;
}

/*
 * Intel hybrid CPUs (cpu_core + cpu_atom): the kernel gives a generic
 * hardware event without a PMU type to cpu_core only, so a thread running on
 * an E-core would go uncounted. Such an event becomes one event per core PMU
 * (named "cpu_core/cycles/", "cpu_atom/cycles/" as perf names them), each
 * with its PMU type in config bits 32-63. A {group} holding split events is
 * repeated per core type with the members that count there (events of no
 * core PMU, e.g. software ones, stay in the first copy). Counting one CPU
 * (PMU_SET_CPU) uses only the core PMU that CPU belongs to.
 */
int pmu__hybrid_split(struct pmu_set *s, struct pmu_speclist *l)
{
	struct pmu_ctx *ctx = s->ctx;
	const struct pmu_dev *core[8];
	size_t ncore = 0, nsplit = 0, k = 0, cap;
	int r;
	struct pmu_ev *nev;
	struct pmu_spec *nspec;
	unsigned *parts_missing; /* per listed event: bit c set where core[c] gives it no meaning */

	if (pmu__n_core_pmus(ctx) < 2)
		return 0;
	for (size_t i = 0; i < s->n; i++)
		nsplit += splits(&s->ev[i]);
	if (!nsplit)
		return 0;
	for (size_t p = 0; p < ctx->n_pmus && ncore < ARRAY_SIZE(core); p++) {
		const struct pmu_dev *d = &ctx->pmus[p];
		if (!d->is_core)
			continue;
		if (s->flags & PMU_SET_CPU) {
			char path[512], list[256];
			if (pmu__path(path, sizeof(path), "%s/bus/event_source/devices/%s/cpus", ctx->sysfs_root,
				      d->name) == 0 &&
			    pmu__read_file(path, list, sizeof(list)) >= 0 && !cpulist_has(list, s->cpu))
				continue;
		}
		core[ncore++] = d;
	}
	if (ncore == 0)
		return pmu__err(ctx, -ENODEV, "CPU %d belongs to none of the core PMUs of this hybrid CPU", s->cpu);
	cap = s->n + nsplit * (ncore - 1) + 1;
	nev = calloc(cap, sizeof(*nev));
	nspec = calloc(cap, sizeof(*nspec));
	parts_missing = calloc(s->n, sizeof(*parts_missing));
	if (!nev || !nspec || !parts_missing) {
		free(nev);
		free(nspec);
		free(parts_missing);
		return pmu__err(ctx, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < s->n;) {
		size_t end = i + 1;
		bool any = splits(&s->ev[i]);
		if (l->v[i].group >= 0)
			for (; end < s->n && l->v[end].group == l->v[i].group; end++)
				any = any || splits(&s->ev[end]);
		if (!any) {
			for (; i < end; i++, k++) {
				nev[k] = s->ev[i];
				nspec[k] = l->v[i];
				l->v[i].name = l->v[i].group_mods = NULL;
			}
			continue;
		}
		for (size_t c = 0; c < ncore; c++) {
			int group = l->v[i].group < 0 ? -1 : c == 0 ? l->v[i].group : l->ngroups_explicit++;
			for (size_t j = i; j < end; j++) {
				struct pmu_ev *e = &s->ev[j];
				bool other = false;
				for (size_t q = 0; q < ncore; q++)
					other = other || counts_on(e, core[q]);
				if (!splits(e) && !(other ? counts_on(e, core[c]) : c == 0))
					continue;
				nev[k] = *e;
				nspec[k].group = group;
				if (e->per_core_name) {
					/* the core PMU's own event for the name: "cpu_core/INST.RET/u" */
					char spelled[PMU_NAME_MAX + 80];
					pmu__name_on_pmu(spelled, sizeof(spelled), core[c]->name, e->info.name);
					nev[k].per_core_name = false;
					pmu__err_quiet(true);
					r = pmu__resolve_mode(ctx, spelled, l->v[j].group_mods, &nev[k].info,
							      &nev[k].mode_written);
					pmu__err_quiet(false);
					pmu__strlcpy(nev[k].info.name, e->info.name, sizeof(nev[k].info.name));
				} else if (splits(e) && e->info.type == PERF_TYPE_RAW) {
					nev[k].info.type = core[c]->type; /* the code on this core PMU */
					r = 0;
				} else if (splits(e)) {
					pmu__err_quiet(true);
					r = pmu__generic_place(ctx, core[c], &nev[k].info);
					pmu__err_quiet(false);
				} else {
					r = 0;
				}
				if (r == -ENOENT) {
					/* no meaning on this core type: counted where it has one, and said (below) */
					parts_missing[j] |= 1u << c;
					continue;
				}
				if (r < 0) {
					pmu__err_emit(ctx, PMU_LOG_ERR);
					/* the names moved to nspec so far are freed with it; s keeps its events */
					struct pmu_speclist done = { .v = nspec, .n = k };
					pmu__speclist_free(&done);
					free(nev);
					free(parts_missing);
					return r;
				}
				if (splits(e)) {
					struct pmu_event_info *in = &nev[k].info;
					nev[k].part_of = (int)j;
					pmu_label(in, core[c]->name);
					pmu__strlcpy(in->pmu, core[c]->name, sizeof(in->pmu));
					in->flags |= PMU_EVF_HYBRID_PART;
				}
				k++;
			}
		}
		i = end;
	}
	for (size_t j = 0; j < s->n; j++) {
		char none[256] = "", some[256] = "";
		if (!parts_missing[j])
			continue;
		for (size_t c = 0; c < ncore; c++)
			pmu__list_add(parts_missing[j] & (1u << c) ? none : some,
				      parts_missing[j] & (1u << c) ? sizeof(none) : sizeof(some), core[c]->name);
		if (some[0]) {
			pmu__log(ctx, PMU_LOG_WARN, "'%s' has no meaning on the %s cores (their PMU has no event for it): "
				 "counted on %s only, its count theirs", s->ev[j].info.name, none, some);
			continue;
		}
		{
			struct pmu_speclist done = { .v = nspec, .n = k };
			char why[256];
			pmu__strlcpy(why, pmu__err_msg(), sizeof(why));
			r = pmu__err(ctx, -ENOENT, "event '%s' has no meaning on any of the %zu core PMUs of this CPU "
				     "(the last one's answer: %s)", s->ev[j].info.name, ncore, why);
			pmu__speclist_free(&done);
			free(nev);
			free(parts_missing);
			return r;
		}
	}
	free(parts_missing);
	pmu__log(ctx, PMU_LOG_DEBUG, "several core PMUs: %zu events counted on %zu core types", nsplit, ncore);
	{
		int ngroups = l->ngroups_explicit;
		pmu__speclist_free(l);
		l->ngroups_explicit = ngroups;
	}
	free(s->ev);
	s->ev = nev;
	l->v = nspec;
	s->n = l->n = k;
	return 0;
}

/*
 * On a hybrid CPU an event of one core PMU that the name does not place
 * (topdown-retiring, slots, a table event, r01c2) is labelled with its PMU,
 * as perf does: "cpu_core/topdown-retiring/". Both core types may have an
 * event of that name.
 */
void pmu__hybrid_label(struct pmu_set *s)
{
	if (pmu__n_core_pmus(s->ctx) < 2)
		return;
	for (size_t i = 0; i < s->n; i++) {
		struct pmu_event_info *in = &s->ev[i].info;
		const struct pmu_dev *d = pmu__pmu_by_name(s->ctx, in->pmu);
		if (d && d->is_core && !strchr(in->name, '/'))
			pmu_label(in, d->name);
	}
}

/* The core PMU whose counter event @e is (a part, or an event of a core PMU named or implied), or NULL
 * for a software, tool or CPU-wide event and another PMU's. */
static const struct pmu_dev *core_of(const struct pmu_set *s, const struct pmu_ev *e)
{
	const struct pmu_dev *d;

	if (e->info.flags & (PMU_EVF_SOFTWARE | PMU_EVF_TOOL | PMU_EVF_CPU_WIDE) || e->tool)
		return NULL;
	d = pmu__pmu_by_name(s->ctx, e->info.pmu);
	return d && d->is_core ? d : NULL;
}

int pmu__hybrid_presence_open(struct pmu_set *s)
{
	struct pmu_ctx *ctx = s->ctx;

	s->npresence = 0;
	if (pmu__n_core_pmus(ctx) < 2 || (s->flags & PMU_SET_CPU) || s->pid == -1)
		return 0;
	for (size_t p = 0; p < ctx->n_pmus && s->npresence < ARRAY_SIZE(s->presence_fd); p++) {
		const struct pmu_dev *d = &ctx->pmus[p];
		struct pmu_event_info info;
		struct perf_event_attr a;
		bool used = false;
		int fd;
		if (!d->is_core)
			continue;
		for (size_t i = 0; i < s->n && !used; i++)
			used = core_of(s, &s->ev[i]) == d;
		if (!used)
			continue;
		memset(&info, 0, sizeof(info));
		pmu__strlcpy(info.name, "cycles", sizeof(info.name));
		info.type = PERF_TYPE_HARDWARE;
		info.config = PERF_COUNT_HW_CPU_CYCLES;
		pmu__err_quiet(true);
		fd = pmu__generic_place(ctx, d, &info);
		pmu__err_quiet(false);
		if (fd < 0)
			continue;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = info.type;
		a.config = info.config;
		/* its time is what counts: user mode, which every paranoid level below 3 allows */
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		a.pinned = 1;
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		a.disabled = !(s->flags & PMU_SET_ENABLE);
		a.enable_on_exec = !!(s->flags & PMU_SET_ENABLE_ON_EXEC);
		a.inherit = !!(s->flags & PMU_SET_INHERIT);
		fd = (int)syscall(SYS_perf_event_open, &a, s->pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			pmu__log(ctx, PMU_LOG_DEBUG, "no time-on-core-type counter on %s (%s): its events' time is "
				 "told from their parts", d->name, strerror(errno));
			continue;
		}
		s->presence_fd[s->npresence] = fd;
		s->presence_pmu[s->npresence++] = d;
	}
	return 0;
}

void pmu__hybrid_presence_ioctl(struct pmu_set *s, unsigned long req)
{
	for (size_t k = 0; k < s->npresence; k++)
		ioctl(s->presence_fd[k], req, 0);
}

void pmu__hybrid_presence_close(struct pmu_set *s)
{
	for (size_t k = 0; k < s->npresence; k++)
		close(s->presence_fd[k]);
	s->npresence = 0;
}

/* Without presence counters: the parts of one event together; their running times added up are the
 * time the task was on some core type. */
static void times_from_parts(const struct pmu_set *s, struct pmu_value *out)
{
	for (size_t i = 0; i < s->n; i++) {
		uint64_t enabled = 0, running = 0, least = UINT64_MAX;
		int id = s->ev[i].part_of;
		bool first = id >= 0;
		for (size_t j = 0; first && j < i; j++)
			first = s->ev[j].part_of != id;
		if (!first)
			continue;
		for (size_t j = i; j < s->n; j++)
			if (s->ev[j].part_of == id) {
				enabled = out[j].enabled > enabled ? out[j].enabled : enabled;
				least = out[j].enabled < least ? out[j].enabled : least;
				running += out[j].running;
			}
		for (size_t j = i; j < s->n; j++) {
			unsigned __int128 x;
			if (s->ev[j].part_of != id)
				continue;
			if (running == 0)
				break; /* no part was ever on a counter: confidence 0 stays */
			if (running >= least - least / 100) {
				/* not multiplexed: each part counted all of its core type's time (to within 1%:
				 * see pmu_fast_hybrid()) */
				out[j].enabled = out[j].running;
				continue;
			}
			x = ((unsigned __int128)out[j].running * enabled + running / 2) / running;
			out[j].enabled = (uint64_t)x;
		}
	}
}

void pmu__hybrid_times(const struct pmu_set *s, struct pmu_value *out)
{
	uint64_t on[8];
	bool have[8];

	times_from_parts(s, out);
	for (size_t k = 0; k < s->npresence; k++) {
		uint64_t t[3];
		have[k] = read(s->presence_fd[k], t, sizeof(t)) == (ssize_t)sizeof(t);
		on[k] = have[k] ? t[2] : 0;
	}
	for (size_t i = 0; i < s->n && s->npresence; i++) {
		const struct pmu_dev *d = core_of(s, &s->ev[i]);
		size_t k = 0;
		while (k < s->npresence && s->presence_pmu[k] != d)
			k++;
		if (!d || k == s->npresence || !have[k])
			continue;
		/* counted all the time the task was on its core type (to within 1%: each counter is
		 * enabled by a call of its own), or multiplexed there: scaled to that time */
		if (out[i].running >= on[k] - on[k] / 100)
			out[i].enabled = out[i].running;
		else
			out[i].enabled = on[k];
	}
}
