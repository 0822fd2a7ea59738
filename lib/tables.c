/* SPDX-License-Identifier: MIT */
/*
 * Event tables, a context's: the directories chosen for its CPU and loaded once (PMU_EVENTS_PATH's
 * first, then the built-in ones, compiled into the library and shared by every context), then
 * indexed. Entries are parsed by tables-load.c, CPUs matched by tables-cpumap.c, names found by
 * tables-index.c, Intel's perfmon metric files converted by tables-perfmon.c, entries encoded by
 * tables-encode.c, directories checked by tables-check.c (all through tables.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "tables.h"
#include "context.h"
#include "error.h"
#include "fork.h"
#include "util.h"

/* Built-in directories' blocks of entries are made once per process and shared by every table that
 * holds them (an entry, once made, never changes): a table borrows a block (its chunk is not owned)
 * and never frees it. */
struct builtin_cache {
	char dir[96];
	struct pmu_tblock *blk; /* NULL: the directory has no entries */
	int status;
};
static struct builtin_cache *bcache;
static size_t bcache_n;
static pthread_mutex_t bcache_lock = PTHREAD_MUTEX_INITIALIZER;

/* The table of a context whose tables are the built-in ones alone (its CPU's directory, if any, then
 * the standard names) is the same in every such context of the process: built once per CPU directory
 * (its entries the shared built-in ones) and indexed, borrowed whole after (struct pmu_tables' shared). */
struct index_cache {
	char dir[96];           /* the CPU's directory, "" for none */
	struct pmu_tables t;    /* the entries (shared) and their index; aliases owned here */
	int status;             /* 0, 1 (not kept: the index had problems), or the build's error */
};
static struct index_cache *icache;
static size_t icache_n;
static pthread_mutex_t icache_lock = PTHREAD_MUTEX_INITIALIZER;

void pmu__tables_fork_lock(bool take)
{
	/* the blocks' locks are taken under the caches' (pmu__tables_entry may make an entry while
	 * builtin_table holds icache_lock) */
	if (take) {
		pthread_mutex_lock(&icache_lock);
		pthread_mutex_lock(&bcache_lock);
	}
	for (size_t i = 0; i < bcache_n; i++)
		if (bcache[i].blk)
			pmu__fork_mutex(&bcache[i].blk->lock, take);
	if (!take) {
		pthread_mutex_unlock(&bcache_lock);
		pthread_mutex_unlock(&icache_lock);
	}
}

__attribute__((destructor)) static void bcache_free(void)
{
	for (size_t i = 0; i < icache_n; i++)
		pmu__tables_free(&icache[i].t); /* its chunks are borrowed: the blocks are freed below */
	free(icache);
	icache = NULL;
	icache_n = 0;
	for (size_t i = 0; i < bcache_n; i++)
		pmu__tblock_free(bcache[i].blk);
	free(bcache);
	bcache = NULL;
	bcache_n = 0;
}

/* Append the (cached) entries of built-in directory @dir to @t. */
static int add_builtin_dir(struct pmu_tables *t, const char *dir)
{
	struct builtin_cache *c = NULL;
	int r = 0;

	pthread_mutex_lock(&bcache_lock);
	for (size_t i = 0; i < bcache_n; i++)
		if (!strcmp(bcache[i].dir, dir))
			c = &bcache[i];
	if (!c) {
		struct builtin_cache *nc = realloc(bcache, (bcache_n + 1) * sizeof(*nc));
		if (!nc) {
			pthread_mutex_unlock(&bcache_lock);
			return -ENOMEM;
		}
		bcache = nc;
		c = &bcache[bcache_n++];
		memset(c, 0, sizeof(*c));
		pmu__strlcpy(c->dir, dir, sizeof(c->dir));
		c->status = pmu__tblock_new(dir, &c->blk);
	}
	r = c->status ? c->status : c->blk ? pmu__tables_add_block(t, c->blk, false) : 0;
	pthread_mutex_unlock(&bcache_lock);
	return r;
}

/* @t becomes the process's table of the built-in directories alone (@dir, if any, then the standard
 * names), borrowed whole: its entries, chunks and index, built the first time and shared after (a copy
 * of the entry list per context was 8 KB of pages touched for the first time). 0; 1 when not
 * applicable (load and index @t itself: the index had problems, said by each context's own build);
 * -ENOMEM. */
static int builtin_table(struct pmu_tables *t, const char *dir)
{
	struct index_cache *c = NULL;
	int r;

	pthread_mutex_lock(&icache_lock);
	for (size_t i = 0; i < icache_n; i++)
		if (!strcmp(icache[i].dir, dir ? dir : ""))
			c = &icache[i];
	if (!c) {
		struct index_cache *nc = realloc(icache, (icache_n + 1) * sizeof(*nc));
		int problems = 0;
		if (!nc) {
			pthread_mutex_unlock(&icache_lock);
			return -ENOMEM;
		}
		icache = nc;
		c = &icache[icache_n++];
		memset(c, 0, sizeof(*c));
		pmu__strlcpy(c->dir, dir ? dir : "", sizeof(c->dir));
		c->status = dir && strlen(dir) >= sizeof(c->dir) ? 1 : dir ? add_builtin_dir(&c->t, dir) : 0;
		if (c->status == 0)
			c->status = add_builtin_dir(&c->t, "standard");
		if (c->status == 0)
			c->status = pmu__tables_build_index(&c->t, NULL, NULL, &problems);
		if (c->status == 0 && problems)
			c->status = 1; /* said by each context's own build */
		if (c->status < 0) { /* out of memory: tried again next time */
			r = c->status;
			c->t.n = 0;
			pmu__tables_free(&c->t);
			icache_n--;
			pthread_mutex_unlock(&icache_lock);
			return r;
		}
	}
	r = c->status;
	if (r == 0) { /* read-only from here, like the entries it points to */
		t->ent = c->t.ent;
		t->n = c->t.n;
		t->chunks = c->t.chunks;
		t->nchunks = c->t.nchunks;
		t->names = c->t.names;
		t->nnames = c->t.nnames;
		t->scripted = c->t.scripted;
		t->shared = true;
	}
	pthread_mutex_unlock(&icache_lock);
	return r;
}

static int load_tables(struct pmu_ctx *ctx)
{
	struct pmu_tables *t = &ctx->tables;
	char *paths = ctx->events_path ? strdup(ctx->events_path) : NULL, *save = NULL, *root;
	int problems = 0, r = 0;
	size_t user;            /* entries of the user's directories */

	if (ctx->events_path && !paths)
		return -ENOMEM;
	/* 1. user directories first: they override the built-in tables */
	for (root = paths ? strtok_r(paths, ":", &save) : NULL; root && r == 0; root = strtok_r(NULL, ":", &save)) {
		char map[1024], why[128] = "", *text, *dir = NULL;
		size_t len;
		int rm;
		if (!*root)
			continue;
		rm = pmu__path(map, sizeof(map), "%s/mapfile.csv", root) < 0 ? -ENAMETOOLONG :
		     pmu__tables_read_whole(map, &text, &len, why, sizeof(why));
		if (rm == -ENOMEM) {
			r = rm;
			break;
		}
		if (rm == -EINVAL) {
			pmu__log(ctx, PMU_LOG_WARN, "PMU_EVENTS_PATH: %s: %s (directory %s skipped)", map, why, root);
			continue;
		}
		if (rm == 0) {
			r = pmu__tables_map_match(ctx, &ctx->cpu, text, map, &dir);
			free(text);
			if (r > 0) {
				char sub[1024];
				r = 0;
				/* a row may name several directories, "A+B": each loaded in turn (A's names first) */
				for (char *part = dir, *plus; part && r == 0; part = plus ? plus + 1 : NULL) {
					size_t first = t->n;
					if ((plus = strchr(part, '+')))
						*plus = '\0';
					if (pmu__path(sub, sizeof(sub), "%s/%s", root, part) == 0)
						r = pmu__tables_load_disk_dir(t, sub, part, NULL, NULL, &problems);
					if (r == 0) {
						struct pmu_tables arch;
						memset(&arch, 0, sizeof(arch));
						pmu__tables_load_ancestors_disk(&arch, root, part);
						pmu__tables_fill_archstd(t, first, &arch, NULL, NULL, &problems);
						pmu__tables_free(&arch);
					}
					if (plus)
						*plus = '+';
				}
				if (r == 0 && !t->cpu_dir) {
					t->cpu_dir = dir;
					dir = NULL;
					if (!(t->cpu_dir_root = strdup(root)))
						r = -ENOMEM;
				}
				if (r < 0 && r != -ENOMEM)
					pmu__log(ctx, PMU_LOG_WARN, "tables: cannot read %s/%s: %s", root, dir ? dir : "",
						 strerror(-r));
				free(dir);
				/* a directory that cannot be read is skipped (said); want of memory ends the load */
				r = r == -ENOMEM ? r : 0;
			}
			if (r == 0 && pmu__path(map, sizeof(map), "%s/standard", root) == 0 &&
			    pmu__tables_load_disk_dir(t, map, "standard", NULL, NULL, &problems) == -ENOMEM)
				r = -ENOMEM;
			/* perf's sys tables: system PMUs matched by their identifier, whatever the CPU */
			if (r == 0 && pmu__tables_load_sys(ctx, t, root, &problems) == -ENOMEM)
				r = -ENOMEM;
		} else {
			size_t first = t->n;
			r = pmu__tables_load_disk_dir(t, root, root, NULL, NULL, &problems);
			if (r < 0)
				pmu__log(ctx, PMU_LOG_WARN, "PMU_EVENTS_PATH: cannot read %s: %s", root, strerror(-r));
			if (r == 0) {
				/* a CPU directory of a tree, named alone: its ArchStdEvent references too */
				struct pmu_tables arch;
				memset(&arch, 0, sizeof(arch));
				pmu__tables_load_ancestors_flat(&arch, root);
				pmu__tables_fill_archstd(t, first, &arch, NULL, NULL, &problems);
				pmu__tables_free(&arch);
			}
			r = r == -ENOMEM ? r : 0;
		}
	}
	free(paths);
	user = t->n;
	/* 2. built-in: the CPU's directory, then the standard names (the process's table when they are all) */
	if (r == 0) {
		char *dir = NULL;
		int m = pmu__tables_builtin_map_match(ctx, &ctx->cpu, &dir);
		r = m < 0 ? m : user ? 1 : builtin_table(t, m > 0 ? dir : NULL);
		if (r == 1) {
			r = m > 0 ? add_builtin_dir(t, dir) : 0;
			if (r >= 0)
				r = add_builtin_dir(t, "standard");
			if (r >= 0)
				r = pmu__tables_build_index(t, NULL, NULL, &problems);
		}
		if (m > 0 && !t->cpu_dir) {
			t->cpu_dir = dir;
			dir = NULL;
			if (r >= 0 && !(t->cpu_dir_root = strdup("built-in")))
				r = -ENOMEM;
		}
		free(dir);
	}
	if (problems)
		pmu__log(ctx, PMU_LOG_WARN, "event tables: %d problem%s while loading (run 'pmu check-tables DIR')",
			 problems, problems == 1 ? "" : "s");
	pmu__log(ctx, PMU_LOG_DEBUG, "tables: %zu entries, CPU table %s (%s)", t->n,
		 t->cpu_dir ? t->cpu_dir : "none", t->cpu_dir_root ? t->cpu_dir_root : "-");
	return r < 0 ? r : 0;
}

int pmu__tables_load(struct pmu_ctx *ctx)
{
	int r;

	pthread_mutex_lock(&ctx->tables_lock);
	if (!ctx->tables.loaded) {
		r = load_tables(ctx);
		if (r < 0)
			pmu__tables_free(&ctx->tables);
		if (r == -ENOMEM) { /* not remembered: a later call tries again */
			pthread_mutex_unlock(&ctx->tables_lock);
			return pmu__err(ctx, r, "cannot load the event tables: out of memory (a later call tries again)");
		}
		ctx->tables.status = r;
		ctx->tables.loaded = true;
	}
	r = ctx->tables.status;
	pthread_mutex_unlock(&ctx->tables_lock);
	if (r < 0)
		return pmu__err(ctx, r, "cannot load the event tables: %s", strerror(-r));
	return r;
}
