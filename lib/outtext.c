/* SPDX-License-Identifier: MIT */
/* Names written where others read them (outtext.h says what for). */
#include <string.h>
#include "outtext.h"

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

char *pmu__printable(char *buf, size_t len, const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t o = 0;

	if (!len)
		return buf;
	while (*s && o + 1 < len) {
		size_t n = utf8_seq(s);
		char esc[8] = "";
		/* C1 controls are valid UTF-8 (0xc2 0x80-0x9f) and act as controls: escaped too */
		if (n == 1 && (*s == '\n' || *s == '\t' || *s == '\r'))
			snprintf(esc, sizeof(esc), "\\%c", *s == '\n' ? 'n' : *s == '\t' ? 't' : 'r');
		else if (n == 1 && (*s < 0x20 || *s == 0x7f))
			snprintf(esc, sizeof(esc), "\\x%02x", *s);
		else if (n == 0 || (n == 2 && s[0] == 0xc2 && s[1] < 0xa0))
			snprintf(esc, sizeof(esc), "\\x%02x", *s), n = 1;
		else if (*s == '\\')
			snprintf(esc, sizeof(esc), "\\\\");
		if (*esc) {
			size_t e = strlen(esc);
			if (o + e >= len)
				break;
			memcpy(buf + o, esc, e);
			o += e;
			s++;
			continue;
		}
		if (o + n >= len)
			break;
		memcpy(buf + o, s, n);
		o += n;
		s += n;
	}
	buf[o] = 0;
	return buf;
}

void pmu__csv_cell(FILE *f, const char *s)
{
	fputc('"', f);
	if (strchr("=+-@\t\r", *s) && *s)
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
