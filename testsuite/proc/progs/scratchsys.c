/* The target of scratch_syscall: scratchsys MODE.  The main thread makes
 * one raw system call through sys_call, a function whose first
 * instruction is the system call instruction: a breakpoint there (-x
 * sys_call) runs it displaced, in the tracer's scratch memory, or (MODE
 * i and j, x86_64: int $0x80) single-steps it in place.  MODE:
 *   p  wait for a signal (pause; ppoll on aarch64), ended by SIGUSR1;
 *   e  the same wait, ended by a worker's exit(7);
 *   r  read a pipe, with an SA_RESTART handler: SIGUSR1 first (the read
 *      starts again), then the worker writes one byte;
 *   i  as p through int $0x80 (the i386 pause);
 *   j  as e through int $0x80.
 * Main creates the file "ready" just before the call; the worker waits
 * for the file "go", then acts (r: the signal; once the handler ran, it
 * creates "sent" and waits for "go2" to write).  Main writes "back R got
 * N" (the call's result, the handler's runs) to the file "out" and
 * exits 3; a worker that exits makes it 7. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__)
__asm__(".globl sys_call\n.type sys_call,@function\nsys_call:\n"
	"\tsyscall\n\tret\n.size sys_call, .-sys_call\n"
	".globl sys_call32\n.type sys_call32,@function\nsys_call32:\n"
	"\tint $0x80\n\tret\n.size sys_call32, .-sys_call32\n");

/* sys_call with the number in eax, the arguments in rdi, rsi, rdx, as
 * the kernel takes them (rcx and r11 it clobbers). */
static long raw(long nr, long a, long b, long c)
{
	long r;
	__asm__ volatile("call sys_call"
			 : "=a"(r)
			 : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return r;
}

static long raw32(long nr)
{
	long r;
	__asm__ volatile("call sys_call32" : "=a"(r) : "a"(nr) : "memory");
	return (int)r;
}
#define NR_WAIT 34 /* pause */
#define NR_READ 0
#elif defined(__aarch64__)
__asm__(".globl sys_call\n.type sys_call,%function\nsys_call:\n"
	"\tsvc #0\n\tret\n.size sys_call, .-sys_call\n");

static long raw(long nr, long a, long b, long c)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = 0;
	__asm__ volatile("bl sys_call"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3)
			 : "x30", "memory");
	return x0;
}

static long raw32(long nr)
{
	(void)nr;
	return -38; /* no int $0x80 */
}
#define NR_WAIT 73 /* ppoll(NULL, 0, NULL, NULL) */
#define NR_READ 63
#else
#error "scratchsys: x86_64 or aarch64"
#endif

static volatile sig_atomic_t handled;
static pthread_t main_thread;
static int pipe_fds[2];
static char mode;

static void on_sig(int sig)
{
	(void)sig;
	handled++;
}

static void put(const char *path, const char *text)
{
	char tmp[256];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, text, strlen(text)) < 0 || close(fd) ||
	    rename(tmp, path))
		_exit(5);
}

static void wait_for(const char *path)
{
	while (access(path, F_OK))
		usleep(10000);
}

static void *worker(void *arg)
{
	(void)arg;
	wait_for("go");
	if (mode == 'e' || mode == 'j')
		exit(7);
	pthread_kill(main_thread, SIGUSR1);
	if (mode != 'r')
		return NULL;
	while (!handled)
		usleep(1000);
	put("sent", "sent\n");
	wait_for("go2");
	if (write(pipe_fds[1], "x", 1) != 1)
		_exit(6);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	mode = argv[1][0];
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sig;
	sa.sa_flags = mode == 'r' ? SA_RESTART : 0;
	sigaction(SIGUSR1, &sa, NULL);
	if (pipe(pipe_fds))
		return 2;
	main_thread = pthread_self();
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	char c, buf[64];
	put("ready", "ready\n");
	long r;
	if (mode == 'r')
		r = raw(NR_READ, pipe_fds[0], (long)&c, 1);
	else if (mode == 'i' || mode == 'j')
		r = raw32(29);
	else
		r = raw(NR_WAIT, 0, 0, 0);
	snprintf(buf, sizeof buf, "back %ld got %d\n", r, (int)handled);
	put("out", buf);
	return 3;
}
