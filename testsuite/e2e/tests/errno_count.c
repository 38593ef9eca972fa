/* -c: strace's errors column counts the calls that failed with an errno
 * (errno(...) in libc.so.conf): fopen 3 of 4, close 2 of 3, none of
 * fclose and strtol, though errno stays set when they run. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void)
{
	for (int i = 0; i < 3; i++)
		fopen("/nonexistent", "r");
	close(-1);
	close(-1);
	fclose(fopen("/dev/null", "r"));
	strtol("5", NULL, 10);
	close(1);
	return 0;
}
