/* SPDX-License-Identifier: MIT */
/*
 * Stress: 64 sets opened and closed in a loop (no descriptor or memory
 * growth), 16 threads at once resolving names through one fresh context
 * (the lazy table load races), reading their own sets and one shared set
 * (read(2) from non-owner threads) concurrently; values stay consistent.
 */
#include <dirent.h>
#include <malloc.h>
#include <string.h>
#include <pmu.h>
#include "harness.h"

static struct pmu_ctx *shared_ctx;
static struct pmu_set *shared_set;

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void *thread_main(void *arg)
{
	static const char *const names[] = { "INST.RET", "task-clock", "RETIRED.INST", "cycles:u", "CACHE.L1D.RD.MISS" };
	struct pmu_event_info e;
	struct pmu_set *own;
	struct pmu_value v[2], prev[2], sv[2], sprev[2];
	long bad = 0;
	(void)arg;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (pmu_event_resolve(shared_ctx, names[i], &e) < 0)
			bad++;
	/* INST.RET and its alias from the other document resolve to the same encoding */
	{
		struct pmu_event_info a, b;
		if (pmu_event_resolve(shared_ctx, "INST.RET", &a) < 0 || pmu_event_resolve(shared_ctx, "RETIRED.INST", &b) < 0 ||
		    a.type != b.type || a.config != b.config)
			bad++;
	}
	if (pmu_set_open(shared_ctx, "task-clock,page-faults", &(struct pmu_set_opts){ sizeof(struct pmu_set_opts), PMU_SET_ENABLE, 0, -1 },
			 &own) < 0)
		return (void *)1000;
	memset(prev, 0, sizeof(prev));
	memset(sprev, 0, sizeof(sprev));
	for (int i = 0; i < 1000; i++) {
		if (pmu_set_read(own, v) < 0 || pmu_set_read(shared_set, sv) < 0) {
			bad++;
			break;
		}
		/* counts and times never go backwards, and a group's members share their times */
		bad += v[0].value < prev[0].value || v[0].enabled < prev[0].enabled || sv[0].value < sprev[0].value ||
		       sv[1].enabled != sv[0].enabled;
		memcpy(prev, v, sizeof(v));
		memcpy(sprev, sv, sizeof(sv));
	}
	pmu_set_close(own);
	return (void *)bad;
}

int main(void)
{
	struct pmu_ctx *ctx;
	struct pmu_value v[4];
	int base, r;
	size_t mem_after_first = 0;

	if ((r = pmu_ctx_new(&ctx, NULL)) < 0)
		return 1;
	base = count_fds();
	for (int i = 0; i < 64; i++) {
		struct pmu_set *s;
		r = pmu_set_open(ctx, "task-clock,{page-faults,cpu-clock},context-switches", NULL, &s);
		if (r == -EACCES || r == -EPERM)
			SKIP("perf events not permitted: %s", pmu_strerror(r));
		CHECK(r == 0, "open %d: %s", i, pmu_strerror(r));
		if (r)
			break;
		pmu_set_enable(s);
		CHECK(pmu_set_read(s, v) == 0, "read %d", i);
		pmu_set_close(s);
		if (i == 15) /* after a warm-up: the allocator's own first-use growth is not ours */
			mem_after_first = mallinfo2().uordblks;
	}
	CHECK(count_fds() == base, "descriptors: %d before, %d after 64 sets", base, count_fds());
	CHECK(mallinfo2().uordblks <= mem_after_first, "heap in use grew from %zu to %zu bytes over the last 48 sets",
	      mem_after_first, mallinfo2().uordblks);
	pmu_ctx_free(ctx);

	/* 16 threads: a fresh shared context (lazy table load from all at once) and a shared set */
	CHECK(pmu_ctx_new(&shared_ctx, NULL) == 0, "shared context");
	CHECK(pmu_set_open(shared_ctx, "{task-clock,page-faults}", &(struct pmu_set_opts){ sizeof(struct pmu_set_opts), PMU_SET_ENABLE, 0, -1 },
			   &shared_set) == 0, "shared set");
	{
		pthread_t t[16];
		long bad = 0;
		for (int i = 0; i < 16; i++)
			pthread_create(&t[i], NULL, thread_main, NULL);
		for (int i = 0; i < 16; i++) {
			void *ret;
			pthread_join(t[i], &ret);
			bad += (long)ret;
		}
		CHECK(bad == 0, "%ld inconsistencies across 16 threads", bad);
	}
	pmu_set_close(shared_set);
	pmu_ctx_free(shared_ctx);
	CHECK(count_fds() == base, "descriptors after the threads: %d (base %d)", count_fds(), base);
	return test_done("test-stress");
}
