/* SPDX-License-Identifier: MIT */
/*
 * lib/jsonparse.c's result for each file named, one line each, in a form tests/test-json-oracle.py
 * writes for Python's json.load too:
 *   ok VALUE      null, true, false, i:<decimal> (int64 or uint64), d:<%.17g> (a double),
 *                 s:<the string's bytes in hex>, [VALUE,...], {KEY:VALUE,...} (keys as s:..., in
 *                 the object's order)
 *   invalid LINE OFFSET WHAT   refused as not JSON
 *   nomem         out of memory
 *   unreadable    the file could not be read
 * Options before the files: --lax (PMU_JSON_LAX), --nonfinite (PMU_JSON_NONFINITE), --depth N (nesting
 * allowed; 64 without it).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "jsonparse.h"

static void hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%02x", (unsigned char)s[i]);
}

static void canon(json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null: fputs("null", stdout); return;
	case json_type_boolean: fputs(json_object_get_boolean(v) ? "true" : "false", stdout); return;
	case json_type_int:
		/* json-c keeps a value above INT64_MAX as a uint64; get_int64 clamps it */
		if (json_object_get_int64(v) == INT64_MAX && json_object_get_uint64(v) > (uint64_t)INT64_MAX)
			printf("i:%" PRIu64, json_object_get_uint64(v));
		else
			printf("i:%" PRId64, json_object_get_int64(v));
		return;
	case json_type_double: printf("d:%.17g", json_object_get_double(v)); return;
	case json_type_string:
		fputs("s:", stdout);
		hex(json_object_get_string(v), (size_t)json_object_get_string_len(v));
		return;
	case json_type_array:
		putchar('[');
		for (size_t i = 0; i < json_object_array_length(v); i++) {
			if (i)
				putchar(',');
			canon(json_object_array_get_idx(v, i));
		}
		putchar(']');
		return;
	case json_type_object: {
		int first = 1;
		putchar('{');
		json_object_object_foreach(v, key, val) {
			if (!first)
				putchar(',');
			first = 0;
			fputs("s:", stdout);
			hex(key, strlen(key));
			putchar(':');
			canon(val);
		}
		putchar('}');
		return;
	}
	}
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (*len + 65536 > cap) {
			char *nb = realloc(buf, cap = 2 * cap + 65536);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
	} while (n > 0);
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	unsigned flags = 0;
	int depth = 64, i = 1;

	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--lax"))
			flags |= PMU_JSON_LAX;
		else if (!strcmp(argv[i], "--nonfinite"))
			flags |= PMU_JSON_NONFINITE;
		else if (!strcmp(argv[i], "--depth") && i + 1 < argc)
			depth = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: json-canon [--lax] [--nonfinite] [--depth N] FILE...\n");
			return 2;
		}
	}
	for (; i < argc; i++) {
		struct pmu_json_error e;
		json_object *v;
		size_t len;
		char *text = slurp(argv[i], &len);
		int r;
		if (!text) {
			puts("unreadable");
			continue;
		}
		r = pmu__json_parse(text, len, depth, flags, &v, &e);
		free(text);
		if (r == -ENOMEM) {
			puts("nomem");
			continue;
		}
		if (r < 0) {
			printf("invalid %zu %zu %s\n", e.line, e.offset, e.what);
			continue;
		}
		fputs("ok ", stdout);
		canon(v);
		putchar('\n');
		json_object_put(v);
	}
	return 0;
}
