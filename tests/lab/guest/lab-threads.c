/* SPDX-License-Identifier: MIT */
/*
 * Threads and processes. Four threads each open their own set and measure
 * exact loops on the fast path; the main thread reads a worker's set too,
 * which must go through read(2) (the counters in this CPU's registers are
 * not the worker's) and give the worker's count. After fork() the child
 * gets -ECHILD from the parent's set and counts exactly with a set of its own.
 * Where the PMU counts kernel work in instructions:u (riscv64 under QEMU
 * 7.2: lab_pmu_counts_kernel()), a window an interrupt or a switch to
 * another thread enters is not exact there, so each window is then the
 * minimum of lab_tries() measurements; where kernel mode is filtered (arm64)
 * every single window must be exact. The windows whose minimum was not the
 * first measurement are counted and printed.
 */
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>
#include "labutil.h"

LAB_LOOP(1000)
LAB_LOOP(2000)

#define NT 4
static struct pmu_ctx *ctx;
static struct pmu_set *sets[NT];
static uint64_t final_count[NT];
static pthread_barrier_t done_measuring, main_read;
static unsigned tries;
static unsigned long inflated[NT + 1]; /* per thread; [NT]: the main thread and the child */

#define measure(s, body) lab_window(s, body, tries, &inflated[NT])

static void *worker(void *arg)
{
	int id = (int)(intptr_t)arg, r;
	struct pmu_value v;
	uint64_t e, l1, l2;

	r = pmu_set_open(ctx, "instructions:u", NULL, &sets[id]);
	if (r < 0) {
		printf("FAIL: thread %d open: %s\n", id, pmu_strerror(r));
		lab_failures++;
		pthread_barrier_wait(&done_measuring);
		pthread_barrier_wait(&main_read);
		return NULL;
	}
	pmu_set_enable(sets[id]);
	LAB_CHECK(pmu_page_read(pmu_set_fast(sets[id])->pages[0], &v) == 0, "thread %d: no fast path", id);
	for (int rep = 0; rep < 50; rep++) {
		e = lab_window(sets[id], lab_loop_empty, tries, &inflated[id]);
		l1 = lab_window(sets[id], lab_loop_1000, tries, &inflated[id]);
		l2 = lab_window(sets[id], lab_loop_2000, tries, &inflated[id]);
		if (l1 - e != 2001 || l2 - e != 4001) {
			printf("FAIL: thread %d rep %d: %llu %llu (empty %llu)\n", id, rep, (unsigned long long)(l1 - e),
			       (unsigned long long)(l2 - e), (unsigned long long)e);
			lab_failures++;
			break;
		}
	}
	pmu_set_disable(sets[id]);
	pmu_set_read(sets[id], &v);
	final_count[id] = v.value;
	pthread_barrier_wait(&done_measuring);
	pthread_barrier_wait(&main_read); /* keep the thread (and its events) alive */
	return NULL;
}

int main(void)
{
	pthread_t t[NT];
	struct pmu_set *mine;
	struct pmu_value v;
	int r;

	ctx = lab_ctx();
	tries = lab_tries(ctx);
	pthread_barrier_init(&done_measuring, NULL, NT + 1);
	pthread_barrier_init(&main_read, NULL, NT + 1);
	for (int i = 0; i < NT; i++)
		pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
	pthread_barrier_wait(&done_measuring);
	for (int i = 0; i < NT; i++) {
		if (!sets[i])
			continue;
		r = pmu_set_read(sets[i], &v); /* another thread's set: read(2) */
		LAB_CHECK(r == 0 && v.value == final_count[i], "main read of thread %d: %llu, thread saw %llu", i,
			  (unsigned long long)v.value, (unsigned long long)final_count[i]);
	}
	pthread_barrier_wait(&main_read);
	for (int i = 0; i < NT; i++) {
		pthread_join(t[i], NULL);
		pmu_set_close(sets[i]);
	}
	printf("%d threads measured exact loops on the fast path (minimum of %u; windows above their minimum: %lu %lu "
	       "%lu %lu)\n", NT, tries, inflated[0], inflated[1], inflated[2], inflated[3]);

	r = pmu_set_open(ctx, "instructions:u", NULL, &mine);
	if (r < 0) {
		printf("FAIL: open: %s\n", pmu_strerror(r));
		return 1;
	}
	pmu_set_enable(mine);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		struct pmu_set *own;
		int bad = pmu_set_read(mine, &v) != -ECHILD;
		if (pmu_set_open(ctx, "instructions:u", NULL, &own) < 0)
			_exit(2);
		pmu_set_enable(own);
		bad |= (measure(own, lab_loop_1000) - measure(own, lab_loop_empty)) != 2001;
		_exit(bad);
	}
	{
		int st = 0;
		waitpid(pid, &st, 0);
		LAB_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
			  "child: parent's set must give -ECHILD and its own set exact counts (status %d)", st);
	}
	LAB_CHECK(measure(mine, lab_loop_1000) - measure(mine, lab_loop_empty) == 2001, "parent after fork");
	pmu_set_close(mine);
	pmu_ctx_free(ctx);
	return lab_done("lab-threads");
}
