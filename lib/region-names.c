/* SPDX-License-Identifier: MIT */
/*
 * Regions: a thread's slots by name. A name is found by its content: a
 * small cache maps the caller's pointer to a slot, and a hit counts only
 * when the slot's own copy of the name equals the caller's string (a
 * buffer reused for another name, or a freed and reallocated string, is
 * not mistaken for the name that lived there before); otherwise a hash of
 * the content finds the slot and refreshes the cache. Slots are never
 * freed while the process runs, so reports can read threads that ended.
 */
#include <stdlib.h>
#include <string.h>
#include "region.h"

/* Interned id of @name (under R.lock). */
int pmu__region_intern(const char *name)
{
	for (size_t i = 0; i < R.nnames; i++)
		if (!strcmp(R.names[i], name))
			return (int)i;
	if (R.nnames == R.names_cap && pmu__grow(&R.names, &R.names_cap, 64, sizeof(*R.names)) < 0)
		return -ENOMEM;
	if (!(R.names[R.nnames] = strdup(name)))
		return -ENOMEM;
	return (int)R.nnames++;
}

static inline uint32_t hash_ptr(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 32;
	return (uint32_t)x;
}

/* FNV-1a over at most REG_NAME_MAX bytes of @name (longer names have no slot). */
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
		size_t nc = ts->slots_cap ? ts->slots_cap * 2 : 16;
		struct slot **ns = realloc(ts->slots, nc * sizeof(*ns));
		if (!ns) {
			free(s);
			goto nomem;
		}
		pthread_mutex_lock(&R.lock); /* reports walk ts->slots */
		ts->slots = ns;
		ts->slots_cap = nc;
		pthread_mutex_unlock(&R.lock);
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
	pthread_mutex_unlock(&R.lock);
	pcache_put(ts, name, s);
	return s;
nomem:
	*err = pmu__err(R.ctx, -ENOMEM, "out of memory for region '%s'", name);
	return NULL;
}
