/* SPDX-License-Identifier: MIT */
/*
 * mapfile.csv CPU patterns: what would make regcomp crash or take seconds
 * and gigabytes ("((.?){255}){255}\3X", "((.?){255}){255}") is refused with
 * a problem naming the file, the line and the limit, by pmu_tables_check()
 * and when tables are loaded; and perf's own mapfiles (x86, arm64, riscv of
 * Debian's linux-source-6.12, read where perf-corpus extracted it, else extracted
 * into the build directory) select
 * for thousands of CPU ids exactly what their patterns compiled by regcomp
 * unbounded select (the oracle, written here: the first line whose pattern
 * matches one of the CPU's ids); and every pattern of perf's x86, arm64,
 * riscv, powerpc and s390 mapfiles is accepted.
 */
#include <ctype.h>
#include <regex.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "context.h"
#include "cpu.h"
#include "tables.h"
#include "harness.h"
#include "tablegen.h"

#define PE "linux-source-6.12/tools/perf/pmu-events"

struct log {
	struct text all;
};

static void log_fn(void *data, int level, const char *msg)
{
	struct log *l = data;
	(void)level;
	add(&l->all, "%s\n", msg);
}

/* The table directory a context with tables @root chooses for @cpuid ("" if none); its warnings in @l. */
static void chosen(const char *root, const char *cpuid, struct log *l, char *out, size_t len)
{
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx = NULL;
	struct pmu_caps caps;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.events_path = root;
	o.cpuid = cpuid;
	o.log_fn = log_fn;
	o.log_data = l;
	out[0] = 0;
	if (pmu_ctx_new(&ctx, &o) == 0 && pmu_caps(ctx, &caps) == 0 && !strcmp(caps.events_table_root, root))
		snprintf(out, len, "%s", caps.events_table);
	pmu_ctx_free(ctx);
}

/* A refused pattern: a problem of check-tables and a warning of loading, each naming file, line, limit. */
static void refused(const char *name, const char *pattern, const char *limit)
{
	char rel[128], dir[64], map[1024], got[128];
	struct probs p = { 0 };
	struct log l = { { 0 } };
	struct pmu_ctx *ctx = gen_ctx(NULL, NULL);
	const char *root;
	int r;

	snprintf(rel, sizeof(rel), "%s/cpu/events.json", name);
	gen_write(rel, "[{\"EventName\": \"X\", \"EventCode\": \"0x1\"}]\n", 40);
	snprintf(rel, sizeof(rel), "%s/mapfile.csv", name);
	snprintf(map, sizeof(map), "CPUID,Version,Directory,Type\n%s,v1,cpu,core\nGenuineIntel-6-55,v1,cpu,core\n", pattern);
	gen_write(rel, map, strlen(map));
	root = gen_path(name);
	snprintf(dir, sizeof(dir), "%s/mapfile.csv: -: line 2: ", name);
	r = gen_check(ctx, root, &p);
	CHECK(r == 1 && strstr(p.all.s, dir) && strstr(p.all.s, limit), "check-tables of '%s': %d problems:\n%s",
	      pattern, r, p.all.s);
	pmu_ctx_free(ctx);
	/* loading: the line is skipped with a warning, the next line still selects the directory */
	chosen(root, "GenuineIntel-6-55-4", &l, got, sizeof(got));
	snprintf(dir, sizeof(dir), "%s/mapfile.csv line 2: ", name);
	CHECK(!strcmp(got, "cpu") && l.all.s && strstr(l.all.s, dir) && strstr(l.all.s, limit),
	      "loading with '%s': table '%s', log:\n%s", pattern, got, l.all.s ? l.all.s : "");
	free(l.all.s);
	free(p.all.s);
}

/* perf's pmu-events tree: perf-corpus's extraction if there, else the five mapfiles extracted here. */
static const char *perf_tree(void)
{
	static char root[1100];
	/* the build directory (meson test sets it); run by hand, /tmp: never the working directory, which
	 * may be the source tree (perf's files once got committed that way) */
	const char *bd = getenv("PMU_TEST_BUILDDIR") ? getenv("PMU_TEST_BUILDDIR") : "/tmp";
	char done[1200], cmd[2048];
	struct stat st;

	snprintf(done, sizeof(done), "%s/perf-corpus/.extracted", bd);
	snprintf(root, sizeof(root), "%s/perf-corpus/" PE, bd);
	if (stat(done, &st) == 0)
		return root;
	snprintf(done, sizeof(done), "%s/test-mapfile/.extracted", bd);
	snprintf(root, sizeof(root), "%s/test-mapfile/" PE, bd);
	if (stat(done, &st) == 0)
		return root;
	if (stat("/usr/src/linux-source-6.12.tar.xz", &st) < 0) {
		printf("FAIL (setup): /usr/src/linux-source-6.12.tar.xz is missing: install Debian's linux-source-6.12 "
		       "(tests/deps.sh lists it)\n");
		exit(1);
	}
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/test-mapfile' && tar xJf /usr/src/linux-source-6.12.tar.xz -C "
		 "'%s/test-mapfile' " PE "/arch/x86/mapfile.csv " PE "/arch/arm64/mapfile.csv " PE
		 "/arch/riscv/mapfile.csv " PE "/arch/powerpc/mapfile.csv " PE "/arch/s390/mapfile.csv && touch '%s'",
		 bd, bd, done);
	if (system(cmd) != 0) {
		printf("FAIL (setup): %s\n", cmd);
		exit(1);
	}
	return root;
}

/* RISC-V ids (mvendorid-marchid-mimpid): perf's vendors and architectures, and a few implementations */
static const char *const rv_vendors[] = { "0x489", "0x5b7", "0x67e", "0x31e", "0x1" };
static const char *const rv_archs[] = { "0x8000000000000007", "0x0", "0x80000000db000080", "0x80000000db000090",
					"0x80000000db0000a0", "0x8000000000008a45", "0x16" };
static const char *const rv_impls[] = { "0x0", "0x1", "0x4210427", "0xabc" };

struct row {
	char pattern[160], dir[160], raw[160];
	regex_t re;
};

/* The data lines of a mapfile (header and comments skipped), each pattern compiled as is. */
static size_t read_rows(const char *path, struct row *rows, size_t max)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t n = 0;

	CHECK(f != NULL, "cannot read %s", path);
	while (f && n < max && fgets(line, sizeof(line), f)) {
		char *c1, *c2, *c3;
		line[strcspn(line, "\r\n")] = 0;
		if (line[0] == '#' || !(c1 = strchr(line, ',')) || !(c2 = strchr(c1 + 1, ',')) ||
		    !strncmp(c1 + 1, "Version,", 8))
			continue;
		*c1 = *c2 = 0;
		if ((c3 = strchr(c2 + 1, ',')))
			*c3 = 0;
		snprintf(rows[n].pattern, sizeof(rows[n].pattern), "^(%s)$", line);
		snprintf(rows[n].raw, sizeof(rows[n].raw), "%s", line);
		snprintf(rows[n].dir, sizeof(rows[n].dir), "%s", c2 + 1);
		CHECK(regcomp(&rows[n].re, rows[n].pattern, REG_EXTENDED | REG_NOSUB | REG_ICASE) == 0, "%s: %s", path,
		      rows[n].pattern);
		n++;
	}
	if (f)
		fclose(f);
	return n;
}

/* The oracle: the directory of the first row matching id @a or @b (NULL: none). */
static const char *first_match(const struct row *rows, size_t n, const char *a, const char *b)
{
	for (size_t i = 0; i < n; i++)
		if (regexec(&rows[i].re, a, 0, NULL, 0) == 0 || (b && regexec(&rows[i].re, b, 0, NULL, 0) == 0))
			return rows[i].dir;
	return NULL;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	struct text t = { 0 };
	char buf[4096];
	size_t n;

	add(&t, "%s", "");
	while (f && (n = fread(buf, 1, sizeof(buf) - 1, f))) {
		buf[n] = 0;
		add(&t, "%s", buf);
	}
	if (f)
		fclose(f);
	return t.s;
}

/* Rows decided without regex (pmu__tables_map_plain), and of those matched: every decision equal to
 * regexec's (same_choice). */
static size_t plain_decided, plain_matched;

/* One CPU id: the library's choice (pmu__tables_map_match, as loading does) equals the oracle's, and no
 * line was refused (said in @ctx's log, @l). */
static int same_choice(struct pmu_ctx *ctx, const char *text, const struct row *rows, size_t n, const char *cpuid,
		       const char *a, const char *b, struct log *l)
{
	struct pmu_cpu cpu;
	const char *want = first_match(rows, n, a, b);
	char *got = NULL;
	int r;

	if (pmu__cpu_parse_id(cpuid, &cpu) < 0) {
		CHECK(0, "cannot parse CPU id %s", cpuid);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		char keys[2][64];
		int nk = b ? 2 : 1, plain;
		snprintf(keys[0], sizeof(keys[0]), "%s", a);
		snprintf(keys[1], sizeof(keys[1]), "%s", b ? b : "");
		if ((plain = pmu__tables_map_plain(rows[i].raw, keys, nk)) < 0)
			continue;
		r = regexec(&rows[i].re, a, 0, NULL, 0) == 0 || (b && regexec(&rows[i].re, b, 0, NULL, 0) == 0);
		CHECK(plain == r, "%s: '%s' decided %d without regex, regexec %d", cpuid, rows[i].raw, plain, r);
		plain_decided++;
		plain_matched += plain == 1;
	}
	r = pmu__tables_map_match(ctx, &cpu, text, "mapfile.csv", &got);
	CHECK(r == (want != NULL) && (!want || !strcmp(got, want)), "%s: libpmu %d '%s', regcomp/regexec '%s'", cpuid,
	      r, got ? got : "", want ? want : "");
	CHECK(!l->all.n, "%s: lines refused:\n%s", cpuid, l->all.s);
	free(got);
	return want != NULL;
}

/* The built-in mapfile's text: the oracle of its compiled rows. */
static const char *builtin_text(void)
{
	for (size_t i = 0; i < pmu__builtin_nfiles; i++)
		if (!strcmp(pmu__builtin_files[i].path, "mapfile.csv"))
			return pmu__builtin_files[i].data;
	CHECK(0, "the built-in mapfile");
	return NULL;
}

/* Rows chosen by some id (builtin_id), by index in the compiled rows. */
static bool row_chosen[1024];

/* CPU id @id: the built-in mapfile's compiled rows, rows skipped by their literal start
 * (pmu__tables_builtin_map_match, its answer not yet kept for @id's keys), choose what the text's rows
 * choose, every pattern matched (pmu__tables_map_match). 1 if it chose a row. */
static int builtin_id(struct pmu_ctx *ctx, const char *text, const char *id)
{
	struct pmu_cpu cpu;
	char *fast = NULL, *full = NULL;
	int rf, rm;

	if (pmu__cpu_parse_id(id, &cpu) < 0) {
		CHECK(0, "cannot parse CPU id %s", id);
		return 0;
	}
	rf = pmu__tables_builtin_map_match(ctx, &cpu, &fast);
	rm = pmu__tables_map_match(ctx, &cpu, text, "mapfile.csv", &full);
	CHECK(rf == rm && (rf != 1 || !strcmp(fast, full)), "%s: compiled rows %d %s, text %d %s", id, rf,
	      rf == 1 ? fast : "", rm, rm == 1 ? full : "");
	for (size_t i = 0; rf == 1 && i < pmu__builtin_nmaprows && i < 1024; i++)
		row_chosen[i] |= !strcmp(pmu__builtin_maprows[i].dir, fast);
	free(fast);
	free(full);
	return rf == 1;
}

/*
 * The built-in mapfile's rows, compiled by gen-tables.py, are its text's rows as the loader reads them
 * (pattern, directory, line), each pattern accepted (a row skipped by its literal start loses no warning)
 * and its literal start the library's (pmu__tables_map_start). And for CPU ids of every row (each x86
 * vendor and family of the file with every model, steppings 0 and B on each side of perf's -[01234];
 * each arm64 MIDR literal, with variant and revision set, and the next part; the RISC-V ids above), the
 * compiled rows choose what the text's rows choose, and every row is chosen by some id.
 */
static void builtin_rows(void)
{
	const char *text = builtin_text(), *p = text;
	struct { char vendor[32]; unsigned family; } fams[8];
	struct log l = { { 0 } };
	struct pmu_ctx_opts o;
	struct pmu_ctx *ctx = NULL;
	size_t n = 0, nf = 0, ids = 0, matched = 0, chosen = 0;
	struct map_row row;
	char id[96];
	int lineno = 0;

	if (!text)
		return;
	while (pmu__tables_map_next(&p, &lineno, &row)) {
		const struct pmu_builtin_maprow *c = n < pmu__builtin_nmaprows ? &pmu__builtin_maprows[n] : NULL;
		char why[PMU_MAP_PATTERN_MAX + 160], vendor[32];
		size_t lit, group;
		unsigned fam;
		regex_t re;
		n++;
		CHECK(c && !strcmp(c->cpuid, row.cpuid) && !strcmp(c->dir, row.dir) && c->lineno == row.lineno,
		      "row %zu: compiled '%s' %s line %d; the text's '%s' %s line %d", n, c ? c->cpuid : "", c ? c->dir : "",
		      c ? c->lineno : 0, row.cpuid, row.dir, row.lineno);
		if (!c)
			continue;
		pmu__tables_map_start(c->cpuid, &lit, &group);
		CHECK(c->lit == lit && c->group == group, "'%s': literal start %u, group %u compiled; %zu, %zu here",
		      c->cpuid, c->lit, c->group, lit, group);
		CHECK(pmu__tables_map_pattern(c->cpuid, NULL, 0, &re, why, sizeof(why)) == 0, "'%s' refused: %s", c->cpuid,
		      why);
		regfree(&re);
		if (sscanf(c->cpuid, "%31[A-Za-z]-%u-", vendor, &fam) == 2) {
			size_t f = 0;
			while (f < nf && (strcmp(fams[f].vendor, vendor) || fams[f].family != fam))
				f++;
			if (f == nf && nf < 8) {
				snprintf(fams[nf].vendor, sizeof(fams[nf].vendor), "%s", vendor);
				fams[nf++].family = fam;
			}
		}
	}
	CHECK(n == pmu__builtin_nmaprows && n > 40, "%zu rows in the text, %zu compiled", n, pmu__builtin_nmaprows);
	CHECK(nf >= 4, "%zu x86 vendors and families", nf);
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.log_fn = log_fn;
	o.log_data = &l;
	if (pmu_ctx_new(&ctx, &o) < 0) {
		CHECK(0, "context");
		return;
	}
	for (size_t f = 0; f < nf; f++)
		for (unsigned model = 0; model < 256; model++)
			for (unsigned step = 0; step < 16; step += 11) {
				snprintf(id, sizeof(id), "%s-%u-%X-%X", fams[f].vendor, fams[f].family, model, step);
				matched += builtin_id(ctx, text, id);
				ids++;
			}
	for (size_t i = 0; i < pmu__builtin_nmaprows; i++) {
		unsigned long long midr;
		if (strlen(pmu__builtin_maprows[i].cpuid) != 18 || sscanf(pmu__builtin_maprows[i].cpuid, "0x%llx", &midr) != 1)
			continue;
		for (int k = 0; k < 3; k++) {
			snprintf(id, sizeof(id), "0x%016llx", k == 0 ? midr : k == 1 ? midr | 0x300003 : midr + 0x10);
			matched += builtin_id(ctx, text, id);
			ids++;
		}
	}
	for (size_t v = 0; v < 5; v++)
		for (size_t ar = 0; ar < 7; ar++)
			for (size_t im = 0; im < 4; im++) {
				snprintf(id, sizeof(id), "%s-%s-%s", rv_vendors[v], rv_archs[ar], rv_impls[im]);
				matched += builtin_id(ctx, text, id);
				ids++;
			}
	CHECK(!l.all.n, "lines refused:\n%s", l.all.s);
	for (size_t i = 0; i < pmu__builtin_nmaprows && i < 1024; i++) {
		CHECK(row_chosen[i], "no id chose row '%s' (%s)", pmu__builtin_maprows[i].cpuid, pmu__builtin_maprows[i].dir);
		chosen += row_chosen[i];
	}
	printf("built-in mapfile: %zu rows compiled as the text's; %zu CPU ids (%zu matched) choose the same row by "
	       "the rows' literal starts as by every pattern, %zu rows chosen\n", n, ids, matched, chosen);
	pmu_ctx_free(ctx);
	free(l.all.s);
}

/* The built-in mapfile's answers kept per process (pmu__tables_builtin_map_match) are the answers
 * of matching the mapfile's text (pmu__tables_map_match), for 7 CPUs asked for in turn three times
 * (more CPUs than answers are kept), contexts made and freed in between. */
static void builtin_answers(void)
{
	static const char *const ids[] = { "GenuineIntel-6-55-4", "AuthenticAMD-25-11-1", "GenuineIntel-6-8F-8",
					   "0x00000000410fd0c0", "GenuineIntel-6-99-9", "GenuineIntel-6-5E-3",
					   "AuthenticAMD-23-31-0" };
	const char *text = builtin_text();
	int hits = 0;

	for (int round = 0; text && round < 3; round++)
		for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
			struct pmu_ctx_opts o;
			struct pmu_ctx *ctx = NULL;
			char *kept = NULL, *matched = NULL;
			int rk, rm;
			memset(&o, 0, sizeof(o));
			o.size = sizeof(o);
			o.cpuid = ids[i];
			if (pmu_ctx_new(&ctx, &o) < 0) {
				CHECK(0, "context for %s", ids[i]);
				continue;
			}
			rk = pmu__tables_builtin_map_match(ctx, &ctx->cpu, &kept);
			rm = pmu__tables_map_match(ctx, &ctx->cpu, text, "mapfile.csv", &matched);
			CHECK(rk == rm && (rk != 1 || !strcmp(kept, matched)), "%s (round %d): kept %d %s, matched %d %s",
			      ids[i], round, rk, rk == 1 ? kept : "", rm, rm == 1 ? matched : "");
			hits += rk == 1;
			free(kept);
			free(matched);
			pmu_ctx_free(ctx);
		}
	CHECK(hits == 3 * 6, "%d of 21 lookups found a directory (GenuineIntel-6-99-9 has none)", hits);
}

int main(void)
{
	static struct row rows[128];
	char path[1400], id[64], a[64], b[64];
	const char *tree;

	/* 1. patterns beyond the bounds */
	refused("backref", "((.?){255}){255}\\3X", "back-reference");
	refused("nested", "((.?){255}){255}", "more than 128 positions");
	refused("interval", "GenuineIntel-6-5[0-9]{1025}", "more than 128 positions");
	/* glibc compiles x+ as xx*: 8 nested '+' are 256 copies (fuzz-mapfile: 30 took 2.4 GB) */
	refused("plus", "GenuineIntel-6-((((((((5+)+)+)+)+)+)+)+)", "more than 128 positions");
	refused("optional", "GenuineIntel-6-(5?){129}", "more than 128 positions");
	refused("stacked", "GenuineIntel-6-55-4\\*****************", "repeats a repetition");
	refused("stacked2", "GenuineIntel-6-(55)+{2}", "repeats a repetition");
	refused("unbalanced", ")+++++d19", "unbalanced parentheses");
	refused("unclosed", "GenuineIntel-(6-55", "unbalanced parentheses");
	refused("zero", "GenuineIntel-6-((((((((5+)+)+)+)+)+)+)+){0}", "more than 128 positions");
	/* the interval's braces were skipped unread: "\0" inside them made glibc take 20 s and 1.9 GB
	 * (fuzz-mapfile; tests/fuzz/regressions/mapfile/oom-backslash-in-interval) */
	refused("interval-backslash", "((.?){3}){3\\011}v", "malformed interval");
	refused("interval-letter", "GenuineIntel-6-5{2x}", "malformed interval");
	refused("interval-open", "GenuineIntel-6-5{2", "malformed interval");
	{
		char long_pattern[200];
		memset(long_pattern, 'A', 129);
		long_pattern[129] = 0;
		refused("long", long_pattern, "at most 128");
	}
	refused("syntax", "GenuineIntel-6-5[5", "not an extended regular expression");
	{
		/* within the bounds: {4} as perf's powerpc lines have it, 128 positions exactly */
		static const char map[] = "CPUID,Version,Directory,Type\n"
					  "GenuineIntel-6-5[[:xdigit:]]{4},v1,cpu,core\n"
					  "x{128},v1,cpu,core\n";
		struct probs p = { 0 };
		struct pmu_ctx *ctx = gen_ctx(NULL, NULL);
		int r;
		gen_write("fine/cpu/events.json", "[{\"EventName\": \"X\", \"EventCode\": \"0x1\"}]\n", 40);
		gen_write("fine/mapfile.csv", map, sizeof(map) - 1);
		r = gen_check(ctx, gen_path("fine"), &p);
		CHECK(r == 0, "patterns within the bounds: %d problems:\n%s", r, p.all.s);
		free(p.all.s);
		pmu_ctx_free(ctx);
	}

	/* 2. perf's mapfiles select what their patterns select */
	tree = perf_tree();
	{
		size_t n, ids = 0, matched = 0;
		char *text;
		struct log l = { { 0 } };
		struct pmu_ctx_opts o;
		struct pmu_ctx *ctx = NULL;

		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.log_fn = log_fn;
		o.log_data = &l;
		if (pmu_ctx_new(&ctx, &o) < 0)
			return 1;

		/* x86: Vendor-Family-Model[-Stepping], tried with and without the stepping, most specific first */
		snprintf(path, sizeof(path), "%s/arch/x86/mapfile.csv", tree);
		n = read_rows(path, rows, 128);
		text = slurp(path);
		CHECK(n >= 40, "%s: %zu lines", path, n);
		static const struct { const char *vendor; unsigned family; } fams[] = {
			{ "GenuineIntel", 6 }, { "AuthenticAMD", 23 }, { "AuthenticAMD", 25 }, { "AuthenticAMD", 26 },
			{ "AuthenticAMD", 24 },
		};
		for (size_t f = 0; f < sizeof(fams) / sizeof(fams[0]); f++)
			for (unsigned model = 0; model < 256; model++)
				for (unsigned step = 0; step < 16; step += 11) { /* 0 and B: each side of perf's -[56789ABCDEF] */
					snprintf(id, sizeof(id), "%s-%u-%X-%X", fams[f].vendor, fams[f].family, model, step);
					snprintf(a, sizeof(a), "%s", id);
					snprintf(b, sizeof(b), "%s-%u-%X", fams[f].vendor, fams[f].family, model);
					matched += same_choice(ctx, text, rows, n, id, a, b, &l);
					ids++;
				}
		free(text);
		for (size_t i = 0; i < n; i++)
			regfree(&rows[i].re);
		printf("x86: %zu CPU ids, %zu select a table, as regexec does\n", ids, matched);
		CHECK(matched > 1000, "only %zu x86 ids matched", matched);

		/* arm64: MIDR with variant and revision zeroed; every literal of the file, with variant/revision set,
		 * and the next part number */
		snprintf(path, sizeof(path), "%s/arch/arm64/mapfile.csv", tree);
		n = read_rows(path, rows, 128);
		text = slurp(path);
		CHECK(n >= 30, "%s: %zu lines", path, n);
		ids = matched = 0;
		for (size_t i = 0; i < n; i++) {
			unsigned long long midr;
			if (sscanf(rows[i].pattern, "^(0x%llx)$", &midr) != 1)
				continue;
			for (int k = 0; k < 3; k++) {
				unsigned long long m = k == 0 ? midr : k == 1 ? midr | 0x300003 : midr + 0x10;
				snprintf(id, sizeof(id), "0x%016llx", m);
				snprintf(a, sizeof(a), "0x%016llx", m & ~0xf0000full);
				matched += same_choice(ctx, text, rows, n, id, a, NULL, &l);
				ids++;
			}
		}
		free(text);
		for (size_t i = 0; i < n; i++)
			regfree(&rows[i].re);
		printf("arm64: %zu CPU ids, %zu select a table, as regexec does\n", ids, matched);
		CHECK(matched >= 60, "only %zu arm64 ids matched", matched);

		/* riscv: mvendorid-marchid-mimpid */
		snprintf(path, sizeof(path), "%s/arch/riscv/mapfile.csv", tree);
		n = read_rows(path, rows, 128);
		text = slurp(path);
		CHECK(n >= 4, "%s: %zu lines", path, n);
		ids = matched = 0;
		for (size_t v = 0; v < 5; v++)
			for (size_t ar = 0; ar < 7; ar++)
				for (size_t im = 0; im < 4; im++) {
					snprintf(id, sizeof(id), "%s-%s-%s", rv_vendors[v], rv_archs[ar], rv_impls[im]);
					matched += same_choice(ctx, text, rows, n, id, id, NULL, &l);
					ids++;
				}
		free(text);
		for (size_t i = 0; i < n; i++)
			regfree(&rows[i].re);
		printf("riscv: %zu CPU ids, %zu select a table, as regexec does\n", ids, matched);
		CHECK(matched >= 10, "only %zu riscv ids matched", matched);
		/* 37 of the 42 x86 lines are plain (AMD's use [[:xdigit:]]): the path is used, not only tried */
		printf("plain patterns: %zu (pattern, CPU id) pairs decided without regex, %zu of them matches, "
		       "as regexec decides\n", plain_decided, plain_matched);
		CHECK(plain_decided > 50000 && plain_matched > 150, "plain patterns: %zu decided, %zu matched",
		      plain_decided, plain_matched);

		/* every line of every perf mapfile (powerpc and s390 too) accepted: a CPU id that no line
		 * matches makes the library compile each pattern; a refused one would be a warning */
		static const char *const arches[] = { "x86", "arm64", "riscv", "powerpc", "s390" };
		for (size_t k = 0; k < 5; k++) {
			struct pmu_cpu cpu;
			char *got = NULL;
			int lines = 0;
			snprintf(path, sizeof(path), "%s/arch/%s/mapfile.csv", tree, arches[k]);
			text = slurp(path);
			for (const char *c = text; *c; c++)
				lines += *c == '\n';
			CHECK(lines >= 3, "%s: %d lines", path, lines);
			CHECK(pmu__cpu_parse_id("GenuineIntel-99-FF-F", &cpu) == 0, "cannot parse GenuineIntel-99-FF-F");
			CHECK(pmu__tables_map_match(ctx, &cpu, text, path, &got) == 0, "%s: '%s' chosen", path,
			      got ? got : "");
			CHECK(!l.all.n, "%s: lines refused:\n%s", path, l.all.s);
			printf("%s: %d lines, every CPU pattern accepted\n", arches[k], lines);
			free(got);
			free(text);
		}
		pmu_ctx_free(ctx);
		free(l.all.s);
	}
	gen_done();
	builtin_rows();
	builtin_answers();
	return test_done("test-mapfile");
}
