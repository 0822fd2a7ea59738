/* SPDX-License-Identifier: MIT */
/*
 * Zero-setup regions have no caller to tell: a misconfiguration is said
 * once on stderr, naming the variable, its value and the fix, and the
 * program's exit status stays its own. This program runs itself (as
 * "child") under each misconfiguration of PMU_EVENTS, PMU_OUTPUT,
 * PMU_FORMAT, PMU_CALIBRATE and PMU_PER_THREAD, and under a thread that
 * cannot open its events (RLIMIT_NOFILE), and checks: exactly one line
 * starting "libpmu regions:" with the expected words (written here by
 * hand), the exit status 3 the child returns, the report where it must
 * be, and that pmu_strerror() keeps the detailed sentence ("did you
 * mean") for the caller. A correct configuration, and an error returned
 * to a pmu_region_configure() caller, print no such line.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pmu.h>
#include "harness.h"

#define CHILD_STATUS 3

/* ---------------------------------------------------------------- child */

static void *thread_work(void *arg)
{
	int *r = arg;
	*r = pmu_region_begin("work");
	if (*r == 0)
		*r = pmu_region_end("work");
	return NULL;
}

static int child(const char *mode)
{
	pthread_t t[3];
	int tr[3], r;

	if (!strcmp(mode, "configure")) {
		r = pmu_region_configure("INST.RTE", 1);
		printf("configure: %d %s\n", r, pmu_strerror(r));
	}
	r = pmu_region_begin("work");
	printf("begin: %d %s\n", r, pmu_strerror(r));
	r = pmu_region_end("work");
	printf("end: %d %s\n", r, pmu_strerror(r));
	if (!strcmp(mode, "emfile")) {
		/* no descriptor left: the other threads cannot open their events */
		struct rlimit old, lim;
		int fd = open("/dev/null", O_RDONLY);
		getrlimit(RLIMIT_NOFILE, &old);
		lim = old;
		lim.rlim_cur = (rlim_t)fd; /* fd is the lowest free number: nothing at or above it */
		close(fd);
		setrlimit(RLIMIT_NOFILE, &lim);
		for (int i = 0; i < 3; i++)
			pthread_create(&t[i], NULL, thread_work, &tr[i]);
		for (int i = 0; i < 3; i++)
			pthread_join(t[i], NULL);
		setrlimit(RLIMIT_NOFILE, &old);
	} else {
		for (int i = 0; i < 3; i++)
			pthread_create(&t[i], NULL, thread_work, &tr[i]);
		for (int i = 0; i < 3; i++)
			pthread_join(t[i], NULL);
	}
	for (int i = 0; i < 3; i++)
		printf("thread %d: %d %s\n", i, tr[i], tr[i] ? strerror(-tr[i]) : "ok");
	fflush(stdout);
	return CHILD_STATUS;
}

/* --------------------------------------------------------------- parent */

static char out_path[64], err_path[64], self[4096];

static char *slurp(const char *path)
{
	static char bufs[2][65536];
	static int which;
	char *b = bufs[which++ & 1];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(b, 1, sizeof(bufs[0]) - 1, f) : 0;
	b[n] = 0;
	if (f)
		fclose(f);
	return b;
}

struct run {
	int status;             /* exit status, -1 if it did not exit */
	char *out, *err;
	int lines;              /* stderr lines starting "libpmu regions:" */
	char line[2048];        /* the first of them */
};

/* Run the child in @mode with the PMU_* variables of @env ("NAME=value", NULL-terminated). */
static struct run run(const char *mode, const char *const *env)
{
	struct run r;
	pid_t pid;
	int st = 0;

	memset(&r, 0, sizeof(r));
	r.status = -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600), e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		extern char **environ;
		char **envp;
		size_t n = 0, k = 0;
		if (o < 0 || e < 0)
			_exit(100);
		alarm(20); /* kept across execve: a child that blocks (a FIFO as PMU_OUTPUT) ends, it does not hang */
		dup2(o, 1);
		dup2(e, 2);
		for (char **p = environ; *p; p++)
			n++;
		for (const char *const *p = env; *p; p++)
			n++;
		envp = calloc(n + 1, sizeof(*envp));
		for (char **p = environ; envp && *p; p++)
			if (strncmp(*p, "PMU_EVENTS=", 11) && strncmp(*p, "PMU_OUTPUT=", 11) && strncmp(*p, "PMU_FORMAT=", 11) &&
			    strncmp(*p, "PMU_CALIBRATE=", 14) && strncmp(*p, "PMU_PER_THREAD=", 15))
				envp[k++] = *p;
		for (const char *const *p = env; envp && *p; p++)
			envp[k++] = (char *)*p;
		execve(self, (char *[]){ "test-region-misconfig", "child", (char *)mode, NULL }, envp);
		_exit(101);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return r;
	if (WIFEXITED(st))
		r.status = WEXITSTATUS(st);
	r.out = slurp(out_path);
	r.err = slurp(err_path);
	for (const char *p = r.err; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (!strncmp(p, "libpmu regions:", 15) && r.lines++ == 0)
			snprintf(r.line, sizeof(r.line), "%.*s", (int)len, p);
		p = nl ? nl + 1 : p + len;
	}
	return r;
}

/* @r has one message line containing every string of the NULL-terminated list (any case). */
static void one_line(const char *what, const struct run *r, ...)
{
	va_list ap;
	const char *want;

	CHECK(r->status == CHILD_STATUS, "%s: exit status %d, expected the program's %d", what, r->status, CHILD_STATUS);
	CHECK(r->lines == 1, "%s: %d 'libpmu regions:' lines on stderr, expected 1:\n%s", what, r->lines, r->err);
	va_start(ap, r);
	while ((want = va_arg(ap, const char *)))
		CHECK(strcasestr(r->line, want) != NULL, "%s: the message lacks \"%s\": %s", what, want, r->line);
	va_end(ap);
}

int main(int argc, char **argv)
{
	char missing[128];
	struct run r;

	if (argc == 3 && !strcmp(argv[1], "child"))
		return child(argv[2]);
	{
		/* this program's path, as the parent sees it (under valgrind /proc/self/exe is the tool) */
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n > 0)
			self[n] = 0;
		else
			snprintf(self, sizeof(self), "%s", argv[0]);
	}
	snprintf(out_path, sizeof(out_path), "/tmp/pmu-misconfig-%d.out", (int)getpid());
	snprintf(err_path, sizeof(err_path), "/tmp/pmu-misconfig-%d.err", (int)getpid());
	snprintf(missing, sizeof(missing), "/nonexistent-pmu-dir-%d/report-%%p.txt", (int)getpid());

	/* a correct configuration: nothing said, the report on stderr */
	r = run("plain", (const char *const[]){ "PMU_EVENTS=task-clock", NULL });
	CHECK(r.status == CHILD_STATUS && r.lines == 0 && strstr(r.err, " libpmu regions (pid"),
	      "correct configuration: status %d, %d message lines, stderr:\n%s", r.status, r.lines, r.err);

	/* a typo in PMU_EVENTS: regions are off, said once (four threads tried) */
	r = run("plain", (const char *const[]){ "PMU_EVENTS=task-clock,INST.RTE", "PMU_OUTPUT=-", NULL });
	one_line("PMU_EVENTS typo", &r, "PMU_EVENTS='task-clock,INST.RTE'", "unknown event 'INST.RTE'", "INST.RET",
		 "off", "fix PMU_EVENTS", (char *)NULL);
	CHECK(strstr(r.out, "begin: -2 ") && strstr(r.out, "did you mean") && strstr(r.out, "INST.RET"),
	      "pmu_strerror keeps the suggestion for the caller:\n%s", r.out);
	CHECK(!strstr(r.out, " libpmu regions (pid"), "no report when regions are off:\n%s", r.out);

	/* the same error returned to a pmu_region_configure() caller: not printed */
	r = run("configure", (const char *const[]){ "PMU_OUTPUT=-", NULL });
	CHECK(r.status == CHILD_STATUS && r.lines == 0, "configure: status %d, %d message lines:\n%s", r.status, r.lines,
	      r.err);
	CHECK(strstr(r.out, "configure: -2 ") && strstr(r.out, "did you mean"), "configure's caller is told:\n%s", r.out);

	/* an unwritable PMU_OUTPUT: said at exit with the path and strerror; the report goes to stderr */
	{
		const char *env[] = { "PMU_EVENTS=task-clock", NULL, NULL };
		char var[200], expanded[160];
		snprintf(var, sizeof(var), "PMU_OUTPUT=%s", missing);
		env[1] = var;
		r = run("plain", env);
		one_line("unwritable PMU_OUTPUT", &r, missing + 0, strerror(ENOENT), "fix PMU_OUTPUT", (char *)NULL);
		/* the path as opened, %p expanded to the child's pid: "report-<digits>.txt" */
		snprintf(expanded, sizeof(expanded), "/nonexistent-pmu-dir-%d/report-", (int)getpid());
		CHECK(strstr(r.line, expanded) && !strstr(strstr(r.line, expanded), "report-%p'"),
		      "the expanded path is named: %s", r.line);
		CHECK(strstr(r.err, " libpmu regions (pid") && strstr(r.err, " work "),
		      "the report is not lost: it follows on stderr:\n%s", r.err);
	}

	/* a PMU_OUTPUT that opens but cannot be written (a full disk) */
	r = run("plain", (const char *const[]){ "PMU_EVENTS=task-clock", "PMU_OUTPUT=/dev/full", NULL });
	one_line("PMU_OUTPUT on a full disk", &r, "PMU_OUTPUT='/dev/full'", strerror(ENOSPC), "fix PMU_OUTPUT", (char *)NULL);
	CHECK(strstr(r.err, " libpmu regions (pid") && strstr(r.err, " work "), "the report follows on stderr:\n%s", r.err);

	/* an unknown PMU_FORMAT: said once, the report written as text */
	r = run("plain", (const char *const[]){ "PMU_EVENTS=task-clock", "PMU_FORMAT=yaml", "PMU_OUTPUT=-", NULL });
	one_line("unknown PMU_FORMAT", &r, "PMU_FORMAT='yaml'", "text, json or csv", "fix PMU_FORMAT", (char *)NULL);
	CHECK(strstr(r.out, " libpmu regions (pid") && strstr(r.out, " work "), "the report is text:\n%s", r.out);

	/* yes/no variables: a value that is neither is said, not taken as yes */
	r = run("plain", (const char *const[]){ "PMU_EVENTS=task-clock", "PMU_CALIBRATE=of", "PMU_OUTPUT=-", NULL });
	one_line("PMU_CALIBRATE typo", &r, "PMU_CALIBRATE='of'", "fix PMU_CALIBRATE", (char *)NULL);
	r = run("plain", (const char *const[]){ "PMU_EVENTS=task-clock", "PMU_CALIBRATE=off", "PMU_OUTPUT=-", NULL });
	CHECK(r.lines == 0 && strstr(r.out, " libpmu regions (pid") && !strstr(r.out, "overhead subtracted"),
	      "PMU_CALIBRATE=off turns calibration off, silently:\n%s\n%s", r.err, r.out);
	r = run("plain", (const char *const[]){ "PMU_EVENTS=task-clock", "PMU_PER_THREAD=si", "PMU_OUTPUT=-", NULL });
	one_line("PMU_PER_THREAD typo", &r, "PMU_PER_THREAD='si'", "fix PMU_PER_THREAD", (char *)NULL);

	/* a FIFO that nobody reads as PMU_OUTPUT: said, the report on stderr; the program is not
	 * blocked at exit (it used to wait forever for a reader) */
	{
		char fifo[96], var[128];
		snprintf(fifo, sizeof(fifo), "/tmp/pmu-misconfig-%d.fifo", (int)getpid());
		snprintf(var, sizeof(var), "PMU_OUTPUT=%s", fifo);
		CHECK(mkfifo(fifo, 0600) == 0, "mkfifo %s: %s", fifo, strerror(errno));
		r = run("plain", (const char *const[]){ "PMU_EVENTS=task-clock", var, NULL });
		one_line("a FIFO with no reader as PMU_OUTPUT", &r, fifo, "FIFO that no process is reading",
			 "fix PMU_OUTPUT", (char *)NULL);
		CHECK(strstr(r.err, " libpmu regions (pid") && strstr(r.err, " work "), "the report follows on stderr:\n%s",
		      r.err);
		unlink(fifo);
	}

	/* a PMU_OUTPUT longer than 1023 characters is used whole (it was cut at 1023, the report landed
	 * in another place); one longer than PATH_MAX is said */
	{
		static char dir[2048], var[2200], file[2100];
		size_t o = (size_t)snprintf(dir, sizeof(dir), "/tmp/pmu-misconfig-%d-long", (int)getpid());
		CHECK(mkdir(dir, 0700) == 0, "mkdir %s", dir);
		for (int k = 0; k < 5; k++) {
			dir[o++] = '/';
			memset(dir + o, 'a' + k, 219);
			o += 219;
			dir[o] = 0;
			CHECK(mkdir(dir, 0700) == 0, "mkdir (level %d): %s", k, strerror(errno));
		}
		snprintf(file, sizeof(file), "%s/report.txt", dir);
		snprintf(var, sizeof(var), "PMU_OUTPUT=%s", file);
		r = run("plain", (const char *const[]){ "PMU_EVENTS=task-clock", var, NULL });
		CHECK(strlen(file) > 1100 && r.status == CHILD_STATUS && r.lines == 0,
		      "a %zu-character PMU_OUTPUT: status %d, %d message lines:\n%s", strlen(file), r.status, r.lines, r.err);
		CHECK(strstr(slurp(file), " libpmu regions (pid") != NULL, "the report is in the %zu-character path",
		      strlen(file));
		unlink(file);
		for (int k = 5; k >= 0; k--) {
			rmdir(dir);
			*strrchr(dir, '/') = 0;
		}
	}
	{
		static char var[5000];
		int n = snprintf(var, sizeof(var), "PMU_OUTPUT=/tmp/");
		memset(var + n, 'x', 4200);
		var[n + 4200] = 0;
		r = run("plain", (const char *const[]){ "PMU_EVENTS=task-clock", var, NULL });
		one_line("a PMU_OUTPUT longer than PATH_MAX", &r, "longer than 4095 characters", "fix PMU_OUTPUT",
			 (char *)NULL);
	}

	/* threads that cannot open their events: said once for the process */
	r = run("emfile", (const char *const[]){ "PMU_EVENTS=task-clock", "PMU_OUTPUT=/dev/null", NULL });
	one_line("threads out of descriptors", &r, "PMU_EVENTS='task-clock'", "thread", (char *)NULL);
	CHECK(strstr(r.out, "thread 0: -24") && strstr(r.out, "thread 2: -24"), "the threads failed with EMFILE:\n%s",
	      r.out);

	unlink(out_path);
	unlink(err_path);
	return test_done("test-region-misconfig");
}
