/* SPDX-License-Identifier: MIT */
/* pmu report's JSON-Schema validator: the schemas compiled in, checked
 * key by key, a refusal naming where the value is (schema-check.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jsonparse.h"
#include "schema-check.h"
#include "util.h"

/* the schemas in tools/schemas/, compiled in by gen/embed.py */
extern const char report_schema_stat[], report_schema_regions[];

int report_fail(char **err, int e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(err, fmt, ap) < 0)
		*err = NULL;
	va_end(ap);
	return e;
}

/* "events[2].value", `regions[0].events["a b"]`: a key other than [A-Za-z0-9_.-] in JSON quotes */
static int path_of(const struct seg *at, char **out)
{
	char num[32];
	json_object *q;
	int r;

	if (!at)
		return str_append(out, NULL, "");
	if ((r = path_of(at->up, out)) < 0)
		return r;
	if (!at->key) {
		snprintf(num, sizeof(num), "[%zu]", at->idx);
		return str_append(out, NULL, num);
	}
	if (at->key[0] && strspn(at->key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") ==
				  strlen(at->key))
		return str_append(out, at->up ? "." : NULL, at->key);
	if (!(q = json_object_new_string(at->key)))
		return -ENOMEM;
	r = str_append(out, NULL, "[");
	r = r < 0 ? r : str_append(out, NULL, json_object_to_json_string_ext(q, JSON_C_TO_STRING_PLAIN));
	r = r < 0 ? r : str_append(out, NULL, "]");
	json_object_put(q);
	return r;
}

int refuse_at(const struct seg *at, const char *file, char **err, const char *fmt, ...)
{
	char *path = NULL, *what = NULL;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&what, fmt, ap);
	va_end(ap);
	if (r < 0 || path_of(at, &path) < 0)
		r = report_fail(err, -ENOMEM, "'%s': out of memory", file);
	else
		r = report_fail(err, -EINVAL, "'%s': %s%s%s", file, path, *path ? ": " : "", what);
	free(path);
	free(what);
	return r;
}

/* ---------------- the schemas ---------------- */

static json_object *schema_of(enum report_kind kind)
{
	static json_object *parsed[3];
	const char *text = kind == REPORT_STAT ? report_schema_stat : report_schema_regions;
	struct pmu_json_error je;

	/* NULL when out of memory: the schemas compiled in are JSON (tests/test-report-types.py reads them) */
	if (!parsed[kind])
		pmu__json_parse(text, strlen(text), 64, 0, &parsed[kind], &je);
	return parsed[kind];
}

void what_found(json_object *v, char *buf, size_t len)
{
	const char *t;
	size_t n;

	switch (json_object_get_type(v)) {
	case json_type_null: snprintf(buf, len, "null"); return;
	case json_type_object: snprintf(buf, len, "an object"); return;
	case json_type_array: snprintf(buf, len, "an array"); return;
	case json_type_boolean: snprintf(buf, len, "%s", json_object_get_boolean(v) ? "true" : "false"); return;
	case json_type_string: t = "a string "; break;
	default: t = "";
	}
	n = (size_t)snprintf(buf, len, "%s%s", t, json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
	if (n >= len && len > 5) {
		/* cut on a character boundary, and say so */
		size_t e = len - 5;
		while (e && ((unsigned char)buf[e] & 0xc0) == 0x80)
			e--;
		memcpy(buf + e, "...", 4);
	}
}

static const char *type_words(const char *t)
{
	static const struct { const char *type, *words; } w[] = {
		{ "integer", "an integer" }, { "number", "a finite number" }, { "string", "a string" },
		{ "boolean", "true or false" }, { "null", "null" }, { "array", "an array" }, { "object", "an object" } };
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(t, w[i].type))
			return w[i].words;
	return t;
}

/* What schema @s asks for, in words: "an integer from 0 to 9223372036854775807", "\"libpmu-stat/1\"". */
static int expected(json_object *s, json_object *root, char **out)
{
	json_object *t, *x;
	char num[64];
	int r = 0;

	if (json_object_object_get_ex(s, "$ref", &x)) {
		const char *ref = json_object_get_string(x);
		if (!strncmp(ref, "#/$defs/", 8) && json_object_object_get_ex(root, "$defs", &t) &&
		    json_object_object_get_ex(t, ref + 8, &x))
			return expected(x, root, out);
	}
	if (json_object_object_get_ex(s, "const", &x))
		return str_append(out, NULL, json_object_to_json_string_ext(x, JSON_C_TO_STRING_PLAIN));
	if (json_object_object_get_ex(s, "oneOf", &x)) {
		for (size_t i = 0; r == 0 && i < json_object_array_length(x); i++) {
			r = i ? str_append(out, NULL, " or ") : 0;
			r = r < 0 ? r : expected(json_object_array_get_idx(x, i), root, out);
		}
		return r;
	}
	if (json_object_object_get_ex(s, "type", &t)) {
		if (json_object_is_type(t, json_type_array))
			for (size_t i = 0; r == 0 && i < json_object_array_length(t); i++)
				r = str_append(out, i ? " or " : NULL,
					       type_words(json_object_get_string(json_object_array_get_idx(t, i))));
		else
			r = str_append(out, NULL, type_words(json_object_get_string(t)));
	}
	if (r == 0 && json_object_object_get_ex(s, "minimum", &x)) {
		json_object *mx;
		if (json_object_object_get_ex(s, "maximum", &mx))
			snprintf(num, sizeof(num), " from %g to %g", json_object_get_double(x), json_object_get_double(mx));
		else if (json_object_object_get_ex(s, "type", &t) && !strcmp(json_object_get_string(t), "integer"))
			snprintf(num, sizeof(num), " from %" PRId64 " to %" PRId64, json_object_get_int64(x), INT64_MAX);
		else
			snprintf(num, sizeof(num), " of %g or more", json_object_get_double(x));
		r = str_append(out, NULL, num);
	}
	if (r == 0 && json_object_object_get_ex(s, "pattern", &x)) {
		r = str_append(out, NULL, " matching ");
		r = r < 0 ? r : str_append(out, NULL, json_object_get_string(x));
	}
	if (r == 0 && json_object_object_get_ex(s, "minItems", &x)) {
		snprintf(num, sizeof(num), " of at least %d item%s", json_object_get_int(x),
			 json_object_get_int(x) == 1 ? "" : "s");
		r = str_append(out, NULL, num);
	}
	return r;
}

static int refuse(json_object *v, json_object *s, json_object *root, const struct seg *at, const char *file,
		  char **err)
{
	char *want = NULL, what[96];
	int r;

	what_found(v, what, sizeof(what));
	if (expected(s, root, &want) < 0)
		r = report_fail(err, -ENOMEM, "'%s': out of memory", file);
	else
		r = refuse_at(at, file, err, "expected %s, found %s", want, what);
	free(want);
	return r;
}

bool is_int64(json_object *v)
{
	double d;

	if (json_object_is_type(v, json_type_int))
		return !(json_object_get_int64(v) == INT64_MAX && json_object_get_uint64(v) > INT64_MAX);
	if (!json_object_is_type(v, json_type_double))
		return false;
	d = json_object_get_double(v);
	return isfinite(d) && d == floor(d) && d >= -0x1p63 && d < 0x1p63;
}

static bool type_is(json_object *v, const char *t)
{
	enum json_type jt = json_object_get_type(v);

	if (!strcmp(t, "integer"))
		return is_int64(v);
	if (!strcmp(t, "number"))
		return (jt == json_type_int && is_int64(v)) ||
		       (jt == json_type_double && isfinite(json_object_get_double(v)));
	return (!strcmp(t, "string") && jt == json_type_string) || (!strcmp(t, "boolean") && jt == json_type_boolean) ||
	       (!strcmp(t, "null") && jt == json_type_null) || (!strcmp(t, "array") && jt == json_type_array) ||
	       (!strcmp(t, "object") && jt == json_type_object);
}

static bool type_ok(json_object *v, json_object *s)
{
	json_object *t;

	if (!json_object_object_get_ex(s, "type", &t))
		return true;
	if (!json_object_is_type(t, json_type_array))
		return type_is(v, json_object_get_string(t));
	for (size_t i = 0; i < json_object_array_length(t); i++)
		if (type_is(v, json_object_get_string(json_object_array_get_idx(t, i))))
			return true;
	return false;
}

/* One atom of a pattern at @p: a character, '.', \c or a [set]; its end in *@end. Does it take @c? -EINVAL:
 * not an atom this matcher knows. */
static int atom_takes(const char *p, const char **end, unsigned char c)
{
	bool in = false, neg;

	if (*p == '\\' && p[1]) {
		*end = p + 2;
		return (unsigned char)p[1] == c;
	}
	if (*p == '.') {
		*end = p + 1;
		return c != '\n';
	}
	if (strchr("()|{}*+?$^", *p))
		return -EINVAL;
	if (*p != '[') {
		*end = p + 1;
		return (unsigned char)*p == c;
	}
	neg = *++p == '^';
	p += neg;
	do {
		unsigned char lo = (unsigned char)*p, hi = lo;
		if (!lo)
			return -EINVAL;
		if (p[1] == '-' && p[2] && p[2] != ']') {
			hi = (unsigned char)p[2];
			p += 2;
		}
		in |= lo <= c && c <= hi;
	} while (*++p != ']');
	*end = p + 1;
	return in != neg;
}

/* Does @p (after its '^', or at each start) match @s up to its end where it ends with '$'? 1, 0, -EINVAL. */
static int match_here(const char *p, const char *s, const char *e)
{
	const char *next;
	int t;

	if (!*p)
		return 1;
	if (p[0] == '$' && !p[1])
		return s == e;
	if ((t = atom_takes(p, &next, s < e ? (unsigned char)*s : 0)) < 0)
		return t;
	if (*next == '*' || *next == '+' || *next == '?') {
		/* greedy: as many as the atom takes, then fewer (a schema's patterns are short) */
		size_t n = 0, max = *next == '?' ? 1 : (size_t)(e - s);
		const char *dummy;
		while (n < max && s + n < e && atom_takes(p, &dummy, (unsigned char)s[n]) == 1)
			n++;
		for (size_t k = n + 1; k-- > (*next == '+' ? 1u : 0u);)
			if ((t = match_here(next + 1, s + k, e)) != 0)
				return t;
		return 0;
	}
	return s < e && t == 1 ? match_here(next, s + 1, e) : 0;
}

/*
 * Does string @v match pattern @p (the schema's)? 1 or 0; -EINVAL for a pattern beyond what the schemas
 * use (anchors, characters, '.', \c, [sets] with ranges or '^', each with *, + or ?). Matched here, not
 * with regexec: glibc's says "no match" when its allocations fail, which made an allocation failure
 * a file's fault.
 */
static int matches(json_object *p, json_object *v)
{
	const char *pat = json_object_get_string(p), *s = json_object_get_string(v);
	const char *e = s + json_object_get_string_len(v);
	int r = 0;

	if (*pat == '^')
		return match_here(pat + 1, s, e);
	for (const char *at = s; r == 0 && at <= e; at++)
		r = match_here(pat, at, e);
	return r;
}

/*
 * Check @v against schema @s (@root: the whole schema, for $ref): type,
 * const, minimum, maximum, pattern, minItems, properties, items,
 * additionalProperties (a schema), oneOf. Keys the schema does not name are
 * skipped (fields are only ever added); "required" is left to the reader,
 * which needs fewer keys than pmu stat writes (older files lack some).
 */
static int check(json_object *v, json_object *s, json_object *root, const struct seg *at, const char *file,
		 char **err)
{
	json_object *x, *props = NULL, *addl = NULL;
	int r;

	if (json_object_object_get_ex(s, "$ref", &x)) {
		const char *ref = json_object_get_string(x);
		json_object *defs;
		if (strncmp(ref, "#/$defs/", 8) || !json_object_object_get_ex(root, "$defs", &defs) ||
		    !json_object_object_get_ex(defs, ref + 8, &s))
			return report_fail(err, -EINVAL, "'%s': the schema's reference %s is unknown", file, ref);
	}
	if (json_object_object_get_ex(s, "oneOf", &x)) {
		/* the alternative whose type fits decides (the schemas' alternatives differ in type) */
		for (size_t i = 0; i < json_object_array_length(x); i++)
			if (type_ok(v, json_object_array_get_idx(x, i)))
				return check(v, json_object_array_get_idx(x, i), root, at, file, err);
		return refuse(v, s, root, at, file, err);
	}
	if (!type_ok(v, s))
		return refuse(v, s, root, at, file, err);
	if (json_object_object_get_ex(s, "const", &x) && !json_object_equal(v, x))
		return refuse(v, s, root, at, file, err);
	if (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)) {
		double d = json_object_get_double(v);
		bool is_int = json_object_is_type(v, json_type_int);
		if (json_object_object_get_ex(s, "minimum", &x) &&
		    (is_int && json_object_is_type(x, json_type_int) ? json_object_get_int64(v) < json_object_get_int64(x)
								      : d < json_object_get_double(x)))
			return refuse(v, s, root, at, file, err);
		if (json_object_object_get_ex(s, "maximum", &x) && d > json_object_get_double(x))
			return refuse(v, s, root, at, file, err);
	}
	if (json_object_is_type(v, json_type_string) && json_object_object_get_ex(s, "pattern", &x) &&
	    (r = matches(x, v)) <= 0)
		return r < 0 ? report_fail(err, r, "'%s': the schema's pattern %s is beyond what pmu report "
					   "matches (a mistake in tools/schemas)", file, json_object_get_string(x))
			     : refuse(v, s, root, at, file, err);
	if (json_object_is_type(v, json_type_array)) {
		size_t n = json_object_array_length(v);
		if (json_object_object_get_ex(s, "minItems", &x) && n < (size_t)json_object_get_int64(x))
			return refuse(v, s, root, at, file, err);
		if (json_object_object_get_ex(s, "items", &x))
			for (size_t i = 0; i < n; i++) {
				struct seg in = { at, NULL, i };
				if ((r = check(json_object_array_get_idx(v, i), x, root, &in, file, err)) < 0)
					return r;
			}
	}
	if (json_object_is_type(v, json_type_object)) {
		json_object_object_get_ex(s, "properties", &props);
		if (json_object_object_get_ex(s, "additionalProperties", &addl) &&
		    !json_object_is_type(addl, json_type_object))
			addl = NULL; /* false: keys the schema does not name are a newer version's, skipped */
		json_object_object_foreach(v, key, val) {
			struct seg in = { at, key, 0 };
			json_object *ks = NULL;
			if (!(props && json_object_object_get_ex(props, key, &ks)))
				ks = addl;
			if (ks && (r = check(val, ks, root, &in, file, err)) < 0)
				return r;
		}
	}
	return 0;
}

int schema_check(json_object *doc, enum report_kind kind, const char *file, char **err)
{
	json_object *s = schema_of(kind);

	if (!s)
		return report_fail(err, -ENOMEM, "'%s': out of memory", file);
	return check(doc, s, s, NULL, file, err);
}
