/* SPDX-License-Identifier: MIT */
/*
 * Event tables, the CPU map: mapfile.csv's rows, their CPU patterns checked and compiled (refusing
 * what could make regcomp/regexec slow), the CPU's keys (as perf spells them) matched against them,
 * and perf's strcmp_cpuid_str() for metrics.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <limits.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "context.h"
#include "cpu.h"
#include "error.h"
#include "fork.h"
#include "tables.h"
#include "util.h"

/* ---------------------------------------------------------------- */
/* mapfile and CPU selection                                         */
/* ---------------------------------------------------------------- */

int pmu__tables_cpu_keys(const struct pmu_cpu *c, char keys[2][64])
{
	switch (c->arch) {
	case PMU_ARCH_X86:
		snprintf(keys[0], 64, "%s-%u-%X-%X", c->vendor, c->family, c->model, c->stepping);
		snprintf(keys[1], 64, "%s-%u-%X", c->vendor, c->family, c->model);
		return 2;
	case PMU_ARCH_ARM64:
		/* perf compares implementer, architecture and part: variant and revision zeroed */
		snprintf(keys[0], 64, "0x%016llx", (unsigned long long)(c->midr & ~0xf0000full));
		return 1;
	case PMU_ARCH_RISCV:
		pmu__strlcpy(keys[0], c->cpuid, 64);
		return 1;
	default:
		return 0;
	}
}

/* One data line of a mapfile (CPUID,Version,Directory[,Type]): header, comments, blank lines and
 * lines too long to be a mapfile's skipped. */
/* The next data row of the text at *p; false at its end. */
bool pmu__tables_map_next(const char **p, int *lineno, struct map_row *row)
{
	while (*p && **p) {
		const char *s = *p, *eol = strchr(s, '\n');
		size_t ll = eol ? (size_t)(eol - s) : strlen(s);
		char *cols[3] = { 0 }, *save = NULL;
		int nc = 0;

		*p = eol ? eol + 1 : NULL;
		row->lineno = ++*lineno;
		if (!ll || ll >= sizeof(row->buf) || *s == '#')
			continue;
		memcpy(row->buf, s, ll);
		row->buf[ll] = 0;
		if (row->buf[ll - 1] == '\r')
			row->buf[ll - 1] = 0;
		for (char *tok = strtok_r(row->buf, ",", &save); tok && nc < 3; tok = strtok_r(NULL, ",", &save))
			cols[nc++] = tok;
		if (nc < 3 || !strcasecmp(cols[1], "Version")) /* the header says "Version" */
			continue;
		row->cpuid = cols[0];
		row->version = cols[1];
		row->dir = cols[2];
		return true;
	}
	return false;
}

/* What a mapfile's CPU pattern may be: regcomp expands each {m,n} into copies of what it repeats
 * ("x+" into "xx*") (and back-references make matching exponential), so "((.?){255}){255}" costs seconds and
 * gigabytes and "((.?){255}){255}\3X" crashes glibc. perf's mapfiles (Linux 6.12) use patterns of
 * at most 48 characters, {4} at most, no back-reference. Within 1024 positions "(.?){1024}" still
 * cost 0.18 s a line (fuzz-mapfile: a mapfile of such lines took seconds): 128 positions, the
 * pattern's length, cost about 2 ms at most (PMU_MAP_PATTERN_MAX, tables.h). */
#define MAP_POSITIONS_MAX 128

/* The positions of the pattern from *s to the end or a ')' at depth > 0: atoms counted once, what an
 * interval repeats counted as many times as its largest count, what '+' repeats twice (saturating at
 * LONG_MAX / 4). */
static long map_positions(const char **s, int depth)
{
	long total = 0, last = 0;

	while (**s && !(**s == ')' && depth > 0)) {
		const char *c = *s;
		if (*c == '|') {
			last = 0;
			(*s)++;
			continue;
		}
		if (*c == '(') {
			(*s)++;
			last = map_positions(s, depth + 1);
			if (last < 1) /* an empty group is a node too: "()+++++" doubles it */
				last = 1;
			if (**s == ')')
				(*s)++;
		} else if (*c == '[') {
			/* a bracket expression is one position: skip to its closing ']' */
			c++;
			if (*c == '^')
				c++;
			if (*c == ']')
				c++;
			while (*c && *c != ']') {
				if (*c == '[' && (c[1] == ':' || c[1] == '.' || c[1] == '=')) {
					const char *e = strchr(c + 2, c[1]);
					c = e && e[1] == ']' ? e + 2 : c + 1;
				} else {
					c++;
				}
			}
			*s = *c ? c + 1 : c;
			last = 1;
		} else if (*c == '{' && isdigit((unsigned char)c[1])) {
			unsigned long m = 0, n;
			c++;
			while (isdigit((unsigned char)*c) && m < 100000)
				m = m * 10 + (unsigned long)(*c++ - '0');
			n = m;
			if (*c == ',') {
				c++;
				n = isdigit((unsigned char)*c) ? 0 : m + 1;
				while (isdigit((unsigned char)*c) && n < 100000)
					n = n * 10 + (unsigned long)(*c++ - '0');
			}
			while (*c && *c != '}')
				c++;
			*s = *c ? c + 1 : c;
			total -= last;
			/* {0} (or an unclosed "{0") does not undo what glibc built before it */
			n = n > m ? n : m > 0 ? m : 1;
			last = n && last > LONG_MAX / 4 / (long)n ? LONG_MAX / 4 : last * (long)n;
		} else if (*c == '*' || *c == '?' || *c == '+') {
			/* applies to what precedes it, which a later {m,n} repeats with it; glibc compiles
			 * "x+" as "xx*": a copy */
			(*s)++;
			total -= last;
			if (*c == '+')
				last = last > LONG_MAX / 8 ? LONG_MAX / 4 : last * 2;
		} else {
			if (*c == '\\' && c[1])
				(*s)++;
			(*s)++;
			last = 1;
		}
		total += last;
		if (total > LONG_MAX / 4)
			total = LONG_MAX / 4;
	}
	return total;
}

/* Whether @pattern has a '|' outside parentheses and brackets (its
 * literal start then says nothing about the other alternatives). */
static bool map_top_alternative(const char *p)
{
	int depth = 0;

	for (; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '[') {
			p += p[1] == '^' ? 2 : 1; /* a ']' right after '[' or '[^' is a member */
			if (*p == ']')
				p++;
			while (*p && *p != ']')
				p++;
			if (!*p)
				return true;
		} else if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (*p == '|' && depth <= 0)
			return true;
	}
	return false;
}

/* The literal start of mapfile CPU pattern @pattern (the characters before its first special one; a
 * character a '*', '?' or '{' applies to is not part of it): *@lit characters, and *@group the end (the
 * index of its ')') of a group of plain alternatives that follows them ("6-(3C|45|46)"), 0 if none. A
 * key that begins with none of the start's continuations cannot match the pattern. A pattern with a '|'
 * outside parentheses can match anything as far as this rule knows: 0 and 0. gen-tables.py computes the
 * same for each built-in mapfile row (test-mapfile compares them). */
void pmu__tables_map_start(const char *pattern, size_t *lit, size_t *group)
{
	static const char special[] = ".[]()*+?{}|^$\\";
	size_t n = strcspn(pattern, special), g = 0;

	if (map_top_alternative(pattern)) {
		*lit = *group = 0;
		return;
	}
	if (n && pattern[n] && strchr("*?{", pattern[n]))
		n--;
	else if (pattern[n] == '(') {
		/* a group of literals and '|' only, not repeated: each alternative lengthens the start */
		g = n + 1 + strcspn(pattern + n + 1, ".[]()*+?{}^$\\");
		if (pattern[g] != ')' || (pattern[g + 1] && strchr("*?{+", pattern[g + 1])))
			g = 0;
	}
	*lit = n;
	*group = g;
}

/* Whether one of the @nk keys begins as @pattern's literal start requires (@lit and @group from
 * pmu__tables_map_start): its first @lit characters, then one of the group's alternatives.
 * Case-insensitive, as regcomp is told. */
static bool start_may_match(const char *pattern, size_t lit, size_t group, const char keys[][64], int nk)
{
	for (int k = 0; k < nk; k++) {
		if (strncasecmp(keys[k], pattern, lit))
			continue;
		if (!group)
			return true;
		for (const char *a = pattern + lit + 1; a < pattern + group;) {
			size_t al = strcspn(a, "|)");
			if (!strncasecmp(keys[k] + lit, a, al))
				return true;
			a += al + 1;
		}
	}
	return false;
}

/* Whether @pattern can match one of the @nk keys, by its literal start alone
 * (pmu__tables_map_start): a key that cannot costs no regcomp. test-mapfile holds the choice to
 * regcomp/regexec's over perf's mapfiles. */
static bool map_may_match(const char *pattern, const char keys[][64], int nk)
{
	size_t lit, group;

	pmu__tables_map_start(pattern, &lit, &group);
	return start_may_match(pattern, lit, group, keys, nk);
}

/* Compile mapfile CPU pattern @pat (anchored at both ends, case-insensitive) into @re, refusing what
 * exceeds the bounds above. 0; -EINVAL with the reason in @why; -ENOMEM; 1 (nothing compiled) when
 * @keys is not NULL and the pattern cannot match any of its @nk keys (map_may_match). */
int pmu__tables_map_pattern(const char *pat, const char keys[][64], int nk, regex_t *re, char *why, size_t wl)
{
	char anchored[PMU_MAP_PATTERN_MAX + 8];
	const char *s = pat;
	bool bracket = false, quant = false;
	long positions, depth = 0;
	int r;

	if (strlen(pat) > PMU_MAP_PATTERN_MAX) {
		snprintf(why, wl, "CPU pattern of %zu characters; a pattern has at most %d", strlen(pat),
			 PMU_MAP_PATTERN_MAX);
		return -EINVAL;
	}
	for (const char *c = pat; *c; c++) {
		bool q = false; /* this token is a repetition: '*', '+', '?', {m,n} */
		if (bracket) {
			bracket = *c != ']';
			continue;
		}
		if (*c == '[') {
			bracket = true;
			c += c[1] == '^';
			c += c[1] == ']'; /* a ']' first in a bracket expression is itself */
		} else if (*c == '\\' && isdigit((unsigned char)c[1])) {
			snprintf(why, wl, "CPU pattern '%s' has a back-reference (\\%c); none is allowed", pat, c[1]);
			return -EINVAL;
		} else if (*c == '\\' && c[1]) {
			c++;
		} else if (*c == '(' || *c == ')') {
			/* one ')' too many would close the "^(...)$" the pattern is wrapped in */
			depth += *c == '(' ? 1 : -1;
			if (depth < 0)
				break;
		} else if (*c == '*' || *c == '+' || *c == '?' || (*c == '{' && isdigit((unsigned char)c[1]))) {
			q = true;
			if (*c == '{') {
				/* an interval is {m}, {m,} or {m,n}: anything else in the braces (glibc reads some of
				 * it as literal text, "\0" in "{3\011}" as a back-reference) is refused, not skipped */
				const char *e = c + 1;
				while (isdigit((unsigned char)*e))
					e++;
				if (*e == ',')
					for (e++; isdigit((unsigned char)*e);)
						e++;
				if (*e != '}') {
					snprintf(why, wl, "CPU pattern '%s' has a malformed interval (an interval is {m}, "
						 "{m,} or {m,n})", pat);
					return -EINVAL;
				}
				c = e;
			}
		}
		if (q && quant) {
			/* glibc's closure computation is exponential in stacked repetitions ("x**...*") */
			snprintf(why, wl, "CPU pattern '%s' repeats a repetition (as in 'x**' or 'x+{2}'); none is allowed",
				 pat);
			return -EINVAL;
		}
		quant = q;
	}
	if (depth) {
		snprintf(why, wl, "CPU pattern '%s' has unbalanced parentheses", pat);
		return -EINVAL;
	}
	positions = map_positions(&s, 0);
	if (positions > MAP_POSITIONS_MAX) {
		snprintf(why, wl, "CPU pattern '%s' repeats to more than %d positions (counts of {m,n} multiplied, a + doubling)",
			 pat, MAP_POSITIONS_MAX);
		return -EINVAL;
	}
	if (keys && !map_may_match(pat, keys, nk))
		return 1;
	snprintf(anchored, sizeof(anchored), "^(%s)$", pat);
	r = regcomp(re, anchored, REG_EXTENDED | REG_NOSUB | REG_ICASE);
	if (r == REG_ESPACE)
		return -ENOMEM;
	if (r != 0) {
		char err[128];
		regerror(r, re, err, sizeof(err));
		snprintf(why, wl, "CPU pattern '%s' is not an extended regular expression (%s)", pat, err);
		return -EINVAL;
	}
	return 0;
}

/* 1 when compiled pattern @re matches one of the @nk CPU keys, 0 when none, -ENOMEM when
 * regexec ran out of memory (glibc says REG_NOMATCH then too: malloc's errno tells). */
static int match_keys(regex_t *re, const char keys[][64], int nk)
{
	int r = 0;

	for (int k = 0; k < nk && r == 0; k++) {
		int m;
		errno = 0;
		m = regexec(re, keys[k], 0, NULL, 0);
		r = m == 0 ? 1 : m == REG_ESPACE || errno == ENOMEM ? -ENOMEM : 0;
	}
	return r;
}

/*
 * Plain patterns, matched without regcomp. A mapfile line's pattern is usually literals, bracket
 * expressions of characters and ranges ("[01234]", "[5-9A-F]") and groups of literal alternatives
 * ("(97|9A|B7)"), nothing repeated; compiling and running one through glibc's regex costs ~170,000
 * instructions, a seventh of a first context. Such a pattern is a sequence of items each matching a
 * string of known length, so a match is the set of key positions reachable after each item (one
 * pass, no backtracking), as regexec with "^(pattern)$" and REG_ICASE decides it. Anything else
 * (classes like [:xdigit:], '^' in brackets, escapes, '.', repetitions, empty alternatives, bytes
 * outside printable ASCII) is left to regex. test-mapfile compares the decisions with
 * regcomp/regexec's over perf's mapfiles, fuzz-mapfile over every input it makes.
 */
#define PLAIN_SPECIAL ".[]()*+?{}|^$\\"

static bool plain_char(char c)
{
	return c >= 0x20 && c < 0x7f;
}

/* c == k ignoring the case of ASCII letters (no locale: what REG_ICASE does to the ASCII keys) */
static bool plain_eq(char c, char k)
{
	char l = (char)(c | 0x20);
	return c == k || (l == (k | 0x20) && l >= 'a' && l <= 'z');
}

/* Whether @k is in the bracket expression [@b...] (@b after '['), its length up to ']' in *len; -1:
 * not a plain one (empty, '^' first, anything but letters and digits, a range that is not of digits
 * or of letters of one case, ascending). Ranges ignore case, as glibc's REG_ICASE does. */
static int plain_bracket(const char *b, char k, size_t *len)
{
	size_t i = 0;
	int in = 0;

	if (*b == ']')
		return -1;
	for (; b[i] && b[i] != ']'; i++) {
		char lo = b[i], hi = b[i];
		if (!isalnum((unsigned char)lo) || !plain_char(lo))
			return -1;
		if (b[i + 1] == '-' && b[i + 2] && b[i + 2] != ']') {
			hi = b[i + 2];
			if (!((isdigit((unsigned char)lo) && isdigit((unsigned char)hi)) ||
			      (isupper((unsigned char)lo) && isupper((unsigned char)hi)) ||
			      (islower((unsigned char)lo) && islower((unsigned char)hi))) || hi < lo)
				return -1;
			i += 2;
		}
		for (char c = lo; c <= hi && !in; c++)
			in = k && plain_eq(c, k);
	}
	if (b[i] != ']')
		return -1;
	*len = i + 1;
	return in;
}

/* Whether plain pattern @p matches all of key @s: 1, 0, -1 (not plain). Bit j of `at`: the items so
 * far can match s[0..j); each item is tried at those positions only (usually one). */
static int plain_match(const char *p, const char *s)
{
	size_t n = strlen(s);
	uint64_t at = 1;

	if (n > 62)
		return -1;
	for (size_t j = 0; j < n; j++)
		if (!plain_char(s[j]))
			return -1;
	while (*p) {
		uint64_t next = 0;
		size_t len = 1;
		if (*p == '[') {
			if (plain_bracket(p + 1, 0, &len) < 0)
				return -1;
			for (uint64_t m = at; m; m &= m - 1) {
				size_t j = (size_t)__builtin_ctzll(m), l;
				if (plain_bracket(p + 1, s[j], &l) == 1)
					next |= (uint64_t)1 << (j + 1);
			}
			len++; /* the '[' */
		} else if (*p == '(') {
			const char *a = p + 1;
			for (;;) {
				size_t al = strcspn(a, PLAIN_SPECIAL);
				for (size_t k = 0; k < al; k++)
					if (!plain_char(a[k]))
						return -1;
				if (!al || (a[al] != '|' && a[al] != ')'))
					return -1;
				for (uint64_t m = at; m; m &= m - 1) {
					size_t j = (size_t)__builtin_ctzll(m), k = 0;
					while (k < al && j + k < n && plain_eq(a[k], s[j + k]))
						k++;
					if (k == al)
						next |= (uint64_t)1 << (j + al);
				}
				a += al + 1;
				if (a[-1] == ')')
					break;
			}
			len = (size_t)(a - p);
		} else {
			if (!plain_char(*p) || strchr(PLAIN_SPECIAL, *p))
				return -1;
			for (uint64_t m = at; m; m &= m - 1) {
				size_t j = (size_t)__builtin_ctzll(m);
				if (j < n && plain_eq(*p, s[j]))
					next |= (uint64_t)1 << (j + 1);
			}
		}
		p += len;
		if (*p && strchr("*+?{", *p))
			return -1; /* the item is repeated */
		at = next;
	}
	return (int)(at >> n & 1);
}

int pmu__tables_map_plain(const char *pat, const char keys[][64], int nk)
{
	int r = 0;

	if (strlen(pat) > PMU_MAP_PATTERN_MAX)
		return -1;
	for (int k = 0; k < nk; k++) {
		int m = plain_match(pat, keys[k]);
		if (m < 0)
			return -1;
		r |= m;
	}
	return r;
}

/* Whether CPU pattern @pat matches one of the @nk keys: plain patterns without regex, others checked
 * and compiled by pmu__tables_map_pattern. 1, 0, -EINVAL (@why says why the pattern is refused),
 * -ENOMEM. */
static int pattern_matches(const char *pat, const char keys[][64], int nk, char *why, size_t wl)
{
	regex_t re;
	int r;

	if ((r = pmu__tables_map_plain(pat, keys, nk)) >= 0)
		return r;
	if ((r = pmu__tables_map_pattern(pat, keys, nk, &re, why, wl)) < 0)
		return r;
	if (r == 1) /* cannot match: not compiled */
		return 0;
	r = match_keys(&re, keys, nk);
	regfree(&re);
	return r;
}

/* Whether the CPU pattern @pat of line @lineno of mapfile @mapname matches one of the @nk keys: 1, 0
 * (also when the pattern is refused: a warning says why, and the line is skipped), -ENOMEM. */
static int row_matches(struct pmu_ctx *ctx, const char *pat, const char keys[][64], int nk, const char *mapname,
		       int lineno)
{
	char why[PMU_MAP_PATTERN_MAX + 160];
	int r = pattern_matches(pat, keys, nk, why, sizeof(why));

	if (r != -EINVAL)
		return r;
	pmu__log(ctx, PMU_LOG_WARN, "%s line %d: %s: line skipped", mapname, lineno, why);
	return 0;
}

/* Find the directory for @cpu in a mapfile's text: 1 and *dir (to free), 0 if no line matches,
 * -ENOMEM. Refused lines are warnings naming @mapname and the line. */
int pmu__tables_map_match(struct pmu_ctx *ctx, const struct pmu_cpu *cpu, const char *text, const char *mapname,
			  char **dir)
{
	char keys[2][64];
	int nk = pmu__tables_cpu_keys(cpu, keys), lineno = 0, r;
	struct map_row row;

	while (pmu__tables_map_next(&text, &lineno, &row)) {
		if ((r = row_matches(ctx, row.cpuid, keys, nk, mapname, row.lineno)) < 0)
			return r;
		if (r)
			return (*dir = strdup(row.dir)) ? 1 : -ENOMEM;
	}
	return 0;
}

/*
 * pmu__tables_map_match() over the built-in mapfile, whose rows gen-tables.py compiled with their
 * patterns' literal starts (pmu__tables_map_start): a row whose start no key has is skipped without
 * reading its pattern further. A plain pattern cost ~1,400 instructions to reject (plain_match checks
 * the whole pattern for 2 keys), the text's line ~600 to split: an AMD CPU's first context read the 37
 * Intel rows before its own. Skipping loses no warning: every built-in pattern is accepted
 * (test-mapfile, which also compares this with pmu__tables_map_match over the mapfile's text).
 */
static int builtin_rows_match(struct pmu_ctx *ctx, const char keys[][64], int nk, char **dir)
{
	for (size_t i = 0; i < pmu__builtin_nmaprows; i++) {
		const struct pmu_builtin_maprow *row = &pmu__builtin_maprows[i];
		int r;
		if (!start_may_match(row->cpuid, row->lit, row->group, keys, nk))
			continue;
		if ((r = row_matches(ctx, row->cpuid, keys, nk, "events/mapfile.csv", row->lineno)) < 0)
			return r;
		if (r)
			return (*dir = strdup(row->dir)) ? 1 : -ENOMEM;
	}
	return 0;
}

/* The built-in mapfile's answers, per process (it never changes, and a context pays 9,000-28,000
 * instructions to find its CPU's row, ~165,000 more where the row needs regcomp: AMD's and RISC-V's
 * [[:xdigit:]] patterns): the last few CPUs asked for. */
static struct builtin_answer { char keys[2][64]; int nk, r; char dir[96]; } answers[4];
static size_t nanswers;
static pthread_mutex_t answers_lock = PTHREAD_MUTEX_INITIALIZER;

void pmu__cpumap_fork_lock(bool take)
{
	pmu__fork_mutex(&answers_lock, take);
}

int pmu__tables_builtin_map_match(struct pmu_ctx *ctx, const struct pmu_cpu *cpu, char **dir)
{
	char keys[2][64] = { "", "" };
	int nk = pmu__tables_cpu_keys(cpu, keys), r = -1;

	pthread_mutex_lock(&answers_lock);
	for (size_t i = 0; i < nanswers && r < 0; i++)
		if (answers[i].nk == nk && !strcmp(answers[i].keys[0], keys[0]) && !strcmp(answers[i].keys[1], keys[1])) {
			r = answers[i].r;
			if (r == 1 && !(*dir = strdup(answers[i].dir)))
				r = -ENOMEM;
		}
	pthread_mutex_unlock(&answers_lock);
	if (r >= 0 || r == -ENOMEM)
		return r;
	r = builtin_rows_match(ctx, keys, nk, dir);
	if (r < 0 || (r == 1 && strlen(*dir) >= sizeof(answers[0].dir)))
		return r;
	pthread_mutex_lock(&answers_lock);
	{
		struct builtin_answer *a = &answers[nanswers < 4 ? nanswers++ : 3];
		memset(a, 0, sizeof(*a));
		memcpy(a->keys, keys, sizeof(keys));
		a->nk = nk;
		a->r = r;
		if (r == 1)
			pmu__strlcpy(a->dir, *dir, sizeof(a->dir));
	}
	pthread_mutex_unlock(&answers_lock);
	return r;
}

int pmu__tables_cpuid_matches(struct pmu_ctx *ctx, const char *id)
{
	char keys[2][64], why[PMU_MAP_PATTERN_MAX + 160];
	int nk;

	if (ctx->cpu.arch == PMU_ARCH_ARM64) {
		/* MIDR: revision bits 0-3, part 4-15, architecture 16-19, variant 20-23, implementer 24-31 */
		const uint64_t version = 0xf0000full;
		uint64_t want, have = ctx->cpu.midr;
		if (pmu__parse_u64(id, &want) < 0)
			return -EINVAL;
		if ((want & ~version & 0xffffffffull) != (have & ~version & 0xffffffffull))
			return 0;
		return ((have >> 20 & 0xf) << 4 | (have & 0xf)) >= ((want >> 20 & 0xf) << 4 | (want & 0xf));
	}
	nk = pmu__tables_cpu_keys(&ctx->cpu, keys);
	return pattern_matches(id, keys, nk, why, sizeof(why));
}
