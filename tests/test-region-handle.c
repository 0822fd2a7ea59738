/* SPDX-License-Identifier: MIT */
/*
 * Region handles (pmu_region_get / enter / leave) with software events:
 * a handle is the name's accumulator, counts what runs inside it, nests
 * like a name, and is refused (with a message, never followed) in another
 * thread, in a forked child, when NULL, and for leave without enter. The
 * lab checks that an empty enter/leave pair is 0 instructions exactly.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pmu.h>
#include "harness.h"

struct got {
	const char *name;
	uint64_t calls, faults;
	int found;
};

static int got_cb(const struct pmu_region_result *r, void *data)
{
	struct got *g = data;
	if (r->tid != -1 || strcmp(r->name, g->name))
		return 0;
	g->found = 1;
	g->calls = r->calls;
	for (size_t k = 0; k < r->nvalues; k++)
		if (!strcmp(r->events[k], "page-faults"))
			g->faults = r->values[k].value;
	return 0;
}

static struct got get(const char *name)
{
	struct got g;
	memset(&g, 0, sizeof(g));
	g.name = name;
	pmu_region_foreach(0, got_cb, &g);
	return g;
}

/* Touch @pages fresh pages: that many page faults, give or take a few. */
static void fault_pages(int pages)
{
	long ps = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (size_t)pages * (size_t)ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	for (int i = 0; i < pages; i++)
		p[(long)i * ps] = 1;
	munmap((void *)p, (size_t)pages * (size_t)ps);
}

static struct pmu_region *shared_handle;

static void *other_thread(void *arg)
{
	int *r = arg;
	r[0] = pmu_region_enter(shared_handle);
	r[1] = strstr(pmu_strerror(r[0]), "another thread") != NULL ||
	       strstr(pmu_strerror(r[0]), "thread that got it") != NULL;
	r[2] = pmu_region_leave(shared_handle);
	return NULL;
}

int main(void)
{
	struct pmu_region *h = NULL, *h2 = NULL, *n = NULL;
	struct got g;
	pthread_t t;
	int tr[3] = { 0, 0, 0 }, r;
	struct rusage ru0, ru1;
	uint64_t total;
	pid_t pid;

	r = pmu_region_get("hot", &h);
	CHECK(r == 0 && h, "pmu_region_get: %s", pmu_strerror(r));
	CHECK(pmu_region_get("hot", &h2) == 0 && h2 == h, "the same name gives the same handle");
	CHECK(pmu_region_get(NULL, &n) == -EINVAL && n == NULL, "NULL name refused");
	CHECK(pmu_region_get("x", NULL) == -EINVAL, "NULL result pointer refused");

	/* counts: 64 pages inside, 64 outside (sanitizers add faults of their
	 * own per page, so the process's total is the yardstick) */
	getrusage(RUSAGE_SELF, &ru0);
	for (int i = 0; i < 4; i++) {
		CHECK(pmu_region_enter(h) == 0, "enter");
		fault_pages(64);
		CHECK(pmu_region_leave(h) == 0, "leave");
		fault_pages(64);
	}
	getrusage(RUSAGE_SELF, &ru1);
	total = (uint64_t)(ru1.ru_minflt - ru0.ru_minflt);
	g = get("hot");
	CHECK(g.found && g.calls == 4, "4 calls through the handle (%llu)", (unsigned long long)g.calls);
	CHECK(g.faults >= 4 * 64 && g.faults * 4 <= total * 3,
	      "page faults inside only: %llu of the process's %llu (half of the pages were touched inside)",
	      (unsigned long long)g.faults, (unsigned long long)total);

	/* the handle and the name are one accumulator, and nest as one */
	CHECK(pmu_region_begin("hot") == 0 && pmu_region_enter(h) == 0, "begin by name, enter by handle");
	CHECK(pmu_region_leave(h) == 0 && pmu_region_end("hot") == 0, "leave, end");
	CHECK(pmu_region_enter(h) == 0 && pmu_region_end("hot") == 0, "enter by handle, end by name");
	CHECK(get("hot").calls == 6, "nested use counted once, mixed pair counted: %llu calls",
	      (unsigned long long)get("hot").calls);

	/* errors */
	r = pmu_region_leave(h);
	CHECK(r == -EINVAL && strstr(pmu_strerror(r), "without a matching") && strstr(pmu_strerror(r), "hot"),
	      "leave without enter: %s", pmu_strerror(r));
	CHECK(pmu_region_enter(NULL) == -EINVAL && pmu_region_leave(NULL) == -EINVAL, "NULL handle refused");
	CHECK(get("hot").calls == 6, "errors recorded nothing");

	/* another thread: refused, not followed */
	shared_handle = h;
	CHECK(pthread_create(&t, NULL, other_thread, tr) == 0 && pthread_join(t, NULL) == 0, "other thread ran");
	CHECK(tr[0] == -EINVAL && tr[1] && tr[2] == -EINVAL, "another thread's handle refused: %d %d %d", tr[0], tr[1],
	      tr[2]);

	/* reset keeps handles valid */
	pmu_region_reset();
	CHECK(pmu_region_enter(h) == 0 && pmu_region_leave(h) == 0 && get("hot").calls == 1,
	      "a handle survives pmu_region_reset");

	/* a forked child: the parent's handle is refused, its own works */
	pid = fork();
	if (pid == 0) {
		struct pmu_region *c = NULL;
		int ok = pmu_region_enter(h) == -EINVAL && pmu_region_get("hot", &c) == 0 && c != h &&
			 pmu_region_enter(h) == -EINVAL && pmu_region_enter(c) == 0 && pmu_region_leave(c) == 0 &&
			 get("hot").calls == 1;
		pmu_region_reset();
		_exit(ok ? 0 : 1);
	}
	{
		int st = 0;
		CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		      "forked child: parent's handle refused, its own counts (status 0x%x)", st);
	}
	pmu_region_reset();
	return test_done("test-region-handle");
}
