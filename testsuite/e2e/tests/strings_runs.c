/* Long strings in which runs of printable bytes alternate with bytes
 * that need an escape (\n, \t, \\, \", octal, bytes >= 0x80, NUL in
 * counted strings and char arrays), shown whole and cut at -s where the
 * last character shown or the first one left out is an escape; writev's
 * iovecs (an array of structs) cut by -A; a wide string.  The formatter
 * copies runs of printable bytes at once: these pin its output. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include <wchar.h>

#define LEN 3000
#define NIOV 40

static char text[LEN + 1];
static char bytes[LEN];
static wchar_t wide[600];

/* Runs of printable bytes of lengths 0 to 60 (every one of them, '"' and
 * '\\' included, turns up), each followed by a byte from ESC. */
static void fill_text(void)
{
	static const char esc[] = "\n\t\\\"\001\033\177\200\377\a\b\v\f\r"
				  "\037\240\300~";
	size_t i = 0, run = 0, e = 0;

	while (i < LEN) {
		for (size_t k = 0; k < run && i < LEN; k++, i++)
			text[i] = (char)(' ' + (i * 7 + k) % 95);
		if (i < LEN)
			text[i++] = esc[e++ % (sizeof(esc) - 1)];
		run = (run + 13) % 61;
	}
	/* -s 37 and -s 1499: the last byte shown and the first left out */
	memcpy(text + 35, "a\001\n", 3);
	memcpy(text + 1497, "b\377\t", 3);
}

/* The text with NULs: all 256 byte values first, then a NUL every 97
 * bytes. */
static void fill_bytes(void)
{
	memcpy(bytes, text, LEN);
	for (int i = 0; i < 256; i++)
		bytes[i] = (char)i;
	for (size_t i = 300; i < LEN; i += 97)
		bytes[i] = 0;
	bytes[36] = 0;
	bytes[1498] = 0;
}

/* ASCII runs between Cyrillic, CJK, a combining mark, C1 controls, a
 * surrogate and a value past U+10FFFF. */
static void fill_wide(void)
{
	static const wchar_t odd[] = { 0x424, 0x4e2d, 0x301, 0x85, 0xd800,
				       0x110000, '\n', '"', 0xff, 0x7f };
	size_t i = 0, o = 0;

	while (i + 1 < sizeof(wide) / sizeof(wide[0])) {
		if (i % 9 == 8)
			wide[i] = odd[o++ % (sizeof(odd) / sizeof(odd[0]))];
		else
			wide[i] = (wchar_t)('A' + i % 26);
		i++;
	}
	wide[i] = 0;
}

/* strlen of the first N bytes of the text. */
static size_t prefix_len(size_t n)
{
	char saved = text[n];
	size_t r;

	text[n] = 0;
	r = strlen(text);
	text[n] = saved;
	return r;
}

int main(void)
{
	struct iovec iov[NIOV];
	char buf[LEN];
	size_t n = 0;
	int fd;

	fill_text();
	fill_bytes();
	fill_wide();
	n += strlen(text);
	n += prefix_len(37);
	n += prefix_len(38);
	n += prefix_len(1499);
	n += prefix_len(1500);
	n += memchr(bytes, 0x7f, LEN) != NULL;
	n += memrchr(bytes, '\\', 300) != NULL;
	n += wcslen(wide);
	for (int k = 0; k < NIOV; k++) {
		iov[k].iov_base = bytes + k * 71;
		iov[k].iov_len = (size_t)(k * 37) % 90;
	}
	iov[5].iov_base = NULL;
	iov[5].iov_len = 0;
	fd = open("/dev/null", O_WRONLY);
	if (fd < 0 || writev(fd, iov, NIOV) < 0)
		return 1;
	close(fd);
	fd = open("data", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, text, LEN) != LEN ||
	    write(fd, bytes, LEN) != LEN)
		return 1;
	n += pread64(fd, buf, LEN, 0);
	n += pread64(fd, buf, 100, LEN + 250); /* a NUL ends it at 50 */
	close(fd);
	printf("%zu\n", n);
	return 0;
}
