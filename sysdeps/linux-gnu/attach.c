/* Starting and stopping to trace: launching a program, attaching to a
 * running process (-p), and detaching from everything cleanly. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "bpt.h"
#include "elfscan.h"
#include "error.h"
#include "linux.h"
#include "mem.h"
#include "options.h"
#include "output.h"
#include "proc.h"
#include "xmalloc.h"

#define TRACE_OPTIONS (PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK | \
		       PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | \
		       PTRACE_O_TRACEEXEC)

/* ---- launching ---- */

/* -u USER: the user's uid, gid and groups, as ltrace does (root only). */
static void become_user(const char *user)
{
	struct passwd *pw = getpwnam(user);
	if (!pw) {
		fprintf(stderr, "ltrace: cannot find user '%s'\n", user);
		_exit(127);
	}
	if (initgroups(user, pw->pw_gid) || setgid(pw->pw_gid) ||
	    setuid(pw->pw_uid)) {
		fprintf(stderr, "ltrace: cannot become user '%s': %s\n", user,
			strerror(errno));
		_exit(127);
	}
}

static pid_t fork_stopped(const struct options *o, const char *path,
			  char **argv)
{
	pid_t pid = fork();
	if (pid < 0)
		perror_msg_and_die("fork");
	if (pid == 0) {
		if (o->user)
			become_user(o->user);
		kill(getpid(), SIGSTOP);
		execv(path, argv);
		fprintf(stderr, "ltrace: cannot execute '%s': %s\n", path,
			strerror(errno));
		_exit(127);
	}
	return pid;
}

/* Seize the stopped child, let it run into its exec, set it up. */
int backend_launch(const struct options *o, const char *path, char **argv)
{
	int st;
	if (o->user && geteuid() != 0)
		error_msg_and_die("you must be root to use the -u option");
	pid_t pid = fork_stopped(o, path, argv);
	if (waitpid(pid, &st, WSTOPPED) != pid || !WIFSTOPPED(st))
		error_msg_and_die("'%s' did not start", path);
	if (ptrace(PTRACE_SEIZE, pid, 0, TRACE_OPTIONS | PTRACE_O_EXITKILL))
		perror_msg_and_die("PTRACE_SEIZE of %d", (int)pid);
	kill(pid, SIGCONT);
	for (;;) {
		if (waitpid(pid, &st, __WALL) != pid)
			perror_msg_and_die("waitpid");
		if (WIFEXITED(st) || WIFSIGNALED(st))
			exit(WIFEXITED(st) ? WEXITSTATUS(st) : 1);
		if ((st >> 16) == PTRACE_EVENT_EXEC)
			break;
		ptrace(PTRACE_CONT, pid, 0, 0);
	}
	trace_main_pid = pid;
	struct task *t = task_new(pid, process_new(pid));
	trace_setup_image(t);
	trace_resume(t, 0);
	return pid;
}

int backend_check_program(const char *path)
{
	struct stat sb;
	char err[256];
	if (stat(path, &sb)) {
		perror_msg("cannot run '%s'", path);
		return -1;
	}
	if (S_ISDIR(sb.st_mode)) {
		error_msg("cannot run '%s': Is a directory", path);
		return -1;
	}
	if (access(path, X_OK)) {
		perror_msg("cannot run '%s'", path);
		return -1;
	}
	/* A script runs its interpreter: the exec shows what to trace. */
	char magic[2];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool script = fd >= 0 && read(fd, magic, 2) == 2 &&
		      magic[0] == '#' && magic[1] == '!';
	if (fd >= 0)
		close(fd);
	if (script)
		return 0;
	struct elf_image img;
	memset(&img, 0, sizeof(img));
	if (elf_image_read(&img, path, err, sizeof(err)) < 0) {
		error_msg("cannot trace '%s': %s", path, err);
		return -1;
	}
	elf_image_destroy(&img);
	return 0;
}

/* ---- attaching ---- */

static void read_comm(pid_t pid, char *buf, size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static int yama_scope(void)
{
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
	int v = 0;
	if (!f)
		return 0;
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/* Say why PTRACE_SEIZE of PID failed with ERR, in one line. */
static void explain_attach_failure(pid_t pid, int err)
{
	char comm[64];
	long tracer = proc_status_field(pid, "TracerPid", 10);
	if (err == ESRCH) {
		error_msg("cannot attach to pid %d: No such process", (int)pid);
	} else if (err == EPERM && tracer > 0) {
		read_comm((pid_t)tracer, comm, sizeof(comm));
		error_msg("cannot attach to pid %d: already traced by process "
			  "%ld (%s)", (int)pid, tracer, comm);
	} else if (err == EPERM && yama_scope() == 3) {
		error_msg("cannot attach to pid %d: ptrace is disabled "
			  "(kernel.yama.ptrace_scope = 3)", (int)pid);
	} else if (err == EPERM && yama_scope() >= 1 && geteuid() != 0) {
		error_msg("cannot attach to pid %d: kernel.yama.ptrace_scope = "
			  "%d allows tracing only descendants; run as root "
			  "or set it to 0", (int)pid, yama_scope());
	} else if (err == EPERM) {
		error_msg("cannot attach to pid %d: Operation not permitted "
			  "(another user's process, or CAP_SYS_PTRACE is "
			  "missing)", (int)pid);
	} else {
		errno = err;
		perror_msg("cannot attach to pid %d", (int)pid);
	}
}

/* Seize and interrupt TID; wait for its stop.  A signal it stops with
 * first is kept for delivery. */
static int seize_one(struct process *p, pid_t tid)
{
	if (ptrace(PTRACE_SEIZE, tid, 0, TRACE_OPTIONS))
		return -errno;
	ptrace(PTRACE_INTERRUPT, tid, 0, 0);
	struct task *t = task_new(tid, p);
	for (;;) {
		int st;
		if (waitpid(tid, &st, __WALL) != tid || !WIFSTOPPED(st)) {
			task_drop(t);
			return -ESRCH;
		}
		if ((st >> 16) == PTRACE_EVENT_STOP)
			return 0;
		if ((st >> 16) == 0)
			task_set_pending_signal(t, WSTOPSIG(st));
		ptrace(PTRACE_CONT, tid, 0, 0);
	}
}

/* Seize every thread listed in /proc/PID/task until a pass finds none
 * new (threads may be created while we attach). */
static int seize_threads(struct process *p)
{
	char path[64];
	bool fresh = true;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)p->pid);
	while (fresh) {
		fresh = false;
		DIR *d = opendir(path);
		if (!d)
			return -ESRCH;
		struct dirent *e;
		while ((e = readdir(d))) {
			pid_t tid = atoi(e->d_name);
			if (tid <= 0 || task_lookup(tid))
				continue;
			int rc = seize_one(p, tid);
			if (rc && tid == p->pid) {
				closedir(d);
				return rc;
			}
			fresh = true;
		}
		closedir(d);
	}
	return 0;
}

static void release_one(struct task *t, void *data)
{
	if (t->proc != data)
		return;
	ptrace(PTRACE_DETACH, t->tid, 0, task_take_pending_signal(t));
	task_drop(t);
}

static void resume_one(struct task *t, void *data)
{
	if (t->proc == data)
		trace_resume(t, 0);
}

int backend_attach(pid_t pid)
{
	if (proc_status_field(pid, "Tgid", 10) != pid) {
		if (kill(pid, 0) && errno == ESRCH)
			explain_attach_failure(pid, ESRCH);
		else
			error_msg("cannot attach to pid %d: not a process "
				  "(a thread id?)", (int)pid);
		return -1;
	}
	struct process *p = process_new(pid);
	int rc = seize_threads(p);
	if (rc) {
		explain_attach_failure(pid, -rc);
		task_foreach(release_one, p);
		return -1;
	}
	trace_setup_image(task_lookup(pid));
	task_foreach(resume_one, p);
	return 0;
}

/* ---- detaching ---- */

static void interrupt_one(struct task *t, void *data)
{
	(void)data;
	t->stopped = false;
	t->detach_sig = task_take_pending_signal(t);
	ptrace(PTRACE_INTERRUPT, t->tid, 0, 0);
}

/* A new task reported during the detach: a thread of a known process is
 * detached with the rest; a fork child gets its copy of our breakpoints
 * removed and is let go at once. */
static void note_new(pid_t tid)
{
	struct task *t = task_lookup((pid_t)proc_status_field(tid, "Tgid", 10));
	if (t && t->proc) {
		t = task_new(tid, t->proc);
		t->stopped = true;
		return;
	}
	t = task_lookup((pid_t)proc_status_field(tid, "PPid", 10));
	if (t && t->proc)
		trace_release_fork_child(tid, process_mem(t->proc));
	else
		ptrace(PTRACE_DETACH, tid, 0, 0);
}

static void note_report(pid_t tid, int st)
{
	struct task *t = task_lookup(tid);
	if (!t) {
		if (WIFSTOPPED(st))
			note_new(tid);
		return;
	}
	if (!WIFSTOPPED(st)) {
		task_drop(t);
		return;
	}
	t->stopped = true;
	int event = st >> 16, sig = WSTOPSIG(st);
	if (event == PTRACE_EVENT_EXEC) {
		/* A new image: nothing of ours is left in it. */
		process_reset_image(t->proc);
	} else if (event == 0 && sig != SIGTRAP && !t->detach_sig) {
		t->detach_sig = sig;
	}
}

static char proc_state(pid_t tid)
{
	char path[64], buf[256];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	char *paren = strrchr(buf, ')');
	return paren && paren[1] ? paren[2] : 0;
}

static void check_stopped(struct task *t, void *data)
{
	int *left = data;
	if (!t->stopped && proc_state(t->tid) == 't')
		t->stopped = true;
	if (!t->stopped)
		(*left)++;
}

/* Consume stop reports until every task is known to be stopped.  A
 * report may have been consumed by the interrupted event loop, so
 * /proc/TID/stat is checked too. */
static void collect_stops(void)
{
	for (int tries = 0; tries < 2000; tries++) {
		int st;
		pid_t tid = waitpid(-1, &st, __WALL | WNOHANG);
		if (tid > 0) {
			note_report(tid, st);
			continue;
		}
		int left = 0;
		task_foreach(check_stopped, &left);
		if (!left)
			return;
		struct timespec ms = { 0, 1000000 };
		nanosleep(&ms, NULL);
	}
}

static bool in_scratch(const struct process *p, uint64_t ip)
{
	for (size_t i = 0; i < p->nscratch; i++)
		if (ip >= p->scratch[i].base &&
		    ip < p->scratch[i].base + p->scratch[i].size)
			return true;
	return false;
}

/* True when TID has SIGTRAP pending (SigPnd of /proc/TID/status). */
static bool trap_pending(pid_t tid)
{
	unsigned long mask = proc_status_field(tid, "SigPnd", 16);
	return mask != (unsigned long)-1 && (mask & (1UL << (SIGTRAP - 1)));
}

/* A thread interrupted right after it executed one of our int3s still has
 * the trap's SIGTRAP queued: once detached it would die of it.  Let it
 * reach the signal-delivery stop (before any instruction runs) and leave
 * it there: the detach discards the signal. */
static void drop_pending_trap(struct task *t)
{
	if (!trap_pending(t->tid))
		return;
	int st;
	if (ptrace(PTRACE_CONT, t->tid, 0, 0) == 0 &&
	    waitpid(t->tid, &st, __WALL) == t->tid && WIFSTOPPED(st) &&
	    WSTOPSIG(st) != SIGTRAP && (st >> 16) == 0 && !t->detach_sig)
		t->detach_sig = WSTOPSIG(st);
}

/* Leave the task at a valid instruction of its own code: back onto the
 * instruction under a breakpoint it has just hit, or out of a displaced
 * copy by stepping through it. */
static void rewind_one(struct task *t, void *data)
{
	(void)data;
	struct process *p = process_mem(t->proc);
	struct arch_regs r;
	if (!t->stopped || trace_get_regs(t->tid, &r))
		return;
	uint64_t at = arch_ip(&r) - ARCH_DECR_PC_AFTER_BREAK;
	struct breakpoint *b = bpt_lookup(&p->bpts, at);
	if (b && b->inserted) {
		arch_set_ip(&r, at);
		trace_set_regs(t->tid, &r);
		drop_pending_trap(t);
	}
	for (int i = 0; i < 64 && in_scratch(p, arch_ip(&r)); i++) {
		if (ptrace(PTRACE_SINGLESTEP, t->tid, 0, 0) ||
		    trace_wait_trap(t) || trace_get_regs(t->tid, &r))
			break;
	}
}

struct find {
	struct process *want;
	struct task *found;
};

static void find_stopped(struct task *t, void *data)
{
	struct find *f = data;
	if (!f->found && t->stopped && t->proc &&
	    process_mem(t->proc) == f->want)
		f->found = t;
}

/* Put back every byte we changed in P's memory and unmap its scratch
 * pages, with a system call run from the bytes at a stopped thread's IP
 * (the scratch page itself is going away). */
static void restore_process(struct process *p)
{
	if (p->vfork_parent || p->memfd < 0)
		return;
	trace_restore_bytes(&p->bpts, p->memfd);
	struct find f = { p, NULL };
	task_foreach(find_stopped, &f);
	struct task *t = f.found;
	struct arch_regs r;
	if (!t || trace_get_regs(t->tid, &r))
		return;
	p->syscall_insn = 0;
	for (size_t i = 0; i < p->nscratch; i++) {
		long args[6] = { (long)p->scratch[i].base,
				 (long)p->scratch[i].size, 0, 0, 0, 0 };
		long ret;
		inject_syscall(t, &r, SYS_munmap, args, &ret);
	}
	p->nscratch = 0;
	trace_set_regs(t->tid, &r);
}

static void detach_one(struct task *t, void *data)
{
	(void)data;
	int sig = t->detach_sig ? t->detach_sig : task_take_pending_signal(t);
	ptrace(PTRACE_DETACH, t->tid, 0, sig);
	task_drop(t);
}

void trace_detach_all(void)
{
	task_foreach(interrupt_one, NULL);
	collect_stops();
	task_foreach(rewind_one, NULL);
	for (struct process *p = process_first(); p; p = p->next)
		restore_process(p);
	task_foreach(detach_one, NULL);
}

void backend_cleanup(void)
{
	trace_detach_all();
}
