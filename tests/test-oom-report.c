/* SPDX-License-Identifier: MIT */
/*
 * pmu report when memory runs out, at every allocation of the command: for each file named, pmu
 * report runs once as it is (the reference: exit 0), then once with its n-th allocation failing
 * (tests/oom-preload.c, LD_PRELOAD), for n = 1, 2, ... until a run ends before its n-th allocation.
 * Each run must either say that memory ran out (a non-zero exit, "out of memory" or strerror(ENOMEM)
 * on stderr) or print exactly what the reference printed; never die by a signal, never give another
 * reason (the failure passed off as the file's fault), never print something else and succeed.
 * json-c 0.16's tokener, which pmu report parsed with before lib/jsonparse.c, crashed at about a
 * quarter of the allocations (an unchecked strdup of an object's key).
 * Usage: test-oom-report PRELOAD.so PMU FILE...
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "harness.h"

/* as tests/oom-inject.h says it: a sanitizer's allocator is not the one the preload replaces */
#include "sanitizer.h"

struct run {
	int status;     /* waitpid's */
	int fired;      /* the n-th allocation was reached (and failed) */
	char *out, *err;
	size_t nout, nerr;
};

static char *slurp_fd(int fd, size_t *n)
{
	off_t len = lseek(fd, 0, SEEK_END);
	char *buf = malloc((size_t)len + 1);

	if (!buf || pread(fd, buf, (size_t)len, 0) != len)
		exit(2);
	buf[len] = 0;
	*n = (size_t)len;
	return buf;
}

/* pmu report FILE with allocation @nth failing (0: none). */
static void run_report(const char *preload, const char *pmu, const char *file, long nth, struct run *r)
{
	int out = memfd_create("out", MFD_CLOEXEC), err = memfd_create("err", MFD_CLOEXEC), fired[2];
	char b;
	pid_t pid;

	if (out < 0 || err < 0 || pipe2(fired, O_CLOEXEC) != 0)
		exit(2);
	fflush(stdout);
	if ((pid = fork()) == 0) {
		char n[32], fd[32], ld[4096];
		dup2(out, 1);
		dup2(err, 2);
		dup2(fired[1], 3); /* without O_CLOEXEC: pmu keeps it */
		snprintf(n, sizeof(n), "PMU_OOM_NTH=%ld", nth);
		snprintf(ld, sizeof(ld), "LD_PRELOAD=%s", preload);
		snprintf(fd, sizeof(fd), "PMU_OOM_FD=3");
		/* the environment this program has, less a memory checker's preload (valgrind runs it) */
		unsetenv("LD_PRELOAD");
		putenv(n);
		putenv(fd);
		putenv(ld);
		execl(pmu, pmu, "report", file, (char *)NULL);
		_exit(126);
	}
	close(fired[1]);
	waitpid(pid, &r->status, 0);
	r->fired = read(fired[0], &b, 1) == 1;
	close(fired[0]);
	r->out = slurp_fd(out, &r->nout);
	r->err = slurp_fd(err, &r->nerr);
	close(out);
	close(err);
}

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

static int sweep(const char *preload, const char *pmu, const char *file)
{
	struct run ref, got;
	long n, enomem = 0, same = 0, crashed = 0, other = 0;

	run_report(preload, pmu, file, 0, &ref);
	CHECK(WIFEXITED(ref.status) && WEXITSTATUS(ref.status) == 0 && !ref.fired,
	      "%s without failures: status %#x, stderr: %s", file, ref.status, ref.err);
	if (!WIFEXITED(ref.status) || WEXITSTATUS(ref.status) != 0)
		return -1;
	for (n = 1;; n++) {
		const char *why = NULL;
		run_report(preload, pmu, file, n, &got);
		if (!got.fired && WIFEXITED(got.status) && WEXITSTATUS(got.status) == 0) {
			run_free(&got);
			break; /* past the last allocation */
		}
		if (WIFSIGNALED(got.status))
			why = strsignal(WTERMSIG(got.status));
		else if (!got.fired)
			why = "it exited other than without failures, though no allocation failed";
		else if (WEXITSTATUS(got.status) == 0 && got.nout == ref.nout && got.nerr == ref.nerr &&
			 !memcmp(got.out, ref.out, ref.nout) && !memcmp(got.err, ref.err, ref.nerr))
			same++;
		else if (WEXITSTATUS(got.status) == 0)
			why = "it succeeded, printing other than without failures";
		else if (strstr(got.err, "out of memory") || strstr(got.err, strerror(ENOMEM)))
			enomem++;
		else
			why = "it failed for another reason than memory";
		if (why) {
			crashed += WIFSIGNALED(got.status);
			other += !WIFSIGNALED(got.status);
			/* the first few said; all counted */
			CHECK(crashed + other > 10, "%s, allocation %ld failing: %s (exit status %d); stderr: %.*s", file, n,
			      why, WIFEXITED(got.status) ? WEXITSTATUS(got.status) : -1, (int)strcspn(got.err, "\n"),
			      got.err);
			if (crashed + other > 10)
				test_failures++;
		}
		run_free(&got);
	}
	printf("%s: %ld allocations failed one at a time: %ld said out of memory, %ld printed as without "
	       "failures; %ld crashed, %ld misreported\n", file, n - 1, enomem, same, crashed, other);
	CHECK(n > 100, "%s: only %ld allocations: is the preload reaching pmu's malloc?", file, n - 1);
	run_free(&ref);
	return 0;
}

int main(int argc, char **argv)
{
#ifdef PMU_SANITIZED
	(void)argc;
	(void)argv;
	SKIP("the sanitizer owns the allocator here (pmu's too); the plain run injects the allocation failures");
#else
	if (argc < 4) {
		fprintf(stderr, "usage: test-oom-report PRELOAD.so PMU FILE...\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	for (int i = 3; i < argc; i++)
		sweep(argv[1], argv[2], argv[i]);
	return test_done("test-oom-report");
#endif
}
