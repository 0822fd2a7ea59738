/* SPDX-License-Identifier: MIT */
/* libpmu-mpi's set of names: see names.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "names.h"

static uint32_t hash(const char *p, size_t len)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)p[i]) * 16777619u;
	return h;
}

long names_find(const struct name_set *s, const char *name, size_t len)
{
	if (!s->idx)
		return -1;
	for (size_t at = hash(name, len) & s->mask;; at = (at + 1) & s->mask) {
		uint32_t i = s->idx[at];
		if (!i)
			return -1;
		if (!strncmp(s->v[i - 1], name, len) && !s->v[i - 1][len])
			return i - 1;
	}
}

/* The index grown to twice the names (at least 64 slots), every name placed again. */
static int grow(struct name_set *s)
{
	size_t slots = 64;
	uint32_t *idx;

	while (slots < 2 * (s->n + 1))
		slots *= 2;
	if (!(idx = calloc(slots, sizeof(*idx))))
		return -ENOMEM;
	free(s->idx);
	s->idx = idx;
	s->mask = slots - 1;
	for (size_t i = 0; i < s->n; i++) {
		size_t at = hash(s->v[i], strlen(s->v[i])) & s->mask;
		while (idx[at])
			at = (at + 1) & s->mask;
		idx[at] = (uint32_t)(i + 1);
	}
	return 0;
}

long names_add(struct name_set *s, const char *name, size_t len)
{
	long i = names_find(s, name, len);
	size_t at;

	if (i >= 0)
		return i;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		char **v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	if ((!s->idx || 2 * (s->n + 1) > s->mask + 1) && grow(s) < 0)
		return -ENOMEM;
	if (!(s->v[s->n] = strndup(name, len)))
		return -ENOMEM;
	for (at = hash(name, len) & s->mask; s->idx[at]; at = (at + 1) & s->mask)
		;
	s->idx[at] = (uint32_t)(s->n + 1);
	return (long)s->n++;
}

int names_pack(const struct name_set *s, size_t from, char **buf, size_t *len)
{
	size_t total = 0, o = 0;

	*buf = NULL;
	*len = 0;
	for (size_t i = from; i < s->n; i++)
		total += strlen(s->v[i]) + 1;
	if (!total)
		return 0;
	if (!(*buf = malloc(total)))
		return -ENOMEM;
	for (size_t i = from; i < s->n; i++) {
		size_t l = strlen(s->v[i]) + 1;
		memcpy(*buf + o, s->v[i], l);
		o += l;
	}
	*len = total;
	return 0;
}

int names_unpack(struct name_set *s, const char *buf, size_t len)
{
	size_t o = 0;

	if (len && buf[len - 1])
		return -EINVAL;
	while (o < len) {
		size_t l = strlen(buf + o);
		if (names_add(s, buf + o, l) < 0)
			return -ENOMEM;
		o += l + 1;
	}
	return 0;
}

void names_free(struct name_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	free(s->idx);
	memset(s, 0, sizeof(*s));
}
