/* SPDX-License-Identifier: MIT */
/* Text that must be UTF-8 (utf8.h says what for). */
#include "utf8.h"

/* The length of the valid UTF-8 sequence at @s, or 0. */
static size_t utf8_seq(const unsigned char *s)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

void pmu__write_utf8(FILE *f, const char *text)
{
	const unsigned char *s = (const unsigned char *)text, *run = s;

	while (*s) {
		size_t n = utf8_seq(s);
		if (n) {
			s += n;
			continue;
		}
		fwrite(run, 1, (size_t)(s - run), f);
		fputs("\xef\xbf\xbd", f); /* U+FFFD REPLACEMENT CHARACTER */
		run = ++s;
	}
	fwrite(run, 1, (size_t)(s - run), f);
}
