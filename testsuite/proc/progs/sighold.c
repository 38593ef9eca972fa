/* The target of sig_held: sighold READY FIFO LEN.  Main loops on strlen
 * of a LEN-byte string (a recorded call whose copy is most of its time
 * under --fast).  SIGUSR1's handler blocks until a byte can be read from
 * FIFO, with a raw system call (no call for the tracer to see), then
 * returns into whatever the signal interrupted.  Writes its pid to READY
 * once running; SIGTERM makes it print "ok N" (N handlers run) and exit
 * 0, from the loop, if every strlen gave the right length. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int fifo;
static volatile sig_atomic_t held, quit;

static long raw_read(int fd, void *buf, unsigned long n)
{
#if defined(__x86_64__)
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long)SYS_read), "D"((long)fd), "S"(buf), "d"(n)
			 : "rcx", "r11", "memory");
	return ret;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = SYS_read;
	register long x0 __asm__("x0") = fd;
	register long x1 __asm__("x1") = (long)buf;
	register long x2 __asm__("x2") = (long)n;
	__asm__ volatile("svc #0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2)
			 : "memory");
	return x0;
#else
#error "no raw system call for this architecture"
#endif
}

static void on_usr1(int sig)
{
	char c;
	(void)sig;
	while (raw_read(fifo, &c, 1) != 1)
		;
	held++;
}

static void on_term(int sig)
{
	(void)sig;
	quit = 1;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	size_t len = strtoul(argv[3], NULL, 10);
	char *s = malloc(len + 1);
	if (!s)
		return 2;
	memset(s, 'x', len);
	s[len] = 0;
	fifo = open(argv[2], O_RDWR);
	if (fifo < 0)
		return 2;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	FILE *f = fopen(argv[1], "w");
	if (!f)
		return 2;
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	while (!quit)
		if (strlen(s) != len) {
			printf("strlen gave a wrong length\n");
			return 1;
		}
	printf("ok %d\n", (int)held);
	return 0;
}
