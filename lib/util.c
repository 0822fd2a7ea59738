/* SPDX-License-Identifier: MIT */
/* Small helpers: files, numbers, strings. */
#include <ctype.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "internal.h"

int pmu__read_file(const char *path, char *buf, size_t len)
{
	ssize_t n, total = 0;
	int fd, err;

	if (len == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
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
	char buf[64], *end;
	long long v;
	int r = pmu__read_file(path, buf, sizeof(buf));

	if (r < 0)
		return r;
	errno = 0;
	v = strtoll(buf, &end, 0);
	if (end == buf || *end || errno)
		return -EINVAL;
	*out = v;
	return 0;
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

unsigned pmu__edit_distance(const char *a, const char *b, unsigned cap)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned row[PMU_NAME_MAX + 1], best, prev, cur;

	if (la > PMU_NAME_MAX || lb > PMU_NAME_MAX)
		return cap;
	for (j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = (unsigned)i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			unsigned sub = prev + (tolower((unsigned char)a[i - 1]) !=
					       tolower((unsigned char)b[j - 1]));
			cur = row[j];
			row[j] = sub;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (cur + 1 < row[j])
				row[j] = cur + 1;
			prev = cur;
			if (row[j] < best)
				best = row[j];
		}
		if (best >= cap)
			return cap;
	}
	return row[lb] < cap ? row[lb] : cap;
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
