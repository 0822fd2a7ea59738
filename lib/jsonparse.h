/* SPDX-License-Identifier: MIT */
/* JSON text (RFC 8259) to json-c objects without json-c's tokener, whose unchecked strdup of a key
 * crashes when memory runs out (json-c 0.16): every allocation checked, nesting bounded, the place of
 * a syntax error said. The event tables' loader and, compiled into the command, pmu report's reader. */
#ifndef PMU_JSONPARSE_H
#define PMU_JSONPARSE_H
#include <stddef.h>

struct json_object;

enum pmu_json_flags {
	/* Also take what json-c's default parse took and JSON does not allow, as the tables' loader
	 * always has: a comma before ']' or '}', and control characters (U+0001..U+001F) unescaped in
	 * a string. Without it, RFC 8259 exactly. */
	PMU_JSON_LAX = 1,
	/* Numbers and true/false printed as they are made: json-c prints them at the first
	 * json_object_get_string() into a buffer it allocates then (NULL when that fails, which a reader
	 * of fields as text takes for an absent field), and reuses the buffer after. */
	PMU_JSON_SCALAR_TEXT = 2,
	/* NaN, Infinity and -Infinity taken as doubles (as json-c's tokener took them, even strict, and
	 * Python's json does): not JSON, but a reader that refuses them can then name the key holding one. */
	PMU_JSON_NONFINITE = 4,
};

/* Why a text was refused. */
struct pmu_json_error {
	size_t offset;  /* the byte where the text stops being JSON (the text's length: it ends early) */
	size_t line;    /* its line, from 1 */
	char what[112]; /* what is wrong there, a phrase: "a comma before ']' (JSON allows none)" */
};

/*
 * Parse @len bytes of @text (no NUL needed after them), one JSON value with white space around it,
 * into *@out (to json_object_put; NULL for JSON's null). Containers nest at most @max_depth deep
 * ([[1]] is 2); deeper is refused, never recursed into. @flags: enum pmu_json_flags.
 *
 * The values are json-c's, as its tokener made them: a number without fraction or exponent is an
 * int64, or a uint64 from 2^63 to 2^64 - 1 (json-c's int type either way); past those, UINT64_MAX or
 * INT64_MIN, as json-c clamped it (a reader that wants an int64 still refuses the first: pmu report's
 * check does). Other numbers are doubles, converted in the C locale whatever the program's, 1e400
 * infinite, json_object_get_string() giving the text as written. Strings keep their length:
 * \u0000 is a NUL inside a string value; in an object key it is refused (json-c's keys are C
 * strings: the key would be cut short). A \u escape of half a surrogate pair not followed by its
 * other half is U+FFFD, as json-c made it; bytes other than escapes are copied as they are (not
 * checked to be UTF-8, as json-c did not). A key given twice keeps its last value at its first
 * place, as json-c and Python's json do.
 *
 * Returns 0; -EINVAL when the text is not JSON (@err says where and what), -ENOMEM (@err says so).
 * *@out is NULL on failure. Thread-safe; allocates only through malloc, calloc and realloc.
 */
int pmu__json_parse(const char *text, size_t len, int max_depth, unsigned flags, struct json_object **out,
		    struct pmu_json_error *err);

#endif
