/* -f: each thread's own errno.  The main thread's open fails with
 * ENOENT, then it blocks in read; a second thread, once the main thread
 * is blocked there, fails with EISDIR and EBADF (the main thread's
 * errno is still ENOENT) and interrupts the read with a signal: the
 * read, resumed, fails with EINTR.  The main thread fails once more
 * before the second thread ends. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_t main_thread;
static pthread_barrier_t done;

static void on_usr1(int sig)
{
	(void)sig;
}

/* Whether the main thread is blocked in the read system call. */
static int main_in_read(void)
{
	char path[64], line[64], want[16];
	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", getpid());
	snprintf(want, sizeof(want), "%d ", SYS_read);
	FILE *f = fopen(path, "r");
	int in = f && fgets(line, sizeof(line), f) &&
		 !strncmp(line, want, strlen(want));
	if (f)
		fclose(f);
	return in;
}

static void *worker(void *arg)
{
	(void)arg;
	while (!main_in_read())
		usleep(1000);
	open(".", O_WRONLY, 0);
	close(-1);
	pthread_kill(main_thread, SIGUSR1);
	pthread_barrier_wait(&done);
	return NULL;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	pthread_t t;
	int sv[2];
	char buf[8] = "";
	sigaction(SIGUSR1, &sa, NULL);
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pthread_barrier_init(&done, NULL, 2);
	main_thread = pthread_self();
	open("/nonexistent", O_RDONLY, 0);
	pthread_create(&t, NULL, worker, NULL);
	read(sv[0], buf, 1);
	open("/dev/null/x", O_RDONLY, 0);
	pthread_barrier_wait(&done);
	pthread_join(t, NULL);
	return 0;
}
