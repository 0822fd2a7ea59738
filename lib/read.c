/* SPDX-License-Identifier: MIT */
/* Reading: the user-space path (pmu_fast_read in <pmu/fast.h>), and one
 * PERF_FORMAT_GROUP read(2) per group as the fallback. The arithmetic on the
 * values read is value.c's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pmu.h"
#include "read.h"
#include "common.h"
#include "context.h"
#include "error.h"
#include "hybrid.h"
#include "set-layout.h"
#include "set.h"
#include "tool.h"
#include "util.h"

#ifndef __SIZEOF_INT128__
#error "libpmu needs a compiler with 128-bit integers (64-bit targets)"
#endif

/* Plans every read refuses: for a NULL set, and for a program compiled
 * against another plan layout. Each is the plan of a set of its own, so that
 * the library finds the set from every plan alike (no test on the way): their
 * guard word and their set's wiped-on-fork word are 0, as a forked child
 * sees its set's, so every read of them goes to pmu_fast_forked(), which
 * tells them by address. */
static const uintptr_t refuse_word;
static const struct pmu_set null_set = {
	.fast = { .guard = &refuse_word, .abi = 0 }, .guard_page = (uintptr_t *)&refuse_word };
static const struct pmu_set other_abi_set = {
	.fast = { .guard = &refuse_word, .abi = PMU_FAST_ABI }, .guard_page = (uintptr_t *)&refuse_word };

/* The set whose plan @f (not NULL) is: pmu_set_fast() gives &s->fast, and the
 * public plan has no pointer back. */
static struct pmu_set *plan_set(const struct pmu_fast *f)
{
	return (struct pmu_set *)((uintptr_t)f - offsetof(struct pmu_set, fast));
}

PMU_EXPORT const struct pmu_fast *pmu_set_fast_abi(struct pmu_set *s, unsigned abi, size_t size)
{
	if (!s)
		return &null_set.fast;
	if (abi != PMU_FAST_ABI || size != sizeof(struct pmu_fast)) {
		pmu__log(s->ctx, PMU_LOG_ERR, "this program was compiled against libpmu's read plan layout %u (%zu "
			 "bytes); the library has layout %u (%zu bytes): rebuild it against this library's <pmu.h>",
			 abi, size, PMU_FAST_ABI, sizeof(struct pmu_fast));
		return &other_abi_set.fast;
	}
	return &s->fast;
}

PMU_EXPORT int pmu_fast_slow(const struct pmu_fast *f, struct pmu_value *out)
{
	struct pmu_set *s;

	if (!f || pmu__set_forked(s = plan_set(f)))
		return pmu_fast_forked(f);
	if (!out)
		return pmu__err(s->ctx, -EINVAL, "reading a set into a NULL output");
	if (pmu__set_mine(s))
		return pmu__fast_read_groups(s, out);
	return pmu_set_read_syscall(s, out);
}

PMU_EXPORT int pmu_fast_forked(const struct pmu_fast *f)
{
	if (f == &other_abi_set.fast)
		return pmu__err(NULL, -EPROTO, "this program was compiled against another layout of libpmu's read "
				"plan (struct pmu_fast) than the library's %u: rebuild it against the installed <pmu.h>",
				PMU_FAST_ABI);
	if (!f || f == &null_set.fast)
		return pmu__err(NULL, -EINVAL, "reading a NULL set (the read plan of pmu_set_fast(NULL))");
	return pmu__set_forked_err(plan_set(f));
}

static int read_group_into(struct pmu_set *s, struct pmu_grp *g, uint64_t *buf, size_t buflen, struct pmu_value *out);

/* A group with no descriptor: a tool event (measured by libpmu), or an unsupported one kept by
 * PMU_SET_SKIP_UNSUPPORTED. Out of line: its loop would cost every read(2) of a group a saved
 * register (2 instructions on riscv64). */
static __attribute__((noinline, cold)) int read_unopened(struct pmu_set *s, const struct pmu_grp *g,
							   struct pmu_value *out)
{
	for (uint32_t k = 0; k < g->n; k++)
		if (s->ev[g->first + k].tool)
			pmu__tool_read(s->ev[g->first + k].tool, &out[g->first + k]);
		else
			memset(&out[g->first + k], 0, sizeof(*out));
	return 0;
}

PMU_EXPORT int pmu_set_read_group(struct pmu_set *s, unsigned gi, struct pmu_value *out)
{
	struct pmu_grp *g;

	if (!s || gi >= s->ngroups || !out)
		return pmu__err(s ? s->ctx : NULL, -EINVAL, "pmu_set_read_group: bad arguments");
	if (pmu__set_forked(s))
		return pmu__set_forked_err(s);
	g = &s->g[gi];
	if (g->leader_fd < 0)
		return read_unopened(s, g, out);
	/* other threads may read the same set at the same time (through read(2)):
	 * small groups use a buffer on the stack, large ones the group's, locked */
	if (g->n <= 32) {
		uint64_t buf[3 + 2 * 32];
		return read_group_into(s, g, buf, (3 + 2 * (size_t)g->n) * sizeof(uint64_t), out);
	}
	pthread_mutex_lock(&g->lock);
	{
		int r = read_group_into(s, g, g->buf, g->buflen, out);
		pthread_mutex_unlock(&g->lock);
		return r;
	}
}

/* read(2) of group @g's copy led by @fd (@r: 0 the group itself, else which copy on another CPU) into @buf:
 * nr, enabled, running, {value, id} x nr. 0, or the error said. */
static inline __attribute__((always_inline)) int read_leader(struct pmu_set *s, struct pmu_grp *g, int fd, uint32_t r,
								  uint64_t *buf, size_t buflen)
{
	ssize_t n;

	do
		n = read(fd, buf, buflen);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		int err = errno;
		return pmu__err(s->ctx, -err, "reading the group led by '%s' failed: %s",
				s->ev[g->first].info.name, strerror(err));
	}
	if ((size_t)n < 3 * sizeof(uint64_t) || (size_t)n != (3 + 2 * (size_t)buf[0]) * sizeof(uint64_t) ||
	    buf[0] != g->n) {
		/* why, tested only here: the read that succeeds pays nothing for it */
		if (n == 0 && s->ev[g->first].attr.pinned)
			return pmu__err(s->ctx, -EIO,
					"reading the group led by '%s': it is pinned (modifier D) and the PMU could not "
					"keep it on its counters, so the kernel stopped it (error state, read(2) at end "
					"of file); free counters (another pinned user, the NMI watchdog) or drop the D",
					s->ev[g->first].info.name);
		return pmu__err(s->ctx, -EIO,
				"reading the group led by '%s'%s: the kernel returned %zd bytes for %llu events, "
				"expected %u events", s->ev[g->first].info.name, r ? " (on another CPU of its cpumask)" : "",
				n, (unsigned long long)((size_t)n >= sizeof(uint64_t) ? buf[0] : 0), g->n);
	}
	return 0;
}

/* The counts of group @g's copies on the other CPUs of its cpumask (cpu-wide, several packages) added to
 * @out: read(2) of each copy's leader, its ids checked. Apart from the group's own read, which most
 * groups are. 0, or the error said. */
__attribute__((noinline)) static int add_copies(struct pmu_set *s, struct pmu_grp *g, uint64_t *buf, size_t buflen,
						struct pmu_value *out)
{
	for (uint32_t r = 1; r <= g->nrep; r++) {
		const int *fd = &g->rep_fd[(r - 1) * g->n];
		const uint64_t *ids = &g->rep_id[(r - 1) * g->n];
		int err = read_leader(s, g, fd[0], r, buf, buflen);
		if (err < 0)
			return err;
		for (uint64_t k = 0; k < buf[0]; k++) {
			if (buf[4 + 2 * k] != ids[k])
				return pmu__err(s->ctx, -EIO, "reading the group led by '%s' on another CPU of its cpumask: "
						"member %llu has id %llu, expected %llu", s->ev[g->first].info.name,
						(unsigned long long)k, (unsigned long long)buf[4 + 2 * k],
						(unsigned long long)ids[k]);
			out[g->first + k].value += buf[3 + 2 * k];
		}
	}
	return 0;
}

/* The group's values into @out: read(2) of its leader; with copies on the other CPUs of a cpumask
 * (cpu-wide, several packages) their counts are added, and enabled and running stay the group's (the
 * copies are enabled, disabled and reset with it, and their PMUs do not multiplex: RAPL, uncore). */
static int read_group_into(struct pmu_set *s, struct pmu_grp *g, uint64_t *buf, size_t buflen, struct pmu_value *out)
{
	uint64_t nr, enabled, running;
	int err = read_leader(s, g, g->leader_fd, 0, buf, buflen);

	if (err < 0)
		return err;
	nr = buf[0];
	enabled = buf[1];
	running = buf[2];
	for (uint64_t k = 0; k < nr; k++) {
		const struct pmu_ev *e = &s->ev[g->first + k];
		uint64_t value = buf[3 + 2 * k], id = buf[4 + 2 * k];
		if (id != e->id)
			return pmu__err(s->ctx, -EIO, "reading the group led by '%s': member %llu has id %llu, "
					"expected %llu", s->ev[g->first].info.name, (unsigned long long)k,
					(unsigned long long)id, (unsigned long long)e->id);
		out[g->first + k].value = value;
		out[g->first + k].enabled = enabled;
		out[g->first + k].running = running;
	}
	return g->nrep ? add_copies(s, g, buf, buflen, out) : 0;
}

PMU_EXPORT int pmu_set_read_syscall(struct pmu_set *s, struct pmu_value *out)
{
	pmu__err_clear();
	if (!s || !out)
		return pmu__err(s ? s->ctx : NULL, -EINVAL, "pmu_set_read_syscall: NULL set or output");
	for (unsigned g = 0; g < s->ngroups; g++) {
		int r = pmu_set_read_group(s, g, out);
		if (r < 0)
			return r;
	}
	if (s->hybrid_parts || s->npresence)
		pmu_fast_hybrid(&s->fast, out);
	return 0;
}

PMU_EXPORT void pmu_fast_hybrid(const struct pmu_fast *f, struct pmu_value *out)
{
	if (!f || !out)
		return;
	pmu__hybrid_times(plan_set(f), out); /* n 0 for the refusing plans */
}

PMU_EXPORT int pmu_set_read(struct pmu_set *s, struct pmu_value *out)
{
	if (!s || !out)
		return pmu__err(s ? s->ctx : NULL, -EINVAL, "pmu_set_read: NULL set or output");
	return pmu_fast_read(&s->fast, out);
}

/* The package (socket) of CPU @cpu, from the context's sysfs topology; -1 when unknown. */
static int cpu_package(const struct pmu_set *s, int cpu)
{
	char path[512];
	long long v;

	if (cpu < 0 || pmu__path(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/physical_package_id",
				 s->ctx->sysfs_root, cpu) < 0 || pmu__read_int(path, &v) < 0 || v < 0 || v > 1 << 20)
		return -1;
	return (int)v;
}

PMU_EXPORT int pmu_set_read_copies(struct pmu_set *s, size_t i, struct pmu_copy_value *out, size_t n)
{
	const struct pmu_grp *g;
	uint32_t k, copies;
	uint64_t *buf;
	int err = 0;

	pmu__err_clear();
	if (!s || i >= s->n || (n && !out))
		return pmu__err(s ? s->ctx : NULL, -EINVAL, "pmu_set_read_copies: NULL set, index %zu out of range, or "
				"NULL output", i);
	if (pmu__set_forked(s))
		return pmu__set_forked_err(s);
	g = &s->g[s->ev[i].group];
	k = (uint32_t)(i - g->first);
	copies = g->leader_fd >= 0 ? 1 + g->nrep : 1;
	if (g->leader_fd < 0) {
		/* a tool event (measured by libpmu), or a group left out: one copy */
		if (n) {
			memset(&out[0], 0, sizeof(out[0]));
			out[0].cpu = s->cpu;
			out[0].package = cpu_package(s, s->cpu);
			if (s->ev[i].tool)
				pmu__tool_read(s->ev[i].tool, &out[0].value);
		}
		return 1;
	}
	if (!n)
		return (int)copies;
	if (!(buf = malloc(g->buflen)))
		return pmu__err(s->ctx, -ENOMEM, "out of memory reading '%s'", s->ev[i].info.name);
	for (uint32_t r = 0; r < copies && r < n && !err; r++) {
		int fd = r ? g->rep_fd[(r - 1) * g->n] : g->leader_fd;
		uint64_t id = r ? g->rep_id[(r - 1) * g->n + k] : s->ev[i].id;
		if ((err = read_leader(s, (struct pmu_grp *)g, fd, r, buf, g->buflen)) < 0)
			break;
		if (buf[4 + 2 * k] != id) {
			err = pmu__err(s->ctx, -EIO, "reading '%s' (copy %u): member %u has id %llu, expected %llu",
				       s->ev[i].info.name, r, k, (unsigned long long)buf[4 + 2 * k], (unsigned long long)id);
			break;
		}
		memset(&out[r], 0, sizeof(out[r]));
		out[r].cpu = r ? g->rep_cpu[r - 1] : g->cpu;
		out[r].package = cpu_package(s, out[r].cpu);
		out[r].box = r ? g->rep_box[r - 1] : g->pbox;
		out[r].value.value = buf[3 + 2 * k];
		out[r].value.enabled = buf[1];
		out[r].value.running = buf[2];
	}
	free(buf);
	return err < 0 ? err : (int)copies;
}
