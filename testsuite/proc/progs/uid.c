/* Prints its ids, for -u. */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	printf("uid %d euid %d gid %d egid %d\n", (int)getuid(), (int)geteuid(),
	       (int)getgid(), (int)getegid());
	return 0;
}
