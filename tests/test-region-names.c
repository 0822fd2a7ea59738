/* SPDX-License-Identifier: MIT */
/*
 * Region names are compared by content, never by the caller's pointer:
 * a name built in one reused buffer (snprintf "phase%d"), names freed and
 * allocated again at the same address, the same name through many
 * different pointers, a buffer rewritten between begin and end, and more
 * names than the thread's pointer cache holds. The oracle is the loop
 * itself: how many times each name was begun and ended, counted by hand
 * here. After a name's first use, begin/end must not allocate: the heap's
 * bytes in use (mallinfo2) do not grow while thousands of new pointers to
 * known names go by.
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmu.h>
#include "harness.h"

struct calls {
	const char *name;
	uint64_t calls;
	int rows;           /* summed rows with this name: must be 0 or 1 */
};

static int calls_cb(const struct pmu_region_result *r, void *data)
{
	struct calls *c = data;
	if (r->tid == -1 && !strcmp(r->name, c->name)) {
		c->calls += r->calls;
		c->rows++;
	}
	return 0;
}

static struct calls calls_of(const char *name)
{
	struct calls c = { name, 0, 0 };
	pmu_region_foreach(0, calls_cb, &c);
	return c;
}

static int region(const char *begin_name, const char *end_name)
{
	int r = pmu_region_begin(begin_name);
	return r < 0 ? r : pmu_region_end(end_name);
}

#define NMANY 300

int main(void)
{
	char buf[32];
	int r;

	/* 1. one buffer, four names: phase i begun and ended i + 1 times */
	for (int i = 0; i < 4; i++)
		for (int k = 0; k <= i; k++) {
			snprintf(buf, sizeof(buf), "phase%d", i);
			r = region(buf, buf);
			CHECK(r == 0, "phase%d: %s", i, pmu_strerror(r));
		}
	for (int i = 0; i < 4; i++) {
		struct calls c;
		snprintf(buf, sizeof(buf), "phase%d", i);
		c = calls_of(buf);
		CHECK(c.rows == 1 && c.calls == (uint64_t)i + 1, "%s: %d rows, %llu calls, expected 1 row of %d calls", buf,
		      c.rows, (unsigned long long)c.calls, i + 1);
	}

	/* 2. freed and allocated again (malloc usually hands back the same address) */
	{
		static const char *const nm[3] = { "heap-a", "heap-b", "heap-c" };
		void *first = NULL;
		int same = 0;
		for (int i = 0; i < 30; i++) {
			char *p = malloc(16);
			if (!p)
				break;
			strcpy(p, nm[i % 3]);
			if (!first)
				first = p;
			else
				same += p == first;
			r = region(p, p);
			CHECK(r == 0, "%s: %s", p, pmu_strerror(r));
			free(p);
		}
		printf("malloc returned the first name's address again %d times of 29\n", same);
		for (int i = 0; i < 3; i++) {
			struct calls c = calls_of(nm[i]);
			CHECK(c.rows == 1 && c.calls == 10, "%s: %d rows, %llu calls, expected 1 row of 10", nm[i], c.rows,
			      (unsigned long long)c.calls);
		}
	}

	/* 3. the same content through different pointers is one region */
	{
		char a[16], b[16];
		strcpy(a, "same");
		strcpy(b, "same");
		CHECK(region("same", "same") == 0, "literal");
		CHECK(region(a, b) == 0, "begin through a, end through b");
		CHECK(region(b, "same") == 0, "begin through b, end through the literal");
		{
			struct calls c = calls_of("same");
			CHECK(c.rows == 1 && c.calls == 3, "same: %d rows, %llu calls, expected 1 row of 3", c.rows,
			      (unsigned long long)c.calls);
		}
	}

	/* 4. the buffer changes between begin and end: that end is another name */
	{
		snprintf(buf, sizeof(buf), "open-%d", 1);
		CHECK(pmu_region_begin(buf) == 0, "begin open-1");
		snprintf(buf, sizeof(buf), "open-%d", 2);
		r = pmu_region_end(buf);
		CHECK(r == -EINVAL && strstr(pmu_strerror(r), "open-2"), "end(open-2) without begin refused: %d %s", r,
		      pmu_strerror(r));
		CHECK(pmu_region_end("open-1") == 0, "open-1 is still open and ends");
		CHECK(calls_of("open-1").calls == 1 && calls_of("open-2").rows == 0, "open-1 once, open-2 never");
	}

	/* 5. more names than a small pointer cache holds, interleaved, each
	 *    through its own buffer and through one shared buffer */
	{
		static char own[NMANY][16];
		for (int i = 0; i < NMANY; i++)
			snprintf(own[i], sizeof(own[i]), "many-%d", i);
		for (int round = 0; round < 3; round++)
			for (int i = 0; i < NMANY; i++) {
				snprintf(buf, sizeof(buf), "many-%d", (i * 7 + round) % NMANY);
				if ((r = region(own[i], own[i])) < 0 || (r = region(buf, buf)) < 0) {
					CHECK(0, "many-%d / %s: %s", i, buf, pmu_strerror(r));
					break;
				}
			}
		{
			int bad = 0;
			for (int i = 0; i < NMANY; i++) {
				struct calls c = calls_of(own[i]);
				bad += c.rows != 1 || c.calls != 6;
			}
			CHECK(bad == 0, "%d of %d names with a wrong count (expected 6 calls each)", bad, NMANY);
		}
	}

	/* 6. after first use, no allocation: 5,000 live copies of known names,
	 *    each a new pointer, and the reused buffer again */
	{
		enum { NCOPY = 5000 };
		char **copy = calloc(NCOPY, sizeof(*copy));
		struct mallinfo2 m0, m1;
		int ok = copy != NULL;
		for (int i = 0; ok && i < NCOPY; i++)
			ok = (copy[i] = strdup(i % 2 ? "phase1" : "same")) != NULL;
		CHECK(ok, "copies allocated");
		m0 = mallinfo2();
		for (int i = 0; ok && i < NCOPY; i++) {
			snprintf(buf, sizeof(buf), "phase%d", i % 4);
			if (region(copy[i], copy[i]) < 0 || region(buf, buf) < 0)
				ok = 0;
		}
		m1 = mallinfo2();
		CHECK(ok, "begin/end through the copies");
		CHECK(m1.uordblks == m0.uordblks, "heap bytes in use grew by %lld during begin/end of known names",
		      (long long)m1.uordblks - (long long)m0.uordblks);
		CHECK(calls_of("same").calls == 3 + NCOPY / 2, "same: %llu calls, expected %d",
		      (unsigned long long)calls_of("same").calls, 3 + NCOPY / 2);
		CHECK(calls_of("phase1").calls == 2 + NCOPY / 2 + NCOPY / 4, "phase1: %llu calls, expected %d",
		      (unsigned long long)calls_of("phase1").calls, 2 + NCOPY / 2 + NCOPY / 4);
		for (int i = 0; copy && i < NCOPY; i++)
			free(copy[i]);
		free(copy);
	}

	pmu_region_reset(); /* nothing at exit */
	return test_done("test-region-names");
}
