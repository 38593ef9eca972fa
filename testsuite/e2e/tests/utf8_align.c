/* Wide strings print as UTF-8: the "= " column is placed by display
 * width, so Cyrillic (one column a character), CJK (two) and combining
 * marks (none) line up like ASCII, and a line wider than the column
 * still gets a single space. */
#include <stdio.h>
#include <wchar.h>

int main(void)
{
	size_t n = wcslen(L"\u0424\u044b\u0432\u0430");
	n += wcslen(L"\u4e2d\u6587\u5b57");
	n += wcslen(L"e\u0301te\u0301");
	n += wcslen(L"abc");
	n += wcslen(L"\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8"
		    L"\u304c\u3068\u3066\u3082\u9577\u3044\u884c\u3067"
		    L"\u3059\u3088\u306d\u672c\u5f53\u306b");
	printf("%zu\n", n);
	return 0;
}
