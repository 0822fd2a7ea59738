/* SPDX-License-Identifier: MIT */
/* Helpers of the pmu command (util.h says what each is for). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "util.h"
#include "outtext.h"

int str_append(char **s, const char *sep, const char *add)
{
	size_t o = *s ? strlen(*s) : 0, ls = o && sep ? strlen(sep) : 0, la = strlen(add);
	char *n = realloc(*s, o + ls + la + 1);

	if (!n)
		return -ENOMEM;
	if (ls)
		memcpy(n + o, sep, ls);
	memcpy(n + o + ls, add, la + 1);
	*s = n;
	return 0;
}

int strv_add(struct strv *sv, const char *s, size_t len)
{
	char **nv = realloc(sv->v, (sv->n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	sv->v = nv;
	if (!(nv[sv->n] = strndup(s, len)))
		return -ENOMEM;
	sv->n++;
	return 0;
}

json_object *strv_json(json_object *a, const struct strv *sv)
{
	for (size_t i = 0; a && i < sv->n; i++)
		json_object_array_add(a, json_object_new_string(sv->v[i]));
	return a;
}

void strv_free(struct strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = 0;
}

/* Add @s[0..len) without the spaces around it, unless nothing is left. */
static int add_trimmed(struct strv *sv, const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return len ? strv_add(sv, s, len) : 0;
}

int strv_add_metrics(struct strv *sv, const char *list)
{
	const char *item = list, *p;
	unsigned depth = 0;
	bool in_at = false;
	int r;

	for (p = list; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '@')
			in_at = !in_at;
		else if (*p == '(' && !in_at)
			depth++;
		else if (*p == ')' && !in_at && depth)
			depth--;
		else if (*p == ',' && !in_at && !depth) {
			if ((r = add_trimmed(sv, item, (size_t)(p - item))) < 0)
				return r;
			item = p + 1;
		}
	}
	return add_trimmed(sv, item, (size_t)(p - item));
}

json_object *jnum(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static void write_flags(FILE *f, json_object *o, int flags)
{
	pmu__write_utf8(f, json_object_to_json_string_ext(o, flags | JSON_C_TO_STRING_NOSLASHESCAPE));
	fputc('\n', f);
}

void json_write(FILE *f, json_object *o)
{
	write_flags(f, o, JSON_C_TO_STRING_PRETTY);
}

void json_write_line(FILE *f, json_object *o)
{
	write_flags(f, o, JSON_C_TO_STRING_SPACED);
}

int read_text(const char *path, char *buf, size_t len)
{
	struct stat st;
	size_t total = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	while (len && total < len - 1) {
		ssize_t n = read(fd, buf + total, len - 1 - total);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		total += (size_t)n;
	}
	close(fd);
	if (len)
		buf[total] = 0;
	return (int)total;
}

int out_finish(FILE *f, const char *where, bool close)
{
	int err = 0;

	errno = 0;
	if (fflush(f) == EOF || ferror(f)) {
		err = errno;
		/* an earlier write failed and its errno is gone (the buffer it held was written, or dropped, then):
		 * one byte written again says why (the output is incomplete already) */
		if (!err && fileno(f) >= 0 && write(fileno(f), "\n", 1) < 0)
			err = errno;
		if (!err)
			err = EIO;
	}
	if (close && fclose(f) == EOF && !err)
		err = errno ? errno : EIO;
	if (err)
		fprintf(stderr, "pmu: writing %s: %s\n", where, strerror(err));
	return -err;
}

void node_identity(char *host, size_t hlen, char *boot, size_t blen)
{
	struct utsname u;
	FILE *f;

	snprintf(host, hlen, "%s", uname(&u) == 0 ? u.nodename : "");
	*boot = 0;
	if ((f = fopen("/proc/sys/kernel/random/boot_id", "r"))) {
		if (!fgets(boot, (int)blen, f))
			*boot = 0;
		boot[strcspn(boot, " \n")] = 0;
		fclose(f);
	}
}
