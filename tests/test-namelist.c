/* SPDX-License-Identifier: MIT */
/* lib/namelist.c (comma-separated name lists, shared by the library's regions and pmu stat -M):
 * hand-written cases, then a seeded random history — batches of names in random case with spaces
 * and empty items added one after another — checked after every batch against a model kept here as
 * an array of names (the first spelling of each, compared case-insensitively). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "namelist.h"
#include "harness.h"

static int refuse_x(const char *name, void *data)
{
	(*(int *)data)++;
	return name[0] == 'x' ? 1 : name[0] == '!' ? -42 : 0;
}

static void hand_cases(void)
{
	char *l = NULL;
	int asked = 0;

	CHECK(!pmu__names_has(NULL, "a"), "NULL list has nothing");
	CHECK(pmu__names_has(" a , B ,c", "b"), "spaces and case");
	CHECK(!pmu__names_has("ab,c", "a"), "a prefix is not an item");
	CHECK(!pmu__names_has("a,,", ""), "an empty name is no item");
	CHECK(pmu__names_any(" a , B ,c", "x,  b "), "any: an item of the second list, spaces and case");
	CHECK(!pmu__names_any("ab,c", "a, x, b"), "any: prefixes are not items");
	CHECK(!pmu__names_any("a,b", NULL) && !pmu__names_any(NULL, "a") && !pmu__names_any("a", " , ,"),
	      "any: no items, nothing in common");
	CHECK(pmu__names_add_new(&l, "cycles, instructions,CYCLES,,", NULL, NULL) == 0 && l &&
	      !strcmp(l, "cycles,instructions"), "got '%s'", l ? l : "(null)");
	CHECK(pmu__names_add_new(&l, "Instructions,branches", NULL, NULL) == 0 && !strcmp(l, "cycles,instructions,branches"),
	      "got '%s'", l);
	CHECK(pmu__names_add_new(&l, "xa,cycles,y", refuse_x, &asked) == 0 && !strcmp(l, "cycles,instructions,branches,y"),
	      "got '%s'", l);
	CHECK(asked == 3, "keep asked about every item, present ones too: %d", asked);
	CHECK(pmu__names_add_new(&l, "z,!stop,w", refuse_x, &asked) == -42 && !strcmp(l, "cycles,instructions,branches,y,z"),
	      "a negative keep stops, what came before stays: '%s'", l);
	free(l);
	/* a comma between a PMU's slashes separates its terms (the spelling pmu_metric_events() gives perf's
	 * cpu@UOPS_DECODED.DEC0\,cmask\=1@): one item, not two (before: 'cpu/UOPS_DECODED.DEC0' and 'cmask=1/') */
	l = NULL;
	CHECK(pmu__names_add_new(&l, "UOPS_DECODED.DEC0,cpu/UOPS_DECODED.DEC0,cmask=1/,cpu/event=0x3c,umask=0/", NULL,
				 NULL) == 0 && l && !strcmp(l, "UOPS_DECODED.DEC0,cpu/UOPS_DECODED.DEC0,cmask=1/,cpu/event=0x3c,umask=0/"),
	      "terms kept together: '%s'", l ? l : "(null)");
	CHECK(pmu__names_has(l, "cpu/UOPS_DECODED.DEC0,cmask=1/") && !pmu__names_has(l, "cmask=1/") &&
	      !pmu__names_has(l, "cpu/UOPS_DECODED.DEC0"), "membership by whole item");
	free(l);
}

#define MODEL_MAX 64
static const char *const pool[] = { "cycles", "instructions", "branch-misses", "L1-dcache-load-misses",
				    "cpu/event=0x3c/", "INST_RETIRED.ANY", "slots", "topdown-retiring",
				    "cpu/event=0xc0,umask=0/" };

static void history(unsigned seed)
{
	char *list = NULL, *model[MODEL_MAX];
	size_t nm = 0;

	for (int step = 0; step < 200; step++) {
		char batch[512] = "", want[4096] = "";
		int items = rand_r(&seed) % 5;
		for (int i = 0; i < items; i++) {
			const char *n = pool[rand_r(&seed) % (sizeof(pool) / sizeof(pool[0]))];
			char spelled[64];
			size_t k;
			for (k = 0; n[k]; k++)
				spelled[k] = rand_r(&seed) % 3 ? n[k] : (char)(isupper((unsigned char)n[k]) ? tolower(n[k]) : toupper(n[k]));
			spelled[k] = 0;
			strcat(batch, rand_r(&seed) % 4 ? "" : " ");
			strcat(batch, spelled);
			strcat(batch, rand_r(&seed) % 4 ? "," : " ,,");
			/* the model: a name not yet there (case-insensitive) is appended as first spelled */
			{
				bool there = false;
				for (size_t j = 0; j < nm; j++)
					there |= !strcasecmp(model[j], spelled);
				if (!there && nm < MODEL_MAX)
					model[nm++] = strdup(spelled);
			}
		}
		CHECK(pmu__names_add_new(&list, batch, NULL, NULL) == 0, "seed %u step %d: add '%s'", seed, step, batch);
		/* every item just added is in the list: any of them is, if there was one */
		CHECK(pmu__names_any(list, batch) == (items > 0), "seed %u step %d: any of '%s'", seed, step, batch);
		CHECK(!pmu__names_any(list, "not-in-the-pool, ,also-not"), "seed %u step %d: any of names not added",
		      seed, step);
		for (size_t j = 0; j < nm; j++) {
			strcat(want, j ? "," : "");
			strcat(want, model[j]);
			CHECK(pmu__names_has(list, model[j]), "seed %u step %d: has '%s'", seed, step, model[j]);
		}
		CHECK(nm ? list && !strcmp(list, want) : !list, "seed %u step %d: '%s', the model '%s'", seed, step,
		      list ? list : "(null)", want);
	}
	for (size_t j = 0; j < nm; j++)
		free(model[j]);
	free(list);
}

int main(void)
{
	hand_cases();
	for (unsigned seed = 1; seed <= 20; seed++)
		history(seed);
	return test_done("test-namelist");
}
