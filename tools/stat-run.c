/* SPDX-License-Identifier: MIT */
/* pmu stat's runner (stat-run.h says what each is for). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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
#include "stat-run.h"
#include "util.h"

static double ns_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
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
	if (fwd_pid > 0 && si->si_code != SI_KERNEL)
		kill(fwd_pid, sig);
}

static void catch_signals(struct sigaction old[NCAUGHT])
{
	struct sigaction sa;

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
}

/*
 * Fork @cmd with the signal dispositions pmu was started with. The child
 * waits for a byte on @go (if >= 0) and execs; if that fails it writes errno
 * to @err_fd (if >= 0; else it says why on stderr) and exits 127. Caught
 * signals go to it from the moment it exists.
 */
static pid_t start_command(char **cmd, int go, int err_fd)
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
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (go >= 0 && read(go, &b, 1) != 1)
			_exit(127); /* pmu gave up */
		execvp(cmd[0], cmd);
		e = errno;
		if (err_fd < 0 || write(err_fd, &e, sizeof(e)) != sizeof(e))
			fprintf(stderr, "pmu stat: cannot run '%s': %s\n", cmd[0], strerror(e));
		_exit(127);
	}
	if (c > 0)
		fwd_pid = c;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return c;
}

/* Wait for the command @child to end, caught signals passed on meanwhile; @status, @ru (may be NULL). */
static void wait_child(pid_t child, int *status, struct rusage *ru)
{
	siginfo_t si;

	/* until it has ended, not reaped: a signal passed on meanwhile cannot reach a process reusing its pid */
	while (waitid(P_PID, child, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	fwd_pid = 0;
	while (wait4(child, status, 0, ru) < 0 && errno == EINTR)
		;
}



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

/*
 * Wait up to @ms milliseconds (-1: no limit) for process @pid to end: on its
 * pidfd @pfd, or without one (kernels before 5.3; valgrind) by looking every
 * millisecond. With @mask (the caught signals blocked by the caller) the wait
 * takes them under that mask and stops for one. Returns 1 when it ended, 0 at
 * the time limit, -1 on a signal.
 */
static int wait_end(pid_t pid, int pfd, int ms, const sigset_t *mask)
{
	double until = ns_now() + ms * 1e6;

	if (pfd >= 0) {
		struct pollfd p = { pfd, POLLIN, 0 };
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
		int r = ppoll(&p, 1, ms >= 0 ? &ts : NULL, mask);
		return r > 0 ? 1 : r == 0 ? 0 : -1;
	}
	for (;;) {
		struct timespec one = { 0, 1000000 };
		sigset_t save;
		int r;
		if (proc_ended(pid))
			return 1;
		if (ms >= 0 && ns_now() >= until)
			return 0;
		if (mask)
			sigprocmask(SIG_SETMASK, mask, &save);
		r = nanosleep(&one, NULL);
		if (mask)
			sigprocmask(SIG_SETMASK, &save, NULL);
		if ((r < 0 && errno == EINTR) || (mask && got_signal))
			return -1;
	}
}

/* Wait for @child, printing the counts of every @interval_ms to @f meanwhile (-I). */
static void wait_intervals(pid_t child, struct pmu_set *set, size_t n, int interval_ms, FILE *f, double t0,
			   int *status, struct rusage *ru)
{
	struct pmu_value *prev = calloc(n, sizeof(*prev)), *cur = calloc(n, sizeof(*cur));
	int pfd = (int)syscall(SYS_pidfd_open, child, 0);
	double next = t0 + interval_ms * 1e6;
	bool header = false;

	for (;;) {
		double now = ns_now();
		if (wait_end(child, pfd, now >= next ? 0 : (int)((next - now) / 1e6) + 1, NULL) > 0)
			break;
		if (ns_now() < next || !prev || !cur || pmu_set_read(set, cur) < 0)
			continue;
		if (!header) {
			fprintf(f, "#%15s %18s  %s\n", "time (s)", "counts", "event");
			header = true;
		}
		for (size_t k = 0; k < n; k++) {
			struct pmu_value d;
			struct pmu_event_info info;
			char num[48];
			pmu_delta(&prev[k], &cur[k], 1, &d);
			pmu_set_event(set, k, &info);
			if (info.flags & PMU_EVF_UNSUPPORTED)
				continue;
			if (info.unit && !strcmp(info.unit, "ns"))
				snprintf(num, sizeof(num), "%.2f msec", pmu_scale(&d) / 1e6);
			else
				group_digits(pmu_scale(&d), num, sizeof(num));
			fprintf(f, " %15.9f %18s  %s%s\n", (ns_now() - t0) / 1e9, num, info.name,
				pmu_confidence(&d) < 1.0 ? "  (scaled)" : "");
			prev[k] = cur[k];
		}
		fflush(f);
		next += interval_ms * 1e6;
	}
	if (pfd >= 0)
		close(pfd);
	free(prev);
	free(cur);
	wait_child(child, status, ru);
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

/* Add the values of @set to @rs, matched by event name (the per-CPU sets of a hybrid CPU differ). */
static int add_set(struct pmu_set *set, struct stat_rows *rs)
{
	size_t m = pmu_set_count(set);
	struct pmu_value *vals = calloc(m ? m : 1, sizeof(*vals));
	int r = vals ? pmu_set_read(set, vals) : -ENOMEM;

	for (size_t k = 0; r == 0 && k < m; k++) {
		struct pmu_event_info info;
		struct stat_row *row;
		bool added;
		pmu_set_event(set, k, &info);
		if (!(row = stat_rows_named(rs, info.name, &added))) {
			r = -ENOMEM;
			break;
		}
		if (added) {
			row->info = info;
			row->supported = !(info.flags & PMU_EVF_UNSUPPORTED);
		}
		row->v.value += vals[k].value;
		row->v.enabled += vals[k].enabled;
		row->v.running += vals[k].running;
	}
	free(vals);
	if (r < 0)
		fprintf(stderr, "pmu: %s\n", pmu_strerror(r));
	return r;
}

/*
 * -p and -a: count with the open @sets until process @pid (if not 0) ends, a
 * signal, or @cmd (if given, not counted itself) ends; @rs gets the sums. The
 * sets are closed. 0, or the exit code to give up with.
 */
static int stat_sets(struct pmu_set **sets, size_t nsets, pid_t pid, char **cmd, struct stat_rows *rs,
		     struct run_times *t, int *status)
{
	struct sigaction old[NCAUGHT];
	double t0, u0 = -1, s0 = -1, u1 = -1, s1 = -1;
	int code = 0;

	catch_signals(old);
	/* the sets were opened disabled: all of them count the same window, the one timed */
	t0 = ns_now();
	for (size_t j = 0; j < nsets; j++)
		pmu_set_enable(sets[j]);
	if (pid)
		proc_cpu(pid, &u0, &s0);
	*status = 0;
	if (cmd[0]) {
		pid_t c = start_command(cmd, -1, -1);
		if (c < 0)
			perror("pmu stat: fork");
		else
			wait_child(c, status, NULL);
	} else {
		/* the caught signals are taken only inside the waits: one cannot slip in before them */
		sigset_t block, orig;
		sigemptyset(&block);
		for (size_t i = 0; i < NCAUGHT; i++)
			sigaddset(&block, caught[i]);
		sigprocmask(SIG_BLOCK, &block, &orig);
		if (pid) {
			/* until the process ends or a signal */
			int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
			while (!got_signal && wait_end(pid, pfd, -1, &orig) < 1)
				;
			if (pfd >= 0)
				close(pfd);
		} else {
			while (!got_signal)
				sigsuspend(&orig);
		}
		sigprocmask(SIG_SETMASK, &orig, NULL);
	}
	for (size_t j = 0; j < nsets; j++)
		pmu_set_disable(sets[j]);
	t->elapsed_ns = ns_now() - t0;
	if (pid)
		proc_cpu(pid, &u1, &s1);
	t->user_ns = u0 >= 0 && u1 >= 0 ? u1 - u0 : -1;
	t->sys_ns = s0 >= 0 && s1 >= 0 ? s1 - s0 : -1;
	restore_signals(old);
	for (size_t j = 0; j < nsets; j++)
		if (code == 0 && add_set(sets[j], rs) < 0)
			code = 1;
	for (size_t j = 0; j < nsets; j++)
		pmu_set_close(sets[j]);
	free(sets);
	return code;
}

/* Open @events on one target (a thread, or a CPU) and append the set to @sets. 0, 1 to skip, or -1. */
static int open_target(struct pmu_ctx *ctx, const char *events, unsigned flags, int pid, int cpu,
		       struct pmu_set ***sets, size_t *nsets)
{
	struct pmu_set **ns = realloc(*sets, (*nsets + 1) * sizeof(**sets));
	struct pmu_set_opts so;
	int r;

	if (!ns) {
		fprintf(stderr, "pmu stat: out of memory\n");
		return -1;
	}
	*sets = ns;
	memset(&so, 0, sizeof(so));
	so.size = sizeof(so);
	so.flags = flags | PMU_SET_SKIP_UNSUPPORTED;
	so.pid = pid;
	so.cpu = cpu;
	r = pmu_set_open(ctx, events, &so, &ns[*nsets]);
	if (r == -ESRCH || r == -ENODEV || r == -ENXIO)
		return 1; /* the thread ended meanwhile; the CPU is offline */
	if (r < 0) {
		fprintf(stderr, "pmu: %s\n", pmu_strerror(r));
		return -1;
	}
	(*nsets)++;
	return 0;
}

/* -p: the running process @pid, one set per thread it has now (inherit covers what they start). */
int stat_attach(struct pmu_ctx *ctx, const char *events, pid_t pid, char **cmd, struct stat_rows *rs,
		       struct run_times *t, int *status)
{
	struct pmu_set **sets = NULL;
	size_t nsets = 0;
	char path[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path))) {
		fprintf(stderr, "pmu stat: no process %d to attach to (%s)\n", (int)pid, strerror(errno));
		return 1;
	}
	while ((de = readdir(d)))
		if (atoi(de->d_name) > 0 &&
		    open_target(ctx, events, PMU_SET_PID | PMU_SET_INHERIT, atoi(de->d_name), -1, &sets, &nsets) < 0)
			break;
	closedir(d);
	if (de || !nsets) {
		if (!de)
			fprintf(stderr, "pmu stat: process %d has no threads left to count\n", (int)pid);
		for (size_t j = 0; j < nsets; j++)
			pmu_set_close(sets[j]);
		free(sets);
		return 1;
	}
	return stat_sets(sets, nsets, pid, cmd, rs, t, status);
}

/* -a: every online CPU, all tasks. */
int stat_system(struct pmu_ctx *ctx, const char *events, char **cmd, struct stat_rows *rs,
		       struct run_times *t, int *status)
{
	struct pmu_set **sets = NULL;
	size_t nsets = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	for (long c = 0; c < ncpu; c++)
		if (open_target(ctx, events, PMU_SET_CPU | PMU_SET_PID, -1, (int)c, &sets, &nsets) < 0) {
			for (size_t j = 0; j < nsets; j++)
				pmu_set_close(sets[j]);
			free(sets);
			return 1;
		}
	return stat_sets(sets, nsets, 0, cmd, rs, t, status);
}

/* One run of @cmd counted with @events: @rs (made on the first run) gets the
 * counts. 0, or the exit code to give up with. */
int stat_once(struct pmu_ctx *ctx, const char *events, char **cmd, int interval_ms, FILE *ilog,
		     struct stat_rows *rs, struct run_times *t, int *status)
{
	struct sigaction old[NCAUGHT];
	struct pmu_set_opts so;
	struct pmu_set *set = NULL;
	struct pmu_value *vals = NULL;
	struct rusage ru;
	int go[2], err_pipe[2], exec_err = 0, r, code = 1;
	pid_t child;
	double t0;
	size_t n;

	if (pipe2(go, O_CLOEXEC) < 0)
		return perror("pmu stat: pipe"), 1;
	if (pipe2(err_pipe, O_CLOEXEC) < 0) {
		perror("pmu stat: pipe");
		close(go[0]);
		close(go[1]);
		return 1;
	}
	/* caught from the moment the command exists: it gets them, and we print what was counted */
	catch_signals(old);
	child = start_command(cmd, go[0], err_pipe[1]);
	close(go[0]);
	close(err_pipe[1]);
	if (child < 0) {
		perror("pmu stat: fork");
		close(go[1]);
		close(err_pipe[0]);
		restore_signals(old);
		return 1;
	}
	memset(&so, 0, sizeof(so));
	so.size = sizeof(so);
	so.flags = PMU_SET_PID | PMU_SET_INHERIT | PMU_SET_ENABLE_ON_EXEC | PMU_SET_SKIP_UNSUPPORTED;
	so.pid = child;
	r = pmu_set_open(ctx, events, &so, &set);
	if (r < 0) {
		fprintf(stderr, "pmu: %s\n", pmu_strerror(r));
		goto kill;
	}
	n = pmu_set_count(set);
	if (!rs->v) {
		rs->v = calloc(n ? n : 1, sizeof(*rs->v));
		rs->n = n;
	}
	vals = calloc(n ? n : 1, sizeof(*vals));
	if (!rs->v || !vals || n != rs->n) {
		fprintf(stderr, "pmu stat: out of memory\n");
		goto kill;
	}
	if (got_signal) /* while the events were opened: the command has it already, or it was passed on */
		goto kill;
	t0 = ns_now();
	if (write(go[1], "g", 1) != 1)
		perror("pmu stat: starting the command");
	close(go[1]);
	memset(&ru, 0, sizeof(ru));
	if (interval_ms > 0)
		wait_intervals(child, set, n, interval_ms, ilog, t0, status, &ru);
	else
		wait_child(child, status, &ru);
	t->elapsed_ns = ns_now() - t0;
	t->user_ns = ru.ru_utime.tv_sec * 1e9 + ru.ru_utime.tv_usec * 1e3;
	t->sys_ns = ru.ru_stime.tv_sec * 1e9 + ru.ru_stime.tv_usec * 1e3;
	t->runs = 1;
	if (read(err_pipe[0], &exec_err, sizeof(exec_err)) == sizeof(exec_err)) {
		fprintf(stderr, "pmu stat: cannot run '%s': %s\n", cmd[0], strerror(exec_err));
		code = 127;
		goto out;
	}
	r = pmu_set_read(set, vals);
	if (r < 0) {
		fprintf(stderr, "pmu: %s\n", pmu_strerror(r));
		goto out;
	}
	for (size_t k = 0; k < n; k++) {
		pmu_set_event(set, k, &rs->v[k].info);
		rs->v[k].v = vals[k];
		rs->v[k].supported = !(rs->v[k].info.flags & PMU_EVF_UNSUPPORTED);
	}
	code = 0;
	goto out;
kill:
	fwd_pid = 0;
	kill(child, SIGKILL);
	close(go[1]);
	waitpid(child, NULL, 0);
	if (got_signal)
		code = 128 + got_signal;
out:
	restore_signals(old);
	close(err_pipe[0]);
	free(vals);
	pmu_set_close(set);
	return code;
}
