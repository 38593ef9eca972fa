/* Signal sets and masks through the shipped prototypes: signal numbers as
 * names, sigset_t as a bit vector (bit N-1 for signal N), how as
 * SIG_BLOCK/SIG_UNBLOCK/SIG_SETMASK, struct sigaction. */
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	sigset_t set, old, pend;
	struct sigaction sa;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigismember(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, &old);
	raise(SIGUSR1);
	sigpending(&pend);
	sigdelset(&set, SIGTERM);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;	/* discards the pending SIGUSR1 */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	signal(SIGUSR2, SIG_IGN);
	kill(getpid(), SIGUSR2);
	return 0;
}
