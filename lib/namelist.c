/* SPDX-License-Identifier: MIT */
/* Comma-separated name lists: membership, and the union kept in order — what a metric adds to an
 * event list (the events it needs that the list does not name yet), in the library's regions and
 * in `pmu stat -M`. Compiled into the library and into the command; depends on libc only. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "namelist.h"

/* The next item of *@p: its start, its length without surrounding spaces in *@len; NULL at the end.
 * A comma between a PMU's slashes separates its terms, not items (cpu/UOPS_DECODED.DEC0,cmask=1/,
 * the spelling of an event a metric writes cpu@UOPS_DECODED.DEC0\,cmask\=1@). */
static const char *next_item(const char **p, size_t *len)
{
	const char *s = *p, *end;
	bool terms = false;

	while (*s == ',' || isspace((unsigned char)*s))
		s++;
	if (!*s)
		return NULL;
	for (end = s; *end && (*end != ',' || terms); end++)
		if (*end == '/')
			terms = !terms;
	*len = (size_t)(end - s);
	*p = s + *len;
	while (*len && isspace((unsigned char)s[*len - 1]))
		(*len)--;
	return s;
}

static bool has_n(const char *list, const char *name, size_t nl)
{
	const char *p = list ? list : "", *s;
	size_t l;

	while ((s = next_item(&p, &l)))
		if (l == nl && !strncasecmp(s, name, l))
			return true;
	return false;
}

bool pmu__names_has(const char *list, const char *name)
{
	return has_n(list, name, strlen(name));
}

bool pmu__names_any(const char *list, const char *names)
{
	const char *p = names ? names : "", *s;
	size_t l;

	while ((s = next_item(&p, &l)))
		if (has_n(list, s, l))
			return true;
	return false;
}

int pmu__names_add_new(char **list, const char *names, int (*keep)(const char *name, void *data), void *data)
{
	const char *p = names ? names : "", *s;
	size_t l;

	while ((s = next_item(&p, &l))) {
		size_t have = *list ? strlen(*list) : 0;
		char *name, *n;
		int r;
		if (!(name = strndup(s, l)))
			return -ENOMEM;
		if (keep && (r = keep(name, data)) != 0) {
			free(name);
			if (r < 0)
				return r;
			continue; /* > 0: left out */
		}
		if (has_n(*list, s, l)) {
			free(name);
			continue;
		}
		if (!(n = realloc(*list, have + l + 2))) {
			free(name);
			return -ENOMEM;
		}
		if (have)
			n[have++] = ',';
		memcpy(n + have, name, l + 1);
		*list = n;
		free(name);
	}
	return 0;
}
