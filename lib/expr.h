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
};

struct pmu_expr {
	enum pmu_expr_kind kind;
	double num;              /* PMU_EX_NUM */
	char *name;              /* PMU_EX_VAR (event or metric), PMU_EX_CONST (after '#') */
	int pos;                 /* offset in the source, for messages */
	int height;              /* 1 + the tallest operand's: bounds the recursion over the tree */
	struct pmu_expr *a, *b, *c; /* operands; IF: a if b else c */
};

/* Longest expression, and tallest tree (a flat a+b+c+... of N terms is N
 * tall): the tree is walked recursively. perf's tables (Linux 6.12) reach
 * 1,316 characters and a height of 20. */
#define PMU_EXPR_MAX_LEN 16384
#define PMU_EXPR_MAX_HEIGHT 512

/* Parse @src. On error returns NULL, writes "position N: what" to @err and sets errno: ENOMEM when an
 * allocation failed, else EINVAL. */
struct pmu_expr *pmu__expr_parse(const char *src, char *err, size_t errlen);
void pmu__expr_free(struct pmu_expr *e);

/* Call @fn for every variable (@is_const 0) and #constant (@is_const 1) the
 * expression uses, in order of appearance, duplicates included. Stops and
 * returns fn's value when it is non-zero. */
int pmu__expr_names(const struct pmu_expr *e, int (*fn)(const char *name, int is_const, void *data),
		    void *data);

/* Value of a name: return 0 and set *out, or a negative errno (-ENOENT unknown). */
typedef int (*pmu_expr_lookup)(const char *name, int is_const, void *data, double *out);

/* Evaluate. Division by zero yields NaN (d_ratio yields 0); comparisons and
 * logic yield 1 or 0. Returns 0 or the lookup's error; on error @bad_name
 * (may be NULL) points at the name that failed. */
int pmu__expr_eval(const struct pmu_expr *e, pmu_expr_lookup lookup, void *data, double *out,
		   const char **bad_name);
#endif
