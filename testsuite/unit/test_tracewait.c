/* The waits of tracewait.c on a real process: a wait for the leader
 * alone while another thread ends the group (exit_group).  waitpid on
 * the leader alone would block for ever there: the leader's end is
 * reported only once the tracer has taken the other thread's, and that
 * one was queued, not taken.  Then the same with the exit stops of
 * --fast (PTRACE_O_TRACEEXIT), where a report put back comes out again
 * after those queued. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "tracee.h"

static void *ender(void *arg)
{
	(void)arg;
	usleep(100000);
	syscall(SYS_exit_group, 7);
	return NULL;
}

/* The child: stops for the tracer, then a thread ends the group while
 * the leader waits in pause. */
static void child(void)
{
	raise(SIGSTOP);
	pthread_t t;
	pthread_create(&t, NULL, ender, NULL);
	for (;;)
		pause();
}

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "test_tracewait: a wait never returned\n";
	(void)!write(2, msg, sizeof(msg) - 1);
	_exit(1);
}

/* Seize the child at its SIGSTOP, let it run, and take its clone: the
 * new thread's tid. */
static pid_t start(pid_t pid)
{
	int st;
	CHECK(waitpid(pid, &st, WSTOPPED) == pid && WIFSTOPPED(st));
	CHECK(tracee_seize(pid, true) == 0);
	kill(pid, SIGCONT);
	pid_t thread = 0;
	for (int i = 0; i < 20 && !thread; i++) {
		struct tracee_event ev;
		pid_t r = tracee_wait(-1, 0, &ev);
		if (r <= 0)
			break;
		if (ev.kind == TRACEE_CLONE) {
			unsigned long msg = 0;
			CHECK(tracee_event_msg(r, &msg) == 0);
			thread = (pid_t)msg;
		}
		(void)tracee_cont(r, 0);
	}
	CHECK(thread > 0, "no clone reported");
	return thread;
}

/* A traced child (with exit stops: EXITS) whose thread runs, the new
 * thread's first stop taken and resumed; its tid into *THREAD. */
static pid_t spawn(bool exits, pid_t *thread)
{
	tracee_trace_exits(exits);
	pid_t pid = fork();
	if (pid == 0)
		child();
	*thread = start(pid);
	struct tracee_event ev;
	pid_t r = tracee_wait(*thread, 0, &ev);
	CHECK(r == *thread && ev.kind == TRACEE_EVENT_STOP,
	      "first stop of the thread: %d kind %d", (int)r, ev.kind);
	(void)tracee_cont(*thread, 0);
	return pid;
}

static void plain(void)
{
	pid_t thread;
	pid_t pid = spawn(false, &thread);
	struct tracee_event ev;
	pid_t r = tracee_wait(pid, 0, &ev);
	CHECK(r == pid && ev.kind == TRACEE_EXITED && ev.code == 7,
	      "leader: %d kind %d code %d", (int)r, ev.kind, ev.code);
	/* The other thread's end, taken during that wait, comes out next. */
	r = tracee_wait(-1, WNOHANG, &ev);
	CHECK(r == thread && tracee_ended(&ev), "thread: %d kind %d", (int)r,
	      ev.kind);
	CHECK(tracee_wait(-1, WNOHANG, &ev) == -ECHILD);
}

static void exit_stops(void)
{
	pid_t thread;
	pid_t pid = spawn(true, &thread);
	struct tracee_event ev;
	pid_t r = tracee_wait(pid, 0, &ev);
	CHECK(r == pid && ev.kind == TRACEE_EXIT, "leader: %d kind %d", (int)r,
	      ev.kind);
	/* Put back behind the thread's exit stop, if that came first. */
	tracee_put_back(pid);
	bool seen_leader = false, seen_thread = false;
	for (int i = 0; i < 2; i++) {
		r = tracee_wait(-1, 0, &ev);
		CHECK(ev.kind == TRACEE_EXIT, "exit stop: %d kind %d", (int)r,
		      ev.kind);
		seen_leader |= r == pid;
		seen_thread |= r == thread;
	}
	CHECK(seen_leader && seen_thread);
	(void)tracee_cont(pid, 0);
	(void)tracee_cont(thread, 0);
	r = tracee_wait(pid, 0, &ev);
	CHECK(r == pid && ev.kind == TRACEE_EXITED && ev.code == 7,
	      "leader: %d kind %d code %d", (int)r, ev.kind, ev.code);
	r = tracee_wait(-1, 0, &ev);
	CHECK(r == thread && tracee_ended(&ev), "thread: %d", (int)r);
}

int main(void)
{
	signal(SIGALRM, on_alarm);
	alarm(20);
	plain();
	exit_stops();
	return check_exit();
}
