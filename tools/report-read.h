/* SPDX-License-Identifier: MIT */
/*
 * pmu report's reader: saved 'pmu stat --json' files (libpmu-stat/1) and
 * region reports (libpmu-regions/1). A file is read up to REPORT_MAX_BYTES,
 * parsed as strict JSON and checked against the schema of its kind
 * (schema-check.h). Then values are read out of the checked document, with
 * the checks a schema cannot make (a NUL inside a name, running_ns above
 * enabled_ns, a sum past 64 bits). Apart from the command so that a fuzz
 * target (tests/fuzz/fuzz-report.c) links it. Functions return 0 or a
 * negative errno with *@err a malloc'd sentence (-EINVAL: the file's content
 * is refused; other values: it could not be read).
 */
#ifndef PMU_TOOLS_REPORT_READ_H
#define PMU_TOOLS_REPORT_READ_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>
#include "schema-check.h"

/* far above any report libpmu writes; bounds what a FIFO or /dev/zero costs */
#define REPORT_MAX_BYTES (64u << 20)

/* Read @path (a FIFO or process substitution too, up to REPORT_MAX_BYTES) and check it: *@doc, *@kind. */
int report_load(const char *path, json_object **doc, enum report_kind *kind, char **err);
/* The same for @len bytes at @text, named @name in messages. */
int report_parse(const char *name, const char *text, size_t len, json_object **doc, enum report_kind *kind,
		 char **err);

/* The string at @key of @o (checked by the schema: a string if present), else NULL. */
const char *str_at(json_object *o, const char *key);
/* The count at @key (checked: an integer from 0 to INT64_MAX, perhaps written 1.0), else 0. */
uint64_t count_at(json_object *o, const char *key);
/* The string at @key of @o (at @at of file @file) is a C string (no NUL inside: json-c keeps its length
 * apart), shorter than @max if not 0. */
int name_ok(json_object *o, const char *key, size_t max, const struct seg *at, const char *file, char **err);
/* *@sum += the count at @key of @o, or -EINVAL naming it when 64 bits do not hold the sum. */
int add_count(uint64_t *sum, json_object *o, const char *key, const struct seg *at, const char *file,
	      char **err);
/* running_ns <= enabled_ns in event @e: a counter runs only while it is enabled. */
int times_ok(json_object *e, const struct seg *at, const char *file, char **err);

#endif
