/* SPDX-License-Identifier: MIT */
/*
 * pmu report's JSON-Schema validator: a document checked against the schema
 * of its kind in tools/schemas/ (compiled in), every key it has: type,
 * range, pattern (the subset of JSON Schema those schemas use). A refusal
 * names the file, where the value is ("events[2].value") and what was
 * expected. Functions return 0 or a negative errno with *@err a malloc'd
 * sentence (-EINVAL: the document is refused; -ENOMEM).
 */
#ifndef PMU_TOOLS_SCHEMA_CHECK_H
#define PMU_TOOLS_SCHEMA_CHECK_H

#include <json-c/json.h>
#include <stdbool.h>

enum report_kind { REPORT_STAT = 1, REPORT_REGIONS = 2 };

/* Check @doc (of file @file) against the schema of @kind. "required" is left to the reader, which
 * needs fewer keys than pmu stat writes (older files lack some). */
int schema_check(json_object *doc, enum report_kind kind, const char *file, char **err);

/* Where a value is: a chain from the innermost key or index out to the document. */
struct seg {
	const struct seg *up;
	const char *key;         /* NULL: an array index */
	size_t idx;
};
/* -EINVAL with "'FILE': PATH: what" in *@err (PATH from @at; NULL: the document). */
int refuse_at(const struct seg *at, const char *file, char **err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* @e with the sentence @fmt in *@err (NULL when out of memory). */
int report_fail(char **err, int e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A short rendering of what a key holds, for messages, in @buf: "a string \"x\"", "null", "an object". */
void what_found(json_object *v, char *buf, size_t len);
/*
 * An integer as JSON Schema has it (1.0 is one), within int64: json-c holds
 * integers above INT64_MAX as uint64 and clamps larger ones to UINT64_MAX,
 * so those are out of range rather than read wrong.
 */
bool is_int64(json_object *v);

#endif
