/* N getppid() system calls (testsuite/budget/run passes -DN): the
 * tracer's syscalls per traced system call (-S) are measured on this. */
#include <unistd.h>

#ifndef N
#define N 10000
#endif

int main(void)
{
	pid_t parent = getppid();
	int same = 0;

	for (int i = 1; i < N; i++)
		same += getppid() == parent;
	return same == N - 1 ? 0 : 1;
}
