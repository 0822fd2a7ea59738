/* SPDX-License-Identifier: MIT */
/* pmu report's reader: bounded reading, strict parsing, the schemas' checks,
 * the sums over files (report-read.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "jsonparse.h"
#include "report-read.h"
#include "util.h"

/* the schemas in tools/schemas/, compiled in by tools/embed.py */
extern const char report_schema_stat[], report_schema_regions[];

static int fail(char **err, int e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char **err, int e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(err, fmt, ap) < 0)
		*err = NULL;
	va_end(ap);
	return e;
}

/* Where a value is: a chain from the innermost key or index out to the document. */
struct seg {
	const struct seg *up;
	const char *key;         /* NULL: an array index */
	size_t idx;
};

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

/* -EINVAL with "'FILE': PATH: what" in *@err. */
static int refuse_at(const struct seg *at, const char *file, char **err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int refuse_at(const struct seg *at, const char *file, char **err, const char *fmt, ...)
{
	char *path = NULL, *what = NULL;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&what, fmt, ap);
	va_end(ap);
	if (r < 0 || path_of(at, &path) < 0)
		r = fail(err, -ENOMEM, "'%s': out of memory", file);
	else
		r = fail(err, -EINVAL, "'%s': %s%s%s", file, path, *path ? ": " : "", what);
	free(path);
	free(what);
	return r;
}

/* ---------------- names to positions ---------------- */

/* The position of @name in *@index, else @next after adding it (*@added). -ENOMEM. */
static int64_t index_pos(json_object **index, const char *name, size_t next, bool *added)
{
	json_object *pos;

	*added = false;
	if (!*index && !(*index = json_object_new_object()))
		return -ENOMEM;
	if (json_object_object_get_ex(*index, name, &pos))
		return json_object_get_int64(pos);
	if (!(pos = json_object_new_int64((int64_t)next)) || json_object_object_add(*index, name, pos) < 0) {
		json_object_put(pos);
		return -ENOMEM;
	}
	*added = true;
	return (int64_t)next;
}

/* The index's key of event @name counted in @cgroup: the name, or "name<TAB>cgroup" (a tab is in no
 * event's name); NULL when it does not fit @len bytes */
static const char *row_key(char *buf, size_t len, const char *name, const char *cgroup)
{
	if (!cgroup || !*cgroup)
		return name;
	return (size_t)snprintf(buf, len, "%s\t%s", name, cgroup) < len ? buf : NULL;
}

struct stat_row *stat_rows_of(struct stat_rows *rs, const char *name, const char *cgroup, bool *added)
{
	char key[PMU_NAME_MAX + 16 + sizeof(rs->v->cgroup) + 2];
	const char *k = row_key(key, sizeof(key), name, cgroup);
	struct stat_row *row = k ? stat_rows_named(rs, k, added) : NULL;

	if (row && *added && cgroup)
		snprintf(row->cgroup, sizeof(row->cgroup), "%s", cgroup);
	return row;
}

struct stat_row *stat_rows_named(struct stat_rows *rs, const char *name, bool *added)
{
	char key[PMU_NAME_MAX + sizeof(rs->v->cgroup) + 2];
	int64_t at;

	*added = false;
	if (!rs->index) /* rows made without names looked up (one pmu stat run): index them now */
		for (size_t j = 0; j < rs->n; j++)
			if (index_pos(&rs->index, row_key(key, sizeof(key), rs->v[j].info.name, rs->v[j].cgroup), j,
				      added) < 0)
				return NULL;
	at = index_pos(&rs->index, name, rs->n, added);
	if (at < 0)
		return NULL;
	if (*added) {
		/* capacity doubles: a file of many events costs linear time */
		if ((rs->n & (rs->n - 1)) == 0 || !rs->v) {
			struct stat_row *nv = realloc(rs->v, (rs->n ? 2 * rs->n : 1) * sizeof(*nv));
			if (!nv) {
				json_object_object_del(rs->index, name);
				*added = false;
				return NULL;
			}
			rs->v = nv;
		}
		memset(&rs->v[rs->n], 0, sizeof(rs->v[0]));
		snprintf(rs->v[rs->n].info.name, sizeof(rs->v[0].info.name), "%s", name);
		rs->n++;
	}
	return &rs->v[at];
}

void stat_rows_free(struct stat_rows *rs)
{
	free(rs->v);
	json_object_put(rs->index);
	memset(rs, 0, sizeof(*rs));
}

/* ---------------- reading and parsing ---------------- */

/* JSON values allowed in a file: each object or array counts this many, as
 * json-c spends far more on them (about 0.8 KB an empty object) */
#define CONTAINER_COST 8
#define MAX_COST 4000000

/*
 * One pass over the text before its json-c objects are built: the memory they
 * would take (MAX_COST), and \u0000, which the names read from the file, C
 * strings, would cut short (no name libpmu writes has one; lib/jsonparse.c
 * refuses it in a key). 0 or -EINVAL.
 */
static int prescan(const char *name, const char *text, size_t len, char **err)
{
	size_t cost = 1;
	bool in_str = false;

	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		if (in_str) {
			if (c == '\\' && i + 1 < len) {
				if (text[i + 1] == 'u' && i + 5 < len && !memcmp(text + i + 2, "0000", 4))
					return fail(err, -EINVAL, "'%s': a string holds \\u0000 (byte %zu): no report "
						    "libpmu writes has one", name, i);
				i++;
			} else if (c == '"') {
				in_str = false;
			}
			continue;
		}
		if (c == '"')
			in_str = true;
		else if (c == '{' || c == '[')
			cost += CONTAINER_COST;
		else if (c == ',')
			cost++;
		if (cost > MAX_COST)
			return fail(err, -EINVAL, "'%s': too many JSON values to read (over %d, counting an object or "
				    "array as %d: reading it would take gigabytes); no report libpmu writes comes "
				    "near: is it the right file?", name, MAX_COST, CONTAINER_COST);
	}
	return 0;
}

static json_object *schema_of(enum report_kind kind);
static void found(json_object *v, char *buf, size_t len);
static int check(json_object *v, json_object *s, json_object *root, const struct seg *at, const char *file,
		 char **err);

int report_parse(const char *name, const char *text, size_t len, json_object **doc, enum report_kind *kind,
		 char **err)
{
	struct pmu_json_error je;
	json_object *o, *sc = NULL;
	const char *sv;
	int r;

	*doc = NULL;
	*err = NULL;
	if ((r = prescan(name, text, len, err)) < 0)
		return r;
	/* depth 16: the schemas need 6; deeper is not a report, and costs stack. NaN and Infinity taken, to
	 * be refused by the schema's check, which names their key */
	r = pmu__json_parse(text, len, 16, PMU_JSON_NONFINITE, &o, &je);
	if (r == -ENOMEM)
		return fail(err, -ENOMEM, "'%s': out of memory", name);
	if (r < 0)
		return fail(err, -EINVAL, "'%s' is not JSON: line %zu (byte %zu): %s", name, je.line, je.offset, je.what);
	if (!o || !json_object_is_type(o, json_type_object)) {
		/* the type is named before the document is freed */
		r = fail(err, -EINVAL, "'%s' is neither a 'pmu stat --json' file nor a region report: a JSON "
			 "object is expected, it holds %s", name, json_type_to_name(json_object_get_type(o)));
		json_object_put(o);
		return r;
	}
	sv = json_object_object_get_ex(o, "schema", &sc) && json_object_is_type(sc, json_type_string) ?
		     json_object_get_string(sc) : NULL;
	*kind = sv && !strcmp(sv, "libpmu-stat/1")	? REPORT_STAT :
		sv && !strcmp(sv, "libpmu-regions/1") ? REPORT_REGIONS : 0;
	if (!*kind) {
		char what[96];
		if (json_object_object_get_ex(o, "schema", &sc))
			found(sc, what, sizeof(what));
		r = fail(err, -EINVAL, "'%s' is neither a 'pmu stat --json' file nor a region report: its key "
			 "'schema' should be \"libpmu-stat/1\" or \"libpmu-regions/1\"%s%s", name,
			 sc ? ", not " : ", and it has none", sc ? what : "");
		json_object_put(o);
		return r;
	}
	if (!schema_of(*kind)) {
		json_object_put(o);
		return fail(err, -ENOMEM, "'%s': out of memory", name);
	}
	if ((r = check(o, schema_of(*kind), schema_of(*kind), NULL, name, err)) < 0) {
		json_object_put(o);
		return r;
	}
	*doc = o;
	return 0;
}

int report_load(const char *path, json_object **doc, enum report_kind *kind, char **err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r;
	size_t len = 0, cap = 0;
	char *buf = NULL;
	struct stat st;

	*doc = NULL;
	*err = NULL;
	if (fd < 0)
		return fail(err, -errno, "cannot read '%s': %s", path, strerror(errno));
	/* a regular file's size is known; a FIFO, a process substitution, a device is read up to the bound */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > (off_t)REPORT_MAX_BYTES) {
		close(fd);
		return fail(err, -EINVAL, "'%s' is larger than %u MiB: far larger than any report libpmu writes; "
			    "is it the right file?", path, REPORT_MAX_BYTES >> 20);
	}
	for (;;) {
		ssize_t n;
		if (len + 1 >= cap) { /* room for the text and its NUL */
			char *nb;
			cap = cap ? 2 * cap : 65536;
			if (cap > (size_t)REPORT_MAX_BYTES + 2)
				cap = (size_t)REPORT_MAX_BYTES + 2;
			if (len + 1 >= cap) {
				free(buf);
				close(fd);
				return fail(err, -EINVAL, "'%s' goes on past %u MiB (a device or a pipe that does not "
					    "end?): far larger than any report libpmu writes; not read further",
					    path, REPORT_MAX_BYTES >> 20);
			}
			if (!(nb = realloc(buf, cap))) {
				free(buf);
				close(fd);
				return fail(err, -ENOMEM, "'%s': out of memory", path);
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n == 0)
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			free(buf);
			close(fd);
			return fail(err, r, "cannot read '%s': %s", path, strerror(-r));
		}
		len += (size_t)n;
	}
	close(fd);
	buf[len] = 0;
	r = report_parse(path, buf, len, doc, kind, err);
	free(buf);
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

/* A short rendering of what a key holds, for messages. */
static void found(json_object *v, char *buf, size_t len)
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

	found(v, what, sizeof(what));
	if (expected(s, root, &want) < 0)
		r = fail(err, -ENOMEM, "'%s': out of memory", file);
	else
		r = refuse_at(at, file, err, "expected %s, found %s", want, what);
	free(want);
	return r;
}

/*
 * An integer as JSON Schema has it (1.0 is one), within int64: json-c holds
 * integers above INT64_MAX as uint64 and clamps larger ones to UINT64_MAX,
 * so those are out of range rather than read wrong.
 */
static bool is_int64(json_object *v)
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
			return fail(err, -EINVAL, "'%s': the schema's reference %s is unknown", file, ref);
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
		return r < 0 ? fail(err, r, "'%s': the schema's pattern %s is beyond what pmu report matches (a "
				    "mistake in tools/schemas)", file, json_object_get_string(x))
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

/* ---------------- the sums ---------------- */

/* The string at @key of @o (checked by the schema: a string if present), else NULL. */
static const char *str_at(json_object *o, const char *key)
{
	json_object *x;

	return json_object_object_get_ex(o, key, &x) && json_object_is_type(x, json_type_string) ?
		       json_object_get_string(x) : NULL;
}

/* The count at @key (checked: an integer from 0 to INT64_MAX, perhaps written 1.0), else 0. */
static uint64_t count_at(json_object *o, const char *key)
{
	json_object *x;

	return json_object_object_get_ex(o, key, &x) && is_int64(x) && json_object_get_int64(x) > 0 ?
		       (uint64_t)json_object_get_int64(x) : 0;
}

/* The string at @key of @o is a C string (no NUL inside: json-c keeps its length apart), shorter than @max if not 0. */
static int name_ok(json_object *o, const char *key, size_t max, const struct seg *at, const char *file, char **err)
{
	struct seg in = { at, key, 0 };
	json_object *x;
	size_t len;

	if (!json_object_object_get_ex(o, key, &x))
		return refuse_at(at, file, err, "the key '%s' is missing", key);
	len = (size_t)json_object_get_string_len(x);
	if (len != strlen(json_object_get_string(x)))
		return refuse_at(&in, file, err, "holds a NUL character");
	if (max && len >= max)
		return refuse_at(&in, file, err, "%zu bytes long: libpmu writes them under %zu", len, max);
	return 0;
}

/* *@sum += the count at @key of @o, or -EINVAL naming it when 64 bits do not hold the sum. */
static int add_count(uint64_t *sum, json_object *o, const char *key, const struct seg *at, const char *file,
		     char **err)
{
	struct seg in = { at, key, 0 };

	if (__builtin_add_overflow(*sum, count_at(o, key), sum))
		return refuse_at(&in, file, err, "the sum over the files exceeds 2^64-1");
	return 0;
}

/* running_ns <= enabled_ns: a counter runs only while it is enabled. */
static int times_ok(json_object *e, const struct seg *at, const char *file, char **err)
{
	uint64_t en = count_at(e, "enabled_ns"), run = count_at(e, "running_ns");

	if (run > en)
		return refuse_at(at, file, err, "running_ns (%" PRIu64 ") exceeds enabled_ns (%" PRIu64 "): a counter "
				 "runs only while it is enabled", run, en);
	return 0;
}

bool label_is(const char *label, const char *name)
{
	size_t l = strlen(name);

	if (strncasecmp(label, name, l))
		return false;
	label += l;
	return !*label || *label == ':' || (l && name[l - 1] == '/' && strspn(label, "ukh") == strlen(label));
}

/* A count in fractions of @unit: the file's unit_scale @x (a number, the schema says) must be above 0; the
 * row keeps the unit (held by @s) and the factor. */
static int scaled_unit(struct saved_stat *s, struct stat_row *row, const char *unit, json_object *x,
		       const struct seg *at, const char *file, char **err)
{
	struct seg in = { at, "unit_scale", 0 };
	double f = json_object_get_double(x);
	json_object *u;

	if (!(f > 0) || !isfinite(f))
		return refuse_at(&in, file, err, "%g: a count is a positive fraction of its unit", f);
	if ((!s->units && !(s->units = json_object_new_array())) || !(u = json_object_new_string(unit)))
		return fail(err, -ENOMEM, "'%s': out of memory", file);
	if (json_object_array_add(s->units, u) < 0) {
		json_object_put(u);
		return fail(err, -ENOMEM, "'%s': out of memory", file);
	}
	row->info.unit = json_object_get_string(u);
	row->unit_scale = f;
	return 0;
}

static void file_free(struct saved_file *f)
{
	free(f->name);
	free(f->host);
	free(f->boot);
	strv_free(&f->cpu_wide);
}

/* Where and when @doc (of @file) counted, in a new entry of s->filev; its cpu-wide rows are added by the
 * caller. 0, or -ENOMEM. */
static int file_add(struct saved_stat *s, const char *file, json_object *doc)
{
	struct saved_file *v, *f;
	const char *host = str_at(doc, "host"), *boot = str_at(doc, "boot_id");

	while (s->nfilev > s->files) /* a file refused after its entry was made */
		file_free(&s->filev[--s->nfilev]);
	if (!(v = realloc(s->filev, (size_t)(s->files + 1) * sizeof(*v))))
		return -ENOMEM;
	s->filev = v;
	f = &v[s->files];
	memset(f, 0, sizeof(*f));
	s->nfilev++;
	f->start = count_at(doc, "wall_start_ns");
	f->end = count_at(doc, "wall_end_ns");
	if (!(f->name = strdup(file)) || (host && *host && !(f->host = strdup(host))) ||
	    (boot && *boot && !(f->boot = strdup(boot)))) {
		file_free(&s->filev[--s->nfilev]);
		return -ENOMEM;
	}
	return 0;
}

static bool has_name(const struct strv *sv, const char *name)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], name))
			return true;
	return false;
}

/* Files @x and @y counted on one machine at once (each says where and when). */
static bool overlap(const struct saved_file *x, const struct saved_file *y)
{
	bool same = x->boot && y->boot ? !strcmp(x->boot, y->boot) : !strcmp(x->host, y->host);

	return same && x->start < y->end && y->start < x->end;
}

enum sum_verdict saved_stat_overlap(const struct saved_stat *s, const char *name, int *a, int *b)
{
	int with = 0, unknown = 0;

	for (int i = 0; i < s->files; i++) {
		const struct saved_file *x = &s->filev[i];
		if (!has_name(&x->cpu_wide, name))
			continue;
		with++;
		if (!x->host || !x->start || !x->end) {
			unknown++;
			continue;
		}
		for (int j = 0; j < i; j++)
			if (has_name(&s->filev[j].cpu_wide, name) && s->filev[j].host && s->filev[j].start &&
			    s->filev[j].end && overlap(&s->filev[j], x)) {
				*a = j;
				*b = i;
				return SUM_OVERLAP;
			}
	}
	return with > 1 && unknown ? SUM_UNKNOWN : SUM_OK;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *saved_stat_signature(json_object *doc)
{
	json_object *ev = NULL;
	size_t n = json_object_object_get_ex(doc, "events", &ev) ? json_object_array_length(ev) : 0;
	const char **names = calloc(n + 1, sizeof(*names));
	char *sig = NULL;
	size_t len;
	FILE *f;

	if (!names || !(f = open_memstream(&sig, &len))) {
		free(names);
		return NULL;
	}
	for (size_t k = 0; k < n; k++)
		names[k] = str_at(json_object_array_get_idx(ev, k), "name") ?: "";
	qsort(names, n, sizeof(*names), cmp_str);
	fprintf(f, "runs=%llu", (unsigned long long)(count_at(doc, "runs") ?: 1));
	for (size_t k = 0; k < n; k++)
		fprintf(f, "\n%s", names[k]);
	free(names);
	if (fclose(f) != 0) {
		free(sig);
		return NULL;
	}
	return sig;
}

int saved_stat_command(json_object *const *docs, size_t n, char **out)
{
	char *first = NULL;

	*out = NULL;
	for (size_t i = 0; i < n; i++) {
		json_object *cmd = NULL;
		char *line = NULL;
		if (!json_object_object_get_ex(docs[i], "command", &cmd) || !json_object_is_type(cmd, json_type_array) ||
		    !json_object_array_length(cmd)) {
			free(first);
			return 0;
		}
		for (size_t k = 0; k < json_object_array_length(cmd); k++) {
			const char *w = json_object_get_string(json_object_array_get_idx(cmd, k));
			if (str_append(&line, " ", w ? w : "") < 0) {
				free(line);
				free(first);
				return -ENOMEM;
			}
		}
		if (!first) {
			first = line;
		} else {
			bool same = !strcmp(first, line);
			free(line);
			if (!same) {
				free(first);
				return 0;
			}
		}
	}
	*out = first;
	return 0;
}

static int cmp_start(const void *a, const void *b)
{
	const struct saved_file *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

bool saved_stat_covered(struct saved_stat *s, bool *overlapped)
{
	struct saved_file *v;
	uint64_t span = 0, covered = 0, end = 0; /* ns since the epoch: exact as integers (not as doubles) */

	*overlapped = false;
	if (s->files < 2)
		return true;
	for (int i = 0; i < s->files; i++)
		if (!s->filev[i].start || s->filev[i].end <= s->filev[i].start)
			return false;
	if (!(v = malloc((size_t)s->files * sizeof(*v))))
		return false;
	memcpy(v, s->filev, (size_t)s->files * sizeof(*v));
	qsort(v, (size_t)s->files, sizeof(*v), cmp_start);
	for (int i = 0; i < s->files; i++) {
		uint64_t from = v[i].start > end ? v[i].start : end;
		*overlapped = *overlapped || v[i].start < end;
		span += v[i].end - v[i].start;
		if (v[i].end > from)
			covered += v[i].end - from;
		if (v[i].end > end)
			end = v[i].end;
	}
	free(v);
	/* each file's elapsed time in the share of its wall-clock span not covered by another file's */
	s->times.elapsed_ns *= (double)covered / (double)span;
	return true;
}

int saved_stat_add(struct saved_stat *s, const char *file, json_object *doc, char **err)
{
	static const struct { const char *key; unsigned flag; } excl[] = {
		{ "exclude_user", PMU_EVF_EXCL_USER }, { "exclude_kernel", PMU_EVF_EXCL_KERNEL },
		{ "exclude_hv", PMU_EVF_EXCL_HV }, { "user_fallback", PMU_EVF_USER_FALLBACK },
		{ "cpu_wide", PMU_EVF_CPU_WIDE } };
	const size_t cpuid_max = sizeof(((struct pmu_caps *)0)->cpuid);
	const struct seg top = { NULL, "events", 0 };
	const char *cpuid = str_at(doc, "cpuid");
	json_object *ev, *x;
	int r;

	*err = NULL;
	if (!json_object_object_get_ex(doc, "events", &ev))
		return refuse_at(NULL, file, err, "the key 'events' is missing");
	if (cpuid && (r = name_ok(doc, "cpuid", cpuid_max, NULL, file, err)) < 0)
		return r;
	if (file_add(s, file, doc) < 0)
		return fail(err, -ENOMEM, "'%s': out of memory", file);
	for (int i = 0; i < s->files; i++) {
		const struct saved_file *prev = &s->filev[i], *cur = &s->filev[s->files];
		if (prev->host && cur->host && prev->start && !strcmp(prev->host, cur->host) && prev->start == cur->start &&
		    prev->end == cur->end && (!prev->boot || !cur->boot || !strcmp(prev->boot, cur->boot)))
			return refuse_at(NULL, file, err, "it holds the same run as '%s' (host %s, the same start and end): "
					 "summed, that run would be counted twice; name it once", prev->name, prev->host);
	}
	for (size_t k = 0; k < json_object_array_length(ev); k++) {
		json_object *e = json_object_array_get_idx(ev, k);
		const char *unit = str_at(e, "unit"), *pmu = str_at(e, "pmu");
		const struct seg at = { &top, NULL, k };
		struct stat_row *row;
		bool added;

		if ((r = name_ok(e, "name", sizeof(row->info.name), &at, file, err)) < 0 ||
		    (pmu && (r = name_ok(e, "pmu", sizeof(row->info.pmu), &at, file, err)) < 0) ||
		    (r = times_ok(e, &at, file, err)) < 0)
			return r;
		if (str_at(e, "cgroup") && (r = name_ok(e, "cgroup", sizeof(row->cgroup), &at, file, err)) < 0)
			return r;
		/* the same event counted in two cgroups (-G, --for-each-cgroup) is two rows */
		if (!(row = stat_rows_of(&s->rows, str_at(e, "name"), str_at(e, "cgroup"), &added)))
			return fail(err, -ENOMEM, "'%s': out of memory", file);
		if (added) {
			/* the file's unit: ns, or one its count is a fraction of (unit_scale); files written before
			 * it had one: time events by name */
			if (unit && json_object_object_get_ex(e, "unit_scale", &x)) {
				if ((r = scaled_unit(s, row, unit, x, &at, file, err)) < 0)
					return r;
			} else if (unit)
				row->info.unit = !strcmp(unit, "ns") ? "ns" : "";
			else
				row->info.unit = label_is(row->info.name, "task-clock") ||
							 label_is(row->info.name, "cpu-clock") ? "ns" : "";
			row->info.desc = "";
			row->info.note = "";
			row->supported = true;
			if (pmu)
				snprintf(row->info.pmu, sizeof(row->info.pmu), "%s", pmu);
			if (!strcmp(row->info.pmu, "software"))
				row->info.flags |= PMU_EVF_SOFTWARE;
			if (!strcmp(row->info.pmu, "tool")) /* duration_time, user_time, system_time: ns */
				row->info.flags |= PMU_EVF_SOFTWARE | PMU_EVF_TOOL;
			for (size_t f = 0; f < sizeof(excl) / sizeof(excl[0]); f++)
				if (json_object_object_get_ex(e, excl[f].key, &x) && json_object_get_boolean(x))
					row->info.flags |= excl[f].flag;
		}
		if (json_object_object_get_ex(e, "supported", &x) && !json_object_get_boolean(x))
			row->supported = false;
		if (json_object_object_get_ex(e, "cpu_wide", &x) && json_object_get_boolean(x) &&
		    strv_add(&s->filev[s->files].cpu_wide, row->info.name, strlen(row->info.name)) < 0)
			return fail(err, -ENOMEM, "'%s': out of memory", file);
		if (json_object_object_get_ex(e, "stddev_pct", &x)) {
			/* -r: the files' standard errors of the mean, as absolute values, add in quadrature */
			double prev = row->stddev_pct * (double)row->v.value / 100, add = json_object_get_double(x) *
				(double)count_at(e, "value") / 100, sum = (double)row->v.value + (double)count_at(e, "value");
			row->stddev_pct = sum > 0 ? 100 * sqrt(prev * prev + add * add) / sum : 0;
		}
		if ((r = add_count(&row->v.value, e, "value", &at, file, err)) < 0 ||
		    (r = add_count(&row->v.enabled, e, "enabled_ns", &at, file, err)) < 0 ||
		    (r = add_count(&row->v.running, e, "running_ns", &at, file, err)) < 0)
			return r;
	}
	if (!s->files)
		s->times.user_ns = s->times.sys_ns = 0;
	s->times.runs = (int)(count_at(doc, "runs") ?: 1); /* one number of runs per sum: saved_stat_signature */
	s->times.elapsed_ns += (double)count_at(doc, "elapsed_ns");
	/* CPU times are shown only when every file has them */
	if (json_object_object_get_ex(doc, "user_ns", NULL) && s->times.user_ns >= 0)
		s->times.user_ns += (double)count_at(doc, "user_ns");
	else
		s->times.user_ns = -1;
	if (json_object_object_get_ex(doc, "sys_ns", NULL) && s->times.sys_ns >= 0)
		s->times.sys_ns += (double)count_at(doc, "sys_ns");
	else
		s->times.sys_ns = -1;
	if (cpuid && !s->cpuid && !(s->cpuid = strdup(cpuid)))
		return fail(err, -ENOMEM, "'%s': out of memory", file);
	if (cpuid && strcmp(cpuid, s->cpuid) && !s->other_cpuid && !(s->other_cpuid = strdup(cpuid)))
		return fail(err, -ENOMEM, "'%s': out of memory", file);
	if (json_object_object_get_ex(doc, "constants", &x)) {
		if (!s->files)
			s->constants = json_object_get(x);
		else if (!s->constants || !json_object_equal(x, s->constants))
			s->constants_differ = true;
	} else if (s->constants) {
		s->constants_differ = true;
	}
	s->files++;
	return 0;
}

void saved_stat_free(struct saved_stat *s)
{
	for (int i = 0; i < s->nfilev; i++)
		file_free(&s->filev[i]);
	free(s->filev);
	stat_rows_free(&s->rows);
	free(s->cpuid);
	free(s->other_cpuid);
	json_object_put(s->constants);
	json_object_put(s->units);
	memset(s, 0, sizeof(*s));
}

/* The column of event @name, added if new. */
static int64_t column(struct saved_regions *r, const char *name)
{
	bool added;
	int64_t at = index_pos(&r->ev_index, name, r->events.n, &added);

	if (at >= 0 && added && strv_add(&r->events, name, strlen(name)) < 0) {
		json_object_object_del(r->ev_index, name);
		return -ENOMEM;
	}
	return at;
}

/* The cell of row @row for column @col, the row's cells grown to every column so far. */
static struct rg_cell *cell(struct saved_regions *r, struct rg_row *row, size_t col)
{
	if (col >= row->ncells) {
		struct rg_cell *nc = realloc(row->cells, r->events.n * sizeof(*nc));
		if (!nc)
			return NULL;
		for (size_t k = row->ncells; k < r->events.n; k++) {
			memset(&nc[k], 0, sizeof(nc[k]));
			nc[k].min = UINT64_MAX;
			nc[k].spread.cur_file = -1;
			nc[k].spread.min = UINT64_MAX;
		}
		row->cells = nc;
		row->ncells = r->events.n;
	}
	return &row->cells[col];
}

/* Fold the pending count of @s (a file's) into its min, max and sum. */
static void spread_fold(struct rg_spread *s)
{
	if (s->cur_file < 0)
		return;
	if (s->cur < s->min)
		s->min = s->cur;
	if (!s->n || s->cur > s->max) {
		s->max = s->cur;
		s->max_file = s->cur_file;
	}
	s->sum += (double)s->cur;
	s->n++;
	s->cur = 0;
	s->cur_file = -1;
}

/* Add file @file's count @v to @s; a second entry of the region in the same file adds to its count. */
static void spread_add(struct rg_spread *s, int file, uint64_t v)
{
	if (s->cur_file != file)
		spread_fold(s);
	s->cur_file = file;
	s->cur = s->cur > UINT64_MAX - v ? UINT64_MAX : s->cur + v;
}

void rg_cell_spread(const struct rg_cell *c, struct rg_dist *d)
{
	struct rg_spread s = c->spread;

	spread_fold(&s);
	d->n = s.n;
	d->min = s.n ? s.min : 0;
	d->max = s.max;
	d->mean = s.n ? s.sum / s.n : 0;
	if (d->mean > (double)d->max) /* rounding of sums past 2^53: the mean stays within [min, max] */
		d->mean = (double)d->max;
	if (d->mean < (double)d->min)
		d->mean = (double)d->min;
	d->max_file = s.max_file;
}

const char *rg_file_label(const struct saved_regions *r, int i)
{
	return r->filev[i].rank ? r->filev[i].rank : r->filev[i].name;
}

/* Record file @file (its "rank" from @doc) as file r->files, counted from here on. A rank (or,
 * without one, a file name) seen before gets a note: the file is one more entry of the spread. */
static int add_file(struct saved_regions *r, const char *file, json_object *doc, char **err)
{
	struct rg_file *fv = r->filev, *f;
	json_object *rk = NULL;
	char *key = NULL, *note = NULL;
	bool added;
	int64_t first;

	if (json_object_object_get_ex(doc, "rank", &rk) && json_object_is_type(rk, json_type_string) &&
	    (size_t)json_object_get_string_len(rk) != strlen(json_object_get_string(rk)))
		return refuse_at(&(const struct seg){ NULL, "rank", 0 }, file, err, "holds a NUL character");
	/* capacity doubles, as for rows */
	if ((r->files & (r->files - 1)) == 0 &&
	    !(fv = realloc(r->filev, (r->files ? 2 * (size_t)r->files : 1) * sizeof(*fv))))
		return fail(err, -ENOMEM, "'%s': out of memory", file);
	r->filev = fv;
	f = &fv[r->files];
	memset(f, 0, sizeof(*f));
	if (!(f->name = strdup(file)))
		goto oom;
	if (rk && is_int64(rk)) {
		f->rank_is_number = true;
		if (asprintf(&f->rank, "%" PRId64, json_object_get_int64(rk)) < 0) {
			f->rank = NULL;
			goto oom;
		}
	} else if (rk && json_object_is_type(rk, json_type_string) && !(f->rank = strdup(json_object_get_string(rk)))) {
		goto oom;
	}
	if (asprintf(&key, "%c:%s", f->rank ? 'r' : 'f', rg_file_label(r, r->files)) < 0) {
		key = NULL;
		goto oom;
	}
	first = index_pos(&r->rank_index, key, (size_t)r->files, &added);
	free(key);
	if (first < 0)
		goto oom;
	if (!added) {
		int n = f->rank ? asprintf(&note, "rank %s is in two files, '%s' and '%s': the spread across ranks "
					    "counts each file as a rank", f->rank, fv[first].name, file) :
				  asprintf(&note, "'%s' is given twice: the spread across files counts it twice", file);
		if (n < 0 || strv_add(&r->notes, note, strlen(note)) < 0) {
			if (n >= 0)
				free(note);
			goto oom;
		}
		free(note);
	}
	r->files++;
	return 0;
oom:
	free(f->name);
	free(f->rank);
	return fail(err, -ENOMEM, "'%s': out of memory", file);
}

int saved_regions_add(struct saved_regions *r, const char *file, json_object *doc, char **err)
{
	const struct seg top = { NULL, "regions", 0 }, evtop = { NULL, "events", 0 };
	json_object *regs, *evs;
	int rc;

	*err = NULL;
	if (!json_object_object_get_ex(doc, "regions", &regs))
		return refuse_at(NULL, file, err, "the key 'regions' is missing");
	if ((rc = add_file(r, file, doc, err)) < 0)
		return rc;
	if (json_object_object_get_ex(doc, "events", &evs))
		for (size_t k = 0; k < json_object_array_length(evs); k++) {
			json_object *e = json_object_array_get_idx(evs, k);
			const struct seg at = { &evtop, NULL, k };
			if ((size_t)json_object_get_string_len(e) != strlen(json_object_get_string(e)))
				return refuse_at(&at, file, err, "holds a NUL character");
			if (column(r, json_object_get_string(e)) < 0)
				return fail(err, -ENOMEM, "'%s': out of memory", file);
		}
	for (size_t i = 0; i < json_object_array_length(regs); i++) {
		json_object *reg = json_object_array_get_idx(regs, i), *events;
		const struct seg at = { &top, NULL, i }, atev = { &at, "events", 0 };
		const char *name;
		struct rg_row *row;
		bool added;
		int64_t pos;

		if ((rc = name_ok(reg, "name", 0, &at, file, err)) < 0)
			return rc;
		name = str_at(reg, "name");
		if ((pos = index_pos(&r->row_index, name, r->nrows, &added)) < 0)
			return fail(err, -ENOMEM, "'%s': out of memory", file);
		if (added) {
			/* capacity doubles: a file of many regions costs linear time */
			struct rg_row *nr = r->rows;
			if ((r->nrows & (r->nrows - 1)) == 0 &&
			    (nr = realloc(r->rows, (r->nrows ? 2 * r->nrows : 1) * sizeof(*nr))))
				r->rows = nr;
			if (!nr || !(nr[r->nrows].name = strdup(name))) {
				json_object_object_del(r->row_index, name);
				return fail(err, -ENOMEM, "'%s': out of memory", file);
			}
			nr[r->nrows].calls = 0;
			nr[r->nrows].cells = NULL;
			nr[r->nrows].ncells = 0;
			r->nrows++;
		}
		row = &r->rows[pos];
		if ((rc = add_count(&row->calls, reg, "calls", &at, file, err)) < 0)
			return rc;
		if (!json_object_object_get_ex(reg, "events", &events))
			continue;
		json_object_object_foreach(events, en, e) {
			const struct seg ate = { &atev, en, 0 };
			int64_t col = column(r, en);
			struct rg_cell *c;
			if (col < 0 || !(c = cell(r, row, (size_t)col)))
				return fail(err, -ENOMEM, "'%s': out of memory", file);
			if (!e)
				continue; /* null: not counted in that file */
			if ((rc = times_ok(e, &ate, file, err)) < 0 || (rc = add_count(&c->v.value, e, "value", &ate, file, err)) < 0 ||
			    (rc = add_count(&c->v.enabled, e, "enabled_ns", &ate, file, err)) < 0 ||
			    (rc = add_count(&c->v.running, e, "running_ns", &ate, file, err)) < 0)
				return rc;
			c->seen = true;
			spread_add(&c->spread, r->files - 1,
				   json_object_object_get_ex(e, "scaled", NULL) ? count_at(e, "scaled") : count_at(e, "value"));
			if (json_object_object_get_ex(e, "min", NULL) && count_at(e, "min") < c->min)
				c->min = count_at(e, "min");
			if (count_at(e, "max") > c->max)
				c->max = count_at(e, "max");
		}
	}
	return 0;
}

void saved_regions_free(struct saved_regions *r)
{
	for (int i = 0; i < r->files; i++) {
		free(r->filev[i].name);
		free(r->filev[i].rank);
	}
	free(r->filev);
	json_object_put(r->rank_index);
	strv_free(&r->notes);
	strv_free(&r->events);
	for (size_t i = 0; i < r->nrows; i++) {
		free(r->rows[i].name);
		free(r->rows[i].cells);
	}
	free(r->rows);
	json_object_put(r->ev_index);
	json_object_put(r->row_index);
	memset(r, 0, sizeof(*r));
}
