/* SPDX-License-Identifier: MIT */
/*
 * Regions: configuration and set-up. The PMU_* variables or
 * pmu_region_configure() give the events once per process (a bad list
 * turns regions off, said once); each thread opens its set on its first
 * region call; thread exit closes it, fork gives the child no regions, and
 * exit writes the report.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "pmu.h"
#include "common.h"
#include "error.h"
#include "fork.h"
#include "namelist.h"
#include "plan.h"
#include "region.h"
#include "util.h"

struct regions pmu__regions = {
	.init_lock = PTHREAD_MUTEX_INITIALIZER,
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.format = PMU_FORMAT_TEXT,
	.calibrate = 1,
	.cfg_calibrate = -1,
};

static int is_metric(const char *name)
{
	struct pmu_metric_info mi;
	return pmu_metric_info(R.ctx, name, &mi) == 0;
}

static int append(char **dst, const char *item)
{
	size_t a = *dst ? strlen(*dst) : 0, b = strlen(item);
	char *n = realloc(*dst, a + b + 2);

	if (!n)
		return -ENOMEM;
	if (a)
		n[a++] = ',';
	memcpy(n + a, item, b + 1);
	*dst = n;
	return 0;
}

/* What a region call finds in a thread past its exit destructor (another key's destructor may call
 * one): regions off, said. */
static struct thread_state exiting = {
	.err = -ESRCH,
	.errmsg = "this thread is exiting: its regions were closed and their counts kept for the report",
};

static void on_thread_exit(void *p)
{
	struct thread_state *ts = p;

	/* the counts stay for the report (the thread kept, or folded into its names' totals); the events
	 * are closed */
	pthread_mutex_lock(&R.lock);
	if (ts && ts->gen == pmu__fork_generation()) {
		pmu_set_close(ts->set);
		ts->set = NULL;
		ts->fast = pmu_set_fast(NULL);
		ts->tfast = NULL;
		if (R.nsock)
			pmu__region_socket_exited(ts);
		pmu__region_thread_exited(ts);
	}
	pthread_mutex_unlock(&R.lock);
	pmu__region_me = &exiting;
}

void pmu__region_fork_lock(bool take)
{
	if (take) {
		pthread_mutex_lock(&R.init_lock);
		pthread_mutex_lock(&R.lock);
	} else {
		pthread_mutex_unlock(&R.lock);
		pthread_mutex_unlock(&R.init_lock);
	}
}

void pmu__region_fork_child(void)
{
	/* the child starts with no regions: drop the parent's (closing the
	 * child's copies of the descriptors). Their memory is kept, so that a
	 * handle from before the fork is refused by its owner check. */
	for (struct thread_state *t = pmu__region_next_thread(NULL), *next; t; t = next) {
		next = pmu__region_next_thread(t);
		pmu_set_close(t->set);
		t->set = NULL;
		t->fast = t->tfast = NULL;
		t->next = R.graveyard;
		R.graveyard = t;
	}
	R.threads = R.exited = R.exited_tail = NULL;
	R.nexited = 0;
	pmu__region_names_free();
	pmu_set_close(R.sock_set); /* the child's copy: its first thread opens its own (the parent's counts
				    * would be read through it otherwise, with the parent's intervals) */
	R.sock_set = NULL;
	pmu__region_me = NULL;
	R.nev = 0;
	R.ntot = 0; /* the child's first thread notes its set's values and totals again */
}

static void report_at_exit(void)
{
	const char *out = pmu__getenv("PMU_OUTPUT");
	bool any = false;
	int r;

	pthread_mutex_lock(&R.lock);
	if (R.exit_ran) { /* an unload ran it already (region_unload) */
		pthread_mutex_unlock(&R.lock);
		return;
	}
	R.exit_ran = true;
	for (size_t id = 0; id < R.nnames && !any; id++) {
		const struct region_name *n = &R.names[id];
		if (!strcmp(n->name, CAL_NAME))
			continue;
		any = n->folded && n->folded->calls;
		for (const struct slot *s = n->chain; s && !any; s = s->name_next)
			any = s->calls != 0;
	}
	pthread_mutex_unlock(&R.lock);
	if (!any)
		return;
	if ((r = pmu_region_report(NULL, R.format, R.per_thread)) < 0 && out && *out && strcmp(out, "-")) {
		/* the counts are not lost for a wrong path */
		pmu__region_say("PMU_OUTPUT='%.200s': %s; the report follows on stderr. Fix PMU_OUTPUT (a file in a writable "
		    "directory; '-' for stdout, unset for stderr).", out, pmu_strerror(r));
		pmu_region_report("", R.format, R.per_thread);
	} else if (r < 0) {
		pmu__region_say("the report to %s failed: %s.", out && !strcmp(out, "-") ? "stdout" : "stderr", pmu_strerror(r));
	}
}

/* Performance group @tok ("likwid:MEM_DP", "group:CPI"): its events added to R.events, its metrics to
 * R.gmetrics, labelled as the group names them with their unit; a formula using the run's time
 * (duration_time) adds that tool event, the region's own wall time in each thread. */
static int add_group(const char *tok)
{
	const char *name = strncasecmp(tok, "group:", 6) ? tok : tok + 6;
	const struct pmu_group_info *gi;
	struct pmu_group *g = NULL;
	char label[320];
	int r = pmu_group_open(R.ctx, name, 0, &g);

	if (r < 0)
		return r;
	gi = pmu_group_info(g);
	r = pmu__names_add_new(&R.events, gi->events, NULL, NULL);
	for (size_t k = 0; r == 0 && k < gi->nmetrics; k++) {
		const struct pmu_group_metric *m = &gi->metric[k];
		struct region_gmetric *n = realloc(R.gmetrics, (R.ngmetrics + 1) * sizeof(*n));
		if (!n) {
			r = pmu__err(R.ctx, -ENOMEM, "out of memory");
			break;
		}
		R.gmetrics = n;
		n = &n[R.ngmetrics];
		snprintf(label, sizeof(label), m->unit[0] ? "%s [%s]" : "%s", m->name, m->unit);
		n->label = strdup(label);
		n->expr = m->expr ? strdup(m->expr) : NULL;
		if (!n->label || (m->expr && !n->expr)) {
			free(n->label);
			free(n->expr);
			r = pmu__err(R.ctx, -ENOMEM, "out of memory");
			break;
		}
		R.ngmetrics++;
		if (m->expr && strstr(m->expr, "duration_time"))
			r = pmu__names_add_new(&R.events, "duration_time", NULL, NULL);
	}
	pmu_group_free(g);
	return r;
}

/* R.events resolved now, once for every thread: a bad name turns regions off in the whole process, said
 * once. The events of PMUs that count CPUs (uncore, energy) are parted from the thread's and opened now,
 * once for the process (region-socket.c): where it may not count CPUs, that is the error. */
static int plan_lists(void)
{
	struct pmu_set_opts o;
	const struct pmu_set *plan = NULL;
	char *thread = NULL;
	int r;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.flags = PMU_SET_ENABLE | PMU_SET_SKIP_UNSUPPORTED;
	if ((r = pmu__region_socket_split(R.events, &thread, &R.sock_events)) < 0)
		return r;
	if (thread && (r = pmu_plan_new(R.ctx, thread, &o, &R.plan)) == 0 &&
	    (r = pmu__plan_planned(R.plan, -1, &plan)) == 0 && pmu_set_count(plan) > REG_MAX_EV)
		r = pmu__err(R.ctx, -E2BIG, "%zu events; regions count at most %d of the thread's", pmu_set_count(plan),
			     REG_MAX_EV);
	free(thread);
	if (r == 0 && R.sock_events && (r = pmu_plan_new(R.ctx, R.sock_events, &o, &R.sock_plan)) == 0 &&
	    (r = pmu__plan_planned(R.sock_plan, -1, &plan)) == 0 && pmu_set_count(plan) > REG_MAX_SOCK)
		r = pmu__err(R.ctx, -E2BIG, "%zu socket-wide events (of PMUs that count CPUs: %s); regions count at most %d",
			     pmu_set_count(plan), R.sock_events, REG_MAX_SOCK);
	if (r == 0 && R.sock_plan && (r = pmu__region_socket_open()) < 0)
		r = pmu__err(R.ctx, r, "the socket-wide events %s (PMUs that count CPUs, read where a region begins and "
			     "ends) cannot be counted by this process: %s", R.sock_events, pmu__err_msg());
	if (r < 0) {
		pmu_plan_free(R.plan);
		pmu_plan_free(R.sock_plan);
		R.plan = R.sock_plan = NULL;
		free(R.sock_events);
		R.sock_events = NULL;
	}
	return r;
}

/* Read the PMU_* variables and check the event list once per process
 * (pmu_region_configure() or the first region call). On failure R.err
 * and R.errmsg say why; every region call returns them. */
static void global_setup(void)
{
	const char *env = pmu__getenv("PMU_EVENTS"), *ev;
	struct pmu_caps caps;
	char *copy, *save = NULL;

	pthread_mutex_lock(&R.lock);
	R.started = true;
	pthread_mutex_unlock(&R.lock);
	/* first: region_unload tells an unload (this not run yet) from the process's exit (run) */
	atexit(report_at_exit);
	R.format = pmu__region_env_format();
	R.per_thread = pmu__region_env_per_thread();
	R.calibrate = R.cfg_calibrate >= 0 ? R.cfg_calibrate : pmu__region_env_flag("PMU_CALIBRATE", 1);
	if ((R.err = pmu_ctx_new(&R.ctx, NULL)) < 0) {
		snprintf(R.errmsg, sizeof(R.errmsg), "%s", pmu__err_msg());
		R.fix = "fix what it names";
		return;
	}
	pmu_caps(R.ctx, &caps);
	ev = R.cfg_events ? R.cfg_events : env;
	if (ev && *ev && R.cfg_events) {
		snprintf(R.origin, sizeof(R.origin), "pmu_region_configure(\"%.200s\")", ev);
		R.fix = "fix the events given to pmu_region_configure()";
	} else if (ev && *ev) {
		snprintf(R.origin, sizeof(R.origin), "PMU_EVENTS='%.200s'", ev);
		R.fix = "fix PMU_EVENTS ('pmu list' shows the events of this machine)";
	} else {
		ev = caps.hw_pmu ? "instructions:u,cycles:u,branch-misses:u,L1-dcache-load-misses:u"
				 : "task-clock,page-faults,context-switches";
		snprintf(R.origin, sizeof(R.origin), "the default events '%s' (PMU_EVENTS is not set)", ev);
		R.fix = "set PMU_EVENTS to events this machine can count ('pmu list')";
	}
	/* metric names stand for the events they need, a group's name for its events and metrics */
	if (!(copy = strdup(ev)))
		R.err = pmu__err(R.ctx, -ENOMEM, "out of memory");
	for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL; tok && R.err == 0; tok = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*tok))
			tok++;
		if (!strncasecmp(tok, "likwid:", 7) || !strncasecmp(tok, "group:", 6)) {
			R.err = add_group(tok);
		} else if (is_metric(tok)) {
			char need[2048];
			if ((R.err = append(&R.metrics, tok)) < 0 ||
			    (R.err = pmu_metric_events(R.ctx, tok, need, sizeof(need))) < 0)
				break;
			R.err = pmu__names_add_new(&R.events, need, NULL, NULL);
		} else {
			R.err = append(&R.events, tok);
		}
	}
	free(copy);
	if (!R.err && !R.events)
		R.err = pmu__err(R.ctx, -EINVAL, "names no events");
	if (!R.err)
		R.err = plan_lists();
	if (R.err) {
		snprintf(R.errmsg, sizeof(R.errmsg), "%s: %s", R.origin, pmu__err_msg());
		return;
	}
	R.tls_key_made = pthread_key_create(&R.tls_key, on_thread_exit) == 0;
}

/* global_setup once, under init_lock, which a fork waits for (fork.c): a child finds it done or not
 * begun. Not pthread_once: a fork while it runs leaves the child waiting for ever where the once does
 * not know fork (ThreadSanitizer's, musl's; glibc's starts it again). */
static void global_init(void)
{
	if (__atomic_load_n(&R.inited, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&R.init_lock);
	if (!R.inited) {
		global_setup();
		__atomic_store_n(&R.inited, true, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&R.init_lock);
}

/*
 * The library unloaded by dlclose() (a plugin, Python's ctypes): glibc runs this destructor first, then
 * the handlers atexit() registered here, so report_at_exit has not run yet; at the process's exit it
 * runs the handlers first, and this finds exit_ran. On an unload: the report now, then no thread-exit
 * destructor left pointing into the unmapped library, every thread's events closed and the memory freed
 * (no thread may be inside a region call while its library is unloaded). At exit nothing is freed:
 * other threads may still be counting.
 */
__attribute__((destructor)) static void region_unload(void)
{
	if (!R.inited || R.exit_ran)
		return;
	report_at_exit();
	pthread_mutex_lock(&R.lock);
	if (R.tls_key_made)
		pthread_key_delete(R.tls_key);
	R.tls_key_made = false;
	for (struct thread_state *t = pmu__region_next_thread(NULL), *next; t; t = next) {
		next = pmu__region_next_thread(t);
		pmu_set_close(t->set);
		pmu__region_thread_free(t);
	}
	for (struct thread_state *t = R.graveyard, *next; t; t = next) {
		next = t->next;
		pmu__region_thread_free(t); /* a parent's: its sets were closed at the fork */
	}
	R.threads = R.exited = R.exited_tail = R.graveyard = NULL;
	pmu__region_names_free();
	free(R.names);
	R.names = NULL;
	pmu_set_close(R.sock_set);
	R.sock_set = NULL;
	pthread_mutex_unlock(&R.lock);
	pmu_plan_free(R.plan);
	pmu_plan_free(R.sock_plan);
	R.plan = R.sock_plan = NULL;
	pmu_ctx_free(R.ctx);
	free(R.sock_events);
	R.sock_events = NULL;
	free(R.events);
	free(R.metrics);
	for (size_t k = 0; k < R.ngmetrics; k++) {
		free(R.gmetrics[k].label);
		free(R.gmetrics[k].expr);
	}
	free(R.gmetrics);
	R.gmetrics = NULL;
	R.ngmetrics = 0;
	free(R.cfg_events);
	R.ctx = NULL;
	R.events = R.metrics = R.cfg_events = NULL;
}

PMU_EXPORT int pmu_region_configure(const char *events, int calibrate)
{
	char *copy = NULL;

	if (calibrate < -1 || calibrate > 1)
		return pmu__err(NULL, -EINVAL, "pmu_region_configure: calibrate is %d; pass 1 (subtract the begin/end "
				"cost), 0 (do not) or -1 ($PMU_CALIBRATE or the default)", calibrate);
	if (events && !(copy = strdup(events)))
		return pmu__err(NULL, -ENOMEM, "pmu_region_configure: out of memory");
	pthread_mutex_lock(&R.lock);
	if (R.started) {
		pthread_mutex_unlock(&R.lock);
		free(copy);
		return pmu__err(NULL, -EBUSY, "pmu_region_configure: regions are already in use in this process "
				"(their events are fixed at the first region call); call it before any other pmu_region_* function");
	}
	if (copy) {
		free(R.cfg_events);
		R.cfg_events = copy;
	}
	if (calibrate >= 0)
		R.cfg_calibrate = !!calibrate;
	pthread_mutex_unlock(&R.lock);
	/* resolve the list now, so that a bad name is reported here rather than at the first begin */
	global_init();
	if (!R.err)
		return 0;
	R.told = true; /* every region call returns it too, but nothing is printed */
	return pmu__err(R.ctx, R.err, "%s", R.errmsg);
}

/* Value @k of @set, the last part of a name counted on each core PMU: that name's total noted in R.tot
 * (under R.lock). */
static void totals_note(const struct pmu_set *set, size_t k)
{
	char name[PMU_NAME_MAX];
	uint32_t parts = 0;

	if (R.ntot == REG_MAX_TOT || pmu_set_total_of(set, k, name, sizeof(name)) != (int)k)
		return;
	for (size_t j = 0; j <= k; j++)
		if (pmu_set_total_of(set, j, NULL, 0) == (int)k)
			parts |= 1u << j;
	pmu__strlcpy(R.tot[R.ntot].name, name, sizeof(R.tot[R.ntot].name));
	R.tot[R.ntot].parts = parts;
	R.tot[R.ntot++].last = k;
}

struct thread_state *pmu__region_thread_init(void)
{
	struct thread_state *ts;
	int r;

	global_init();
	if (pmu__region_me && (pmu__region_me->gen == pmu__fork_generation() || pmu__region_me == &exiting))
		return pmu__region_me;
	ts = calloc(1, sizeof(*ts));
	if (!ts)
		return NULL;
	ts->tid = (long)syscall(SYS_gettid);
	ts->gen = pmu__fork_generation();
	ts->err = R.err;
	ts->errmsg = R.errmsg;
	if (R.err && !R.told && !__atomic_exchange_n(&R.said, 1, __ATOMIC_RELAXED))
		pmu__region_say("%s. Regions are off in this process; %s.", R.errmsg, R.fix);
	if (!ts->err && (r = pmu__region_index_grow(ts)) < 0)
		ts->err = pmu__err(R.ctx, r, "out of memory setting up regions for this thread");
	if (!ts->err && R.sock_plan) {
		/* a forked child's first thread: the process's socket-wide set, its own */
		pthread_mutex_lock(&R.lock);
		if (!R.sock_set && (r = pmu__region_socket_open()) < 0)
			ts->err = r;
		pthread_mutex_unlock(&R.lock);
	}
	if (!ts->err && R.plan) {
		r = pmu_plan_open(R.plan, 0, -1, &ts->set);
		if (r < 0) {
			ts->err = r;
		} else {
			ts->nev = pmu_set_count(ts->set); /* at most REG_MAX_EV: global_init checked the list */
			ts->fast = pmu_set_fast(ts->set);
		}
	}
	if (!ts->err && R.sock_plan) {
		/* every read the slow path's, which reads the socket-wide values where an interval begins or ends */
		ts->tfast = ts->set ? ts->fast : NULL;
		ts->fast = pmu_set_fast(NULL);
	}
	if (ts->err && !R.err) {
		/* this thread only (out of descriptors or memory, a PMU busy...): said for the first such thread */
		snprintf(ts->errbuf, sizeof(ts->errbuf), "%.300s: %s", R.origin, pmu__err_msg());
		ts->errmsg = ts->errbuf;
		if (!__atomic_exchange_n(&R.said, 1, __ATOMIC_RELAXED))
			pmu__region_say("%s. Regions are off in thread %ld (other threads that fail are not said again).", ts->errbuf,
			    ts->tid);
	}
	pthread_mutex_lock(&R.lock);
	if (!ts->err && !R.nev) {
		for (size_t k = 0; k < ts->nev; k++) {
			pmu_set_event(ts->set, k, &R.infos[k]);
			totals_note(ts->set, k);
		}
		R.nev = ts->nev;
	}
	ts->next = R.threads;
	if (R.threads)
		R.threads->prev = ts;
	R.threads = ts;
	pthread_mutex_unlock(&R.lock);
	pmu__region_me = ts;
	if (!R.err)
		pthread_setspecific(R.tls_key, ts);
	return ts; /* region.c calibrates it (an empty pair of the hot path measured) */
}
