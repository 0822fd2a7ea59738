/* SPDX-License-Identifier: MIT */
/* The built-in tables compiled at build time (lib/gen-tables.py) equal, entry
 * by entry and field by field, what the JSON loader makes of the source files
 * in events/. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "internal.h"
#include "harness.h"

static int same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The loader names a disk file by its full path, the compiled table by its path under events/. */
static int same_file(const char *disk, const char *builtin)
{
	size_t d = strlen(disk), b = strlen(builtin);
	return d > b && disk[d - b - 1] == '/' && !strcmp(disk + d - b, builtin);
}

/*
 * The index order gen-tables.py writes for each directory (by Python's sort) is the order of the
 * library's comparator (pmu__tables_cmp_order); and the name index of the standard names plus one
 * directory, built by merging those presorted runs (standard names first) or by following the
 * generator's merge script (the directory first, as every context loads them; the standard names
 * alone), equals the index built by sorting all names and aliases (the same entries with no order
 * known): name, entry and load order, element by element.
 */
static void index_order(void)
{
	size_t compared = 0, scripted = 0;

	for (size_t d = 0; d < pmu__builtin_ndirs; d++) {
		const struct pmu_builtin_dir *bd = &pmu__builtin_dirs[d];
		struct pmu_tables merged, sorted;
		int problems = 0;
		for (size_t k = 0; k + 1 < bd->n; k++) {
			struct pmu_tentry a, b;
			struct pmu_tname x = { pmu__builtin_str(bd->entries[bd->order[k]].name), &a, bd->order[k] },
					 y = { pmu__builtin_str(bd->entries[bd->order[k + 1]].name), &b, bd->order[k + 1] };
			a.kind = bd->entries[bd->order[k]].kind;
			b.kind = bd->entries[bd->order[k + 1]].kind;
			CHECK(pmu__tables_cmp_order(&x, &y) < 0, "%s: order %zu: '%s' before '%s'", bd->dir, k, x.name, y.name);
		}
		/* the standard names first, then the directory: runs merged; the directory first, then the
		 * standard names (every context's table), or the standard names alone: gen-tables.py's merge
		 * script followed, no comparison made */
		for (int cpu_first = 0; cpu_first < 2; cpu_first++) {
			bool std_only = !strcmp(bd->dir, "standard"), script = cpu_first || std_only;
			memset(&merged, 0, sizeof(merged));
			memset(&sorted, 0, sizeof(sorted));
			CHECK((cpu_first || pmu__tables_compiled(&merged, "standard") == 0) &&
			      (std_only || pmu__tables_compiled(&merged, bd->dir) == 0) &&
			      (!cpu_first || pmu__tables_compiled(&merged, "standard") == 0), "%s: load", bd->dir);
			CHECK(merged.nchunks == (std_only ? 1u : 2u), "%s: %zu presorted runs", bd->dir, merged.nchunks);
			for (size_t i = 0; i < merged.n; i++)
				CHECK(pmu__tables_add(&sorted, pmu__tables_entry(&merged, i)) == 0, "add");
			CHECK(pmu__tables_build_index(&merged, NULL, NULL, &problems) == 0 &&
			      pmu__tables_build_index(&sorted, NULL, NULL, &problems) == 0, "%s: index", bd->dir);
			CHECK(merged.scripted == script && !sorted.scripted, "%s%s: the merge script %s", bd->dir,
			      cpu_first ? " first" : "", script ? "followed" : "not used");
			CHECK(merged.nnames == sorted.nnames && merged.nnames >= merged.n / 2,
			      "%s: %zu names merged, %zu sorted", bd->dir, merged.nnames, sorted.nnames);
			for (size_t i = 0; i < merged.nnames && i < sorted.nnames; i++) {
				const struct pmu_tname *a = &merged.names[i], *b = &sorted.names[i];
				CHECK(!strcmp(a->name, b->name) && a->ent == b->ent && a->order == b->order,
				      "%s%s: name %zu: '%s' (entry %zu) merged, '%s' (entry %zu) sorted", bd->dir,
				      cpu_first ? " first" : "", i, a->name, a->order, b->name, b->order);
				compared++;
				scripted += script;
			}
			sorted.n = 0; /* the entries are merged's */
			pmu__tables_free(&sorted);
			pmu__tables_free(&merged);
		}
	}
	CHECK(compared > 20000 && scripted > 10000, "%zu index names compared, %zu by script", compared, scripted);
	printf("%zu index names compared (%zu of them from the merge script): merged == sorted\n", compared, scripted);
}

/*
 * A context whose tables are the built-in ones alone copies the process's index (built by the first
 * such context of its CPU): equal, element by element, to an index built from that context's own
 * entries; for 5 CPUs (one with no CPU table), each asked for twice, and with a user directory (not
 * copied: its own build).
 */
static void index_copies(const char *src)
{
	static const char *const ids[] = { "GenuineIntel-6-55-4", "AuthenticAMD-25-11-1", "0x00000000410fd490",
					   "GenuineIntel-6-99-9", "GenuineIntel-6-97-2" };
	char user[1024];
	size_t compared = 0;

	snprintf(user, sizeof(user), "%s/tests/tables/metrics-engine", src);
	for (int round = 0; round < 3; round++)
		for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
			struct pmu_ctx_opts o;
			struct pmu_ctx *ctx = NULL;
			struct pmu_tables own;
			int problems = 0;
			memset(&o, 0, sizeof(o));
			o.size = sizeof(o);
			o.cpuid = ids[i];
			o.events_path = round == 2 ? user : NULL;
			if (pmu_ctx_new(&ctx, &o) < 0 || pmu__tables_load(ctx) < 0) {
				CHECK(0, "context for %s", ids[i]);
				pmu_ctx_free(ctx);
				continue;
			}
			memset(&own, 0, sizeof(own));
			CHECK(pmu__tables_add_all(&own, &ctx->tables) == 0 &&
			      pmu__tables_build_index(&own, NULL, NULL, &problems) == 0, "%s: own index", ids[i]);
			CHECK(own.nnames == ctx->tables.nnames && own.nnames > 100, "%s round %d: %zu names, %zu built here",
			      ids[i], round, ctx->tables.nnames, own.nnames);
			for (size_t k = 0; k < own.nnames && k < ctx->tables.nnames; k++) {
				const struct pmu_tname *a = &ctx->tables.names[k], *b = &own.names[k];
				CHECK(!strcasecmp(a->name, b->name) && a->ent == b->ent && a->order == b->order,
				      "%s round %d: name %zu: '%s' (entry %zu), built here '%s' (entry %zu)", ids[i], round, k,
				      a->name, a->order, b->name, b->order);
				compared++;
			}
			own.n = 0; /* the context's entries */
			pmu__tables_free(&own);
			pmu_ctx_free(ctx);
		}
	CHECK(compared > 10000, "%zu names compared", compared);
	printf("%zu names of 15 contexts' indexes compared with indexes built from their entries\n", compared);
}

int main(void)
{
	const char *src = getenv("PMU_TEST_SRCDIR");
	size_t entries = 0;

	if (!src) {
		fprintf(stderr, "test-tables-compiled: PMU_TEST_SRCDIR is not set; run it through meson test\n");
		return 1;
	}

	for (size_t d = 0; d < pmu__builtin_ndirs; d++) {
		const char *dir = pmu__builtin_dirs[d].dir;
		struct pmu_tables j, c;
		memset(&j, 0, sizeof(j));
		memset(&c, 0, sizeof(c));
		char path[1024];
		snprintf(path, sizeof(path), "%s/events/%s", src, dir);
		CHECK(pmu__tables_disk(&j, path, dir) == 0, "%s: JSON loads without problems", path);
		CHECK(pmu__tables_compiled(&c, dir) == 0, "%s: compiled entries", dir);
		CHECK(j.n == c.n && j.n > 0, "%s: %zu JSON entries, %zu compiled", dir, j.n, c.n);
		for (size_t i = 0; i < j.n && i < c.n; i++) {
			const struct pmu_tentry *a = pmu__tables_entry(&j, i), *b = pmu__tables_entry(&c, i);
#define S(f) CHECK(same(a->f, b->f), "%s %s: " #f " '%s' vs '%s'", dir, a->name, a->f ? a->f : "(null)", b->f ? b->f : "(null)")
#define N(f) CHECK(a->f == b->f, "%s %s: " #f " %llu vs %llu", dir, a->name, (unsigned long long)a->f, (unsigned long long)b->f)
			CHECK(same_file(a->file, b->file), "%s %s: file '%s' vs '%s'", dir, a->name, a->file, b->file);
			S(name); S(dir); S(desc); S(pdesc); S(notes); S(stdnames); S(approx_note); S(topdown);
			S(aliases); S(generic); S(source); S(unit); S(expr); S(group); S(scale_unit); S(threshold);
			S(params); S(counter_csr); S(pfm_name); S(approx_names);
			N(kind); N(approx); N(have); N(event); N(umask); N(cmask); N(inv); N(edge); N(any); N(msr_index);
			N(msr_value); N(config_code); N(counter_width); N(mhpmevent_bit);
			entries++;
		}
		pmu__tables_free(&j);
		pmu__tables_free(&c);
	}
	CHECK(pmu__builtin_ndirs >= 10 && entries > 1000, "%zu directories, %zu entries compared", pmu__builtin_ndirs,
	      entries);
	printf("%zu directories, %zu entries: compiled == parsed\n", pmu__builtin_ndirs, entries);
	index_order();
	index_copies(src);
	return test_done("test-tables-compiled");
}
