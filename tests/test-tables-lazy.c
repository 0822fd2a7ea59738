/* SPDX-License-Identifier: MIT */
/*
 * A built-in directory's entries are made at their first use, not when the tables load (tables.h:
 * struct pmu_tblock). Counted from the blocks' flags: after a context and the names below, a few
 * dozen of the standard names' 912 entries are made, not all; a listing makes them all. And 16
 * threads that resolve the same names at once on a fresh shared context, making the same entries
 * together (TSan's run of this test watches them), each get the encodings that a fresh process
 * resolving them alone gets (this program run again with --alone, its answers read from a pipe).
 */
#include <pthread.h>
#include <string.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "harness.h"
#include "context.h"
#include "tables.h"

extern char **environ;

static const char *const names[] = {
	"INST.RET", "GEN.CYCLES", "INST.MISPRED.RET", "CACHE.L1D.RD.MISS", "MEM_LOAD_RETIRED.L3_MISS",
	"MEM_LOAD_RETIRED.L1_HIT", "INST.LOAD.DSRC.L2.RET", "L1-dcache-load-misses", "task-clock",
	"CACHE.L2.RD.MISS", "cycles", "INST.BRJMP.BRANCH.RET",
};
#define NN (sizeof(names) / sizeof(names[0]))

static struct pmu_ctx *shared;
static uint64_t alone[NN][3]; /* type, config, config1 of each name, from the lone process; type ~0: refused */

static struct pmu_ctx *skx(void)
{
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx = NULL;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.cpuid = "GenuineIntel-6-55-4";
	return pmu_ctx_new(&ctx, &o) == 0 ? ctx : NULL;
}

static void encode(struct pmu_ctx *ctx, size_t i, uint64_t out[3])
{
	struct pmu_event_info e;

	if (pmu_event_resolve(ctx, names[i], &e) < 0) {
		out[0] = ~0ull;
		out[1] = out[2] = 0;
		return;
	}
	out[0] = e.type;
	out[1] = e.config;
	out[2] = e.config1;
}

/* Made entries of built-in directory @dir in @ctx's tables, of *n. */
static size_t made(struct pmu_ctx *ctx, const char *dir, size_t *n)
{
	size_t m = 0;

	*n = 0;
	for (size_t c = 0; c < ctx->tables.nchunks; c++) {
		const struct pmu_tchunk *ch = &ctx->tables.chunks[c];
		if (strcmp(ch->bd->dir, dir))
			continue;
		*n = ch->n;
		for (size_t k = 0; k < ch->n; k++)
			m += __atomic_load_n(&ch->blk->made[k], __ATOMIC_ACQUIRE);
	}
	return m;
}

static void *racer(void *arg)
{
	long bad = 0;

	(void)arg;
	for (size_t i = 0; i < NN; i++) {
		uint64_t got[3];
		encode(shared, (i * 7) % NN, got); /* threads start at the same names, in another order */
		bad += memcmp(got, alone[(i * 7) % NN], sizeof(got)) != 0;
	}
	return (void *)bad;
}

static int count(const struct pmu_event_entry *e, void *data)
{
	(void)e;
	(*(size_t *)data)++;
	return 0;
}

/* This program with --alone: the encodings of a fresh process resolving the names one by one. */
static int read_alone(const char *self)
{
	char *argv[] = { (char *)self, (char *)"--alone", NULL };
	posix_spawn_file_actions_t fa;
	int p[2], status;
	pid_t pid;
	FILE *f;
	size_t got = 0;

	if (pipe(p) < 0 || posix_spawn_file_actions_init(&fa) != 0 || posix_spawn_file_actions_adddup2(&fa, p[1], 1) != 0 ||
	    posix_spawn_file_actions_addclose(&fa, p[0]) != 0 || posix_spawn(&pid, self, &fa, NULL, argv, environ) != 0)
		return -1;
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	f = fdopen(p[0], "r");
	while (f && got < NN && fscanf(f, "%llx %llx %llx", (unsigned long long *)&alone[got][0],
				       (unsigned long long *)&alone[got][1], (unsigned long long *)&alone[got][2]) == 3)
		got++;
	if (f)
		fclose(f);
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 && got == NN ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct pmu_ctx *ctx;
	pthread_t th[16];
	size_t n, m, resolved = 0;
	long bad = 0;

	if (argc > 1 && !strcmp(argv[1], "--alone")) {
		if (!(ctx = skx()))
			return 1;
		for (size_t i = 0; i < NN; i++) {
			uint64_t e[3];
			encode(ctx, i, e);
			printf("%llx %llx %llx\n", (unsigned long long)e[0], (unsigned long long)e[1], (unsigned long long)e[2]);
		}
		pmu_ctx_free(ctx);
		return 0;
	}
	CHECK(read_alone(argv[0]) == 0, "the names resolved by a lone process (%s --alone)", argv[0]);
	for (size_t i = 0; i < NN; i++)
		resolved += alone[i][0] != ~0ull;
	CHECK(resolved >= NN - 1, "%zu of %zu names resolve for Skylake-X", resolved, NN);

	/* fresh process: 16 threads on one fresh context */
	shared = skx();
	CHECK(shared != NULL, "a context: %s", pmu_strerror(-1));
	if (!shared)
		return test_done("test-tables-lazy");
	for (int i = 0; i < 16; i++)
		CHECK(pthread_create(&th[i], NULL, racer, NULL) == 0, "thread %d", i);
	for (int i = 0; i < 16; i++) {
		void *r = NULL;
		pthread_join(th[i], &r);
		bad += (long)r;
	}
	CHECK(bad == 0, "16 threads x %zu names on a fresh shared context: %ld encodings differ from the lone "
	      "process's", NN, bad);
	m = made(shared, "standard", &n);
	CHECK(n > 800 && m > 0 && m < n / 4, "standard names: %zu of %zu entries made after %zu names", m, n, NN);
	printf("standard names: %zu of %zu entries made after resolving %zu names\n", m, n, NN);
	m = made(shared, "x86/skylakex+x86/intel/skylakex", &n);
	CHECK(n > 400 && m > 0 && m < n / 4, "x86/skylakex+x86/intel/skylakex: %zu of %zu entries made", m, n);
	printf("x86/skylakex+x86/intel/skylakex (libpmu's table, then Intel's): %zu of %zu entries made\n", m, n);

	/* a listing reads every entry */
	{
		size_t listed = 0;
		int r = pmu_event_foreach(shared, "", count, &listed);
		CHECK(r > 0 && (size_t)r == listed, "pmu_event_foreach: %d", r);
		m = made(shared, "standard", &n);
		CHECK(m == n, "after a listing, %zu of %zu standard entries made", m, n);
	}
	pmu_ctx_free(shared);
	return test_done("test-tables-lazy");
}
