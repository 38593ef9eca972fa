/* --format=json: a call that failed with an errno (errno(...) in
 * libc.so.conf) carries it, as a number and by name; one that
 * succeeded, though errno keeps the earlier failure's, has neither. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	fopen("/nonexistent", "r");
	fclose(fopen("/dev/null", "r"));
	open(".", O_WRONLY, 0);
	return 0;
}
