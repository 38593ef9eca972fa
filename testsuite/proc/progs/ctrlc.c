/* The target of the terminal-signal tests: ctrlc READY OUT STOP MODE.
 * It sets up SIGINT and SIGQUIT as MODE says, writes its pid to READY,
 * then loops making traced calls until a handler has run or the file
 * STOP exists (at most 30 s), writes what ended the loop to OUT and
 * exits 0.  MODE:
 *   h  a handler for SIGINT and SIGQUIT, which calls strlen("in handler")
 *   d  their default actions (death)
 *   i  SIGINT ignored (SIG_IGN)
 *   b  SIGINT blocked
 *   g  as h, in a process group of its own (setpgid) that the terminal's
 *      signals do not reach
 *   t  as h, and a SIGTSTP handler that calls strlen("stopping") and
 *      stops the program with SIGTSTP at its default action, as an
 *      editor does to put the terminal back first. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t handled;
/* Used, so that the calls are made (strlen is pure). */
static volatile size_t used;

static void on_sig(int sig)
{
	used = strlen("in handler");
	handled = sig;
}

static void on_tstp(int sig)
{
	sigset_t s;
	used = strlen("stopping");
	signal(sig, SIG_DFL);
	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	raise(sig);
	/* Continued. */
	signal(sig, on_tstp);
}

static void put(const char *path, const char *text)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) || rename(tmp, path))
		exit(5);
}

static void setup(char mode)
{
	sigset_t s;
	switch (mode) {
	case 'g':
		setpgid(0, 0);
		/* fall through */
	case 'h':
		signal(SIGINT, on_sig);
		signal(SIGQUIT, on_sig);
		break;
	case 't':
		signal(SIGINT, on_sig);
		signal(SIGQUIT, on_sig);
		signal(SIGTSTP, on_tstp);
		break;
	case 'i':
		signal(SIGINT, SIG_IGN);
		break;
	case 'b':
		sigemptyset(&s);
		sigaddset(&s, SIGINT);
		sigprocmask(SIG_BLOCK, &s, NULL);
		break;
	default:
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
	}
}

int main(int argc, char **argv)
{
	if (argc < 5)
		return 2;
	setup(argv[4][0]);
	char buf[64];
	snprintf(buf, sizeof buf, "%d\n", (int)getpid());
	put(argv[1], buf);
	time_t end = time(NULL) + 30;
	while (!handled && access(argv[3], F_OK) != 0 && time(NULL) < end)
		usleep(2000);
	if (handled)
		snprintf(buf, sizeof buf, "handled %d\n", (int)handled);
	else if (access(argv[3], F_OK) == 0)
		snprintf(buf, sizeof buf, "stopped\n");
	else
		snprintf(buf, sizeof buf, "lost\n");
	put(argv[2], buf);
	return 0;
}
