/* SPDX-License-Identifier: MIT */
/*
 * Regions: a thread's slots by name. A name is found by its content: a
 * small cache maps the caller's pointer to a slot, and a hit counts only
 * when the slot's own copy of the name equals the caller's string (a
 * buffer reused for another name, or a freed and reallocated string, is
 * not mistaken for the name that lived there before); otherwise a hash of
 * the content finds the slot and refreshes the cache. The names of the
 * process are interned once (a hash index) and each holds the list of its
 * slots, so that a report walks every slot once. A thread that has exited
 * is kept for the report; beyond the last REG_EXITED_KEPT, the oldest is
 * folded into its names' totals and freed.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "region-name.h"
#include "region.h"
#include "util.h"

static uint32_t hash_name(const char *name);

/* The name index rebuilt for @cap entries (a power of two, at least twice the names). */
static int names_reindex(uint32_t cap)
{
	uint32_t *ix = calloc(cap, sizeof(*ix));

	if (!ix)
		return -ENOMEM;
	for (size_t k = 0; k < R.nnames; k++) {
		uint32_t i = R.names[k].hash & (cap - 1);
		while (ix[i])
			i = (i + 1) & (cap - 1);
		ix[i] = (uint32_t)k + 1;
	}
	free(R.nidx);
	R.nidx = ix;
	R.nmask = cap - 1;
	return 0;
}

/* Interned id of @name (under R.lock). */
int pmu__region_intern(const char *name)
{
	uint32_t h = hash_name(name), i;
	struct region_name *n;

	for (i = R.nidx ? h & R.nmask : 0; R.nidx && R.nidx[i]; i = (i + 1) & R.nmask) {
		n = &R.names[R.nidx[i] - 1];
		if (n->hash == h && !strcmp(n->name, name))
			return (int)(R.nidx[i] - 1);
	}
	if ((!R.nidx || 2 * (R.nnames + 1) > (size_t)R.nmask + 1) &&
	    names_reindex(R.nidx ? 2 * (R.nmask + 1) : 64) < 0)
		return -ENOMEM;
	if (R.nnames == R.names_cap && pmu__grow(&R.names, &R.names_cap, 64, sizeof(*R.names)) < 0)
		return -ENOMEM;
	n = &R.names[R.nnames];
	memset(n, 0, sizeof(*n));
	if (!(n->name = strdup(name)))
		return -ENOMEM;
	n->hash = h;
	for (i = h & R.nmask; R.nidx[i]; i = (i + 1) & R.nmask)
		;
	R.nidx[i] = (uint32_t)R.nnames + 1;
	return (int)R.nnames++;
}

void pmu__region_names_free(void)
{
	for (size_t i = 0; i < R.nnames; i++) {
		free(R.names[i].name);
		free(R.names[i].folded);
		free(R.names[i].sock);
	}
	R.nnames = 0;
	free(R.nidx);
	R.nidx = NULL;
	R.nmask = 0;
	R.nfolded = R.folded_stray = 0;
	R.folded_stray_name[0] = 0;
}

static inline uint32_t hash_ptr(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 32;
	return (uint32_t)x;
}

/* FNV-1a over at most REG_NAME_MAX bytes of @name (longer names have no slot nor interned name). */
static uint32_t hash_name(const char *name)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; name[i] && i < REG_NAME_MAX; i++)
		h = (h ^ (unsigned char)name[i]) * 16777619u;
	return h;
}

#define PC_PROBE 4      /* a pointer lives in one of 4 consecutive cache entries */

/* Remember that @key names @s: the entry already holding @key, else the
 * first free one of its window, else the first of the window (evicted). */
static void pcache_put(struct thread_state *ts, const char *key, struct slot *s)
{
	uint32_t h = hash_ptr(key), victim = h & ts->pcmask;

	for (uint32_t i = 0; i < PC_PROBE; i++) {
		struct pcache *e = &ts->pc[(h + i) & ts->pcmask];
		if (!e->key || e->key == key) {
			victim = (h + i) & ts->pcmask;
			break;
		}
	}
	ts->pc[victim].key = key;
	ts->pc[victim].s = s;
}

/* The slot named @name in this thread by content, or NULL; refreshes the
 * pointer cache. No lock, no allocation. */
static struct slot *find_name(struct thread_state *ts, const char *name)
{
	uint32_t h = hash_name(name);

	for (uint32_t i = h & ts->cmask; ts->cidx[i]; i = (i + 1) & ts->cmask) {
		struct slot *s = ts->slots[ts->cidx[i] - 1];
		if (s->hash == h && !strcmp(s->name, name)) {
			pcache_put(ts, name, s);
			return s;
		}
	}
	return NULL;
}

/* find() past the last name: the pointer cache, then the content index */
__attribute__((noinline)) struct slot *pmu__region_find_other(struct thread_state *ts, const char *name)
{
	uint32_t h = hash_ptr(name);
	struct slot *s = NULL;

	for (uint32_t i = 0; i < PC_PROBE; i++) {
		const struct pcache *e = &ts->pc[(h + i) & ts->pcmask];
		if (e->key == name) {
			if (pmu__region_name_eq(e->s->name, name))
				s = e->s;
			break;
		}
		if (!e->key)
			break;
	}
	if (!s)
		s = find_name(ts, name);
	if (s) {
		ts->last_key = name;
		ts->last_slot = s;
	}
	return s;
}

/* A power of two >= @n (n <= 2^31). */
static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t c = 1;
	while (c < n)
		c <<= 1;
	return c;
}

/* Make room for one more slot in the content index (at most half full) and
 * the pointer cache (4 entries per slot): new tables, filled again. */
int pmu__region_index_grow(struct thread_state *ts)
{
	uint32_t n = (uint32_t)ts->nslots + 1, ccap = pow2_at_least(2 * n), pcap = pow2_at_least(4 * n);

	if (ccap < 16)
		ccap = 16;
	if (pcap < 64)
		pcap = 64;
	if (ts->cidx && ccap <= ts->cmask + 1 && pcap <= ts->pcmask + 1)
		return 0;
	{
		uint32_t *ci = calloc(ccap, sizeof(*ci));
		struct pcache *pc = calloc(pcap, sizeof(*pc));
		if (!ci || !pc) {
			free(ci);
			free(pc);
			return -ENOMEM;
		}
		for (size_t k = 0; k < ts->nslots; k++) {
			uint32_t i = ts->slots[k]->hash & (ccap - 1);
			while (ci[i])
				i = (i + 1) & (ccap - 1);
			ci[i] = (uint32_t)k + 1;
		}
		free(ts->cidx);
		free(ts->pc);
		ts->cidx = ci;
		ts->cmask = ccap - 1;
		ts->pc = pc; /* a cache: it fills again as names are used */
		ts->pcmask = pcap - 1;
	}
	return 0;
}

/* A new slot for @name, the first use of the name in this thread: the one
 * place where begin (and pmu_region_get) allocates and locks. */
struct slot *pmu__region_new_slot(struct thread_state *ts, const char *name, int *err)
{
	struct slot *s;
	int id;

	if (!*name) {
		*err = pmu__err(R.ctx, -EINVAL, "a region name is empty: name the region (a report row has no other "
				"label)");
		return NULL;
	}
	if (strnlen(name, REG_NAME_MAX) == REG_NAME_MAX) {
		*err = pmu__err(R.ctx, -EINVAL, "region name '%.40s...' is too long (at most %d characters)", name,
				REG_NAME_MAX - 1);
		return NULL;
	}
	pthread_mutex_lock(&R.lock);
	id = pmu__region_intern(name);
	pthread_mutex_unlock(&R.lock);
	if (id < 0 || pmu__region_index_grow(ts) < 0 || !(s = calloc(1, sizeof(*s))))
		goto nomem;
	if (ts->nslots == ts->slots_cap) {
		/* a new array, swapped under the lock and the old one freed after it: a report (under the
		 * lock) may be reading the old one, which realloc would free under it */
		size_t nc = ts->slots_cap ? ts->slots_cap * 2 : 16;
		struct slot **ns = malloc(nc * sizeof(*ns)), **old;
		if (!ns) {
			free(s);
			goto nomem;
		}
		if (ts->nslots)
			memcpy(ns, ts->slots, ts->nslots * sizeof(*ns));
		pthread_mutex_lock(&R.lock);
		old = ts->slots;
		ts->slots = ns;
		ts->slots_cap = nc;
		pthread_mutex_unlock(&R.lock);
		free(old);
	}
	s->id = (unsigned)id;
	s->ts = ts;
	s->gen = ts->gen;
	s->hash = hash_name(name);
	strcpy(s->name, name);
	pmu__region_slot_forget(s);
	{
		uint32_t i = s->hash & ts->cmask;
		while (ts->cidx[i])
			i = (i + 1) & ts->cmask;
		ts->cidx[i] = (uint32_t)ts->nslots + 1;
	}
	pthread_mutex_lock(&R.lock);
	ts->slots[ts->nslots++] = s;
	{
		struct region_name *n = &R.names[id];
		s->name_next = n->chain;
		if (n->chain)
			n->chain->name_prev = s;
		n->chain = s;
	}
	pthread_mutex_unlock(&R.lock);
	pcache_put(ts, name, s);
	return s;
nomem:
	*err = pmu__err(R.ctx, -ENOMEM, "out of memory for region '%s'", name);
	return NULL;
}

/* @src's counts added to @dst's (a folded thread's slot to its name's totals). */
static void slot_add(struct slot *dst, const struct slot *src)
{
	dst->calls += src->calls;
	dst->stray_ends += src->stray_ends;
	for (size_t k = 0; k < REG_MAX_EV; k++) {
		dst->sum[k].value += src->sum[k].value;
		dst->sum[k].enabled += src->sum[k].enabled;
		dst->sum[k].running += src->sum[k].running;
		if (src->min[k] < dst->min[k])
			dst->min[k] = src->min[k];
		if (src->max[k] > dst->max[k])
			dst->max[k] = src->max[k];
	}
	for (size_t t = 0; t < REG_MAX_TOT; t++) {
		if (src->tmin[t] < dst->tmin[t])
			dst->tmin[t] = src->tmin[t];
		if (src->tmax[t] > dst->tmax[t])
			dst->tmax[t] = src->tmax[t];
	}
}

/* The totals of every name of exited thread @ts made (under R.lock): 0, or -ENOMEM (the thread then
 * stays whole, folded at a later exit). */
static int fold_ready(const struct thread_state *ts)
{
	for (size_t i = 0; i < ts->nslots; i++) {
		struct region_name *n = &R.names[ts->slots[i]->id];
		if (!n->folded) {
			if (!(n->folded = calloc(1, sizeof(*n->folded))))
				return -ENOMEM;
			n->folded->id = ts->slots[i]->id;
			pmu__region_slot_forget(n->folded);
		}
	}
	return 0;
}

/* Exited thread @ts's slots added to their names' totals (fold_ready) and freed, and @ts with them
 * (under R.lock). */
static void fold(struct thread_state *ts)
{
	for (size_t i = 0; i < ts->nslots; i++) {
		struct slot *s = ts->slots[i];
		struct region_name *n = &R.names[s->id];
		slot_add(n->folded, s);
		n->folded_threads++;
		n->folded_open += s->depth != 0;
		if (s->name_prev)
			s->name_prev->name_next = s->name_next;
		else
			n->chain = s->name_next;
		if (s->name_next)
			s->name_next->name_prev = s->name_prev;
		free(s);
	}
	if (ts->stray_unknown && !R.folded_stray)
		pmu__strlcpy(R.folded_stray_name, ts->stray_name, sizeof(R.folded_stray_name));
	R.folded_stray += ts->stray_unknown;
	R.nfolded++;
	ts->nslots = 0; /* freed above */
	pmu__region_thread_free(ts);
}

void pmu__region_thread_free(struct thread_state *ts)
{
	for (size_t i = 0; i < ts->nslots; i++)
		free(ts->slots[i]);
	free(ts->slots);
	free(ts->cidx);
	free(ts->pc);
	free(ts);
}

void pmu__region_thread_exited(struct thread_state *ts)
{
	/* from R.threads to the end of R.exited */
	if (ts->prev)
		ts->prev->next = ts->next;
	else
		R.threads = ts->next;
	if (ts->next)
		ts->next->prev = ts->prev;
	ts->exited = true;
	ts->next = NULL;
	ts->prev = R.exited_tail;
	if (R.exited_tail)
		R.exited_tail->next = ts;
	else
		R.exited = ts;
	R.exited_tail = ts;
	R.nexited++;
	while (R.nexited > REG_EXITED_KEPT && fold_ready(R.exited) == 0) {
		struct thread_state *old = R.exited;
		R.exited = old->next;
		if (R.exited)
			R.exited->prev = NULL;
		else
			R.exited_tail = NULL;
		R.nexited--;
		fold(old);
	}
}
