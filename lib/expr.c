/* SPDX-License-Identifier: MIT */
/*
 * MetricExpr: the expression language of perf's metric tables.
 *
 *   expr    := or ['if' or 'else' expr]           (right-associative)
 *   or      := xor { ('|' | '||') xor }
 *   xor     := and { '^' and }
 *   and     := cmp { ('&' | '&&') cmp }
 *   cmp     := add { ('<' | '>' | '<=' | '>=' | '==' | '!=') add }
 *   add     := mul { ('+' | '-') mul }
 *   mul     := unary { ('*' | '/' | '%') unary }
 *   unary   := '-' unary | '!' unary | primary
 *   primary := NUMBER | NAME | '#' NAME | '@' any '@' | '(' expr ')'
 *            | ('min' | 'max' | 'd_ratio') '(' expr ',' expr ')'
 *            | ('has_event' | 'source_count') '(' NAME | '@' any '@' ')'
 *            | 'strcmp_cpuid_str' '(' NAME ')'
 *
 * NAME: letters, digits, '_', '.', ':', '@'; a backslash makes the next
 * character part of the name (perf writes topdown\-retiring,
 * cpu_core@INST_RETIRED.ANY@). A NAME may begin with a digit, as in perf's
 * lexer (the longer reading wins): 4K_Aliasing is a name, 4e3 a number.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "expr.h"

#define MAX_DEPTH 200

struct parser {
	const char *src, *p;
	char *err;
	size_t errlen;
	int depth;
	int failed;
	int nomem; /* an allocation failed */
};

static void fail(struct parser *ps, const char *at, const char *fmt, const char *what)
{
	if (ps->failed)
		return;
	ps->failed = 1;
	snprintf(ps->err, ps->errlen, "position %d: ", (int)(at - ps->src));
	{
		size_t l = strlen(ps->err);
		snprintf(ps->err + l, ps->errlen - l, fmt, what);
	}
}

static struct pmu_expr *node(struct parser *ps, enum pmu_expr_kind k, const char *at)
{
	struct pmu_expr *e = calloc(1, sizeof(*e));

	if (!e) {
		ps->nomem = 1;
		fail(ps, at, "%s", "out of memory");
		return NULL;
	}
	e->kind = k;
	e->pos = (int)(at - ps->src);
	e->height = 1;
	return e;
}

/* Give @e (whose operands are set) its height; NULL, @e freed, past the limit. */
static struct pmu_expr *grown(struct parser *ps, struct pmu_expr *e, const char *at)
{
	const struct pmu_expr *ops[3] = { e->a, e->b, e->c };

	for (int i = 0; i < 3; i++)
		if (ops[i] && ops[i]->height + 1 > e->height)
			e->height = ops[i]->height + 1;
	if (e->height > PMU_EXPR_MAX_HEIGHT) {
		char lim[16];
		snprintf(lim, sizeof(lim), "%d", PMU_EXPR_MAX_HEIGHT);
		fail(ps, at, "more than %s operations chained (the expression tree is too tall; split it into metrics)",
		     lim);
		pmu__expr_free(e);
		return NULL;
	}
	return e;
}

void pmu__expr_free(struct pmu_expr *e)
{
	if (!e)
		return;
	pmu__expr_free(e->a);
	pmu__expr_free(e->b);
	pmu__expr_free(e->c);
	free(e->name);
	free(e);
}

static void skip(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static int name_start(int c)
{
	return isalpha(c) || c == '_' || c == '\\';
}

static int name_char(int c)
{
	/* '@' as perf writes PMU-qualified names: cpu_core@INST_RETIRED.ANY@ */
	return isalnum(c) || c == '_' || c == '.' || c == ':' || c == '@' || c == '\\';
}

/* Whether the characters at @p read as a NAME run further than they read as a number (perf's lexer
 * takes the longer: "4K_Aliasing" and "0x410fd493z" are names; "1e9", "2.5", "0x1f" numbers). */
static int name_longer(const char *p)
{
	const char *q = p;
	char *end;

	while (*q && name_char((unsigned char)*q)) {
		if (*q == '\\' && q[1])
			q++;
		q++;
	}
	strtod(p, &end);
	return q > end;
}

/* Reads a NAME at ps->p (unescaping); returns a malloc'd string or NULL. */
static char *read_name(struct parser *ps)
{
	const char *s = ps->p;
	size_t n = 0;
	char *out;

	while (*ps->p && name_char((unsigned char)*ps->p)) {
		if (*ps->p == '\\') {
			if (!ps->p[1]) {
				fail(ps, ps->p, "%s", "a backslash ends the expression");
				return NULL;
			}
			ps->p++;
		}
		ps->p++;
		n++;
	}
	out = malloc(n + 1);
	if (!out) {
		ps->nomem = 1;
		fail(ps, s, "%s", "out of memory");
		return NULL;
	}
	n = 0;
	for (const char *q = s; q < ps->p; q++) {
		if (*q == '\\')
			q++;
		out[n++] = *q;
	}
	out[n] = 0;
	return out;
}

/* The event name has_event() and source_count() take: NAME or '@' any '@' (a malloc'd string), NULL
 * after a failure. */
static char *read_event_arg(struct parser *ps, const char *fn)
{
	skip(ps);
	if (*ps->p == '@') {
		const char *end = strchr(ps->p + 1, '@');
		char *s;
		if (!end || end == ps->p + 1) {
			fail(ps, ps->p, "%s", "'@' name without its closing '@'");
			return NULL;
		}
		if (!(s = strndup(ps->p + 1, (size_t)(end - ps->p - 1)))) {
			ps->nomem = 1;
			fail(ps, ps->p, "%s", "out of memory");
			return NULL;
		}
		ps->p = end + 1;
		return s;
	}
	/* an event name is no number; a CPU id is any NAME (perf's lexer reads 0x410fd490 as one) */
	if (!name_char((unsigned char)*ps->p) ||
	    (strcmp(fn, "strcmp_cpuid_str") && !name_start((unsigned char)*ps->p) && !name_longer(ps->p))) {
		fail(ps, ps->p, "expected an event name as the argument of %s()", fn);
		return NULL;
	}
	return read_name(ps);
}

static int keyword(struct parser *ps, const char *kw)
{
	size_t l = strlen(kw);

	skip(ps);
	if (strncmp(ps->p, kw, l) == 0 && !name_char((unsigned char)ps->p[l])) {
		ps->p += l;
		return 1;
	}
	return 0;
}

static int punct(struct parser *ps, const char *tok)
{
	size_t l = strlen(tok);

	skip(ps);
	if (strncmp(ps->p, tok, l) == 0) {
		ps->p += l;
		return 1;
	}
	return 0;
}

static struct pmu_expr *parse_expr(struct parser *ps);

static struct pmu_expr *binary(struct parser *ps, enum pmu_expr_kind k, struct pmu_expr *a,
			       struct pmu_expr *b, const char *at)
{
	struct pmu_expr *e;

	if (!a || !b) {
		pmu__expr_free(a);
		pmu__expr_free(b);
		return NULL;
	}
	e = node(ps, k, at);
	if (!e) {
		pmu__expr_free(a);
		pmu__expr_free(b);
		return NULL;
	}
	e->a = a;
	e->b = b;
	return grown(ps, e, at);
}

static struct pmu_expr *parse_unary(struct parser *ps);

static struct pmu_expr *parse_primary(struct parser *ps)
{
	const char *at;
	struct pmu_expr *e;

	skip(ps);
	at = ps->p;
	if (*ps->p == '(') {
		ps->p++;
		e = parse_expr(ps);
		if (e && !punct(ps, ")")) {
			fail(ps, ps->p, "%s", "expected ')'");
			pmu__expr_free(e);
			return NULL;
		}
		return e;
	}
	if ((isdigit((unsigned char)*ps->p) || (*ps->p == '.' && isdigit((unsigned char)ps->p[1]))) &&
	    !name_longer(ps->p)) {
		char *end;
		double v = strtod(ps->p, &end);
		if (end == ps->p || name_start((unsigned char)*end)) {
			fail(ps, at, "%s", "malformed number");
			return NULL;
		}
		ps->p = end;
		e = node(ps, PMU_EX_NUM, at);
		if (e)
			e->num = v;
		return e;
	}
	if (*ps->p == '#') {
		ps->p++;
		if (!name_start((unsigned char)*ps->p)) {
			fail(ps, ps->p, "%s", "expected a constant name after '#'");
			return NULL;
		}
		e = node(ps, PMU_EX_CONST, at);
		if (e && !(e->name = read_name(ps))) {
			pmu__expr_free(e);
			return NULL;
		}
		return e;
	}
	if (*ps->p == '@') {
		const char *end = strchr(ps->p + 1, '@');
		if (!end || end == ps->p + 1) {
			fail(ps, at, "%s", "'@' name without its closing '@'");
			return NULL;
		}
		e = node(ps, PMU_EX_VAR, at);
		if (e && !(e->name = strndup(ps->p + 1, (size_t)(end - ps->p - 1)))) {
			pmu__expr_free(e);
			fail(ps, at, "%s", "out of memory");
			return NULL;
		}
		ps->p = end + 1;
		return e;
	}
	if (name_start((unsigned char)*ps->p) || isdigit((unsigned char)*ps->p)) {
		static const struct { const char *name; enum pmu_expr_kind k; } fns[] = {
			{ "min", PMU_EX_MIN }, { "max", PMU_EX_MAX }, { "d_ratio", PMU_EX_DRATIO },
		};
		char *name = read_name(ps);
		if (!name)
			return NULL;
		skip(ps);
		if (*ps->p == '(' && (!strcmp(name, "has_event") || !strcmp(name, "source_count") ||
				      !strcmp(name, "strcmp_cpuid_str"))) {
			/* perf's functions of one event name or CPU id (the name is not evaluated) */
			enum pmu_expr_kind k = name[0] == 'h' ? PMU_EX_HAS_EVENT :
					       name[1] == 'o' ? PMU_EX_SOURCE_COUNT : PMU_EX_CPUID;
			char *arg;
			ps->p++;
			arg = read_event_arg(ps, name);
			if (arg && !punct(ps, ")")) {
				fail(ps, ps->p, "expected ')' after the event name of %s()", name);
				free(arg);
				arg = NULL;
			}
			free(name);
			if (!arg)
				return NULL;
			e = node(ps, k, at);
			if (!e) {
				free(arg);
				return NULL;
			}
			e->name = arg;
			return e;
		}
		if (*ps->p == '(') {
			for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
				if (strcmp(name, fns[i].name))
					continue;
				free(name);
				ps->p++;
				{
					struct pmu_expr *a = parse_expr(ps), *b = NULL;
					if (a && !punct(ps, ","))
						fail(ps, ps->p, "%s", "expected ',' between the two arguments");
					else if (a)
						b = parse_expr(ps);
					if (b && !punct(ps, ")")) {
						fail(ps, ps->p, "%s", "expected ')' after the arguments");
						pmu__expr_free(b);
						b = NULL;
					}
					return binary(ps, fns[i].k, a, b, at);
				}
			}
			fail(ps, at, "unknown function '%s' (known: min, max, d_ratio, has_event, source_count, strcmp_cpuid_str)", name);
			free(name);
			return NULL;
		}
		if (!strcmp(name, "if") || !strcmp(name, "else")) {
			fail(ps, at, "'%s' where a value was expected", name);
			free(name);
			return NULL;
		}
		e = node(ps, PMU_EX_VAR, at);
		if (!e) {
			free(name);
			return NULL;
		}
		e->name = name;
		return e;
	}
	if (!*ps->p)
		fail(ps, at, "%s", "the expression ends where a value was expected");
	else {
		char c[2] = { *ps->p, 0 };
		fail(ps, at, "unexpected '%s' where a value was expected", c);
	}
	return NULL;
}

static struct pmu_expr *parse_unary(struct parser *ps)
{
	const char *at;
	struct pmu_expr *e, *a;
	enum pmu_expr_kind k;

	skip(ps);
	at = ps->p;
	if (*ps->p == '-')
		k = PMU_EX_NEG;
	else if (*ps->p == '!' && ps->p[1] != '=')
		k = PMU_EX_NOT;
	else
		return parse_primary(ps);
	ps->p++;
	if (++ps->depth > MAX_DEPTH) {
		fail(ps, at, "%s", "expression nested too deeply");
		return NULL;
	}
	a = parse_unary(ps);
	ps->depth--;
	if (!a)
		return NULL;
	e = node(ps, k, at);
	if (!e) {
		pmu__expr_free(a);
		return NULL;
	}
	e->a = a;
	return grown(ps, e, at);
}

static struct pmu_expr *parse_mul(struct parser *ps)
{
	struct pmu_expr *e = parse_unary(ps);

	while (e) {
		const char *at;
		enum pmu_expr_kind k;
		skip(ps);
		at = ps->p;
		if (*ps->p == '*')
			k = PMU_EX_MUL;
		else if (*ps->p == '/')
			k = PMU_EX_DIV;
		else if (*ps->p == '%')
			k = PMU_EX_MOD;
		else
			break;
		ps->p++;
		e = binary(ps, k, e, parse_unary(ps), at);
	}
	return e;
}

static struct pmu_expr *parse_add(struct parser *ps)
{
	struct pmu_expr *e = parse_mul(ps);

	while (e) {
		const char *at;
		enum pmu_expr_kind k;
		skip(ps);
		at = ps->p;
		if (*ps->p == '+')
			k = PMU_EX_ADD;
		else if (*ps->p == '-')
			k = PMU_EX_SUB;
		else
			break;
		ps->p++;
		e = binary(ps, k, e, parse_mul(ps), at);
	}
	return e;
}

static struct pmu_expr *parse_cmp(struct parser *ps)
{
	static const struct { const char *tok; enum pmu_expr_kind k; } ops[] = {
		{ "<=", PMU_EX_LE }, { ">=", PMU_EX_GE }, { "==", PMU_EX_EQ }, { "!=", PMU_EX_NE },
		{ "<", PMU_EX_LT }, { ">", PMU_EX_GT },
	};
	struct pmu_expr *e = parse_add(ps);

	while (e) {
		size_t i;
		skip(ps);
		for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
			const char *at = ps->p;
			if (punct(ps, ops[i].tok)) {
				e = binary(ps, ops[i].k, e, parse_add(ps), at);
				break;
			}
		}
		if (i == sizeof(ops) / sizeof(ops[0]))
			break;
	}
	return e;
}

static struct pmu_expr *parse_and(struct parser *ps)
{
	struct pmu_expr *e = parse_cmp(ps);

	while (e) {
		const char *at;
		skip(ps);
		at = ps->p;
		if (!punct(ps, "&&") && !punct(ps, "&"))
			break;
		e = binary(ps, PMU_EX_AND, e, parse_cmp(ps), at);
	}
	return e;
}

static struct pmu_expr *parse_xor(struct parser *ps)
{
	struct pmu_expr *e = parse_and(ps);

	while (e) {
		const char *at;
		skip(ps);
		at = ps->p;
		if (!punct(ps, "^"))
			break;
		e = binary(ps, PMU_EX_XOR, e, parse_and(ps), at);
	}
	return e;
}

static struct pmu_expr *parse_or(struct parser *ps)
{
	struct pmu_expr *e = parse_xor(ps);

	while (e) {
		const char *at;
		skip(ps);
		at = ps->p;
		if (!punct(ps, "||") && !punct(ps, "|"))
			break;
		e = binary(ps, PMU_EX_OR, e, parse_xor(ps), at);
	}
	return e;
}

static struct pmu_expr *parse_expr(struct parser *ps)
{
	struct pmu_expr *e, *cond, *other, *n;
	const char *at;

	if (++ps->depth > MAX_DEPTH) {
		fail(ps, ps->p, "%s", "expression nested too deeply");
		return NULL;
	}
	e = parse_or(ps);
	skip(ps);
	at = ps->p;
	if (e && keyword(ps, "if")) {
		cond = parse_or(ps);
		if (cond && !keyword(ps, "else")) {
			fail(ps, ps->p, "%s", "'if' without 'else'");
			pmu__expr_free(cond);
			cond = NULL;
		}
		other = cond ? parse_expr(ps) : NULL;
		if (!cond || !other) {
			pmu__expr_free(e);
			pmu__expr_free(cond);
			pmu__expr_free(other);
			ps->depth--;
			return NULL;
		}
		n = node(ps, PMU_EX_IF, at);
		if (!n) {
			pmu__expr_free(e);
			pmu__expr_free(cond);
			pmu__expr_free(other);
			ps->depth--;
			return NULL;
		}
		n->a = e;
		n->b = cond;
		n->c = other;
		e = grown(ps, n, at);
	}
	ps->depth--;
	return e;
}

struct pmu_expr *pmu__expr_parse(const char *src, char *err, size_t errlen)
{
	struct parser ps = { src, src, err, errlen, 0, 0, 0 };
	struct pmu_expr *e;

	if (errlen)
		err[0] = 0;
	if (!src) {
		snprintf(err, errlen, "position 0: no expression");
		errno = EINVAL;
		return NULL;
	}
	if (strnlen(src, PMU_EXPR_MAX_LEN + 1) > PMU_EXPR_MAX_LEN) {
		snprintf(err, errlen, "position %d: the expression is longer than %d characters", PMU_EXPR_MAX_LEN,
			 PMU_EXPR_MAX_LEN);
		errno = EINVAL;
		return NULL;
	}
	e = parse_expr(&ps);
	skip(&ps);
	if (e && *ps.p) {
		char c[2] = { *ps.p, 0 };
		fail(&ps, ps.p, "unexpected '%s' after a complete expression", c);
		pmu__expr_free(e);
		errno = EINVAL;
		return NULL;
	}
	if (!e && !ps.failed)
		fail(&ps, ps.p, "%s", "cannot parse");
	if (!e)
		errno = ps.nomem ? ENOMEM : EINVAL;
	return e;
}

int pmu__expr_names(const struct pmu_expr *e, int (*fn)(const char *name, int is_const, void *data),
		    void *data)
{
	return pmu__expr_names_live(e, fn, data, NULL, NULL);
}

static int name_kind(enum pmu_expr_kind k)
{
	return k == PMU_EX_CONST ? PMU_NAME_CONST : k == PMU_EX_HAS_EVENT ? PMU_NAME_HAS_EVENT :
	       k == PMU_EX_SOURCE_COUNT ? PMU_NAME_SOURCE_COUNT : k == PMU_EX_CPUID ? PMU_NAME_CPUID : PMU_NAME_VAR;
}

int pmu__expr_names_live(const struct pmu_expr *e, int (*fn)(const char *name, int is_const, void *data),
			 void *data, pmu_expr_lookup fold, void *fold_data)
{
	int r;

	if (!e)
		return 0;
	if (e->name)
		return fn(e->name, name_kind(e->kind), data);
	if (e->kind == PMU_EX_IF && fold) {
		double c;
		if (pmu__expr_eval(e->b, fold, fold_data, &c, NULL) == 0)
			return pmu__expr_names_live(c != 0 ? e->a : e->c, fn, data, fold, fold_data);
	}
	if ((r = pmu__expr_names_live(e->a, fn, data, fold, fold_data)) ||
	    (r = pmu__expr_names_live(e->b, fn, data, fold, fold_data)) ||
	    (r = pmu__expr_names_live(e->c, fn, data, fold, fold_data)))
		return r;
	return 0;
}

int pmu__expr_eval(const struct pmu_expr *e, pmu_expr_lookup lookup, void *data, double *out,
		   const char **bad_name)
{
	double a = 0, b = 0;
	int r;

	switch (e->kind) {
	case PMU_EX_NUM:
		*out = e->num;
		return 0;
	case PMU_EX_VAR:
	case PMU_EX_CONST:
	case PMU_EX_HAS_EVENT:
	case PMU_EX_SOURCE_COUNT:
	case PMU_EX_CPUID:
		r = lookup(e->name, name_kind(e->kind), data, out);
		if (r < 0 && bad_name)
			*bad_name = e->name;
		return r;
	case PMU_EX_IF:
		/* only the chosen branch is evaluated, as perf does */
		if ((r = pmu__expr_eval(e->b, lookup, data, &b, bad_name)) < 0)
			return r;
		return pmu__expr_eval(b != 0 ? e->a : e->c, lookup, data, out, bad_name);
	default:
		break;
	}
	if ((r = pmu__expr_eval(e->a, lookup, data, &a, bad_name)) < 0)
		return r;
	if (e->b && (r = pmu__expr_eval(e->b, lookup, data, &b, bad_name)) < 0)
		return r;
	switch (e->kind) {
	case PMU_EX_NEG: *out = -a; break;
	case PMU_EX_NOT: *out = a == 0; break;
	case PMU_EX_ADD: *out = a + b; break;
	case PMU_EX_SUB: *out = a - b; break;
	case PMU_EX_MUL: *out = a * b; break;
	case PMU_EX_DIV: *out = b == 0 ? NAN : a / b; break;
	case PMU_EX_MOD: *out = b == 0 ? NAN : fmod(a, b); break;
	case PMU_EX_LT: *out = a < b; break;
	case PMU_EX_GT: *out = a > b; break;
	case PMU_EX_LE: *out = a <= b; break;
	case PMU_EX_GE: *out = a >= b; break;
	case PMU_EX_EQ: *out = a == b; break;
	case PMU_EX_NE: *out = a != b; break;
	case PMU_EX_AND: *out = a != 0 && b != 0; break;
	case PMU_EX_OR: *out = a != 0 || b != 0; break;
	/* perf's '^' of two values, NaN when one is not a number */
	case PMU_EX_XOR: *out = isnan(a) || isnan(b) ? NAN : (a != 0) != (b != 0); break;
	case PMU_EX_MIN: *out = a < b ? a : b; break;
	case PMU_EX_MAX: *out = a > b ? a : b; break;
	case PMU_EX_DRATIO: *out = b == 0 ? 0 : a / b; break;
	default: return -EINVAL;
	}
	return 0;
}
