/* SPDX-License-Identifier: MIT */
/* JSON event tables (perf pmu-events format), the module's private header: a context's tables
 * (tables.c), loading (tables-load.c), the name index (tables-index.c), the CPU map
 * (tables-cpumap.c), encoding (tables-encode.c), Intel perfmon metrics (tables-perfmon.c),
 * validation (tables-check.c). See events/README.md for the format. */
#ifndef PMU_TABLES_H
#define PMU_TABLES_H
#include <pthread.h>
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pmu_ctx;
struct pmu_cpu;
struct pmu_dev;
struct pmu_event_info;

struct pmu_builtin_file {
	const char *path;       /* relative to events/, '/'-separated */
	const char *data;
	size_t len;
};
extern const struct pmu_builtin_file pmu__builtin_files[];
extern const size_t pmu__builtin_nfiles;

/* A built-in table entry compiled at build time (gen/gen-tables.py), decoded from its record
 * (pmu__builtin_decode): the fields of struct pmu_tentry, no JSON parsing at run time. Its strings are
 * offsets into pmu__builtin_pool (read them with pmu__builtin_str), so the compiled data needs no
 * relocation when the library is loaded. */
struct pmu_builtin_entry {
	int kind;
	uint32_t name, file, dir, desc, pdesc, notes, stdnames, approx_note, topdown, aliases, generic, source,
		unit, expr, group, scale_unit, threshold, params, counter_csr, pfm_name, approx_names, terms;
	int approx;
	unsigned have;
	uint64_t event, umask, cmask, inv, edge, any, msr_index, msr_value, config_code;
	int counter_width, mhpmevent_bit;
};

/*
 * The fields of a compiled record (gen-tables.py's RECORD; the generated file checks that the numbers
 * agree). A record is a mask, bit f set when field f differs from its default (-1 for mhpmevent_bit, 0
 * for the others), then the values of the strings set, then those of the numbers set, each in field
 * order. A string's value is its offset in pmu__builtin_pool in 3 bytes, low byte first: where a string
 * field's value lies follows from the mask alone, so the name or StdNames of an entry is read in a few
 * instructions. A number's value, and the mask, are unsigned LEB128 (7 bits a byte, low bits first, the
 * high bit set on all bytes but the last). An entry's kind is in its directory's kinds, its directory is
 * the one it is compiled in. Most fields of most entries are defaults: 18 bytes a record on average
 * (Intel's core events), where a fixed struct took 176.
 */
enum pmu_bfield {
	PMU_BF_NAME, PMU_BF_FILE, PMU_BF_DESC, PMU_BF_PDESC, PMU_BF_HAVE, PMU_BF_EVENT, PMU_BF_UMASK, PMU_BF_CMASK,
	PMU_BF_INV, PMU_BF_EDGE, PMU_BF_ANY, PMU_BF_MSR_INDEX, PMU_BF_MSR_VALUE, PMU_BF_CONFIG_CODE, PMU_BF_STDNAMES,
	PMU_BF_UNIT, PMU_BF_NOTES, PMU_BF_APPROX_NOTE, PMU_BF_TOPDOWN, PMU_BF_ALIASES, PMU_BF_GENERIC, PMU_BF_SOURCE,
	PMU_BF_EXPR, PMU_BF_GROUP, PMU_BF_SCALE_UNIT, PMU_BF_THRESHOLD, PMU_BF_PARAMS, PMU_BF_COUNTER_CSR,
	PMU_BF_PFM_NAME, PMU_BF_APPROX_NAMES, PMU_BF_APPROX, PMU_BF_COUNTER_WIDTH, PMU_BF_MHPMEVENT_BIT, PMU_BF_TERMS,
	PMU_BF_N
};
_Static_assert(PMU_BF_N < 64, "a record's mask is read into 64 bits");
/* the string fields, as bits of a mask */
#define PMU_BF_STRINGS                                                                                          \
	(1ull << PMU_BF_NAME | 1ull << PMU_BF_FILE | 1ull << PMU_BF_DESC | 1ull << PMU_BF_PDESC |                 \
	 1ull << PMU_BF_STDNAMES | 1ull << PMU_BF_UNIT | 1ull << PMU_BF_NOTES | 1ull << PMU_BF_APPROX_NOTE |       \
	 1ull << PMU_BF_TOPDOWN | 1ull << PMU_BF_ALIASES | 1ull << PMU_BF_GENERIC | 1ull << PMU_BF_SOURCE |        \
	 1ull << PMU_BF_EXPR | 1ull << PMU_BF_GROUP | 1ull << PMU_BF_SCALE_UNIT | 1ull << PMU_BF_THRESHOLD |      \
	 1ull << PMU_BF_PARAMS | 1ull << PMU_BF_COUNTER_CSR | 1ull << PMU_BF_PFM_NAME | 1ull << PMU_BF_APPROX_NAMES |   \
	 1ull << PMU_BF_TERMS)

/* An alias of a compiled entry: its own string in the pool, and the entry's index in its directory. */
struct pmu_builtin_alias {
	uint32_t name;
	unsigned short entry;
};

struct pmu_builtin_dir {
	const char *dir;
	uint32_t dir_name;      /* the directory's name in the pool: every entry's dir */
	const unsigned char *rec; /* the entries' records (enum pmu_bfield), one after another */
	const uint32_t *at;     /* where each begins in rec; at[n]: where the last ends */
	size_t n;
	const unsigned short *order; /* the entries' indexes in the name index's order (gen-tables.py) */
	const uint32_t *order_name; /* their names, same order (the index is built without reading entries) */
	const struct pmu_builtin_alias *aliases; /* the entries' aliases, in the index's order */
	size_t naliases;
	/* the name index of this directory then the standard names (of the standard names alone, for
	 * "standard"), nmerge names: the run each comes from, 2 bits each (gen-tables.py merge_script); and
	 * for each, 1 bit: the same name as the one before it, as strcasecmp compares them (same_bits) */
	const unsigned char *merge, *same;
	size_t nmerge;
	/* the native entries that have StdNames, in load order: the only ones that can implement a
	 * standard name */
	const unsigned short *with_std;
	size_t nwith_std;
	/* each entry's kind, in load order, a byte each: read where the kind alone is needed (the index's
	 * duplicate check, a lookup's class, the suggestions' search of every name), without decoding
	 * records */
	const unsigned char *kinds;
};
extern const struct pmu_builtin_dir pmu__builtin_dirs[];
extern const size_t pmu__builtin_ndirs;
extern const char pmu__builtin_pool[];

/* A compiled entry's string: NULL for offset 0 (no such field). */
static inline const char *pmu__builtin_str(uint32_t off)
{
	return off ? pmu__builtin_pool + off : NULL;
}

/* One unsigned LEB128 number of a record at *@p, *@p moved past it. */
static inline uint64_t pmu__builtin_varint(const unsigned char **p)
{
	const unsigned char *q = *p;
	uint64_t v = *q & 0x7f;

	for (unsigned shift = 7; *q++ & 0x80; shift += 7)
		v |= (uint64_t)(*q & 0x7f) << shift;
	*p = q;
	return v;
}

/* A string field's value at @q: a pool offset in 3 bytes, low byte first. */
static inline uint32_t pmu__builtin_str3(const unsigned char *q)
{
	return q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16;
}

/* The value of field @f where a record lacks it. */
static inline uint64_t pmu__builtin_default(enum pmu_bfield f)
{
	return f == PMU_BF_MHPMEVENT_BIT ? (uint64_t)-1 : 0;
}

/* Field @f of entry @k of @bd alone, for loops over many entries that need one field: a string's found
 * from the mask (the strings before it counted), a number's after the strings and the numbers before it,
 * skipped, not decoded. */
static inline uint64_t pmu__builtin_field(const struct pmu_builtin_dir *bd, size_t k, enum pmu_bfield f)
{
	const unsigned char *p = bd->rec + bd->at[k];
	uint64_t mask = pmu__builtin_varint(&p), before = mask & (((uint64_t)1 << f) - 1);

	if (!((mask >> f) & 1))
		return pmu__builtin_default(f);
	if ((PMU_BF_STRINGS >> f) & 1)
		return pmu__builtin_str3(p + 3 * __builtin_popcountll(before & PMU_BF_STRINGS));
	p += 3 * __builtin_popcountll(mask & PMU_BF_STRINGS);
	for (before &= ~PMU_BF_STRINGS; before; before &= before - 1)
		while (*p++ & 0x80)
			;
	return pmu__builtin_varint(&p);
}

/* Entry @k of @bd decoded whole into @out (tables-load.c): the fields its record has, the defaults of the
 * others, its kind and directory from @bd. Returns the record's length in bytes. */
size_t pmu__builtin_decode(const struct pmu_builtin_dir *bd, size_t k, struct pmu_builtin_entry *out);

enum pmu_tkind { PMU_T_NATIVE = 1, PMU_T_STANDARD, PMU_T_METRIC };

/* encoding fields present in a native entry */
enum {
	PMU_TF_EVENT = 1u << 0, PMU_TF_UMASK = 1u << 1, PMU_TF_CMASK = 1u << 2, PMU_TF_INV = 1u << 3,
	PMU_TF_EDGE = 1u << 4, PMU_TF_ANY = 1u << 5, PMU_TF_MSR = 1u << 6, PMU_TF_CONFIG = 1u << 7,
};

struct pmu_tentry {
	int kind;               /* enum pmu_tkind */
	char *name;             /* EventName or MetricName */
	char *file;             /* table file it came from */
	char *dir;              /* table directory ("x86/skylakex", "standard", a path) */
	char *desc, *pdesc, *notes, *stdnames, *approx_note, *topdown, *aliases, *generic, *source;
	char *unit;             /* Unit: the PMU of a native event */
	char *expr, *group, *scale_unit, *threshold, *params;
	char *counter_csr;
	char *pfm_name;         /* PfmName: the equivalent libpfm4 event, for the validator */
	char *approx_names;     /* ApproxNames: the StdNames this native event counts only nearly */
	char *terms;            /* the further terms of an event, as perf's jevents.py writes them after its
				 * event and umask: ch_mask= (PortMask), fc_mask= (FCMask), then Filter's text
				 * (uncore filters: "filter_opc=0x182", "config1=0x40432"); placed by the PMU's format */
	bool approx;            /* Approximate: a standard event, or every StdNames of a native one */
	bool archstd;           /* ArchStdEvent reference (fields from the arch-level files) */
	unsigned have;          /* PMU_TF_* */
	uint64_t event, umask, cmask, inv, edge, any, msr_index, msr_value, config_code;
	int counter_width, mhpmevent_bit;
};

struct pmu_tname {
	const char *name;       /* points into an entry (name or one of its aliases) */
	struct pmu_tentry *ent; /* the entry, perhaps not made yet (its address, to compare): read it with
				 * pmu__tables_name_entry() */
	size_t order;           /* the entry's place in load order: its index in the table's ent */
};

/*
 * A built-in directory's entries, one allocation, each made (filled from its compiled entry) at its
 * first use, not when the directory is loaded: the standard names' 912 entries are 248 KB, 61 new
 * pages, most of a first context's time when all were copied, and a program uses a few. Made under
 * the lock, published by made[k] (release; read with acquire), never changed after.
 */
struct pmu_tblock {
	const struct pmu_builtin_dir *bd;
	struct pmu_tentry *e;   /* bd->n entries, each unset until made (only its pages are touched) */
	unsigned char *made;    /* bd->n flags */
	pthread_mutex_t lock;
};

struct pmu_tables {
	bool loaded;
	int status;             /* 0, or the error the load hit */
	char *cpu_dir;          /* the CPU's table directory, NULL if none matched */
	char *cpu_dir_root;     /* "built-in" or the PMU_EVENTS_PATH directory it came from */
	struct pmu_tentry **ent; /* the entries, a built-in directory's perhaps not made yet: read them with
				  * pmu__tables_entry() (the address alone may be compared or stored) */
	size_t n, cap;
	struct pmu_tname *names;
	size_t nnames;
	bool scripted;          /* the index was built from the built-in merge script (tables-index.c) */
	bool shared;            /* ent, chunks and names are the process's table of the built-in directories
				 * (tables.c), borrowed: read-only, not freed */
	char **alias_store;     /* alias lists, owned, split in place: the index's alias names point into them */
	size_t nalias, alias_cap;
	/* entries ent[first..first+n) are built-in directory bd's, made in blk (which this table frees if
	 * owned: it loaded them; a table copied from another borrows them). Their index order is known
	 * (bd->order): the index merges them instead of sorting them */
	struct pmu_tchunk {
		size_t first, n;
		const struct pmu_builtin_dir *bd;
		struct pmu_tblock *blk;
		bool owned;
	} *chunks;
	size_t nchunks, chunkcap;
};

/* Make entry @k of @b (tables-load.c; the gate below calls it once per entry). */
void pmu__tblock_make(struct pmu_tblock *b, size_t k);

/* The chunk holding entry @i of @t, NULL if it is not a built-in directory's. */
static inline const struct pmu_tchunk *pmu__tables_chunk_of(const struct pmu_tables *t, size_t i)
{
	for (size_t c = 0; c < t->nchunks; c++) {
		const struct pmu_tchunk *ch = &t->chunks[c];
		if (i - ch->first < ch->n && t->ent[i] == &ch->blk->e[i - ch->first])
			return ch;
	}
	return NULL;
}

/* Entry @i of @t, made if it was not yet: every read of an entry's fields goes through here (or
 * through a function that says its entries are made). */
static inline struct pmu_tentry *pmu__tables_entry(const struct pmu_tables *t, size_t i)
{
	const struct pmu_tchunk *ch = pmu__tables_chunk_of(t, i);

	if (ch && !__atomic_load_n(&ch->blk->made[i - ch->first], __ATOMIC_ACQUIRE))
		pmu__tblock_make(ch->blk, i - ch->first);
	return t->ent[i];
}

/* The built-in directory of entry @i of @t and its index there in *@k (read its record to filter without
 * making the entry), NULL if it is not a built-in directory's. */
static inline const struct pmu_builtin_dir *pmu__tables_builtin_of(const struct pmu_tables *t, size_t i, size_t *k)
{
	const struct pmu_tchunk *ch = pmu__tables_chunk_of(t, i);

	*k = ch ? i - ch->first : 0;
	return ch ? ch->bd : NULL;
}

/* The kind of entry @i of @t (enum pmu_tkind), without making it. */
static inline int pmu__tables_kind(const struct pmu_tables *t, size_t i)
{
	const struct pmu_tchunk *ch = pmu__tables_chunk_of(t, i);

	return ch ? ch->bd->kinds[i - ch->first] : t->ent[i]->kind;
}

/* The directory of entry @i of @t, without making it. */
static inline const char *pmu__tables_dir(const struct pmu_tables *t, size_t i)
{
	size_t k;
	const struct pmu_builtin_dir *bd = pmu__tables_builtin_of(t, i, &k);

	return bd ? pmu__builtin_str(bd->dir_name) : t->ent[i]->dir;
}

/* The entry of index name @nm of @t's index, made if it was not yet. */
static inline struct pmu_tentry *pmu__tables_name_entry(const struct pmu_tables *t, const struct pmu_tname *nm)
{
	return pmu__tables_entry(t, nm->order);
}

/* What a name of the index is looked up as: an event (native or standard) and a metric may share a
 * name (perf's tables define some names as both). */
enum { PMU_TC_ANY, PMU_TC_EVENT, PMU_TC_METRIC };

/* Load (once) the tables this context's CPU needs. Thread-safe. */
int pmu__tables_load(struct pmu_ctx *ctx);
void pmu__tables_free(struct pmu_tables *t);
/* Entry by name or alias, case-insensitive; NULL if none. Needs a loaded context. Where a table
 * defines the name once per PMU (perf's Intel hybrid files: "Unit": "cpu_core" and "cpu_atom"),
 * the first of those: use the functions below to tell them apart. A name that is an event and a
 * metric: the event. */
const struct pmu_tentry *pmu__tables_find(const struct pmu_ctx *ctx, const char *name);
/* Every definition of @name of class @cls (one per PMU; PMU_TC_ANY: the events, then the metrics), *n
 * of them (0: NULL). */
const struct pmu_tname *pmu__tables_find_all(const struct pmu_ctx *ctx, const char *name, int cls, size_t *n);
/* The definition of @name of class @cls for PMU @pmu: the one whose Unit is @pmu, else one without
 * Unit, else NULL. @pmu NULL or "": the only definition, NULL if there are several. */
const struct pmu_tentry *pmu__tables_find_pmu(const struct pmu_ctx *ctx, const char *name, const char *pmu,
					      int cls);
/* Whether @e is a definition of its name in use (not shadowed by an earlier table). */
bool pmu__tables_indexed(const struct pmu_ctx *ctx, const struct pmu_tentry *e);
/* The native events of @t implementing standard name @stdname (its StdNames list it, or an alias of the
 * standard entry), in load order: the first @max in @out; returns how many there are, or with !@all
 * stops at @max. A built-in directory's entries without StdNames are not read. */
size_t pmu__tables_natives_in(const struct pmu_tables *t, const char *stdname, const struct pmu_tentry **out,
			      size_t max, bool all);
/* The CPU-table event whose StdNames lists @stdname, or NULL. */
const struct pmu_tentry *pmu__tables_native_for(const struct pmu_ctx *ctx, const char *stdname);
/* Every native event implementing standard name @stdname, in load order: the first @max in @out; returns
 * how many there are (a hybrid CPU's table has one per core PMU). */
size_t pmu__tables_natives_for(const struct pmu_ctx *ctx, const char *stdname, const struct pmu_tentry **out,
			       size_t max);
/* Does native event @n count standard event @std only nearly (Approximate: all its StdNames;
 * ApproxNames: those listed)? */
bool pmu__tables_std_approx(const struct pmu_tentry *n, const struct pmu_tentry *std);
/* Whether Unit @unit names a core PMU ("cpu", "core", "cpu_core", "cpu_atom", "armv8_..."). */
bool pmu__tables_core_unit(const char *unit);
/* The PMUs of this machine that Unit @unit names: the PMU of that name, else perf's name for it
 * ("uncore_" + the unit in lower case; CBO uncore_cbox, QPI LL uncore_qpi, ...), each alone or as
 * numbered instances (uncore_cha_0, uncore_cha_1, ...). Returns how many, the first in *first (when
 * not NULL). */
size_t pmu__tables_unit_pmus(const struct pmu_ctx *ctx, const char *unit, const struct pmu_dev **first);
/* The PMUs that @unit stands for as the boxes of one uncore unit, as perf matches a PMU name written
 * without its instance suffix: a table's Unit ("iMC", "CHA", "UPI LL") or a PMU name with or without
 * "uncore_" ("uncore_imc", "imc") matching uncore_imc_0, uncore_imc_1, ... (never a core PMU, nor a PMU
 * of exactly that name). Up to @cap of them into @v (NULL: none) in box order (by the number after the
 * last '_': uncore_imc_2 before uncore_imc_10); returns how many there are. */
size_t pmu__tables_unit_boxes(const struct pmu_ctx *ctx, const char *unit, const struct pmu_dev **v, size_t cap);
/* @out, an encoding on box @box0 (the first of @n), made the event of all @n boxes: PMU_EVF_BOXES, ->boxes
 * @n, ->pmu the unit's name as perf shows it (box0's name without its "_<number>": "uncore_imc"; a table
 * @unit of perf's "socket,name" form as written: "hisi_sccl,ddrc"), the origin saying so. */
void pmu__tables_boxes_mark(struct pmu_event_info *out, const struct pmu_dev *box0, size_t n, const char *unit);
/* Whether PMU @dev is one that Unit @unit names (see pmu__tables_unit_pmus; a Unit with a comma by
 * pmu__tables_alias_match). */
bool pmu__tables_unit_is(const char *unit, const char *dev);
/* perf's pmu_uncore_alias_match(@unit, @name): @name is @unit or @unit and a box number ("arm_cmn" names
 * arm_cmn_0, "imx8_ddr" imx8_ddr0), and "socket,pmuname" names "socketX_pmunameY" ("hisi_sccl,ddrc":
 * hisi_sccl1_ddrc0). */
bool pmu__tables_alias_match(const char *unit, const char *name);
/* perf's strcmp_cpuid_str(@id) on this context's CPU: 1 if the CPU is @id, 0 if not, or a negative
 * errno (-ENOMEM; -EINVAL: @id is not a CPU id or pattern). arm64: @id is a MIDR; the CPU's has the
 * same implementer, architecture and part, and a variant/revision at least @id's (r1p0 is r0p3 and
 * later). Other CPUs: @id is a mapfile CPU pattern matched against the CPU's id as a mapfile line is. */
int pmu__tables_cpuid_matches(struct pmu_ctx *ctx, const char *id);
/* The x86 PERF_CTL layout (Intel SDM / AMD APM), written once: EventCode bits 0-7 at config 0-7 and
 * bits 8-11 at 32-35, UMask at 8, EdgeDetect 18, AnyThread 21, Invert 23, CounterMask at 24. */
uint64_t pmu__tables_x86_config(const struct pmu_tentry *e);
/* The raw config of @e where no format files place its fields: the x86 layout above (@x86), else the
 * event number (arm64, RISC-V). */
uint64_t pmu__tables_raw_config(const struct pmu_tentry *e, bool x86);
/* Encode a native entry into @info (type, config*, pmu, origin, desc, note, flags; unit and
 * PMU_EVF_SCALED from an event's ScaleUnit). */
int pmu__tables_encode(struct pmu_ctx *ctx, const struct pmu_tentry *e, const char *name,
		       struct pmu_event_info *info);
/* The factor of @info's count into its unit when a table event's ScaleUnit gave both ("64Bytes": 64,
 * "Bytes"; the entry is the one whose ScaleUnit @info->unit points into): 0 with *factor, or -ENOENT. */
int pmu__tables_scale(const struct pmu_ctx *ctx, const struct pmu_event_info *info, double *factor);

/* perf's sys tables of tree @root (an arch directory) appended to @t (tables-sys.c): each event and metric
 * whose Unit names a PMU here with an identifier file that its Compat matches, as perf matches them. */
int pmu__tables_load_sys(struct pmu_ctx *ctx, struct pmu_tables *t, const char *root, int *problems);

/* Validation of a table directory tree (or a flat directory of .json files).
 * @fn gets one call per problem; returns the number of problems, or a
 * negative errno if the directory cannot be read. */
typedef void (*pmu_problem_fn)(void *data, const char *file, const char *entry, const char *msg);
int pmu__tables_check(struct pmu_ctx *ctx, const char *dir, pmu_problem_fn fn, void *data);

struct json_object;
/* Intel perfmon metric file's "Metrics" array converted into perf-form metric objects (a new array),
 * each problem said to @pf (tables-perfmon.c). NULL when out of memory. */
struct json_object *pmu__tables_perfmon_metrics(struct json_object *metrics, const char *file, pmu_problem_fn pf,
						void *pd, int *problems);

/* The architecture whose layout table directory @dir has ("x86", "x86/skylakex", "arm64/..."); 0 for
 * unknown (a flat PMU_EVENTS_PATH directory: the encoder checks against the CPU's layout). */
int pmu__tables_dir_arch(const char *dir);
/* Whether every field of native entry @e fits layout @arch; if not, false and @why naming the field,
 * its value and the limit. */
bool pmu__tables_fields_fit(const struct pmu_tentry *e, int arch, char *why, size_t wl);

/* Loading and lookup, as tables-check.c's checks use them (tables-load.c, tables-index.c). Problems go
 * to @pf with @pd and are counted in *@problems. */
int pmu__tables_load_text(struct pmu_tables *t, const char *file, const char *dir, const char *text, size_t len,
			  pmu_problem_fn pf, void *pd, int *problems);
int pmu__tables_load_disk_dir(struct pmu_tables *t, const char *path, const char *dir, pmu_problem_fn pf,
			      void *pd, int *problems);
/* the architecture-level files above @dir (perf's tree) or in flat directory @path, for ArchStdEvent */
void pmu__tables_load_ancestors_disk(struct pmu_tables *arch, const char *root, const char *dir);
void pmu__tables_load_ancestors_flat(struct pmu_tables *arch, const char *path);
/* ArchStdEvent references of the entries from @first on, filled from @arch */
void pmu__tables_fill_archstd(struct pmu_tables *t, size_t first, const struct pmu_tables *arch,
			      pmu_problem_fn pf, void *pd, int *problems);
int pmu__tables_build_index(struct pmu_tables *t, pmu_problem_fn pf, void *pd, int *problems);
/* Append entry @e to @t (which owns it unless it is shared). 0 or -ENOMEM (tables-load.c). */
int pmu__tables_add(struct pmu_tables *t, struct pmu_tentry *e);
/* Append every entry of @from to @t (borrowed: @from keeps them), with what @from knows of their
 * index order and their blocks. 0, or -ENOMEM with none appended. */
int pmu__tables_add_all(struct pmu_tables *t, const struct pmu_tables *from);
/* qsort/bsearch orders of struct pmu_tname (tables-index.c): by name (case-insensitive); by name, then
 * events before metrics, a CPU's definitions before standard names, then load order. */
int pmu__tables_cmp_name(const void *a, const void *b);
int pmu__tables_cmp_order(const void *a, const void *b);
const struct pmu_tentry *pmu__tables_find_in(const struct pmu_tables *t, const char *name);
const struct pmu_tentry *pmu__tables_find_pmu_in(const struct pmu_tables *t, const char *name, const char *pmu,
						 int cls);
/* A whole file (at most 64 MiB); on failure *@why says why. */
int pmu__tables_read_whole(const char *path, char **out, size_t *len, char *why, size_t wl);
/* mapfile.csv: its next data row; a row's CPU pattern compiled as the loader accepts it */
struct map_row {
	int lineno;
	char *cpuid, *version, *dir;
	char buf[512];
};
#define PMU_MAP_PATTERN_MAX 128 /* the longest CPU pattern a mapfile line may have (tables.c says why) */
bool pmu__tables_map_next(const char **p, int *lineno, struct map_row *row);
int pmu__tables_map_pattern(const char *pat, const char keys[][64], int nk, regex_t *re, char *why, size_t wl);
/* The literal start of mapfile CPU pattern @pat (tables-cpumap.c says the rule): *@lit characters every
 * matching key begins with, then one of the alternatives of the group that ends at *@group (0: none). */
void pmu__tables_map_start(const char *pat, size_t *lit, size_t *group);
/* A row of the built-in mapfile, compiled by gen-tables.py: its CPU pattern, directory and line, and its
 * pattern's literal start (pmu__tables_map_start's answer, computed at build time). */
struct pmu_builtin_maprow {
	const char *cpuid, *dir;
	unsigned short lineno, lit, group;
};
extern const struct pmu_builtin_maprow pmu__builtin_maprows[];
extern const size_t pmu__builtin_nmaprows;
/* A plain mapfile pattern (literals, bracket expressions of characters and ranges, groups of literal
 * alternatives; nothing repeated) matched against the @nk keys without regex, as regexec would: 1 if
 * one matches, 0 if none, -1 if @pat is not plain (then regcomp/regexec decide). */
int pmu__tables_map_plain(const char *pat, const char keys[][64], int nk);
/* The identifiers a mapfile pattern is matched against for @c, most specific first (x86: with and
 * without the stepping, as perf spells them): how many. */
int pmu__tables_cpu_keys(const struct pmu_cpu *c, char keys[2][64]);
/* The block of built-in directory @dir's compiled entries, none made yet: 0 with *@out NULL when the
 * directory has none; -ENOMEM. Freed with pmu__tblock_free (NULL is ignored). */
int pmu__tblock_new(const char *dir, struct pmu_tblock **out);
void pmu__tblock_free(struct pmu_tblock *b);
/* Append block @blk's entries to @t, in one allocation (@owned: @t frees the block). 0; -ENOMEM; -EINVAL
 * when @t is the process's shared table. */
int pmu__tables_add_block(struct pmu_tables *t, struct pmu_tblock *blk, bool owned);
/* Append the compiled entries of a built-in directory, a block of @t's own (0 also when it has none). */
int pmu__tables_compiled(struct pmu_tables *t, const char *dir);
/* The built-in native event @name of directory @dir (case-insensitive; the compiled data, no table
 * loaded) decoded into *@out: true, or false if there is none. */
bool pmu__tables_builtin_event(const char *dir, const char *name, struct pmu_builtin_entry *out);
/* Parse the JSON files of directory @path on disk as directory @dir (the reference the compiled data
 * must equal); -EINVAL when any file has a problem. */
int pmu__tables_disk(struct pmu_tables *t, const char *path, const char *dir);
/* The table directory mapfile text @text chooses for @cpu: 1 and *dir (to free); 0 when no line
 * matches; -ENOMEM. A line whose CPU pattern is refused (longer than 128 characters, a back-reference,
 * {m,n} repeating to more than 128 positions, not an extended regular expression) is skipped with a
 * warning naming @mapname and the line. What loading does, for tests and fuzzers. */
int pmu__tables_map_match(struct pmu_ctx *ctx, const struct pmu_cpu *cpu, const char *text, const char *mapname,
			  char **dir);
/* pmu__tables_map_match() over the built-in mapfile (its compiled rows), its answer for @cpu kept per
 * process (the built-in mapfile never changes, and every pattern of it is accepted, so no warning is
 * lost). */
int pmu__tables_builtin_map_match(struct pmu_ctx *ctx, const struct pmu_cpu *cpu, char **dir);
/* For the fuzzer: @text as one table file, loaded, indexed, checked and its native entries encoded.
 * Returns the number of problems. */
int pmu__tables_fuzz(struct pmu_ctx *ctx, const char *text, size_t len);
/* For the fuzzer: @n texts as the files of one table directory, texts[0] its architecture-level file. */
int pmu__tables_fuzz_dir(struct pmu_ctx *ctx, const char *const *texts, const size_t *lens, size_t n);
/* For the fuzzer: @text (one table file) becomes @ctx's tables, for the metric functions. Returns
 * the number of problems loading found or a negative errno (then the context has no tables). */
int pmu__tables_fuzz_load(struct pmu_ctx *ctx, const char *text, size_t len);
#endif
