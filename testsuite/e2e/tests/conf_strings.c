/* string, string[argN], stringN, string[N] and string(array(char, argN)*)
 * with an embedded NUL. */
#include <stddef.h>
#include "libe2e.h"

int main(void)
{
	e2e_str("plain");
	e2e_strn("abcdefgh", 3);
	e2e_strn("ab", 5);
	e2e_strarg("abcdefgh", 4);
	e2e_strfix("0123456789");
	e2e_strfix("abc");
	e2e_strarr("ab\0cd", 5);
	return 0;
}
