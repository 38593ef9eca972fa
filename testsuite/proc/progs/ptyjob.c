/* A terminal and a shell's job control, for the tests of what a user
 * types at the terminal: ptyjob JOBS LOG CMD ARGS...
 *
 * It opens a pseudo-terminal and starts a controller in a new session
 * whose controlling terminal is the pty's slave (setsid, TIOCSCTTY).
 * The controller, as a shell with job control, runs CMD as a job: a
 * process group of its own (setpgid) made the terminal's foreground
 * group (tcsetpgrp) before it execs.  What ptyjob reads on its standard
 * input it writes to the master, as typed keys (\x03 is Ctrl-C, \x1c
 * Ctrl-\, \x1a Ctrl-Z: the line discipline sends SIGINT, SIGQUIT,
 * SIGTSTP to the foreground group); what the terminal shows goes to
 * LOG.
 *
 * The controller appends to JOBS "ctl PID" and "job PGID" when the job
 * starts, then what waitpid(WUNTRACED | WCONTINUED) says of CMD's
 * process: "stopped SIG", "continued", "exited STATUS", "killed SIG".
 * When the job stops it takes the terminal back; SIGUSR1 to it is `fg`:
 * it gives the terminal to the job and sends SIGCONT to its group.
 * The group is not orphaned (the controller, its parent, is in the same
 * session), so the kernel does not discard its SIGTSTP.
 *
 * At the end of its input ptyjob closes the master: the hangup ends the
 * controller (SIGHUP) and anything left in the foreground group. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static volatile sig_atomic_t fg_asked;

static void on_usr1(int sig)
{
	(void)sig;
	fg_asked = 1;
}

static void note(const char *jobs, const char *fmt, long v)
{
	FILE *f = fopen(jobs, "a");
	if (!f)
		exit(5);
	fprintf(f, fmt, v);
	fputc('\n', f);
	fclose(f);
}

/* The job: its own group, the terminal's foreground once the
 * controller says so (a byte on GO), default signal actions, the
 * terminal as its standard streams. */
static void run_job(int slave, int go, char **cmd)
{
	char c;
	setpgid(0, 0);
	if (read(go, &c, 1) != 1)
		_exit(126);
	close(go);
	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	dup2(slave, 0);
	dup2(slave, 1);
	dup2(slave, 2);
	if (slave > 2)
		close(slave);
	execvp(cmd[0], cmd);
	perror(cmd[0]);
	_exit(127);
}

/* Report each change of the job; `fg` when asked.  Returns when the
 * job's process has ended. */
static void watch(const char *jobs, int slave, pid_t job)
{
	for (;;) {
		int st;
		if (fg_asked) {
			fg_asked = 0;
			tcsetpgrp(slave, job);
			kill(-job, SIGCONT);
		}
		pid_t r = waitpid(job, &st, WUNTRACED | WCONTINUED);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return;
		if (WIFSTOPPED(st)) {
			tcsetpgrp(slave, getpgrp());
			note(jobs, "stopped %ld", WSTOPSIG(st));
		} else if (WIFCONTINUED(st)) {
			note(jobs, "continued", 0);
		} else if (WIFEXITED(st)) {
			note(jobs, "exited %ld", WEXITSTATUS(st));
			return;
		} else if (WIFSIGNALED(st)) {
			note(jobs, "killed %ld", WTERMSIG(st));
			return;
		}
	}
}

static void controller(const char *jobs, int slave, char **cmd)
{
	if (setsid() < 0 || ioctl(slave, TIOCSCTTY, 0) < 0)
		exit(5);
	/* A shell's own dispositions: the terminal's signals are the
	 * job's, and taking the terminal back from the background must
	 * not stop it. */
	signal(SIGTTOU, SIG_IGN);
	signal(SIGTTIN, SIG_IGN);
	signal(SIGTSTP, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGHUP, SIG_DFL);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	int go[2];
	if (pipe(go))
		exit(5);
	pid_t job = fork();
	if (job < 0)
		exit(5);
	if (job == 0) {
		close(go[1]);
		run_job(slave, go[0], cmd);
	}
	close(go[0]);
	setpgid(job, job);
	tcsetpgrp(slave, job);
	note(jobs, "ctl %ld", getpid());
	note(jobs, "job %ld", job);
	if (write(go[1], "g", 1) != 1)
		exit(5);
	close(go[1]);
	watch(jobs, slave, job);
	/* Until the hangup (SIGHUP) when ptyjob closes the master. */
	for (;;)
		pause();
}

/* Copy the input to the master and the master to LOG until the input
 * ends.  The slave stays open here: the master never reports a hangup
 * before the job opens it or after it closes it. */
static void relay(int master, int log)
{
	char buf[4096];
	struct pollfd p[2] = { { 0, POLLIN, 0 }, { master, POLLIN, 0 } };
	for (;;) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (p[1].revents & POLLIN) {
			ssize_t n = read(master, buf, sizeof(buf));
			if (n > 0 && write(log, buf, (size_t)n) != n)
				return;
		}
		if (p[0].revents & (POLLIN | POLLHUP)) {
			ssize_t n = read(0, buf, sizeof(buf));
			if (n <= 0)
				return;
			if (write(master, buf, (size_t)n) != n)
				return;
		}
	}
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: ptyjob JOBS LOG CMD ARGS...\n");
		return 2;
	}
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master))
		return 5;
	char *slave_name = ptsname(master);
	int slave = slave_name ? open(slave_name, O_RDWR | O_NOCTTY) : -1;
	int log = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (slave < 0 || log < 0)
		return 5;
	pid_t ctl = fork();
	if (ctl < 0)
		return 5;
	if (ctl == 0) {
		close(master);
		close(log);
		controller(argv[1], slave, argv + 3);
	}
	relay(master, log);
	close(master);
	int st;
	waitpid(ctl, &st, 0);
	return 0;
}
