/* SPDX-License-Identifier: MIT */
/* perf's MetricExpr language: parse to a tree, list the names it uses,
 * evaluate it with values supplied by a callback. */
#ifndef PMU_EXPR_H
#define PMU_EXPR_H
#include <stddef.h>

enum pmu_expr_kind {
	PMU_EX_NUM, PMU_EX_VAR, PMU_EX_CONST, PMU_EX_NEG, PMU_EX_NOT,
	PMU_EX_ADD, PMU_EX_SUB, PMU_EX_MUL, PMU_EX_DIV, PMU_EX_MOD,
	PMU_EX_LT, PMU_EX_GT, PMU_EX_LE, PMU_EX_GE, PMU_EX_EQ, PMU_EX_NE,
	PMU_EX_AND, PMU_EX_OR, PMU_EX_IF, PMU_EX_MIN, PMU_EX_MAX, PMU_EX_DRATIO,
	PMU_EX_HAS_EVENT,        /* has_event(NAME): 1 if event NAME is there, else 0 */
	PMU_EX_SOURCE_COUNT,     /* source_count(NAME): how many PMUs count event NAME */
	PMU_EX_CPUID,            /* strcmp_cpuid_str(ID): 1 if this CPU is ID, else 0 */
	PMU_EX_XOR,              /* a ^ b: 1 if exactly one is non-zero */
};

/* What a name of an expression is, for pmu__expr_names() and the lookup callback. */
enum pmu_expr_name {
	PMU_NAME_VAR = 0,          /* an event or metric: its value */
	PMU_NAME_CONST = 1,        /* a #constant */
	PMU_NAME_HAS_EVENT = 2,    /* the argument of has_event(): 1 or 0 */
	PMU_NAME_SOURCE_COUNT = 3, /* the argument of source_count(): a count of PMUs */
	PMU_NAME_CPUID = 4,        /* the argument of strcmp_cpuid_str(): 1 or 0 */
};

struct pmu_expr {
	enum pmu_expr_kind kind;
	double num;              /* PMU_EX_NUM */
	char *name;              /* PMU_EX_VAR (event or metric), PMU_EX_CONST (after '#'), the
	                            argument of PMU_EX_HAS_EVENT, PMU_EX_SOURCE_COUNT, PMU_EX_CPUID */
	int pos;                 /* offset in the source, for messages */
	int height;              /* 1 + the tallest operand's: bounds the recursion over the tree */
	struct pmu_expr *a, *b, *c; /* operands; IF: a if b else c */
};

/* Longest expression, and tallest tree (a flat a+b+c+... of N terms is N
 * tall): the tree is walked recursively. perf's tables (Linux 6.12) reach
 * 1,316 characters and a height of 20; Intel's perfmon metric files, their
 * aliases replaced, 88,327 characters (icelakex Bottleneck_Other_Bottlenecks). */
#define PMU_EXPR_MAX_LEN 131072
#define PMU_EXPR_MAX_HEIGHT 512

/* Parse @src. On error returns NULL, writes "position N: what" to @err and sets errno: ENOMEM when an
 * allocation failed, else EINVAL. */
struct pmu_expr *pmu__expr_parse(const char *src, char *err, size_t errlen);
void pmu__expr_free(struct pmu_expr *e);

/* Call @fn for every name the expression uses, @is_const saying what it is (enum pmu_expr_name), in
 * order of appearance, duplicates included. Stops and returns fn's value when it is non-zero. */
int pmu__expr_names(const struct pmu_expr *e, int (*fn)(const char *name, int is_const, void *data),
		    void *data);

/* Value of a name of kind @is_const (enum pmu_expr_name): return 0 and set *out, or a negative errno
 * (-ENOENT unknown). */
typedef int (*pmu_expr_lookup)(const char *name, int is_const, void *data, double *out);

/* pmu__expr_names(), except that of an 'a if c else b' whose condition @fold can evaluate now
 * (@fold answers the names of c, or fails for a name only the counts can tell) only the branch the
 * condition takes is walked, as perf counts only the events of that branch. The names of the
 * condition are not visited when it folds. */
int pmu__expr_names_live(const struct pmu_expr *e, int (*fn)(const char *name, int is_const, void *data),
			 void *data, pmu_expr_lookup fold, void *fold_data);

/* Evaluate. Division by zero yields NaN (d_ratio yields 0); comparisons and
 * logic yield 1 or 0. Returns 0 or the lookup's error; on error @bad_name
 * (may be NULL) points at the name that failed. */
int pmu__expr_eval(const struct pmu_expr *e, pmu_expr_lookup lookup, void *data, double *out,
		   const char **bad_name);
#endif
