/* SPDX-License-Identifier: MIT */
/*
 * libpmu-mpi's set of names: strings kept in the order added, each once, found by a hash (open
 * addressing). What the ranks agree on: region names and event names, one set (a leading 'r' or 'e'
 * tells them apart), serialized as NUL-terminated strings one after another.
 */
#ifndef PMU_MPI_NAMES_H
#define PMU_MPI_NAMES_H

#include <stddef.h>
#include <stdint.h>

struct name_set {
	char **v;               /* the names, in the order added */
	size_t n, cap;
	uint32_t *idx;          /* hash slot -> index + 1 (0: empty) */
	size_t mask;            /* slots - 1 */
};

/* The index of @name (@len bytes), or -1. */
long names_find(const struct name_set *s, const char *name, size_t len);
/* The index of @name, added at the end if new; -ENOMEM. */
long names_add(struct name_set *s, const char *name, size_t len);
/* The names from index @from on, each with its NUL, into a malloc'd buffer (*@len bytes; NULL with
 * *@len 0 when there are none). 0 or -ENOMEM. */
int names_pack(const struct name_set *s, size_t from, char **buf, size_t *len);
/* Each NUL-terminated name of @buf (@len bytes) added. 0, -ENOMEM, or -EINVAL (no final NUL). */
int names_unpack(struct name_set *s, const char *buf, size_t len);
void names_free(struct name_set *s);

#endif
