/* SPDX-License-Identifier: MIT */
/*
 * What a table directory holds besides table files: a FIFO named *.json (or
 * mapfile.csv) in PMU_EVENTS_PATH is refused with a problem naming it, not
 * opened for a writer that never comes (that blocked every table load
 * forever); a file over 64 MiB is refused with a message; the regular files
 * beside them still load. The checks run in a child under alarm(): a load
 * that blocks ends the child by SIGALRM and the test fails, it does not hang.
 */
#include <signal.h>
#include <sys/wait.h>
#include "tables.h"
#include "harness.h"
#include "tablegen.h"

static const char event[] = "[{\"EventName\": \"REAL.EVENT\", \"EventCode\": \"0x3c\"}]\n";

static void log_fn(void *data, int level, const char *msg)
{
	(void)level;
	add(data, "%s\n", msg);
}

/* Load tables from @path as CPU @cpuid: whether REAL.EVENT is there; the log in @l. */
static bool loads(const char *path, const char *cpuid, struct text *l)
{
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx = NULL;
	bool found = false;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.events_path = path;
	o.cpuid = cpuid;
	o.log_fn = log_fn;
	o.log_data = l;
	add(l, "%s", "");
	if (pmu_ctx_new(&ctx, &o) == 0 && pmu__tables_load(ctx) == 0)
		found = pmu__tables_find(ctx, "REAL.EVENT") != NULL;
	pmu_ctx_free(ctx);
	return found;
}

static void fifo(const char *rel)
{
	const char *p = gen_path(rel);
	if (mkfifo(p, 0600) < 0) {
		perror(p);
		exit(1);
	}
}

static void run(void)
{
	struct text l = { 0 };
	struct probs p = { 0 };
	struct pmu_ctx *ctx = gen_ctx(NULL, NULL);
	char want[1500];
	int r;

	/* 1. a flat directory: events.json and a FIFO a.json (read first: names are sorted) */
	gen_write("flat/events.json", event, sizeof(event) - 1);
	fifo("flat/a.json");
	CHECK(loads(gen_path("flat"), NULL, &l), "flat: REAL.EVENT not loaded; log:\n%s", l.s);
	CHECK(strstr(l.s, "event tables: 1 problem while loading"), "flat: the FIFO not counted as a problem; log:\n%s", l.s);
	r = gen_check(ctx, gen_path("flat"), &p);
	snprintf(want, sizeof(want), "%s: -: not a regular file (a FIFO); refused", gen_path("flat/a.json"));
	CHECK(r == 1 && strstr(p.all.s, want), "check-tables flat: %d problems:\n%s", r, p.all.s);

	/* 2. a tree: a FIFO among the CPU directory's files and among the arch-level files */
	gen_write("tree/mapfile.csv", "CPUID,Version,Directory,Type\nGenuineIntel-6-55,v1,x86/cpu,core\n", 61);
	gen_write("tree/x86/cpu/events.json", event, sizeof(event) - 1);
	fifo("tree/x86/cpu/b.json");
	fifo("tree/x86/arch.json");
	free(l.s);
	memset(&l, 0, sizeof(l));
	CHECK(loads(gen_path("tree"), "GenuineIntel-6-55-4", &l), "tree: REAL.EVENT not loaded; log:\n%s", l.s);
	r = gen_check(ctx, gen_path("tree"), &p);
	snprintf(want, sizeof(want), "%s: -: not a regular file (a FIFO); refused", gen_path("tree/x86/cpu/b.json"));
	CHECK(r == 1 && strstr(p.all.s, want), "check-tables tree: %d problems:\n%s", r, p.all.s);

	/* 3. mapfile.csv a FIFO: the directory is skipped with a warning naming it */
	gen_write("fifomap/events.json", event, sizeof(event) - 1);
	fifo("fifomap/mapfile.csv");
	free(l.s);
	memset(&l, 0, sizeof(l));
	CHECK(!loads(gen_path("fifomap"), "GenuineIntel-6-55-4", &l), "fifomap: loaded");
	snprintf(want, sizeof(want), "%s: not a regular file (a FIFO); refused (directory", gen_path("fifomap/mapfile.csv"));
	CHECK(strstr(l.s, want), "fifomap: log:\n%s", l.s);
	r = gen_check(ctx, gen_path("fifomap"), &p);
	snprintf(want, sizeof(want), "%s: -: not a regular file (a FIFO); refused", gen_path("fifomap/mapfile.csv"));
	CHECK(r == 1 && strstr(p.all.s, want), "check-tables fifomap: %d problems:\n%s", r, p.all.s);

	/* 4. a file of 64 MiB + 1 byte (sparse) is refused unread, the regular one beside it loads */
	gen_write("big/events.json", event, sizeof(event) - 1);
	gen_write("big/huge.json", "", 0);
	CHECK(truncate(gen_path("big/huge.json"), (64 << 20) + 1) == 0, "truncate: %s", strerror(errno));
	r = gen_check(ctx, gen_path("big"), &p);
	snprintf(want, sizeof(want), "%s: -: file of 67108865 bytes; a table file has at most 64 MiB; refused",
		 gen_path("big/huge.json"));
	CHECK(r == 1 && strstr(p.all.s, want), "check-tables big: %d problems:\n%s", r, p.all.s);
	free(l.s);
	memset(&l, 0, sizeof(l));
	CHECK(loads(gen_path("big"), NULL, &l), "big: REAL.EVENT not loaded; log:\n%s", l.s);

	free(l.s);
	free(p.all.s);
	pmu_ctx_free(ctx);
}

int main(void)
{
	pid_t pid;
	int st = 0;

	gen_dir();
	fflush(stdout);
	if ((pid = fork()) == 0) {
		alarm(20);
		run();
		exit(test_done("test-table-files"));
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid) {
		perror("fork/waitpid");
		gen_done();
		return 1;
	}
	gen_done();
	if (WIFSIGNALED(st)) {
		printf("FAIL: the checks %s (signal %d)\n", WTERMSIG(st) == SIGALRM ?
		       "blocked for 20 s: a table load waits on a FIFO" : "crashed", WTERMSIG(st));
		return 1;
	}
	return WEXITSTATUS(st);
}
