/* SPDX-License-Identifier: MIT */
/*
 * lib/jsonparse.c when memory runs out: a document of every kind of value (objects past the size at
 * which json-c grows their table, escapes, numbers of each type, NaN with PMU_JSON_NONFINITE, numbers
 * printed with PMU_JSON_SCALAR_TEXT, a key given twice) parsed once with the n-th allocation failing,
 * for every n until a parse completes: each must return -ENOMEM ("out of memory") with nothing made
 * and nothing left allocated (this program counts the blocks malloc, calloc and realloc give and free
 * takes back), and the parse after it must give the document unchanged. json-c copies a new key and
 * then grows the table, losing the copy when growing fails: the parser grows it first (without that,
 * 6 of the failures here leaked a key).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "harness.h"
#include "jsonparse.h"

#include "sanitizer.h"

#ifndef PMU_SANITIZED
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t a, size_t b);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

static long nth = -1, count, live;

static int fail_now(void)
{
	if (++count != nth)
		return 0;
	errno = ENOMEM;
	return 1;
}

void *malloc(size_t n)
{
	void *p = fail_now() ? NULL : __libc_malloc(n);
	live += p != NULL;
	return p;
}

void *calloc(size_t a, size_t b)
{
	void *p = fail_now() ? NULL : __libc_calloc(a, b);
	live += p != NULL;
	return p;
}

void *realloc(void *q, size_t n)
{
	void *p;

	if (fail_now())
		return NULL;
	p = __libc_realloc(q, n);
	live += !q && p;
	live -= q && !p && n == 0; /* glibc's realloc(q, 0) frees q */
	return p;
}

void free(void *p)
{
	live -= p != NULL;
	__libc_free(p);
}
#endif

int main(void)
{
#ifdef PMU_SANITIZED
	SKIP("the sanitizer owns the allocator here; the plain run injects the allocation failures");
#else
	static char text[16384];
	const unsigned flags = PMU_JSON_SCALAR_TEXT | PMU_JSON_NONFINITE;
	struct pmu_json_error e;
	json_object *v;
	char *want;
	long n, enomem = 0;
	int o = 0, r;

	o += snprintf(text + o, sizeof(text) - (size_t)o, "{\"schema\": \"x\", \"big\": 18446744073709551615, "
		      "\"neg\": -9223372036854775808, \"nan\": NaN, \"s\": \"caf\\u00e9 \\ud83d\\ude00 \\\"q\\\"\"");
	for (int i = 0; i < 40; i++)
		o += snprintf(text + o, sizeof(text) - (size_t)o, ", \"key%d\": [%d, 1.5e%d, true, null, {\"a\": \"b\"}, []]",
			      i, i, i % 30);
	snprintf(text + o, sizeof(text) - (size_t)o, ", \"key3\": {}}");
	count = 0;
	r = pmu__json_parse(text, strlen(text), 64, flags, &v, &e);
	CHECK(r == 0, "without failures: %d (%s at %zu)", r, e.what, e.offset);
	if (count == 0)
		SKIP("the allocator is replaced by the memory checker (valgrind) here: no allocation reaches this "
		     "program's malloc; the plain run injects the failures");
	want = strdup(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
	json_object_put(v);
	for (n = 1;; n++) {
		long before = live;
		nth = n;
		count = 0;
		r = pmu__json_parse(text, strlen(text), 64, flags, &v, &e);
		nth = -1;
		if (count < n) { /* past the last allocation */
			CHECK(r == 0 && !strcmp(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN), want),
			      "the parse after the last failure: %d", r);
			json_object_put(v);
			break;
		}
		CHECK(r == -ENOMEM && v == NULL && !strcmp(e.what, "out of memory"),
		      "allocation %ld failing: %d, %s, '%s'", n, r, v ? "a document" : "no document", e.what);
		enomem += r == -ENOMEM;
		json_object_put(v);
		CHECK(live == before, "allocation %ld failing: %ld blocks left allocated", n, live - before);
	}
	printf("%ld allocations failed one at a time: %ld -ENOMEM\n", n - 1, enomem);
	CHECK(n > 500, "only %ld allocations", n - 1);
	free(want);
	return test_done("test-json-oom");
#endif
}
