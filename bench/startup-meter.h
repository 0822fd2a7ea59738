/* SPDX-License-Identifier: MIT */
/* The start-up benchmarks' two meters: the monotonic clock in microseconds, and the minor page faults
 * of this process so far (getrusage). */
#ifndef BENCH_STARTUP_METER_H
#define BENCH_STARTUP_METER_H
#include <time.h>
#include <sys/resource.h>

static inline double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static inline long faults(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}
#endif
