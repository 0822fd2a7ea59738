/* SPDX-License-Identifier: MIT */
/* JSON text to json-c objects, by recursive descent bounded by the caller's depth, every allocation
 * checked (jsonparse.h). json-c's tokener is not used: in 0.16 it copies an object's key with an
 * unchecked strdup and crashes when that allocation fails. */
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "jsonparse.h"

struct parser {
	const char *s;
	size_t len, pos;
	int max_depth;
	unsigned flags;
	int err;           /* 0, -EINVAL or -ENOMEM, set once */
	struct pmu_json_error *e;
	/* decoded strings and number texts, a stack: an object's key stays below the value parsed after it */
	char *buf;
	size_t cap, used;
	locale_t c_locale; /* for strtod_l, asked for at the first number with a fraction or exponent */
};

static size_t line_of(const struct parser *p, size_t at)
{
	size_t line = 1;

	for (size_t i = 0; i < at && i < p->len; i++)
		line += p->s[i] == '\n';
	return line;
}

static int refuse(struct parser *p, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(struct parser *p, size_t at, const char *fmt, ...)
{
	va_list ap;

	if (p->err)
		return p->err;
	p->err = -EINVAL;
	p->e->offset = at;
	p->e->line = line_of(p, at);
	va_start(ap, fmt);
	vsnprintf(p->e->what, sizeof(p->e->what), fmt, ap);
	va_end(ap);
	return p->err;
}

static int nomem(struct parser *p)
{
	if (p->err)
		return p->err;
	p->err = -ENOMEM;
	p->e->offset = p->pos;
	p->e->line = line_of(p, p->pos);
	snprintf(p->e->what, sizeof(p->e->what), "out of memory");
	return p->err;
}

/* The byte at @at for a message: 'x', byte 0x01, the end of the text. */
static const char *shown(const struct parser *p, size_t at, char *buf, size_t len)
{
	unsigned char c;

	if (at >= p->len)
		return "the end of the text";
	c = (unsigned char)p->s[at];
	if (c >= 0x21 && c < 0x7f)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", c);
	return buf;
}

static void skip_space(struct parser *p)
{
	while (p->pos < p->len) {
		char c = p->s[p->pos];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		p->pos++;
	}
}

/* Room for @n more bytes on the buffer's stack. */
static int reserve(struct parser *p, size_t n)
{
	char *nb;
	size_t cap;

	if (p->cap - p->used >= n)
		return 0;
	if (n > SIZE_MAX / 2 - p->used)
		return nomem(p);
	cap = p->cap ? p->cap : 256;
	while (cap - p->used < n)
		cap *= 2;
	if (!(nb = realloc(p->buf, cap)))
		return nomem(p);
	p->buf = nb;
	p->cap = cap;
	return 0;
}

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		char c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *d, unsigned cp)
{
	if (cp < 0x80) {
		d[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		d[0] = (char)(0xc0 | cp >> 6);
		d[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		d[0] = (char)(0xe0 | cp >> 12);
		d[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		d[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	d[0] = (char)(0xf0 | cp >> 18);
	d[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	d[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	d[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * The string at p->pos (its opening quote) decoded onto the buffer's stack at *@at, *@n bytes and a
 * NUL after them; *@nul: it holds a NUL (\u0000). p->pos ends after the closing quote.
 */
static int string_at(struct parser *p, size_t *at, size_t *n, bool *nul)
{
	size_t start = ++p->pos, i = start;
	char *d;

	*nul = false;
	/* the text's length bounds the decoded length: an escape never decodes longer than it is written */
	for (;;) {
		unsigned char c;
		if (i >= p->len)
			return refuse(p, p->len, "the text ends inside a string (opened at line %zu)",
				      line_of(p, start - 1));
		c = (unsigned char)p->s[i];
		if (c == '"')
			break;
		if (c == '\\') {
			i += 2;
			continue;
		}
		if (c < 0x20 && (c == 0 || !(p->flags & PMU_JSON_LAX)))
			return refuse(p, i, "control character 0x%02x in a string: JSON needs it escaped "
				      "(\\u%04x)", c, c);
		i++;
	}
	if (reserve(p, i - start + 1) < 0)
		return p->err;
	*at = p->used;
	d = p->buf + p->used;
	for (i = start; p->s[i] != '"'; ) {
		unsigned cp, lo;
		char c = p->s[i];
		if (c != '\\') {
			*d++ = c;
			i++;
			continue;
		}
		c = p->s[i + 1];
		switch (c) {
		case '"': case '\\': case '/': *d++ = c; i += 2; continue;
		case 'b': *d++ = '\b'; i += 2; continue;
		case 'f': *d++ = '\f'; i += 2; continue;
		case 'n': *d++ = '\n'; i += 2; continue;
		case 'r': *d++ = '\r'; i += 2; continue;
		case 't': *d++ = '\t'; i += 2; continue;
		case 'u': break;
		default: {
			char b[24];
			return refuse(p, i, "unknown escape: a backslash and %s (JSON has \\\" \\\\ \\/ \\b \\f "
				      "\\n \\r \\t \\uXXXX)", shown(p, i + 1, b, sizeof(b)));
		}
		}
		if (i + 6 > p->len || hex4(p->s + i + 2, &cp) < 0)
			return refuse(p, i, "\\u needs four hexadecimal digits");
		i += 6;
		if (cp >= 0xd800 && cp <= 0xdbff && i + 6 <= p->len && p->s[i] == '\\' && p->s[i + 1] == 'u' &&
		    hex4(p->s + i + 2, &lo) == 0 && lo >= 0xdc00 && lo <= 0xdfff) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			i += 6;
		} else if (cp >= 0xd800 && cp <= 0xdfff) {
			cp = 0xfffd; /* half a pair: json-c's replacement character */
		}
		*nul |= cp == 0;
		d += put_utf8(d, cp);
	}
	p->pos = i + 1;
	*n = (size_t)(d - (p->buf + *at));
	*d = 0;
	p->used += *n + 1;
	return 0;
}

/* json-c's number object for the text [start, p->pos) (checked against the grammar), -ENOMEM. */
static int number_object(struct parser *p, size_t start, bool integer, json_object **out)
{
	const char *t = p->s + start;
	size_t n = p->pos - start, at;
	bool neg = *t == '-';
	double d;

	if (integer) {
		/* past 64 bits: UINT64_MAX or INT64_MIN, as json-c clamped it (still not an int64, for the first) */
		uint64_t v = 0;
		for (size_t i = neg; i < n; i++) {
			unsigned dg = (unsigned)(t[i] - '0');
			if (v > (UINT64_MAX - dg) / 10) {
				v = neg ? (uint64_t)INT64_MAX + 1 : UINT64_MAX;
				break;
			}
			v = v * 10 + dg;
		}
		if (!neg && v > (uint64_t)INT64_MAX)
			*out = json_object_new_uint64(v);
		else if (!neg)
			*out = json_object_new_int64((int64_t)v);
		else
			*out = json_object_new_int64(v >= (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v);
		return *out ? 0 : nomem(p);
	}
	/* strtod_l in the C locale: a program that set LC_NUMERIC to one with a decimal comma still reads
	 * 0.5 (glibc's "C" locale object is static: asking for it allocates nothing) */
	if (p->c_locale == (locale_t)0 && (p->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0)) == (locale_t)0)
		return nomem(p);
	if (reserve(p, n + 1) < 0)
		return p->err;
	at = p->used;
	memcpy(p->buf + at, t, n);
	p->buf[at + n] = 0;
	d = strtod_l(p->buf + at, NULL, p->c_locale);
	*out = json_object_new_double_s(d, p->buf + at);
	return *out ? 0 : nomem(p);
}

/* The number at p->pos, by RFC 8259's grammar. */
static int number(struct parser *p, json_object **out)
{
	size_t start = p->pos, i = p->pos;
	bool integer = true;
	char b[24];

	if (i < p->len && p->s[i] == '-')
		i++;
	if (i >= p->len || p->s[i] < '0' || p->s[i] > '9')
		return refuse(p, i, "a minus sign and %s: a number needs a digit after its '-'",
			      shown(p, i, b, sizeof(b)));
	if (p->s[i] == '0' && i + 1 < p->len && p->s[i + 1] >= '0' && p->s[i + 1] <= '9')
		return refuse(p, i, "a number with a leading zero (JSON has none; octal is not JSON)");
	while (i < p->len && p->s[i] >= '0' && p->s[i] <= '9')
		i++;
	if (i < p->len && p->s[i] == '.') {
		integer = false;
		if (++i >= p->len || p->s[i] < '0' || p->s[i] > '9')
			return refuse(p, i, "%s after a decimal point: JSON needs a digit there",
				      shown(p, i, b, sizeof(b)));
		while (i < p->len && p->s[i] >= '0' && p->s[i] <= '9')
			i++;
	}
	if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
		integer = false;
		if (++i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
			i++;
		if (i >= p->len || p->s[i] < '0' || p->s[i] > '9')
			return refuse(p, i, "%s in an exponent: JSON needs a digit there", shown(p, i, b, sizeof(b)));
		while (i < p->len && p->s[i] >= '0' && p->s[i] <= '9')
			i++;
	}
	p->pos = i;
	return number_object(p, start, integer, out);
}

static int value(struct parser *p, int depth, json_object **out);

/*
 * @key = @v in object @o; @v is owned by @o afterwards, freed on failure. A new key makes json-c copy
 * it and, when the table is full enough, grow the table after the copy, losing the copy if growing
 * fails: the table is grown first here, through an entry whose key json-c does not copy.
 */
static int member(struct parser *p, json_object *o, const char *key, json_object *v)
{
	struct lh_table *t = json_object_get_object(o);

	if (lh_table_length(t) >= t->size * LH_LOAD_FACTOR && !json_object_object_get_ex(o, key, NULL)) {
		if (json_object_object_add_ex(o, key, NULL, JSON_C_OBJECT_ADD_CONSTANT_KEY) < 0) {
			json_object_put(v);
			return nomem(p);
		}
		json_object_object_del(o, key);
	}
	if (json_object_object_add_ex(o, key, v, 0) < 0) {
		json_object_put(v);
		return nomem(p);
	}
	return 0;
}

static int object(struct parser *p, int depth, json_object **out)
{
	size_t open = p->pos++, mark = p->used, comma;
	json_object *o = json_object_new_object();
	char b[24];

	if (!o)
		return nomem(p);
	skip_space(p);
	if (p->pos < p->len && p->s[p->pos] == '}') {
		p->pos++;
		*out = o;
		return 0;
	}
	for (;;) {
		size_t at, n, kpos = p->pos;
		bool nul;
		json_object *v = NULL;
		if (p->pos >= p->len)
			goto ends;
		if (p->s[p->pos] != '"') {
			refuse(p, p->pos, "%s where a key is expected (a string in double quotes)",
			       shown(p, p->pos, b, sizeof(b)));
			goto fail;
		}
		if (string_at(p, &at, &n, &nul) < 0)
			goto fail;
		if (nul) {
			refuse(p, kpos, "an object key holds \\u0000: keys are C strings here, it would cut the key "
			       "short");
			goto fail;
		}
		skip_space(p);
		if (p->pos >= p->len)
			goto ends;
		if (p->s[p->pos] != ':') {
			refuse(p, p->pos, "%s after a key: JSON needs ':' there", shown(p, p->pos, b, sizeof(b)));
			goto fail;
		}
		p->pos++;
		if (value(p, depth, &v) < 0)
			goto fail;
		/* the key at its offset: the value's parse may have moved the buffer */
		if (member(p, o, p->buf + at, v) < 0)
			goto fail;
		p->used = mark;
		skip_space(p);
		if (p->pos >= p->len)
			goto ends;
		if (p->s[p->pos] == '}') {
			p->pos++;
			*out = o;
			return 0;
		}
		if (p->s[p->pos] != ',') {
			refuse(p, p->pos, "%s after an object's member: JSON needs ',' or '}' there",
			       shown(p, p->pos, b, sizeof(b)));
			goto fail;
		}
		comma = p->pos++;
		skip_space(p);
		if (p->pos < p->len && p->s[p->pos] == '}') {
			if (!(p->flags & PMU_JSON_LAX)) {
				refuse(p, comma, "a comma before '}' (JSON allows none)");
				goto fail;
			}
			p->pos++;
			*out = o;
			return 0;
		}
	}
ends:
	refuse(p, p->len, "the text ends inside an object (opened at line %zu)", line_of(p, open));
fail:
	p->used = mark;
	json_object_put(o);
	return p->err;
}

static int array(struct parser *p, int depth, json_object **out)
{
	size_t open = p->pos++, comma;
	json_object *a = json_object_new_array();
	char b[24];

	if (!a)
		return nomem(p);
	skip_space(p);
	if (p->pos < p->len && p->s[p->pos] == ']') {
		p->pos++;
		*out = a;
		return 0;
	}
	for (;;) {
		json_object *v = NULL;
		if (value(p, depth, &v) < 0)
			goto fail;
		if (json_object_array_add(a, v) < 0) {
			json_object_put(v);
			nomem(p);
			goto fail;
		}
		skip_space(p);
		if (p->pos >= p->len) {
			refuse(p, p->len, "the text ends inside an array (opened at line %zu)", line_of(p, open));
			goto fail;
		}
		if (p->s[p->pos] == ']') {
			p->pos++;
			*out = a;
			return 0;
		}
		if (p->s[p->pos] != ',') {
			refuse(p, p->pos, "%s after an array's element: JSON needs ',' or ']' there",
			       shown(p, p->pos, b, sizeof(b)));
			goto fail;
		}
		comma = p->pos++;
		skip_space(p);
		if (p->pos < p->len && p->s[p->pos] == ']') {
			if (!(p->flags & PMU_JSON_LAX)) {
				refuse(p, comma, "a comma before ']' (JSON allows none)");
				goto fail;
			}
			p->pos++;
			*out = a;
			return 0;
		}
	}
fail:
	json_object_put(a);
	return p->err;
}

static int literal(struct parser *p, const char *word, json_object **out)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
		return refuse(p, p->pos, "'%c' begins no value here: JSON's words are true, false and null "
			      "(lower case)", p->s[p->pos]);
	p->pos += n;
	if (*word == 'n')
		*out = NULL;
	else if (!(*out = json_object_new_boolean(*word == 't')))
		return nomem(p);
	return 0;
}

/* NaN, Infinity or -Infinity at p->pos (PMU_JSON_NONFINITE), kept as written. */
static int nonfinite(struct parser *p, json_object **out)
{
	static const struct { const char *word; double v; } w[] = {
		{ "NaN", NAN }, { "Infinity", INFINITY }, { "-Infinity", -INFINITY } };

	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		size_t n = strlen(w[i].word);
		if (p->len - p->pos >= n && !memcmp(p->s + p->pos, w[i].word, n)) {
			p->pos += n;
			return (*out = json_object_new_double_s(w[i].v, w[i].word)) ? 0 : nomem(p);
		}
	}
	return refuse(p, p->pos, "'%c' begins no value here: the words taken here are true, false, null, NaN, "
		      "Infinity and -Infinity", p->s[p->pos]);
}

/* The value at p->pos (after white space), inside @depth containers. */
static int value(struct parser *p, int depth, json_object **out)
{
	size_t at, n;
	bool nul;
	char b[24];
	int r;

	*out = NULL;
	skip_space(p);
	if (p->pos >= p->len)
		return refuse(p, p->len, depth ? "the text ends where a value should be" : "the text holds no value");
	switch (p->s[p->pos]) {
	case '{':
	case '[':
		if (depth >= p->max_depth)
			return refuse(p, p->pos, "arrays and objects nested more than %d deep", p->max_depth);
		return p->s[p->pos] == '{' ? object(p, depth + 1, out) : array(p, depth + 1, out);
	case '"':
		if (string_at(p, &at, &n, &nul) < 0)
			return p->err;
		p->used = at;
		if (n > INT32_MAX)
			return refuse(p, p->pos, "a string of more than 2 GiB");
		return (*out = json_object_new_string_len(p->buf + at, (int)n)) ? 0 : nomem(p);
	case 't': r = literal(p, "true", out); break;
	case 'f': r = literal(p, "false", out); break;
	case 'n': return literal(p, "null", out);
	case 'N':
	case 'I':
		if (!(p->flags & PMU_JSON_NONFINITE))
			goto other;
		r = nonfinite(p, out);
		break;
	case '-':
		if ((p->flags & PMU_JSON_NONFINITE) && p->pos + 1 < p->len && p->s[p->pos + 1] == 'I') {
			r = nonfinite(p, out);
			break;
		}
		/* fall through */
	case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
		r = number(p, out);
		break;
	case ']':
	case '}':
		if (depth)
			return refuse(p, p->pos, "%s where a value is expected (after ',' or ':')",
				      shown(p, p->pos, b, sizeof(b)));
		/* fall through */
	default:
	other:
		return refuse(p, p->pos, "%s begins no JSON value (a string in double quotes, a number, an object, "
			      "an array, true, false or null)", shown(p, p->pos, b, sizeof(b)));
	}
	if (r == 0 && (p->flags & PMU_JSON_SCALAR_TEXT) && !json_object_get_string(*out)) {
		json_object_put(*out);
		*out = NULL;
		return nomem(p);
	}
	return r;
}

int pmu__json_parse(const char *text, size_t len, int max_depth, unsigned flags, json_object **out,
		    struct pmu_json_error *err)
{
	struct parser p = { .s = text, .len = len, .max_depth = max_depth, .flags = flags, .e = err };
	json_object *v = NULL;
	char b[24];

	*out = NULL;
	memset(err, 0, sizeof(*err));
	if (value(&p, 0, &v) == 0) {
		skip_space(&p);
		if (p.pos < p.len) {
			refuse(&p, p.pos, "%s after the JSON value: a JSON text is one value", shown(&p, p.pos, b, sizeof(b)));
			json_object_put(v);
			v = NULL;
		}
	}
	free(p.buf);
	if (p.c_locale != (locale_t)0)
		freelocale(p.c_locale);
	*out = v;
	return p.err;
}
