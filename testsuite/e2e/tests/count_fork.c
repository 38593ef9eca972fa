/* A child and its parent sleep: with -f, -c adds up both processes'
 * calls (200 ms in the child, twice 100 ms in the parent). */
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		usleep(200000);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	usleep(100000);
	usleep(100000);
	return 0;
}
