/* Calls of a library's functions that recurse through the library's
 * own PLT (lib_self_lib.c), three times each: with --fast, the later
 * calls from the program are recorded. */
#include <stdio.h>

int self_rec(int n);
int self_ping(int n);

int main(void)
{
	int s = 0;
	for (int i = 0; i < 3; i++) {
		s += self_rec(3);
		s += self_ping(3);
	}
	printf("%d\n", s);
	return 0;
}
