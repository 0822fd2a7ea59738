/* SPDX-License-Identifier: MIT */
/* pmu stat's runner (stat-run.h says what each is for). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "stat-aggr.h"
#include "stat-run.h"
#include "util.h"

static double ns_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* the wall clock (CLOCK_REALTIME), for when counts were taken: what pmu report compares across files */
static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* ---------------- lists ---------------- */

static int intv_add(struct intv *l, int v)
{
	int *n = realloc(l->v, (l->n + 1) * sizeof(*n));
	if (!n)
		return -1;
	l->v = n;
	l->v[l->n++] = v;
	return 0;
}

int intv_parse(struct intv *l, const char *s, bool ranges, int min, int max)
{
	const char *p = s;

	for (;;) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p || !(*p >= '0' && *p <= '9') || a < min || a > max)
			return -1;
		if (ranges && *end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || !(*p >= '0' && *p <= '9') || b < a || b > max || b - a > 65535)
				return -1;
		}
		for (long v = a; v <= b; v++)
			if (intv_add(l, (int)v) < 0)
				return -1;
		if (!*end)
			return 0;
		if (*end != ',')
			return -1;
		p = end + 1;
	}
}

int intv_dup(const struct intv *l)
{
	for (size_t i = 1; i < l->n; i++)
		for (size_t j = 0; j < i; j++)
			if (l->v[j] == l->v[i])
				return l->v[i];
	return -1;
}

bool intv_has(const struct intv *l, int v)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == v)
			return true;
	return false;
}

static int int_cmp(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

char *intv_text(const struct intv *l, bool ranges)
{
	struct intv u = { NULL, 0 };
	char *t = NULL, num[48];
	int r = 0;

	for (size_t i = 0; r == 0 && i < l->n; i++)
		if (!intv_has(&u, l->v[i]))
			r = intv_add(&u, l->v[i]);
	if (r == 0 && ranges && u.n)
		qsort(u.v, u.n, sizeof(*u.v), int_cmp);
	for (size_t i = 0; r == 0 && i < u.n; i++) {
		size_t j = i;
		while (ranges && j + 1 < u.n && u.v[j + 1] == u.v[j] + 1)
			j++;
		if (j > i)
			snprintf(num, sizeof(num), "%d-%d", u.v[i], u.v[j]);
		else
			snprintf(num, sizeof(num), "%d", u.v[i]);
		r = str_append(&t, ",", num);
		i = j;
	}
	free(u.v);
	if (r < 0 || !t) {
		free(t);
		return NULL;
	}
	return t;
}

/*
 * Signals while pmu stat counts. It waits for what it counts and prints the
 * counts: SIGINT, SIGQUIT, SIGTERM and SIGHUP are caught. One that a process
 * sent to pmu (kill) is passed on to the command; one that the terminal sent
 * (Ctrl-C, Ctrl-\, a hangup: si_code SI_KERNEL) has reached the command
 * already, in pmu's process group. A signal pmu was started with ignored
 * (nohup) stays ignored. SIGPIPE is ignored (pmu stat's results must not be
 * lost to a closed pipe) and given back to the command as pmu got it.
 */
static const int caught[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP };
#define NCAUGHT (sizeof(caught) / sizeof(caught[0]))
static volatile sig_atomic_t got_signal;   /* the last caught signal received */
static volatile sig_atomic_t signals_seen; /* how many were received */
static volatile pid_t fwd_pid;             /* the command until it has ended: caught signals go to it */
static struct sigaction pipe_at_start;     /* SIGPIPE as pmu was started */

/* "SIGTERM", or "signal 40" for one without a name */
const char *sig_name(int sig, char *buf, size_t len)
{
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, len, "SIG%s", abbrev);
	else
		snprintf(buf, len, "signal %d", sig);
	return buf;
}

void stat_run_begin(void)
{
	struct sigaction ign;

	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &pipe_at_start);
	got_signal = 0;
}

int stat_run_signal(void)
{
	return got_signal;
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_signal = sig;
	signals_seen++;
	if (fwd_pid > 0 && si->si_code != SI_KERNEL)
		kill(fwd_pid, sig);
}

/* SIGCHLD, caught (not ignored) while pmu waits: the command's end interrupts the wait. */
static struct sigaction chld_at_start;

static void on_child(int sig)
{
	(void)sig;
}

static void catch_signals(struct sigaction old[NCAUGHT])
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, &chld_at_start);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO; /* no SA_RESTART: the waits return */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NCAUGHT; i++) {
		sigaction(caught[i], NULL, &old[i]);
		if (old[i].sa_handler != SIG_IGN)
			sigaction(caught[i], &sa, NULL);
	}
}

static void restore_signals(const struct sigaction old[NCAUGHT])
{
	for (size_t i = 0; i < NCAUGHT; i++)
		sigaction(caught[i], &old[i], NULL);
	sigaction(SIGCHLD, &chld_at_start, NULL);
}

/*
 * Fork @cmd with the signal dispositions pmu was started with. The child
 * closes pmu's ends of the pipes @go and @err, waits for a byte on go[0] and
 * execs; if that fails it writes errno to err[1] and exits 127. Holding no
 * write end of @go itself, the child sees end-of-file there when pmu dies
 * before releasing it, and exits instead of waiting forever with the caller's
 * stdout open. Caught signals go to it from the moment it exists.
 */
static pid_t start_command(char **cmd, const int go[2], const int err[2])
{
	sigset_t all, old;
	pid_t c;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	c = fork();
	if (c == 0) {
		struct sigaction dfl, cur;
		char b;
		int e;
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		for (size_t i = 0; i < NCAUGHT; i++)
			if (sigaction(caught[i], NULL, &cur) == 0 && cur.sa_handler != SIG_IGN)
				sigaction(caught[i], &dfl, NULL);
		sigaction(SIGPIPE, &pipe_at_start, NULL);
		sigaction(SIGCHLD, &chld_at_start, NULL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(go[1]);
		close(err[0]);
		if (read(go[0], &b, 1) != 1)
			_exit(127); /* pmu gave up, or died */
		execvp(cmd[0], cmd);
		e = errno;
		if (write(err[1], &e, sizeof(e)) != sizeof(e))
			fprintf(stderr, "pmu stat: cannot run '%s': %s\n", cmd[0], strerror(e));
		_exit(127);
	}
	if (c > 0)
		fwd_pid = c;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return c;
}

/* ---------------- processes ---------------- */

/* The fields of /proc/PID/stat after the command name ("S 1 ..."), in @buf; NULL if the process is gone. */
static const char *proc_stat(pid_t pid, char *buf, size_t len)
{
	char path[64], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return NULL;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')'); /* the name may hold anything; it ends at the last ')' */
	return p && p[1] == ' ' ? p + 2 : NULL;
}

/* Has process @pid ended (gone, or a zombie: exited and not yet reaped)? */
static bool proc_ended(pid_t pid)
{
	char buf[512];
	const char *st = proc_stat(pid, buf, sizeof(buf));

	return !st || *st == 'Z' || *st == 'X';
}

/* user and system CPU time of process @pid so far (/proc/PID/stat), or -1 each when it is gone */
static void proc_cpu(pid_t pid, double *user_ns, double *sys_ns)
{
	char buf[1024];
	const char *p = proc_stat(pid, buf, sizeof(buf));
	unsigned long long ut, st;

	*user_ns = *sys_ns = -1;
	/* fields 14 and 15: utime, stime in clock ticks */
	if (p && sscanf(p, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) == 2) {
		*user_ns = ut * 1e9 / sysconf(_SC_CLK_TCK);
		*sys_ns = st * 1e9 / sysconf(_SC_CLK_TCK);
	}
}

/* The name of thread @tid (/proc/TID/comm) into @buf; "?" when it is gone. */
static void thread_comm(int tid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", tid);
	snprintf(buf, len, "?");
	if ((f = fopen(path, "r"))) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
}

/*
 * The processes whose end ends the count: the command, or those of -p and
 * -t. The command, pmu's child, is waited for with waitid() (SIGCHLD ends
 * the wait); the others on their pidfd, or without one (kernels before 5.3,
 * a thread that leads no process, valgrind) by looking every 10 ms.
 */
struct watch {
	pid_t *pid;
	int *pfd;              /* -1: none */
	bool *ended;
	size_t n;
	pid_t child;           /* pmu's child among them, or 0 */
	int ctl;               /* --control's descriptor, waited on too; -1: none */
};

static int watch_add(struct watch *w, pid_t pid, bool child)
{
	pid_t *p = realloc(w->pid, (w->n + 1) * sizeof(*p));
	int *f = p ? realloc(w->pfd, (w->n + 1) * sizeof(*f)) : NULL;
	bool *e = f ? realloc(w->ended, (w->n + 1) * sizeof(*e)) : NULL;

	if (p)
		w->pid = p;
	if (f)
		w->pfd = f;
	if (!e)
		return -1;
	w->ended = e;
	w->pid[w->n] = pid;
	w->pfd[w->n] = child ? -1 : (int)syscall(SYS_pidfd_open, pid, 0);
	w->ended[w->n++] = false;
	if (child)
		w->child = pid;
	return 0;
}

static void watch_free(struct watch *w)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->pfd[i] >= 0)
			close(w->pfd[i]);
	free(w->pid);
	free(w->pfd);
	free(w->ended);
	memset(w, 0, sizeof(*w));
}

/* Has child @pid ended (not reaped: a signal passed on meanwhile cannot reach a process reusing its pid)? */
static bool child_ended(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	return waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0 || si.si_pid == pid;
}

/* Look at each watched process without a pidfd; have all ended (false when none is watched)? */
static bool watch_done(struct watch *w)
{
	bool all = w->n > 0;

	for (size_t i = 0; i < w->n; i++) {
		if (!w->ended[i] && w->pfd[i] < 0)
			w->ended[i] = w->pid[i] == w->child ? child_ended(w->pid[i]) : proc_ended(w->pid[i]);
		all = all && w->ended[i];
	}
	return all;
}

enum { WAIT_ENDED, WAIT_TIME, WAIT_SIGNAL, WAIT_CONTROL };

/*
 * Wait until every watched process has ended, time @deadline (ns_now(); < 0:
 * none), a caught signal, taken under @mask (the caller blocks them so
 * that none slips in between two waits), or something to read on the
 * control descriptor.
 */
static int watch_wait(struct watch *w, double deadline, const sigset_t *mask)
{
	struct pollfd *p = calloc(w->n + 1, sizeof(*p));
	int r = -1;

	while (p && !watch_done(w)) {
		double now = ns_now(), ms = deadline < 0 ? -1 : ceil((deadline - now) / 1e6);
		struct timespec ts;
		size_t k = 0, polled = 0;
		sig_atomic_t seen;
		if (deadline >= 0 && now >= deadline) {
			r = WAIT_TIME;
			break;
		}
		for (size_t i = 0; i < w->n; i++) {
			polled += w->pfd[i] < 0 && !w->ended[i] && w->pid[i] != w->child;
			if (w->pfd[i] >= 0 && !w->ended[i])
				p[k++] = (struct pollfd){ w->pfd[i], POLLIN, 0 };
		}
		if (polled && (ms < 0 || ms > 10))
			ms = 10;
		ts.tv_sec = (time_t)(ms / 1000);
		ts.tv_nsec = (long)fmod(ms, 1000) * 1000000L;
		if (w->ctl >= 0)
			p[k++] = (struct pollfd){ w->ctl, POLLIN, 0 };
		seen = signals_seen;
		if (ppoll(p, k, ms >= 0 ? &ts : NULL, mask) < 0 && errno == EINTR && seen != signals_seen) {
			r = WAIT_SIGNAL; /* a caught one; SIGCHLD only ends the wait to look again */
			break;
		}
		if (w->ctl >= 0 && p[k - 1].revents) {
			r = WAIT_CONTROL;
			break;
		}
		for (size_t i = 0, j = 0; i < w->n; i++)
			if (w->pfd[i] >= 0 && !w->ended[i])
				w->ended[i] = p[j++].revents != 0;
	}
	free(p);
	return r < 0 ? WAIT_ENDED : r;
}

/* ---------------- the sets counted ---------------- */

/* One opened set: a thread, a CPU, or the command. */
struct unit_set {
	struct pmu_set *set;
	const char *cgroup;   /* the cgroup whose tasks it counts, or NULL */
	int cpu, tid;
	char comm[32];
	struct pmu_value *prev, *cur, *delta;   /* -I: the last interval's end, now, the difference */
	size_t n;
};

/* One run: the command, the sets, the processes watched. */
struct session {
	struct unit_set *u;
	size_t n;
	pid_t child;          /* the command, or 0 */
	int go, err;          /* its pipes: a byte on go execs it; errno comes back on err when exec fails */
	struct watch w;
	double t0;            /* when counting began */
	double wall0;         /* the same, CLOCK_REALTIME */
	double u0, s0;        /* the user and system time of -p's processes then */
	unsigned set_flags;   /* added to every set's (stat_run_opts) */
	struct pmu_ctx *ctx;
	struct unit_plan *plans; /* each list resolved once for every target of a kind (plan_of) */
	size_t nplans;
};

/* A list planned for one kind of target (the set flags, the cgroup). */
struct unit_plan {
	const char *events;
	unsigned flags;
	int cgroup_fd;
	struct pmu_plan *plan;
};

/* The plan of @events for targets of @so's kind, made at the first need: 0, or pmu_plan_new's error (said
 * by the caller; planned again at the next target, as each set once resolved its list). */
static int plan_of(struct pmu_ctx *ctx, const char *events, const struct pmu_set_opts *so, struct session *s,
		   struct pmu_plan **out)
{
	struct unit_plan *np;
	int r;

	for (size_t i = 0; i < s->nplans; i++)
		if (s->plans[i].flags == so->flags && s->plans[i].cgroup_fd == so->cgroup_fd &&
		    !strcmp(s->plans[i].events, events)) {
			*out = s->plans[i].plan;
			return 0;
		}
	if (!(np = realloc(s->plans, (s->nplans + 1) * sizeof(*np))))
		return -ENOMEM;
	s->plans = np;
	if ((r = pmu_plan_new(ctx, events, so, out)) < 0)
		return r;
	np[s->nplans++] = (struct unit_plan){ events, so->flags, so->cgroup_fd, *out };
	return 0;
}

/* Open @events on one target (a thread, a CPU, a cgroup's tasks on a CPU: @cg) as a new unit of @s. 0, 1
 * to skip, or -1. */
static int open_unit(struct pmu_ctx *ctx, const char *events, unsigned flags, int pid, int cpu,
		     const struct stat_cgroup *cg, struct session *s)
{
	struct unit_set *nu = realloc(s->u, (s->n + 1) * sizeof(*nu)), *u;
	struct pmu_set_opts so;
	struct pmu_plan *plan;
	int r;

	if (!nu) {
		fprintf(stderr, "pmu stat: out of memory\n");
		return -1;
	}
	s->u = nu;
	u = &nu[s->n];
	memset(u, 0, sizeof(*u));
	memset(&so, 0, sizeof(so));
	so.size = sizeof(so);
	/* the fallback to user mode is said once, under the counts (stat-print.c), not per set */
	so.flags = flags | s->set_flags | PMU_SET_SKIP_UNSUPPORTED | PMU_SET_QUIET_FALLBACK;
	so.pid = pid;
	so.cpu = cpu;
	if (cg && cg->name) {
		so.flags = (so.flags & ~(unsigned)PMU_SET_PID) | PMU_SET_CGROUP;
		so.cgroup_fd = cg->fd;
	}
	if ((r = plan_of(ctx, events, &so, s, &plan)) == 0)
		r = pmu_plan_open(plan, (so.flags & PMU_SET_PID) ? pid : 0, (so.flags & PMU_SET_CPU) ? cpu : -1, &u->set);
	if (r == -ESRCH || r == -ENODEV || r == -ENXIO)
		return 1; /* the thread ended meanwhile; the CPU is offline */
	if (r < 0) {
		fprintf(stderr, "pmu: %s\n", pmu_strerror(r));
		return -1;
	}
	u->cgroup = cg ? cg->name : NULL;
	u->cpu = flags & PMU_SET_CPU ? cpu : -1;
	u->tid = flags & PMU_SET_CPU ? 0 : pid;
	u->n = pmu_set_count(u->set);
	u->prev = calloc(u->n + 1, sizeof(*u->prev));
	u->cur = calloc(u->n + 1, sizeof(*u->cur));
	u->delta = calloc(u->n + 1, sizeof(*u->delta));
	s->n++;
	if (!u->prev || !u->cur || !u->delta) {
		fprintf(stderr, "pmu stat: out of memory\n");
		return -1;
	}
	return 0;
}

/* -p: every thread process @pid has now (inherit covers what they start). */
static int open_process(struct pmu_ctx *ctx, const char *events, unsigned flags, pid_t pid, struct session *s)
{
	char path[64];
	struct dirent *de;
	size_t before = s->n;
	int r = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path))) {
		fprintf(stderr, "pmu stat: no process %d to attach to (%s)\n", (int)pid, strerror(errno));
		return -1;
	}
	while (r >= 0 && (de = readdir(d)))
		if (atoi(de->d_name) > 0)
			r = open_unit(ctx, events, flags, atoi(de->d_name), -1, NULL, s);
	closedir(d);
	if (r >= 0 && s->n == before) {
		fprintf(stderr, "pmu stat: process %d has no threads left to count\n", (int)pid);
		r = -1;
	}
	return r < 0 ? -1 : 0;
}

/* The sets @tg asks for, each a unit of @s (the command's, when it is counted, is forked already). */
static int open_units(struct pmu_ctx *ctx, const struct stat_target *tg, const struct stat_run_opts *o,
		      struct session *s)
{
	unsigned inherit = tg->inherit ? PMU_SET_INHERIT : 0;
	int r = 0;

	if (!o->events || !*o->events)
		return 0; /* -n: nothing to count */
	for (size_t i = 0; r >= 0 && i < tg->pids.n; i++)
		r = open_process(ctx, o->events, PMU_SET_PID | inherit, tg->pids.v[i], s);
	for (size_t i = 0; r >= 0 && i < tg->tids.n; i++)
		if ((r = open_unit(ctx, o->events, PMU_SET_PID | inherit, tg->tids.v[i], -1, NULL, s)) == 1) {
			fprintf(stderr, "pmu stat: no thread %d to attach to\n", tg->tids.v[i]);
			r = -1;
		}
	for (size_t i = 0; r >= 0 && i < tg->cpus.n; i++)
		if (!tg->ncgroups)
			r = open_unit(ctx, o->events, PMU_SET_CPU | PMU_SET_PID, -1, tg->cpus.v[i], NULL, s);
		else /* -G, --for-each-cgroup: a set per cgroup on each CPU, of its events */
			for (size_t k = 0; r >= 0 && k < tg->ncgroups; k++)
				r = open_unit(ctx, tg->cgroups[k].events, PMU_SET_CPU | PMU_SET_PID, -1, tg->cpus.v[i],
					      &tg->cgroups[k], s);
	if (r >= 0 && !tg->pids.n && !tg->tids.n && !tg->cpus.n)
		r = open_unit(ctx, o->events, PMU_SET_PID | inherit | (o->delay_ms ? 0 : PMU_SET_ENABLE_ON_EXEC),
			      s->child, -1, NULL, s);
	if (r >= 0 && !s->n) {
		fprintf(stderr, "pmu stat: none of the CPUs named is online\n");
		r = -1;
	}
	for (size_t i = 0; r >= 0 && tg->per_unit && i < s->n; i++)
		if (s->u[i].tid)
			thread_comm(s->u[i].tid, s->u[i].comm, sizeof(s->u[i].comm));
	return r < 0 ? 1 : 0;
}

static void units_close(struct session *s)
{
	for (size_t i = 0; i < s->n; i++) {
		pmu_set_close(s->u[i].set);
		free(s->u[i].prev);
		free(s->u[i].cur);
		free(s->u[i].delta);
	}
	free(s->u);
	s->u = NULL;
	s->n = 0;
	for (size_t i = 0; i < s->nplans; i++)
		pmu_plan_free(s->plans[i].plan);
	free(s->plans);
	s->plans = NULL;
	s->nplans = 0;
}

static void units_enable(struct session *s, bool on)
{
	for (size_t i = 0; i < s->n; i++)
		(on ? pmu_set_enable : pmu_set_disable)(s->u[i].set);
}

/* The command's set: every group its exec will not enable (a PMU that counts CPUs, tool events). */
static void units_enable_before_exec(struct session *s)
{
	for (size_t i = 0; i < s->n; i++)
		pmu_set_enable_before_exec(s->u[i].set);
}

/* Read every unit into cur, and delta = cur - prev; prev = cur. 0 or a negative errno. */
static int units_read(struct session *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct unit_set *u = &s->u[i];
		int r = pmu_set_read(u->set, u->cur);
		if (r < 0)
			return r;
		pmu_delta(u->prev, u->cur, u->n, u->delta);
		memcpy(u->prev, u->cur, u->n * sizeof(*u->cur));
	}
	return 0;
}

/* ---------------- counts ---------------- */

/* After the last part of an event counted on each core PMU (value @k of @set, of @n), its total: a row
 * of the name the list gave (pmu_set_total_of()), the sum of the parts' counts and of their times (their
 * enabled times are each the time on its core type: the sum is exact where no part was multiplexed), its
 * PMU the parts' PMUs. */
static int total_add(struct stat_rows *rs, const struct pmu_set *set, const struct pmu_event_info *info,
		     const struct pmu_value *vals, size_t k, const char *cgroup)
{
	char name[PMU_NAME_MAX], pmus[sizeof(info->pmu)] = "";
	struct stat_row *row;
	struct pmu_value sum = { 0, 0, 0 };
	bool added, first = true;

	if (pmu_set_total_of(set, k, name, sizeof(name)) != (int)k)
		return 0; /* no part, or not the last of its name's */
	for (size_t j = 0; j <= k; j++) {
		if (pmu_set_total_of(set, j, NULL, 0) != (int)k)
			continue;
		sum.value += vals[j].value;
		sum.enabled += vals[j].enabled;
		sum.running += vals[j].running;
		size_t o = strlen(pmus);
		snprintf(pmus + o, sizeof(pmus) - o, "%s%s", first ? "" : ",", info[j].pmu);
		first = false;
	}
	if (!(row = stat_rows_of(rs, name, cgroup, &added)))
		return -ENOMEM;
	if (added) {
		row->info = info[k];
		snprintf(row->info.name, sizeof(row->info.name), "%s", name);
		snprintf(row->info.pmu, sizeof(row->info.pmu), "%s", pmus);
		row->info.flags &= ~(unsigned)PMU_EVF_HYBRID_PART;
		row->unit_scale = 1;
	}
	row->supported = true;
	row->v.value += sum.value;
	row->v.enabled += sum.enabled;
	row->v.running += sum.running;
	return 0;
}

/* Add the values @vals of @set to @rs by event: the k-th event named X in the set is the k-th row named X
 * (the sets of the CPUs of a hybrid CPU differ; one set may count an event twice); after the parts of an
 * event counted on each core PMU, their total. */
static int rows_add(struct pmu_ctx *ctx, struct stat_rows *rs, struct pmu_set *set, const struct pmu_value *vals,
		    size_t n, const char *cgroup)
{
	struct pmu_event_info *info = calloc(n + 1, sizeof(*info));

	if (!info)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++)
		pmu_set_event(set, k, &info[k]); /* all first: a total follows the last of its parts */
	for (size_t k = 0; k < n; k++) {
		char key[PMU_NAME_MAX + 16];
		struct stat_row *row;
		int occ = 0;
		bool added;
		for (size_t j = 0; j < k; j++)
			occ += !strcmp(info[j].name, info[k].name);
		snprintf(key, sizeof(key), occ ? "%s#%d" : "%s", info[k].name, occ);
		if (!(row = stat_rows_of(rs, key, cgroup, &added))) {
			free(info);
			return -ENOMEM;
		}
		/* counted where any unit counted it (a PMU that counts CPUs is left out of the other CPUs of
		 * -a), described as a unit that counted it describes it */
		bool counted = !(info[k].flags & PMU_EVF_UNSUPPORTED), first = added || (counted && !row->supported);
		row->supported = row->supported || counted;
		if (first) {
			row->info = info[k];
			/* a count in fractions of its unit (RAPL, uncore): its factor, or no unit if it is not
			 * known (pmu_event_scale() said why) */
			if (pmu_event_scale(ctx, &info[k], &row->unit_scale) < 0) {
				row->info.unit = "";
				row->unit_scale = 1;
			}
		}
		/* wall-clock time is the same in every unit (CPU, thread): the longest, not the sum (perf
		 * counts it once; -a on 8 CPUs summed it 8 times); so is a package's count that every
		 * thread's unit of -p or -t counted on its PMU's CPU (cpu-wide): rows.h's rule */
		stat_row_add(row, &info[k], &vals[k]);
		if (row_same_in_units(&info[k]))
			continue;
		if (total_add(rs, set, info, vals, k, cgroup) < 0) {
			free(info);
			return -ENOMEM;
		}
	}
	free(info);
	return 0;
}

void stat_counts_free(struct stat_counts *c)
{
	stat_rows_free(&c->total);
	for (size_t i = 0; i < c->nunits; i++)
		stat_rows_free(&c->units[i].rows);
	free(c->units);
	memset(c, 0, sizeof(*c));
}

/* The counts of @s: the deltas (@delta) or the values read last, summed, and per unit when @tg asks
 * (per group of CPUs with --per-socket and the like). */
static int counts_of(const struct session *s, bool delta, const struct stat_target *tg, struct stat_counts *c)
{
	bool per_unit = tg->per_unit;
	int r = 0;

	memset(c, 0, sizeof(*c));
	if (per_unit && !(c->units = calloc(s->n, sizeof(*c->units))))
		return -ENOMEM;
	for (size_t i = 0; r == 0 && i < s->n; i++) {
		const struct unit_set *u = &s->u[i];
		const struct pmu_value *v = delta ? u->delta : u->cur;
		r = rows_add(s->ctx, &c->total, u->set, v, u->n, u->cgroup);
		if (r == 0 && per_unit) {
			struct stat_unit *cu = &c->units[c->nunits++];
			cu->cpu = u->cpu;
			cu->tid = u->tid;
			memcpy(cu->comm, u->comm, sizeof(cu->comm));
			r = rows_add(s->ctx, &cu->rows, u->set, v, u->n, u->cgroup);
		}
	}
	if (r == 0 && per_unit && tg->aggr)
		r = aggr_fold(tg->aggr, c);
	if (r < 0)
		stat_counts_free(c);
	return r;
}

/* -I: the interval that ends now: read, and give the deltas to the caller. */
static void interval(struct session *s, const struct stat_target *tg, const struct stat_run_opts *o, double now)
{
	struct stat_counts c;

	if (units_read(s) < 0 || counts_of(s, true, tg, &c) < 0)
		return;
	o->on_interval(o->data, (now - s->t0) / 1e9, &c);
	stat_counts_free(&c);
}

/* ---------------- a run ---------------- */

/* Fork the command, waiting for a byte on its go pipe. 0 or the exit status. */
static int spawn(struct session *s, char **cmd)
{
	int go[2], err[2];

	if (pipe2(go, O_CLOEXEC) < 0)
		return perror("pmu stat: pipe"), 1;
	if (pipe2(err, O_CLOEXEC) < 0) {
		perror("pmu stat: pipe");
		close(go[0]);
		close(go[1]);
		return 1;
	}
	s->child = start_command(cmd, go, err);
	close(go[0]);
	close(err[1]);
	s->go = go[1];
	s->err = err[0];
	if (s->child < 0) {
		perror("pmu stat: fork");
		s->child = 0;
		return 1;
	}
	return 0;
}

/* Let the command exec. */
static void release(struct session *s)
{
	if (s->go >= 0 && write(s->go, "g", 1) != 1)
		perror("pmu stat: starting the command");
	if (s->go >= 0)
		close(s->go);
	s->go = -1;
}

/* Wait for the command to end (caught signals passed on meanwhile) and reap it. */
static void reap(struct session *s, const sigset_t *mask, int *status, struct rusage *ru)
{
	struct watch w = { NULL, NULL, NULL, 0, 0, -1 };

	if (watch_add(&w, s->child, true) == 0)
		while (watch_wait(&w, -1, mask) != WAIT_ENDED)
			;
	watch_free(&w);
	/* ended, not reaped until now: a signal passed on meanwhile cannot reach a process reusing its pid */
	fwd_pid = 0;
	while (wait4(s->child, status, 0, ru) < 0 && errno == EINTR)
		;
	s->child = 0;
}

/* The user and system time of the processes of -p so far (-1 each when unknown). */
static void targets_cpu(const struct stat_target *tg, double *user_ns, double *sys_ns)
{
	*user_ns = *sys_ns = tg->pids.n ? 0 : -1;
	for (size_t i = 0; i < tg->pids.n && *user_ns >= 0; i++) {
		double u, st;
		proc_cpu(tg->pids.v[i], &u, &st);
		*user_ns = u < 0 ? -1 : *user_ns + u;
		*sys_ns = st < 0 ? -1 : *sys_ns + st;
	}
}

/* What ends the count: the command, else the processes of -p and the threads of -t (CPUs: a signal). */
static int watch_targets(struct session *s, const struct stat_target *tg)
{
	int r = 0;

	if (s->child)
		return watch_add(&s->w, s->child, true);
	for (size_t i = 0; r == 0 && i < tg->pids.n; i++)
		r = watch_add(&s->w, tg->pids.v[i], false);
	for (size_t i = 0; r == 0 && i < tg->tids.n; i++)
		r = watch_add(&s->w, tg->tids.v[i], false);
	return r;
}

/* --control: what has come, done */
static void control(struct session *s, struct stat_control *c)
{
	enum stat_control_cmd cmd;

	while ((cmd = stat_control_next(c)) != CTL_NONE)
		if (cmd == CTL_ENABLE || cmd == CTL_DISABLE)
			units_enable(s, cmd == CTL_ENABLE);
	s->w.ctl = c->ctl; /* -1 once its writer is gone */
}

/* Start counting, now, after -D's delay (the command runs meanwhile), or (-D -1) at the control's first
 * 'enable'; watch what ends the count. 0, or -1 when out of memory. */
static int start(struct session *s, const struct stat_target *tg, const struct stat_run_opts *o, const sigset_t *mask)
{
	bool own = !tg->pids.n && !tg->tids.n && !tg->cpus.n;

	if (!o->delay_ms) {
		s->t0 = ns_now();
		s->wall0 = wall_now();
		if (!own)
			units_enable(s, true);
		else
			units_enable_before_exec(s); /* what its exec does not start: from now, not from the open */
		release(s); /* its own count begins at exec */
		targets_cpu(tg, &s->u0, &s->s0);
		return watch_targets(s, tg); /* once counting: what it costs is not a time the count misses */
	}
	if (watch_targets(s, tg) < 0)
		return -1;
	if (o->delay_ms < 0) { /* the time runs from the start, the counts from 'enable' (as perf's -D -1) */
		s->t0 = ns_now();
		s->wall0 = wall_now();
		targets_cpu(tg, &s->u0, &s->s0);
		release(s);
		return 0;
	}
	release(s);
	for (double until = ns_now() + o->delay_ms * 1e6;;) {
		int r = watch_wait(&s->w, until, mask);
		if (r == WAIT_CONTROL) /* taken meanwhile ('enable' starts the count before the delay's end) */
			control(s, o->control);
		else if (r != WAIT_SIGNAL || !s->child)
			break;
	}
	s->t0 = ns_now();
	s->wall0 = wall_now();
	units_enable(s, true);
	targets_cpu(tg, &s->u0, &s->s0);
	return 0;
}

/* Count until the end: the command's (or the processes'), a signal (without a command), the timeout,
 * --interval-count's last interval. */
static void count(struct session *s, const struct stat_target *tg, const struct stat_run_opts *o,
		  const sigset_t *mask, struct stat_result *res)
{
	double next = s->t0 + o->interval_ms * 1e6, end_at = o->timeout_ms ? s->t0 + o->timeout_ms * 1e6 : -1;
	int intervals = 0;

	while (!(got_signal && !s->child)) {
		double deadline = o->interval_ms ? (end_at < 0 || next < end_at ? next : end_at) : end_at, now;
		int r = watch_wait(&s->w, deadline, mask);
		if (r == WAIT_ENDED || (r == WAIT_SIGNAL && !s->child))
			break;
		if (r == WAIT_CONTROL)
			control(s, o->control);
		now = ns_now();
		if (end_at >= 0 && now >= end_at) {
			res->timed_out = true;
			break;
		}
		if (o->interval_ms && now >= next) {
			interval(s, tg, o, now);
			next += o->interval_ms * 1e6;
			if (o->interval_count && ++intervals == o->interval_count) {
				res->intervals_done = true;
				break;
			}
		}
	}
}

/* pmu stat's user_time and system_time of its command (@rs) are the command's rusage from wait4(), the
 * footer's @t, as perf stat's are (6.1: read_single_counter() takes ru_stats): the command with its
 * waited-for children, in the microseconds the kernel gives a parent, for the whole run (-D too). The
 * library reads the command's /proc/PID/stat meanwhile: whole clock ticks of the command alone (-I). */
static void rows_take_rusage(struct stat_rows *rs, const struct run_times *t)
{
	for (size_t i = 0; i < rs->n; i++) {
		struct stat_row *row = &rs->v[i];
		if (!(row->info.flags & PMU_EVF_TOOL))
			continue;
		if (!strcmp(row->info.name, "user_time"))
			row->v.value = (uint64_t)llround(t->user_ns);
		else if (!strcmp(row->info.name, "system_time"))
			row->v.value = (uint64_t)llround(t->sys_ns);
	}
}

/* Counting is over: the times, the command reaped, the last counts (and the last, partial, interval). */
static int finish(struct session *s, const struct stat_target *tg, const struct stat_run_opts *o,
		  const sigset_t *mask, struct stat_result *res)
{
	struct rusage ru;
	double end, u1, s1;
	int exec_err = 0, r;
	bool own = !tg->pids.n && !tg->tids.n && !tg->cpus.n; /* the command is what is counted */

	units_enable(s, false);
	end = ns_now();
	targets_cpu(tg, &u1, &s1);
	memset(&ru, 0, sizeof(ru));
	if (res->timed_out && s->child)
		kill(s->child, SIGTERM); /* as perf stat --timeout does */
	if (s->child)
		reap(s, mask, &res->status, &ru);
	res->times.elapsed_ns = end - s->t0;
	res->times.wall_start_ns = s->wall0;
	res->times.wall_end_ns = s->wall0 + (end - s->t0);
	res->times.user_ns = tg->pids.n && s->u0 >= 0 && u1 >= 0 ? u1 - s->u0 : -1;
	res->times.sys_ns = tg->pids.n && s->s0 >= 0 && s1 >= 0 ? s1 - s->s0 : -1;
	if (own) {
		res->times.user_ns = ru.ru_utime.tv_sec * 1e9 + ru.ru_utime.tv_usec * 1e3;
		res->times.sys_ns = ru.ru_stime.tv_sec * 1e9 + ru.ru_stime.tv_usec * 1e3;
	}
	res->times.runs = 1;
	if (s->err >= 0 && read(s->err, &exec_err, sizeof(exec_err)) == sizeof(exec_err)) {
		fprintf(stderr, "pmu stat: cannot run '%s': %s\n", tg->cmd[0], strerror(exec_err));
		return 127;
	}
	if ((r = units_read(s)) < 0 || (r = counts_of(s, false, tg, &res->counts)) < 0) {
		fprintf(stderr, "pmu: %s\n", pmu_strerror(r));
		return 1;
	}
	if (own) {
		rows_take_rusage(&res->counts.total, &res->times);
		for (size_t i = 0; i < res->counts.nunits; i++)
			rows_take_rusage(&res->counts.units[i].rows, &res->times);
	}
	if (o->interval_ms && o->on_interval && !res->intervals_done) {
		struct stat_counts c;
		if (counts_of(s, true, tg, &c) == 0) {
			o->on_interval(o->data, (end - s->t0) / 1e9, &c);
			stat_counts_free(&c);
		}
	}
	return 0;
}

/* The command, if it exists still, killed and reaped (pmu gives up). */
static void abandon(struct session *s)
{
	if (!s->child)
		return;
	fwd_pid = 0;
	kill(s->child, SIGKILL);
	if (s->go >= 0)
		close(s->go);
	s->go = -1;
	waitpid(s->child, NULL, 0);
	s->child = 0;
}

int stat_run(struct pmu_ctx *ctx, const struct stat_target *tg, const struct stat_run_opts *o,
	     struct stat_result *res)
{
	struct session s;
	struct sigaction old[NCAUGHT];
	sigset_t block, orig;
	int code = 0;

	memset(res, 0, sizeof(*res));
	memset(&s, 0, sizeof(s));
	s.go = s.err = -1;
	s.ctx = ctx;
	s.set_flags = o->set_flags;
	s.w.ctl = o->control ? o->control->ctl : -1;
	/* the list as the sets will take it, before the command starts: a wrong list is a usage error */
	if (o->events && *o->events) {
		struct pmu_set_opts so = { sizeof(so), PMU_SET_SKIP_UNSUPPORTED | o->set_flags, 0, -1 };
		int r;
		if (tg->cpus.n) /* as open_units opens them: CPU sets, else task sets */
			so = (struct pmu_set_opts){ sizeof(so), PMU_SET_SKIP_UNSUPPORTED | PMU_SET_CPU | PMU_SET_PID |
						    o->set_flags, -1, tg->cpus.v[0] };
		r = pmu_set_check(ctx, o->events, &so);
		if (r < 0) {
			fprintf(stderr, "pmu: %s\n", pmu_strerror(r));
			return r == -ENOMEM ? 1 : 2;
		}
	}
	/* caught from the moment the command exists: it gets them, and we print what was counted */
	catch_signals(old);
	if (tg->cmd && tg->cmd[0])
		code = spawn(&s, tg->cmd);
	if (code == 0)
		code = open_units(ctx, tg, o, &s);
	if (code == 0 && got_signal) /* while the events were opened: the command has it already */
		code = 128 + got_signal;
	if (code == 0) {
		/* the caught signals are taken only inside the waits: one cannot slip in between them */
		sigemptyset(&block);
		sigaddset(&block, SIGCHLD);
		for (size_t i = 0; i < NCAUGHT; i++)
			sigaddset(&block, caught[i]);
		sigprocmask(SIG_BLOCK, &block, &orig);
		if (start(&s, tg, o, &orig) < 0) {
			fprintf(stderr, "pmu stat: out of memory\n");
			code = 1;
		} else {
			count(&s, tg, o, &orig, res);
			code = finish(&s, tg, o, &orig, res);
		}
		sigprocmask(SIG_SETMASK, &orig, NULL);
	}
	abandon(&s);
	restore_signals(old);
	if (s.go >= 0)
		close(s.go);
	if (s.err >= 0)
		close(s.err);
	watch_free(&s.w);
	units_close(&s);
	return code;
}

void stat_result_free(struct stat_result *res)
{
	stat_counts_free(&res->counts);
}

/* ---------------- repeated runs ---------------- */

int stat_repeat_add(struct stat_repeat *r, const struct stat_result *res)
{
	const struct stat_rows *rs = &res->counts.total;

	if (!r->sum) {
		r->n = rs->n;
		r->sum = calloc(r->n + 1, sizeof(*r->sum));
		r->sumsq = calloc(r->n + 1, sizeof(*r->sumsq));
		r->acc = calloc(r->n + 1, sizeof(*r->acc));
		if (!r->sum || !r->sumsq || !r->acc)
			return -ENOMEM;
	}
	if (rs->n != r->n)
		return -EINVAL;
	double *el = realloc(r->elapsed_ns, (size_t)(r->runs + 1) * sizeof(*el));
	if (!el)
		return -ENOMEM;
	r->elapsed_ns = el;
	el[r->runs] = res->times.elapsed_ns;
	for (size_t k = 0; k < rs->n; k++) {
		double x = (double)pmu_scale(&rs->v[k].v);
		r->sum[k] += x;
		r->sumsq[k] += x * x;
		r->acc[k].value += rs->v[k].v.value;
		r->acc[k].enabled += rs->v[k].v.enabled;
		r->acc[k].running += rs->v[k].v.running;
	}
	r->total.elapsed_ns += res->times.elapsed_ns;
	if (!r->runs)
		r->total.wall_start_ns = res->times.wall_start_ns;
	r->total.wall_end_ns = res->times.wall_end_ns;
	r->total.user_ns += res->times.user_ns;
	r->total.sys_ns += res->times.sys_ns;
	r->runs++;
	return 0;
}

void stat_repeat_mean(const struct stat_repeat *r, struct stat_result *res)
{
	struct stat_rows *rs = &res->counts.total;
	int runs = r->runs;

	for (size_t k = 0; k < rs->n && runs > 1; k++) {
		double mean = r->sum[k] / runs, var = (r->sumsq[k] - r->sum[k] * r->sum[k] / runs) / (runs - 1);
		rs->v[k].v.value = r->acc[k].value / (uint64_t)runs;
		rs->v[k].v.enabled = r->acc[k].enabled / (uint64_t)runs;
		rs->v[k].v.running = r->acc[k].running / (uint64_t)runs;
		rs->v[k].stddev_pct = mean > 0 && var > 0 ? 100.0 * sqrt(var / runs) / mean : 0;
	}
	if (runs > 1) { /* the standard error of the mean elapsed, as the counts' +- */
		double mean = r->total.elapsed_ns / runs, ss = 0;
		for (int i = 0; i < runs; i++)
			ss += (r->elapsed_ns[i] - mean) * (r->elapsed_ns[i] - mean);
		res->times.elapsed_se_ns = sqrt(ss / (runs - 1) / runs);
	}
	if (runs > 0) {
		res->times.elapsed_ns = r->total.elapsed_ns / runs;
		res->times.user_ns = r->total.user_ns / runs;
		res->times.sys_ns = r->total.sys_ns / runs;
		res->times.runs = runs;
		res->times.wall_start_ns = r->total.wall_start_ns;
	}
}

void stat_repeat_free(struct stat_repeat *r)
{
	free(r->sum);
	free(r->sumsq);
	free(r->acc);
	free(r->elapsed_ns);
	memset(r, 0, sizeof(*r));
}
