/* SPDX-License-Identifier: MIT */
/*
 * LIKWID's marker examples sleep 2 s in each region call (20 s for the C example's ten groups): in the
 * lab guest idle time passes at wall speed. The examples are built unchanged and linked with
 * -Wl,--wrap=sleep, so that each of their sleep(n) (gfortran's SLEEP calls sleep too) sleeps n
 * milliseconds here. It changes nothing counted in user mode inside a region but the length of the
 * kernel's wait.
 */
#include <time.h>

unsigned int __wrap_sleep(unsigned int seconds);

unsigned int __wrap_sleep(unsigned int seconds)
{
	struct timespec ts = { 0, (long)seconds * 1000000L };

	nanosleep(&ts, NULL);
	return 0;
}
