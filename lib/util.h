/* SPDX-License-Identifier: MIT */
/* Small helpers: bounded file reads, numbers, strings, a JSON object's field, growing an array
 * (lib/util.c). Private. */
#ifndef PMU_UTIL_H
#define PMU_UTIL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common.h"

/* Read a small file into buf (NUL-terminated, trailing whitespace trimmed).
 * Returns length or a negative errno. */
int pmu__read_file(const char *path, char *buf, size_t len);
/* The same, @path relative to the open directory @dirfd (openat(2); AT_FDCWD: as pmu__read_file): a file
 * of a directory already open is found without walking the whole path again (sysfs's walk is most of
 * a small file's cost). */
int pmu__read_file_at(int dirfd, const char *path, char *buf, size_t len);
/* Read a file as an integer. Returns 0 or a negative errno. */
int pmu__read_int(const char *path, long long *out);
int pmu__read_int_at(int dirfd, const char *path, long long *out);
/* A list of CPUs as the kernel writes it ("0-3,8,10-11", a PMU's cpumask): how many, the lowest, the
 * highest + 1, and whether CPU @cpu is one of them (@cpu -1: asks none). */
struct pmu_cpulist {
	long count, first, top;
	bool has;
};
/* Parse @s into *@c: 0, or -EINVAL (malformed or empty). */
int pmu__cpulist(const char *s, long cpu, struct pmu_cpulist *c);
/* snprintf into a fixed buffer; returns -ENAMETOOLONG on truncation. */
int pmu__path(char *buf, size_t len, const char *fmt, ...) PMU_PRINTF(3, 4);
/* The library's own variables (PMU_*): secure_getenv(), so a program
 * running with more privileges than its user (setuid, setgid, file
 * capabilities such as cap_perfmon: AT_SECURE) ignores them. */
const char *pmu__getenv(const char *name);
/* Copy with truncation, always NUL-terminated. */
void pmu__strlcpy(char *dst, const char *src, size_t len);
/* Parse an unsigned integer (decimal, 0x hex) fully; returns 0 or -EINVAL/-ERANGE. */
int pmu__parse_u64(const char *s, uint64_t *out);
/* Case-insensitive prefix test. */
bool pmu__prefix(const char *s, const char *prefix);
/* A JSON object's field @key as text: strings as they are, numbers and booleans printed; NULL if
 * absent or of another type. The table loaders' one rule for reading a field. */
struct json_object;
const char *pmu__json_field(struct json_object *o, const char *key);
/* Append @item to the ", "-separated list in @buf (@len bytes, NUL-terminated)
 * if it fits with room left for ", ..."; otherwise end the list with ", ..."
 * (once) and return false: a list cut short says so. */
bool pmu__list_add(char *buf, size_t len, const char *item);
/* Make room in a full array: *@v (a pointer to the array's pointer) of *@cap items of @size is
 * reallocated to twice as many items, or to @first when it has none, and *@cap updated. Call it when
 * the count reaches *@cap. Returns 0, or -ENOMEM with *@v and *@cap unchanged. */
int pmu__grow(void *v, size_t *cap, size_t first, size_t size);
/* Make room for @need items at once (one allocation where growing by doubling leaves copies behind,
 * each a page touched for the first time): *@v reallocated to @need items of @size if *@cap is less.
 * Returns 0, or -ENOMEM with *@v and *@cap unchanged. */
int pmu__reserve(void *v, size_t *cap, size_t need, size_t size);

#endif
