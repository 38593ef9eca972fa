/* 20000 getppid() system calls: the tracer's syscalls per traced system
 * call (-S) are measured on this. */
#include <unistd.h>

#define N 20000

int main(void)
{
	pid_t parent = getppid();
	int same = 0;

	for (int i = 1; i < N; i++)
		same += getppid() == parent;
	return same == N - 1 ? 0 : 1;
}
