/* Traced by testsuite/install/run: strchrnul's prototype is in the
 * shipped libc.so.conf only (not in ltrace 0.7.3's /etc/ltrace.conf),
 * access(2)'s in syscalls.conf. */
#define _GNU_SOURCE
#include <string.h>
#include <unistd.h>

int main(void)
{
	return *strchrnul("abc", 'b') != 'b' || access("/", F_OK) != 0;
}
