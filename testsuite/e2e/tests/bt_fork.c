/* -w -f: each process unwinds in its own address space.  The child
 * calls strlen through f and g; then the parent, once the child is
 * gone, through h and g: the frames name each process's own chain. */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

size_t g(const char *s)
{
	return strlen(s); /* line 11 */
}

size_t f(const char *s)
{
	return g(s) + 1; /* line 16 */
}

size_t h(const char *s)
{
	return g(s) + 2; /* line 21 */
}

int main(void)
{
	sigset_t set;
	int st = 0;

	/* No SIGCHLD line: its place among the child's lines varies. */
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	pid_t pid = fork();
	if (pid == 0)
		return f("child") == 6 ? 0 : 1; /* line 35 */
	waitpid(pid, &st, 0);
	return h("parent") == 8 && st == 0 ? 0 : 1; /* line 37 */
}
