/* SPDX-License-Identifier: MIT */
/*
 * The lab's native twin of libpmu-likwid's Fortran entry points (tests/lab/guest/lab-compat.c):
 * LIKWID's own F-markerAPI.F90, compiled unchanged against the layer's interface-only module
 * (compat/likwid/likwid.f90), is linked a second time with these instead of libpmu-likwid: each
 * Fortran string made a C string, then libpmu's pmu_region_begin or pmu_region_end (the events
 * from $PMU_EVENTS), nothing else. What the twin counts is what the layer's run must count.
 */
#include <stddef.h>
#include <string.h>
#include <pmu.h>

/* the Fortran tag @s of @len characters, trailing blanks dropped, as a C string in @buf */
static const char *cname(char *buf, size_t size, const char *s, size_t len)
{
	while (len && s[len - 1] == ' ')
		len--;
	if (len >= size)
		len = size - 1;
	memcpy(buf, s, len);
	buf[len] = 0;
	return buf;
}

void likwid_markerinit_(void);
void likwid_markerthreadinit_(void);
void likwid_markernextgroup_(void);
void likwid_markerclose_(void);
void likwid_markerregisterregion_(const char *tag, size_t len);
void likwid_markerstartregion_(const char *tag, size_t len);
void likwid_markerstopregion_(const char *tag, size_t len);
void likwid_markergetregion_(const char *tag, int *nr_events, double *events, double *time, int *count, size_t len);

void likwid_markerinit_(void) {}
void likwid_markerthreadinit_(void) {}
void likwid_markernextgroup_(void) {}
void likwid_markerclose_(void) {}
void likwid_markerregisterregion_(const char *tag, size_t len) { (void)tag, (void)len; }

void likwid_markerstartregion_(const char *tag, size_t len)
{
	char b[256];

	pmu_region_begin(cname(b, sizeof(b), tag, len));
}

void likwid_markerstopregion_(const char *tag, size_t len)
{
	char b[256];

	pmu_region_end(cname(b, sizeof(b), tag, len));
}

void likwid_markergetregion_(const char *tag, int *nr_events, double *events, double *time, int *count, size_t len)
{
	(void)tag, (void)events, (void)len;
	*nr_events = 0;
	*time = 0;
	*count = 0;
}
