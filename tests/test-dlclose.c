/* SPDX-License-Identifier: MIT */
/*
 * libpmu loaded and unloaded again and again, as plugins and Python's ctypes do (issue 40 item 3). Each
 * round: dlopen the library, count a region in the main thread and in a second thread, dlclose it while
 * that thread still lives, then let the thread exit. A thread-exit destructor left pointing into the
 * unmapped library crashed the thread (SIGSEGV in __nptl_deallocate_tsd); each round left the main
 * thread's region descriptors open. Checked per round: the thread exits, the report the unload writes
 * ($PMU_OUTPUT) holds both threads' calls (counted here), and the process's open descriptors are as
 * many as before the first round. Under valgrind (the CI's memcheck step) nothing may leak either.
 *
 *   test-dlclose [ROUNDS]   (the library: $PMU_TEST_BUILDDIR/lib/libpmu.so.0; this program does not link it)
 */
#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"

static int (*begin)(const char *), (*end)(const char *);
static sem_t counted, go;

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static void *worker(void *p)
{
	(void)p;
	for (int i = 0; i < 3; i++)
		if (begin("plugin-thread") < 0 || end("plugin-thread") < 0)
			return (void *)1;
	sem_post(&counted);
	sem_wait(&go); /* exits after the library is gone */
	return NULL;
}

/* The calls of region @name in the JSON report @path ("calls": after its "name"), or -1. */
static long calls_of(const char *path, const char *name)
{
	char buf[65536], key[128], *p;
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	snprintf(key, sizeof(key), "\"name\": \"%s\"", name);
	if (!(p = strstr(buf, key)) || !(p = strstr(p, "\"calls\": ")))
		return -1;
	return strtol(p + 9, NULL, 10);
}

int main(int argc, char **argv)
{
	const char *bdir = getenv("PMU_TEST_BUILDDIR");
	int rounds = argc > 1 ? atoi(argv[1]) : 20, fds0;
	char lib[1024], out[] = "/tmp/pmu-dlclose-XXXXXX", report[1100];

	if (!mkdtemp(out))
		return 1;
	snprintf(lib, sizeof(lib), "%s/lib/libpmu.so.0", bdir ? bdir : ".");
	snprintf(report, sizeof(report), "%s/report.json", out);
	setenv("PMU_EVENTS", "task-clock,page-faults", 1);
	setenv("PMU_FORMAT", "json", 1);
	setenv("PMU_OUTPUT", report, 1);
	sem_init(&counted, 0, 0);
	sem_init(&go, 0, 0);
	fds0 = open_fds();
	for (int r = 0; r < rounds; r++) {
		pthread_t th;
		void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL), *ret = NULL;
		long main_calls, thread_calls;

		if (!h) {
			fprintf(stderr, "test-dlclose: %s\n", dlerror());
			return 1; /* a set-up failure, not a skip */
		}
		begin = (int (*)(const char *))dlsym(h, "pmu_region_begin");
		end = (int (*)(const char *))dlsym(h, "pmu_region_end");
		CHECK(begin && end, "round %d: the region functions found", r);
		if (!begin || !end)
			break;
		for (int i = 0; i < 2; i++)
			CHECK(begin("plugin-main") == 0 && end("plugin-main") == 0, "round %d: main thread's region", r);
		if (pthread_create(&th, NULL, worker, NULL))
			return 1;
		sem_wait(&counted);
		unlink(report);
		CHECK(dlclose(h) == 0, "round %d: dlclose: %s", r, dlerror());
		sem_post(&go); /* the thread exits now, its library unloaded */
		pthread_join(th, &ret);
		CHECK(ret == NULL, "round %d: the thread's regions counted", r);
		main_calls = calls_of(report, "plugin-main");
		thread_calls = calls_of(report, "plugin-thread");
		CHECK(main_calls == 2 && thread_calls == 3, "round %d: the unload's report %s: plugin-main %ld calls (2 made), "
		      "plugin-thread %ld (3 made)", r, report, main_calls, thread_calls);
		CHECK(open_fds() == fds0, "round %d: %d descriptors open, %d before the first round", r, open_fds(), fds0);
	}
	unlink(report);
	rmdir(out);
	printf("test-dlclose: %d rounds of dlopen, regions in 2 threads, dlclose, the thread's exit after it\n", rounds);
	return test_done("test-dlclose");
}
