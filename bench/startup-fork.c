/* SPDX-License-Identifier: MIT */
/*
 * bench/startup-fork N: the first context of a process and the 10 names, in each of N forked children
 * of this program, which is linked with libpmu.so and calls nothing of it itself: the row "first in a
 * process" of bench/startup, from just before pmu_ctx_new to just after pmu_ctx_free, as bench/startup
 * timed it when issue 16 was filed (0.92 ms then). Built by bench/startup-then.sh against each library
 * it compares (the API it uses is unchanged since). Prints each child's microseconds and minor page
 * faults, one child a line; exits 1 if a child failed to resolve a name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include "startup-work.h"
#include "startup-meter.h"

/* the child's work: its time and faults in @out; 0, or -1 when it failed */
static int once(double out[2])
{
	long f0 = faults();
	double t0 = now();

	if (startup_work(NULL) < 0)
		return -1;
	out[0] = now() - t0;
	out[1] = (double)(faults() - f0);
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc == 2 ? atoi(argv[1]) : 0;

	(void)pfm_names;
	if (n <= 0) {
		fprintf(stderr, "usage: startup-fork N\n");
		return 2;
	}
	for (int k = 0; k < n; k++) {
		double r[2];
		int p[2], status;
		pid_t pid;
		if (pipe(p) < 0 || (pid = fork()) < 0)
			return 1;
		if (pid == 0) {
			close(p[0]);
			_exit(once(r) < 0 || write(p[1], r, sizeof(r)) != (ssize_t)sizeof(r));
		}
		close(p[1]);
		if (read(p[0], r, sizeof(r)) != (ssize_t)sizeof(r) || waitpid(pid, &status, 0) != pid ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "startup-fork: a child failed to make the context or resolve a name\n");
			return 1;
		}
		close(p[0]);
		printf("%.1f %.0f\n", r[0], r[1]);
	}
	return 0;
}
