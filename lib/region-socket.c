/* SPDX-License-Identifier: MIT */
/*
 * Regions: socket-wide values. An event of a PMU that counts CPUs, not tasks (an uncore unit, RAPL's
 * energy: a sysfs cpumask) cannot be a thread's: opened in each thread's set it would count the socket
 * once per thread, and the threads' sum would add it up again. Such events are parted from the list at
 * set-up and opened once for the process, on the CPUs of their cpumasks (set.c, as for a task's set:
 * every socket, summed). They are read, with read(2), where a region's interval begins and ends: at the
 * begin that finds no thread inside the name, and at the end that leaves none, as LIKWID's marker API
 * reads its socket counters in one thread per socket. So each name's socket-wide counts cover the wall
 * time some thread was inside it, each instant once, whatever else ran on the sockets then; the report
 * says so, and gives them on the name's row only. Every region call then takes the slow path (the
 * thread's own events read by pmu_fast_slow), which is where these reads are made (region.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pmu.h"
#include "error.h"
#include "eventlist.h"
#include "plan.h"
#include "region.h"
#include "region-accum.h"
#include "set.h"
#include "util.h"

/* Does @name, planned alone, count CPUs? 1 yes (*@pmu its PMU's name), 0 no, or a negative error of
 * the name (the whole list's plan says it again). */
static int counts_cpus(const char *name, char *pmu, size_t len)
{
	struct pmu_set_opts o;
	struct pmu_plan *plan = NULL;
	const struct pmu_set *set;
	const char *dev = NULL;
	int r;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.flags = PMU_SET_SKIP_UNSUPPORTED;
	if ((r = pmu_plan_new(R.ctx, name, &o, &plan)) == 0 && (r = pmu__plan_planned(plan, -1, &set)) == 0) {
		r = pmu__set_cpu_counted(set, &dev) != NULL;
		if (r)
			pmu__strlcpy(pmu, dev, len);
	}
	pmu_plan_free(plan);
	return r;
}

/* @spec's name appended to *@list, a group's braces and modifiers around its members (@first, @last). */
static int add_spec(char **list, const struct pmu_spec *spec, bool first, bool last)
{
	bool g = spec->group >= 0;
	const char *mods = g && last && spec->group_mods ? spec->group_mods : "";
	size_t a = *list ? strlen(*list) : 0, b = strlen(spec->name) + strlen(mods) + 3;
	char *n = realloc(*list, a + b + 1);

	if (!n)
		return -ENOMEM;
	snprintf(n + a, b + 1, "%s%s%s%s%s", a ? "," : "", g && first ? "{" : "", spec->name, g && last ? "}" : "",
		 mods);
	*list = n;
	return 0;
}

int pmu__region_socket_split(const char *events, char **thread, char **sock)
{
	struct pmu_speclist l;
	char pmu[64], first_pmu[64] = "";
	int r, *kind = NULL;

	*thread = *sock = NULL;
	if ((r = pmu__speclist_parse(R.ctx, events, &l)) < 0)
		return r;
	if (l.n && !(kind = calloc(l.n, sizeof(*kind))))
		r = pmu__err(R.ctx, -ENOMEM, "out of memory");
	for (size_t i = 0; r == 0 && i < l.n; i++) {
		int c = counts_cpus(l.v[i].name, pmu, sizeof(pmu));
		kind[i] = c > 0;
		if (c > 0 && !first_pmu[0])
			pmu__strlcpy(first_pmu, pmu, sizeof(first_pmu));
	}
	/* a group is counted together or not at all: both kinds in one cannot be */
	for (size_t i = 0; r == 0 && i < l.n; i++)
		for (size_t j = i + 1; j < l.n && l.v[i].group >= 0 && l.v[j].group == l.v[i].group; j++)
			if (kind[i] != kind[j])
				r = pmu__err(R.ctx, -EINVAL,
					     "the group of '%s' and '%s' holds an event of a PMU that counts CPUs (%s) and "
					     "one of the thread's: a region reads them apart (socket-wide, and the thread's); "
					     "write them outside one {...}", l.v[i].name, l.v[j].name, first_pmu);
	for (size_t i = 0; r == 0 && i < l.n; i++) {
		bool first = l.v[i].group < 0 || i == 0 || l.v[i - 1].group != l.v[i].group;
		bool last = l.v[i].group < 0 || i + 1 == l.n || l.v[i + 1].group != l.v[i].group;
		r = add_spec(kind[i] ? sock : thread, &l.v[i], first, last);
		if (r < 0)
			r = pmu__err(R.ctx, r, "out of memory");
	}
	free(kind);
	pmu__speclist_free(&l);
	if (r < 0) {
		free(*thread);
		free(*sock);
		*thread = *sock = NULL;
	}
	return r;
}

int pmu__region_socket_open(void)
{
	int r = pmu_plan_open(R.sock_plan, 0, -1, &R.sock_set);

	if (r < 0)
		return r;
	R.nsock = pmu_set_count(R.sock_set); /* at most REG_MAX_SOCK: the set-up checked the plan */
	for (size_t k = 0; k < R.nsock; k++)
		pmu_set_event(R.sock_set, k, &R.sinfos[k]);
	return 0;
}

/* The calibration's pairs measure the thread's own read: they leave the socket-wide values alone. */
static bool calibration(const struct slot *s)
{
	return !strcmp(s->name, CAL_NAME);
}

int pmu__region_socket_begin(const struct slot *s)
{
	struct region_name *n;
	int r = 0;

	if (calibration(s))
		return 0;
	pthread_mutex_lock(&R.lock);
	n = &R.names[s->id];
	if (!n->sock) {
		if ((n->sock = calloc(1, sizeof(*n->sock))))
			pmu__region_socket_forget(n); /* the minima */
		else
			r = pmu__err(R.ctx, -ENOMEM, "out of memory for region '%s'", s->name);
	}
	if (r == 0 && n->sock->open == 0)
		r = pmu_set_read(R.sock_set, n->sock->start);
	if (r == 0)
		n->sock->open++;
	pthread_mutex_unlock(&R.lock);
	return r;
}

void pmu__region_socket_end(const struct slot *s, bool counted)
{
	struct pmu_value now[REG_MAX_SOCK];
	struct region_sock *k;

	if (calibration(s))
		return;
	pthread_mutex_lock(&R.lock);
	k = R.names[s->id].sock;
	if (k && k->open && --k->open == 0 && counted && pmu_set_read(R.sock_set, now) == 0) {
		/* no calibration to subtract: these reads are outside the thread's */
		static const uint64_t none[REG_MAX_SOCK];
		PMU_REGION_ACCUMULATE(k, now, none, R.nsock);
		k->intervals++;
	}
	pthread_mutex_unlock(&R.lock);
}

void pmu__region_socket_exited(const struct thread_state *ts)
{
	for (size_t i = 0; i < ts->nslots; i++) {
		const struct slot *s = ts->slots[i];
		struct region_sock *k = R.names[s->id].sock;
		if (s->depth && k && k->open && --k->open == 0)
			k->abandoned++;
	}
}

void pmu__region_socket_forget(struct region_name *n)
{
	struct region_sock *k = n->sock;

	if (!k)
		return;
	k->intervals = k->abandoned = 0;
	memset(k->sum, 0, sizeof(k->sum));
	memset(k->max, 0, sizeof(k->max));
	for (size_t j = 0; j < REG_MAX_SOCK; j++)
		k->min[j] = UINT64_MAX;
}
