/* SPDX-License-Identifier: MIT */
/* The built-in tables compiled at build time (gen/gen-tables.py), each entry
 * decoded from its record, equal, entry by entry and field by field, what the
 * JSON loader makes of the source files in events/. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/wait.h>
#include "context.h"
#include "tables.h"
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

/* The name of entry @k of @bd, read from its record alone. */
static const char *builtin_name(const struct pmu_builtin_dir *bd, size_t k)
{
	return pmu__builtin_str((uint32_t)pmu__builtin_field(bd, k, PMU_BF_NAME));
}

/*
 * The records of every directory read as the library reads them: each record's mask names fields of the
 * record alone, pmu__builtin_decode reads it to where the next record begins (the last to where the
 * records end), and each field read alone (pmu__builtin_field, the hot paths' reading) equals the same
 * field decoded whole, a field the mask lacks its default. What the values are is checked in main(): the
 * entries made from the decoded records equal, field by field, what the JSON loader makes of events/.
 */
static void records(void)
{
	size_t entries = 0, bytes = 0, fields = 0;

	for (size_t d = 0; d < pmu__builtin_ndirs; d++) {
		const struct pmu_builtin_dir *bd = &pmu__builtin_dirs[d];
		CHECK(bd->at[0] == 0 && !strcmp(pmu__builtin_str(bd->dir_name), bd->dir), "%s: records' start, name",
		      bd->dir);
		for (size_t k = 0; k < bd->n; k++) {
			const unsigned char *p = bd->rec + bd->at[k];
			uint64_t mask = pmu__builtin_varint(&p);
			struct pmu_builtin_entry b;
			size_t len = pmu__builtin_decode(bd, k, &b);
			/* the decoded struct's fields, by field number */
			const uint64_t v[PMU_BF_N] = {
				[PMU_BF_NAME] = b.name, [PMU_BF_FILE] = b.file, [PMU_BF_DESC] = b.desc, [PMU_BF_PDESC] = b.pdesc,
				[PMU_BF_HAVE] = b.have, [PMU_BF_EVENT] = b.event, [PMU_BF_UMASK] = b.umask,
				[PMU_BF_CMASK] = b.cmask, [PMU_BF_INV] = b.inv, [PMU_BF_EDGE] = b.edge, [PMU_BF_ANY] = b.any,
				[PMU_BF_MSR_INDEX] = b.msr_index, [PMU_BF_MSR_VALUE] = b.msr_value,
				[PMU_BF_CONFIG_CODE] = b.config_code, [PMU_BF_STDNAMES] = b.stdnames, [PMU_BF_UNIT] = b.unit,
				[PMU_BF_NOTES] = b.notes, [PMU_BF_APPROX_NOTE] = b.approx_note, [PMU_BF_TOPDOWN] = b.topdown,
				[PMU_BF_ALIASES] = b.aliases, [PMU_BF_GENERIC] = b.generic, [PMU_BF_SOURCE] = b.source,
				[PMU_BF_EXPR] = b.expr, [PMU_BF_GROUP] = b.group, [PMU_BF_SCALE_UNIT] = b.scale_unit,
				[PMU_BF_THRESHOLD] = b.threshold, [PMU_BF_PARAMS] = b.params,
				[PMU_BF_COUNTER_CSR] = b.counter_csr, [PMU_BF_PFM_NAME] = b.pfm_name,
				[PMU_BF_APPROX_NAMES] = b.approx_names, [PMU_BF_APPROX] = (uint64_t)b.approx,
				[PMU_BF_COUNTER_WIDTH] = (uint64_t)b.counter_width,
				[PMU_BF_MHPMEVENT_BIT] = (uint64_t)(int64_t)b.mhpmevent_bit, [PMU_BF_TERMS] = b.terms,
			};
			CHECK(mask >> PMU_BF_N == 0, "%s: entry %zu: mask %#llx names no field", bd->dir, k,
			      (unsigned long long)mask);
			CHECK(bd->at[k] + len == bd->at[k + 1], "%s: entry %zu: record of %zu bytes read, %u written", bd->dir,
			      k, len, bd->at[k + 1] - bd->at[k]);
			CHECK(b.kind == bd->kinds[k] && b.dir == bd->dir_name, "%s: entry %zu: decoded kind, dir", bd->dir, k);
			for (unsigned f = 0; f < PMU_BF_N; f++) {
				uint64_t alone = pmu__builtin_field(bd, k, (enum pmu_bfield)f);
				CHECK(alone == v[f], "%s: entry %zu: field %u alone %#llx, decoded %#llx", bd->dir, k, f,
				      (unsigned long long)alone, (unsigned long long)v[f]);
				CHECK(((mask >> f) & 1) == (v[f] != pmu__builtin_default((enum pmu_bfield)f)),
				      "%s: entry %zu: field %u: %#llx is a default but written, or not written", bd->dir, k, f,
				      (unsigned long long)v[f]);
				fields += (mask >> f) & 1;
			}
			entries++;
		}
		bytes += bd->at[bd->n];
	}
	CHECK(entries > 1000 && fields > 4 * entries, "%zu records, %zu fields read", entries, fields);
	printf("%zu records (%zu bytes, %zu fields): each field read alone == the record decoded whole\n", entries,
	       bytes, fields);
}

/*
 * The index order gen-tables.py writes for each directory (by Python's sort) is the order of the
 * library's comparator (pmu__tables_cmp_order); and the name index of the standard names plus one
 * directory, built by merging those presorted runs (standard names first) or by following the
 * generator's merge script (the directory first, as every context loads them; the standard names
 * alone), equals the index built by sorting all names and aliases (the same entries with no order
 * known): name, entry and load order, element by element — the script's names and its bits of equal
 * names (read instead of the strings) included. And a standard name's native events found from each
 * directory's list of entries with StdNames equal those found by reading every entry.
 */
static void index_order(void)
{
	size_t compared = 0, scripted = 0, natives = 0, same_bits = 0;

	for (size_t d = 0; d < pmu__builtin_ndirs; d++) {
		const struct pmu_builtin_dir *bd = &pmu__builtin_dirs[d];
		struct pmu_tables merged, sorted;
		int problems = 0;
		for (size_t k = 0; k + 1 < bd->n; k++) {
			struct pmu_tentry a, b;
			struct pmu_tname x = { builtin_name(bd, bd->order[k]), &a, bd->order[k] },
					 y = { builtin_name(bd, bd->order[k + 1]), &b, bd->order[k + 1] };
			a.kind = bd->kinds[bd->order[k]];
			b.kind = bd->kinds[bd->order[k + 1]];
			CHECK(pmu__tables_cmp_order(&x, &y) < 0, "%s: order %zu: '%s' before '%s'", bd->dir, k, x.name, y.name);
		}
		/* the script's names, followed as tables-index.c follows it: each name's bit says whether it
		 * equals the one before as strcasecmp compares them; the names in order are the entries' */
		{
			const struct pmu_builtin_dir *sd = NULL, *cd = strcmp(bd->dir, "standard") ? bd : NULL;
			size_t pos[4] = { 0, 0, 0, 0 }, equal = 0;
			const char *prev = NULL;
			for (size_t k = 0; k < pmu__builtin_ndirs; k++)
				if (!strcmp(pmu__builtin_dirs[k].dir, "standard"))
					sd = &pmu__builtin_dirs[k];
			for (size_t k = 0; k < bd->n; k++)
				CHECK(bd->order_name[k] == pmu__builtin_field(bd, bd->order[k], PMU_BF_NAME), "%s: order_name %zu",
				      bd->dir, k);
			for (size_t k = 0; sd && k < bd->nmerge; k++) {
				unsigned r = (bd->merge[k / 4] >> (2 * (k % 4))) & 3;
				const struct pmu_builtin_dir *from = r & 1 ? sd : cd;
				const char *name;
				int bit = (bd->same[k / 8] >> (k % 8)) & 1;
				if (!from || pos[r] >= (r < 2 ? from->n : from->naliases)) {
					CHECK(0, "%s: script step %zu: run %u is exhausted", bd->dir, k, r);
					break;
				}
				name = pmu__builtin_str(r < 2 ? from->order_name[pos[r]] : from->aliases[pos[r]].name);
				pos[r]++;
				CHECK(bit == (prev && !strcasecmp(prev, name)), "%s: script step %zu: '%s' after '%s': bit %d",
				      bd->dir, k, name, prev ? prev : "", bit);
				equal += bit;
				prev = name;
			}
			same_bits += equal;
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
			/* a standard name's native events: from the directories' lists of entries with StdNames
			 * (merged) and from every entry (sorted: no built-in directory known) */
			for (size_t i = 0; i < merged.n; i++) {
				const struct pmu_tentry *s = pmu__tables_entry(&merged, i), *x[8], *y[8], *fx = NULL, *fy = NULL;
				size_t nx, ny;
				if (s->kind != PMU_T_STANDARD)
					continue;
				nx = pmu__tables_natives_in(&merged, s->name, x, 8, true);
				ny = pmu__tables_natives_in(&sorted, s->name, y, 8, true);
				CHECK(nx == ny, "%s: %s: %zu native events from the lists, %zu from every entry", bd->dir,
				      s->name, nx, ny);
				for (size_t k = 0; k < nx && k < ny && k < 8; k++)
					CHECK(x[k] == y[k], "%s: %s: native event %zu: %s, %s", bd->dir, s->name, k, x[k]->name,
					      y[k]->name);
				CHECK(pmu__tables_natives_in(&merged, s->name, &fx, 1, false) == (nx > 0) &&
				      pmu__tables_natives_in(&sorted, s->name, &fy, 1, false) == (ny > 0) && fx == fy,
				      "%s: %s: the first native event", bd->dir, s->name);
				natives += nx;
			}
			sorted.n = 0; /* the entries are merged's */
			pmu__tables_free(&sorted);
			pmu__tables_free(&merged);
		}
	}
	CHECK(compared > 20000 && scripted > 10000, "%zu index names compared, %zu by script", compared, scripted);
	CHECK(natives > 500, "%zu native events of standard names compared", natives);
	CHECK(same_bits > 20, "%zu names of the scripts equal the one before", same_bits);
	printf("%zu names of the merge scripts equal the one before them, as their bits say\n", same_bits);
	printf("%zu index names compared (%zu of them from the merge script): merged == sorted\n", compared, scripted);
	printf("%zu native events of standard names: from the lists of entries with StdNames == from every entry\n",
	       natives);
}

/*
 * A context whose tables are the built-in ones alone borrows the process's index (built by the first
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

/*
 * Contexts whose tables are the built-in ones alone borrow the process's table whole (tables.c): a
 * history of contexts made, used, freed and made again, in a forked child too, each lookup compared
 * with what a context made first answered (the encoding and the entry's name), and the sharing itself
 * checked (the same entry list; one of a PMU_EVENTS_PATH context its own).
 */
static void shared_table(const char *src)
{
	static const char *names[] = { "cycles", "instructions", "branch-misses", "L1D.REPLACEMENT",
				       "BR_MISP_RETIRED.ALL_BRANCHES", "cache-misses", "IPC" };
	struct pmu_event_info want[7], got;
	struct pmu_ctx *a = NULL, *b = NULL, *u = NULL;
	struct pmu_ctx_opts o;
	char user[1024];
	size_t compared = 0;
	pid_t pid;
	int st = 0;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.cpuid = "GenuineIntel-6-55-4";
	snprintf(user, sizeof(user), "%s/tests/tables/metrics-engine", src);
	CHECK(pmu_ctx_new(&a, &o) == 0, "context a");
	for (size_t i = 0; i < 7; i++) {
		int r = pmu_event_resolve(a, names[i], &want[i]);
		CHECK(i == 6 ? r < 0 : r == 0, "a: %s: %d (%s)", names[i], r, pmu_strerror(r)); /* IPC is a metric */
	}
	CHECK(pmu_ctx_new(&b, &o) == 0 && pmu__tables_load(b) == 0, "context b");
	CHECK(a->tables.shared && b->tables.shared && a->tables.ent == b->tables.ent &&
	      a->tables.names == b->tables.names && a->tables.n == b->tables.n, "a and b borrow one table");
	pmu_ctx_free(a);
	o.events_path = user;
	CHECK(pmu_ctx_new(&u, &o) == 0 && pmu__tables_load(u) == 0, "context with PMU_EVENTS_PATH");
	CHECK(!u->tables.shared && u->tables.ent != b->tables.ent, "a PMU_EVENTS_PATH context has its own table");
	pmu_ctx_free(u);
	for (int round = 0; round < 3; round++) {
		if (round == 1) { /* and in a forked child */
			fflush(stdout);
			if ((pid = fork()) == 0) {
				for (size_t i = 0; i < 6; i++)
					if (pmu_event_resolve(b, names[i], &got) != 0 || got.config != want[i].config ||
					    got.type != want[i].type)
						_exit(1);
				pmu_ctx_free(b);
				_exit(0);
			}
			CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
			      "a forked child's lookups in b equal a's");
		}
		for (size_t i = 0; i < 6; i++) {
			CHECK(pmu_event_resolve(b, names[i], &got) == 0 && got.type == want[i].type &&
			      got.config == want[i].config && !strcmp(got.origin, want[i].origin),
			      "round %d: b: %s: config %#llx from %s; a: config %#llx from %s", round, names[i],
			      (unsigned long long)got.config, got.origin, (unsigned long long)want[i].config, want[i].origin);
			compared++;
		}
		if (round == 1) { /* b freed and made again: the process's table is still whole */
			pmu_ctx_free(b);
			o.events_path = NULL;
			CHECK(pmu_ctx_new(&b, &o) == 0, "context b again");
		}
	}
	pmu_ctx_free(b);
	printf("%zu lookups of contexts borrowing one table equal the first context's\n", compared);
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
		struct pmu_tables j[4], c;
		char part[4][128];
		size_t np = 0, i = 0, expected = 0;
		memset(j, 0, sizeof(j));
		memset(&c, 0, sizeof(c));
		/* a mapfile row's "A+B": A's entries, then each of B's that A does not define for the same PMU
		 * (gen-tables.py's combine(), written again here) */
		for (const char *p = dir, *plus; p && np < 4; p = plus ? plus + 1 : NULL, np++) {
			size_t n = (plus = strchr(p, '+')) ? (size_t)(plus - p) : strlen(p);
			snprintf(part[np], sizeof(part[np]), "%.*s", (int)n, p);
		}
		for (size_t k = 0; k < np; k++) {
			char path[1024];
			snprintf(path, sizeof(path), "%s/events/%s", src, part[k]);
			CHECK(pmu__tables_disk(&j[k], path, part[k]) == 0, "%s: JSON loads without problems", path);
		}
		CHECK(pmu__tables_compiled(&c, dir) == 0, "%s: compiled entries", dir);
		for (size_t k = 0; k < np; k++)
			for (size_t x = 0; x < j[k].n; x++) {
				const struct pmu_tentry *a = pmu__tables_entry(&j[k], x), *b;
				bool hidden = false;
				for (size_t h = 0; h < k && !hidden; h++)
					for (size_t y = 0; y < j[h].n && !hidden; y++) {
						const struct pmu_tentry *o = pmu__tables_entry(&j[h], y);
						hidden = !strcasecmp(o->name, a->name) && (o->kind == PMU_T_METRIC) == (a->kind == PMU_T_METRIC) &&
							 !strcasecmp(o->unit ? o->unit : "", a->unit ? a->unit : "");
					}
				if (hidden)
					continue;
				expected++;
				if (i >= c.n)
					continue;
				b = pmu__tables_entry(&c, i++);
#define S(f) CHECK(same(a->f, b->f), "%s %s: " #f " '%s' vs '%s'", dir, a->name, a->f ? a->f : "(null)", b->f ? b->f : "(null)")
#define N(f) CHECK(a->f == b->f, "%s %s: " #f " %llu vs %llu", dir, a->name, (unsigned long long)a->f, (unsigned long long)b->f)
				CHECK(same_file(a->file, b->file), "%s %s: file '%s' vs '%s'", dir, a->name, a->file, b->file);
				CHECK(!strcmp(b->dir, dir), "%s %s: dir '%s'", dir, a->name, b->dir);
				S(name); S(desc); S(pdesc); S(notes); S(stdnames); S(approx_note); S(topdown);
				S(aliases); S(generic); S(source); S(unit); S(expr); S(group); S(scale_unit); S(threshold);
				S(params); S(counter_csr); S(pfm_name); S(approx_names); S(terms);
				N(kind); N(approx); N(have); N(event); N(umask); N(cmask); N(inv); N(edge); N(any); N(msr_index);
				N(msr_value); N(config_code); N(counter_width); N(mhpmevent_bit);
				entries++;
			}
		CHECK(expected == c.n && c.n > 0, "%s: %zu JSON entries (those another directory of the row hides left out), "
		      "%zu compiled", dir, expected, c.n);
		for (size_t k = 0; k < np; k++)
			pmu__tables_free(&j[k]);
		pmu__tables_free(&c);
	}
	CHECK(pmu__builtin_ndirs >= 10 && entries > 1000, "%zu directories, %zu entries compared", pmu__builtin_ndirs,
	      entries);
	printf("%zu directories, %zu entries: compiled == parsed\n", pmu__builtin_ndirs, entries);
	records();
	index_order();
	index_copies(src);
	shared_table(src);
	return test_done("test-tables-compiled");
}
