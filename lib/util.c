/* SPDX-License-Identifier: MIT */
/* Small helpers: files, numbers, strings, a JSON object's field as text, array growth. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util.h"

int pmu__read_file(const char *path, char *buf, size_t len)
{
	return pmu__read_file_at(AT_FDCWD, path, buf, len);
}

int pmu__read_file_at(int dirfd, const char *path, char *buf, size_t len)
{
	ssize_t n, total = 0;
	int fd, err;

	struct stat st;

	if (len == 0)
		return -EINVAL;
	/* a regular file only: a FIFO (or a device) in a written tree would block the read forever, and a
	 * FIFO's open too without O_NONBLOCK, which a regular file ignores */
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	while ((size_t)total < len - 1) {
		n = read(fd, buf + total, len - 1 - total);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			close(fd);
			return err;
		}
		if (n == 0)
			break;
		total += n;
	}
	close(fd);
	buf[total] = 0;
	if (memchr(buf, 0, total))
		return -EINVAL; /* NUL inside a text file */
	while (total > 0 && isspace((unsigned char)buf[total - 1]))
		buf[--total] = 0;
	return (int)total;
}

int pmu__read_int(const char *path, long long *out)
{
	return pmu__read_int_at(AT_FDCWD, path, out);
}

int pmu__read_int_at(int dirfd, const char *path, long long *out)
{
	char buf[64], *end;
	long long v;
	int r = pmu__read_file_at(dirfd, path, buf, sizeof(buf));

	if (r < 0)
		return r;
	errno = 0;
	v = strtoll(buf, &end, 0);
	if (end == buf || *end || errno)
		return -EINVAL;
	*out = v;
	return 0;
}

int pmu__cpulist(const char *s, long cpu, struct pmu_cpulist *c)
{
	memset(c, 0, sizeof(*c));
	c->first = -1;
	while (*s && !isspace((unsigned char)*s)) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;
		if (end == s || lo < 0)
			return -EINVAL;
		s = end;
		if (*s == '-') {
			hi = strtol(s + 1, &end, 10);
			if (end == s + 1 || hi < lo)
				return -EINVAL;
			s = end;
		}
		c->count += hi - lo + 1;
		if (c->first < 0 || lo < c->first)
			c->first = lo;
		if (hi + 1 > c->top)
			c->top = hi + 1;
		c->has = c->has || (cpu >= lo && cpu <= hi);
		if (*s == ',')
			s++;
		else if (*s && !isspace((unsigned char)*s))
			return -EINVAL;
	}
	return c->count ? 0 : -EINVAL;
}

int pmu__path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

const char *pmu__getenv(const char *name)
{
	return secure_getenv(name);
}

void pmu__strlcpy(char *dst, const char *src, size_t len)
{
	size_t n = strlen(src);

	if (!len)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

int pmu__parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == s || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

bool pmu__prefix(const char *s, const char *prefix)
{
	return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

int pmu__grow(void *v, size_t *cap, size_t first, size_t size)
{
	void **p = v, *n;
	size_t c = *cap ? *cap * 2 : first;

	if (!(n = realloc(*p, c * size)))
		return -ENOMEM;
	*p = n;
	*cap = c;
	return 0;
}

int pmu__reserve(void *v, size_t *cap, size_t need, size_t size)
{
	void **p = v, *n;

	if (need <= *cap)
		return 0;
	if (!(n = realloc(*p, need * size)))
		return -ENOMEM;
	*p = n;
	*cap = need;
	return 0;
}

bool pmu__list_add(char *buf, size_t len, const char *item)
{
	static const char more[] = ", ...";
	size_t o = strlen(buf), sep = o ? 2 : 0, n = strlen(item);

	if (o >= sizeof(more) - 1 && !strcmp(buf + o - (sizeof(more) - 1), more))
		return false; /* already cut */
	if (o + sep + n + sizeof(more) <= len) {
		memcpy(buf + o, ", ", sep);
		memcpy(buf + o + sep, item, n + 1);
		return true;
	}
	if (o + sizeof(more) <= len)
		memcpy(buf + o, more, sizeof(more));
	return false;
}

const char *pmu__json_field(struct json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return NULL;
	if (json_object_is_type(v, json_type_string) || json_object_is_type(v, json_type_int) ||
	    json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_boolean))
		return json_object_get_string(v);
	return NULL;
}
