/* The target of the group-signal tests: sigcatch READY OUT SIG MODE
 * NTHREADS.  MODE h installs a handler for signal number SIG, MODE d
 * sets its default action.  NTHREADS threads (main among them) loop
 * making traced calls; once every thread runs, main writes its pid to
 * READY.  When the handler has run, main writes "handled SIG N" (N times
 * it ran) to OUT and exits 3.  If nothing comes within 20 s it writes
 * "lost" and exits 4. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t handled;
static volatile int running;

static void on_sig(int sig)
{
	(void)sig;
	handled++;
}

static void *worker(void *arg)
{
	char buf[32];
	(void)arg;
	__sync_fetch_and_add(&running, 1);
	for (long i = 0;; i++) {
		snprintf(buf, sizeof buf, "%ld", i);
		if (atol(buf) != i)
			abort();
	}
	return NULL;
}

static void put(const char *path, const char *text)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) || rename(tmp, path))
		exit(5);
}

int main(int argc, char **argv)
{
	if (argc < 6)
		return 2;
	int sig = atoi(argv[3]), nt = atoi(argv[5]);
	/* MODE d sets the default itself: a background job of a shell
	 * without job control starts with SIGINT and SIGQUIT ignored, and
	 * would otherwise wait its 20 s for a signal it never sees. */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = argv[4][0] == 'h' ? on_sig : SIG_DFL;
	sigaction(sig, &sa, NULL);
	pthread_t t;
	for (int i = 1; i < nt; i++)
		pthread_create(&t, NULL, worker, NULL);
	while (running < nt - 1)
		usleep(1000);
	char buf[64];
	snprintf(buf, sizeof buf, "%d\n", (int)getpid());
	put(argv[1], buf);
	time_t end = time(NULL) + 20;
	for (long i = 0; !handled && time(NULL) < end; i++) {
		snprintf(buf, sizeof buf, "%ld", i);
		if (atol(buf) != i)
			abort();
	}
	if (!handled) {
		put(argv[2], "lost\n");
		return 4;
	}
	snprintf(buf, sizeof buf, "handled %d %d\n", sig, (int)handled);
	put(argv[2], buf);
	return 3;
}
