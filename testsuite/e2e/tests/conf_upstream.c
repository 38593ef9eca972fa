/* Traced with conf_upstream.d/conf_upstream.conf, a prototype file in
 * the style of ltrace 0.7.91's etc/*.conf: every construct those files
 * use, among them two '+' in one prototype, must load without a
 * diagnostic (the runner compares the tracer's stderr with the
 * program's, which is empty) and show the calls. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <complex.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

static char stack[65536] __attribute__((aligned(4096)));
/* Results of const functions are used, or the calls are dropped. */
static volatile long sink;

static void threads(void)
{
	pthread_attr_t attr;
	void *stk;
	size_t size;
	int detach, policy;
	struct sched_param param;
	pthread_key_t key;

	pthread_attr_init(&attr);
	pthread_attr_setstack(&attr, stack, sizeof(stack));
	pthread_attr_getstack(&attr, &stk, &size);
	pthread_attr_getdetachstate(&attr, &detach);
	pthread_attr_destroy(&attr);
	pthread_getschedparam(pthread_self(), &policy, &param);
	pthread_key_create(&key, NULL);
	pthread_getspecific(key);
	pthread_key_delete(key);
}

static void files(int argc, char **argv)
{
	sigset_t set, old;
	int fds[2];
	char buf[64];
	struct iovec iov[2] = { { "ab", 2 }, { "cd", 2 } };

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	pipe(fds);
	write(fds[1], "hello", 5);
	read(fds[0], buf, sizeof(buf));
	writev(fds[1], iov, 2);
	close(openat(AT_FDCWD, "/dev/null", O_RDONLY, 0));
	chmod("prog", 0755);
	getopt(argc, argv, "ab");
	sink = getpagesize();
	DIR *d = opendir(".");
	dirfd(d);
	closedir(d);
}

static int numbers(void)
{
	struct in_addr in = { inet_addr("1.2.3.4") };
	char *end, sbuf[3];
	unsigned short xsubi[3] = { 1, 2, 3 }, seed[3] = { 4, 5, 6 };
	unsigned char vec[16] = { 0 };
	long long t = 365 * 86400LL + 3661;
	struct tm tm;
	wchar_t wbuf[8];

	inet_ntoa(in);
	strtoll("42x", &end, 10);
	snprintf(sbuf, sizeof(sbuf), "%s", "abc");
	fflush(NULL);
	free(NULL);
	sink = abs(-5);
	erand48(xsubi);
	seed48(seed);
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	p[0] = 1;
	mincore(p, 4096, vec);
	munmap(p, 4096);
	gmtime_r((time_t *)&t, &tm);
	towupper(L'a');
	swprintf(wbuf, 8, L"\u0424=%d", 5);
	return (int)cabs(3.0 + 4.0 * I);
}

int main(int argc, char **argv)
{
	threads();
	files(argc, argv);
	return numbers() == 5 && sink == 5 ? 0 : 1;
}
