/* string(uint) on a scalar is a character: the shipped libc.so.conf
 * says typedef wchar_t = string(uint), as ltrace's does, so wide
 * characters show as 'Ф' (UTF-8 in single quotes), escaped when not
 * printable, WEOF by name; wide strings as "...". */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>
#include <wctype.h>

int main(void)
{
	wchar_t wc = 0;
	wchar_t s[] = L"\u0424\u044b\u0432\u0430\n";

	setlocale(LC_CTYPE, "C.UTF-8");
	wint_t up = towupper(L'\u0444');
	int w = wcwidth(L'\u4e2d');
	int alpha = iswalpha(L'\t') != 0;
	int cntrl = iswcntrl(0x85) != 0;
	if (mbtowc(&wc, "\xd0\xa4", 2) != 2 || wc != up)
		return 1;
	wint_t e = btowc(EOF);
	wmemset(s, L'\u00e9', 2);
	fputws(s, stdout);
	fputwc(up, stdout);
	fputwc(L'\n', stdout);
	return w == 2 && !alpha && cntrl && e == WEOF ? 0 : 2;
}
