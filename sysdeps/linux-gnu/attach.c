#include "attach.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "adopt.h"
#include "arch.h"
#include "backend.h"
#include "bpt.h"
#include "elfscan.h"
#include "error.h"
#include "fast.h"
#include "bptmem.h"
#include "options.h"
#include "output.h"
#include "proc.h"
#include "procfs.h"
#include "retbp.h"
#include "rtld.h"
#include "scratch.h"
#include "tracee.h"

static pid_t launched;

pid_t attach_launched_pid(void)
{
	return launched;
}

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

/* The child ended before its exec: so does the tracer, with its status
 * (a failed execve's 127, or 128+N when signal N killed it). */
static void ended_before_exec(pid_t pid, const struct tracee_event *ev)
{
	if (ev->kind == TRACEE_EXITED)
		exit(ev->code);
	output_killed(pid, pid, ev->sig);
	output_finish();
	exit(128 + ev->sig);
}

/* Let the seized child run into its exec; if it ends first, so does the
 * tracer.  A signal on the way is delivered: an execve that fails past
 * its point of no return (a truncated program) raises SIGSEGV, which
 * must kill the child as it would untraced, not fault again forever. */
static void run_to_exec(const struct options *o, pid_t pid, const char *path)
{
	for (;;) {
		struct tracee_event ev;
		if (tracee_wait(pid, 0, &ev) != pid)
			perror_msg_and_die("waitpid");
		if (tracee_ended(&ev))
			ended_before_exec(pid, &ev);
		if (ev.kind == TRACEE_EXEC)
			return;
		int sig = ev.kind == TRACEE_SIGNAL ? ev.sig : 0;
		/* Not the SIGCONT of backend_launch, which is ours. */
		if (sig && sig != SIGCONT && !o->no_signals)
			output_signal(pid, pid, sig);
		/* ESRCH: the next wait reports its end. */
		int rc = tracee_cont(pid, sig);
		if (rc && rc != -ESRCH)
			error_msg_and_die("'%s' did not start", path);
	}
}

/* Seize the stopped child, let it run into its exec, set it up. */
int backend_launch(const struct options *o, const char *path, char **argv)
{
	if (o->user && geteuid() != 0)
		error_msg_and_die("you must be root to use the -u option");
	pid_t pid = fork_stopped(o, path, argv);
	/* Not traced yet: a plain job-control stop. */
	int st;
	if (waitpid(pid, &st, WSTOPPED) != pid || !WIFSTOPPED(st))
		error_msg_and_die("'%s' did not start", path);
	int rc = tracee_seize(pid, true);
	if (rc) {
		errno = -rc;
		perror_msg_and_die("PTRACE_SEIZE of %d", (int)pid);
	}
	kill(pid, SIGCONT);
	run_to_exec(o, pid, path);
	launched = pid;
	struct task *t = task_new(pid, process_new(pid));
	bptmem_setup(t);
	rtld_setup_exec(t);
	tracee_resume(t, 0);
	return pid;
}

static bool is_script(const char *path)
{
	char magic[2];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool script = fd >= 0 && read(fd, magic, 2) == 2 && magic[0] == '#' &&
		      magic[1] == '!';
	if (fd >= 0)
		close(fd);
	return script;
}

int backend_check_program(const char *path)
{
	struct stat sb;
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
	if (is_script(path))
		return 0;
	struct elf_image img;
	memset(&img, 0, sizeof(img));
	char err[256];
	if (elf_image_read_shape(&img, path, err, sizeof(err)) < 0) {
		error_msg("cannot trace '%s': %s", path, err);
		return -1;
	}
	elf_image_destroy(&img);
	return 0;
}

/* ---- attaching ---- */

static int yama_scope(void)
{
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
	if (!f)
		return 0;
	int v = 0;
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/* Say why PTRACE_SEIZE of PID failed with ERR, in one line. */
static void explain_attach_failure(pid_t pid, int err)
{
	long tracer = procfs_status_field(pid, "TracerPid", 10);
	if (err == ESRCH) {
		error_msg("cannot attach to pid %d: No such process", (int)pid);
	} else if (err == EPERM && tracer > 0) {
		char comm[64];
		procfs_comm((pid_t)tracer, comm, sizeof(comm));
		error_msg("cannot attach to pid %d: already traced by process "
			  "%ld (%s)",
			  (int)pid, tracer, comm);
	} else if (err == EPERM && yama_scope() == 3) {
		error_msg("cannot attach to pid %d: ptrace is disabled "
			  "(kernel.yama.ptrace_scope = 3)",
			  (int)pid);
	} else if (err == EPERM && yama_scope() >= 1 && geteuid() != 0) {
		error_msg("cannot attach to pid %d: kernel.yama.ptrace_scope = "
			  "%d allows tracing only descendants; run as root "
			  "or set it to 0",
			  (int)pid, yama_scope());
	} else if (err == EPERM) {
		error_msg("cannot attach to pid %d: Operation not permitted "
			  "(another user's process, or CAP_SYS_PTRACE is "
			  "missing)",
			  (int)pid);
	} else {
		errno = err;
		perror_msg("cannot attach to pid %d", (int)pid);
	}
}

/* Wait for the stop that PTRACE_INTERRUPT asked of T.  A signal it stops
 * with first is kept for delivery.  Returns 0, or -errno after letting
 * T go. */
static int wait_interrupt(struct task *t)
{
	for (;;) {
		struct tracee_event ev;
		if (tracee_wait(t->tid, 0, &ev) != t->tid ||
		    tracee_ended(&ev)) {
			task_drop(t);
			return -ESRCH;
		}
		if (ev.kind == TRACEE_EXIT) {
			/* Exiting (--fast): let it go as it is, nothing of
			 * ours in it yet.  Resumed here, a leader's end would
			 * wait for the other threads', and they at theirs. */
			tracee_detach(t->tid, 0);
			task_drop(t);
			return -ESRCH;
		}
		if (ev.kind == TRACEE_EVENT_STOP ||
		    ev.kind == TRACEE_GROUP_STOP) {
			fast_stopped(t);
			return 0;
		}
		if (ev.kind == TRACEE_SIGNAL)
			tracee_set_pending_signal(t, ev.sig);
		/* ESRCH: the next wait reports its end. */
		int rc = tracee_cont(t->tid, 0);
		if (rc && rc != -ESRCH) {
			tracee_detach(t->tid, 0);
			task_drop(t);
			return rc;
		}
	}
}

/* Seize and interrupt TID; wait for its stop. */
static int seize_one(struct process *p, pid_t tid)
{
	int rc = tracee_seize(tid, false);
	if (rc)
		return rc;
	/* ESRCH: the wait reports its end. */
	rc = tracee_interrupt(tid);
	if (rc && rc != -ESRCH) {
		tracee_detach(tid, 0);
		return rc;
	}
	return wait_interrupt(task_new(tid, p));
}

/* Seize every thread listed in /proc/PID/task until a pass finds none
 * new (threads may be created while we attach). */
static int seize_threads(struct process *p)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)p->pid);
	bool fresh = true;
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
	tracee_detach(t->tid, tracee_take_pending_signal(t));
	task_drop(t);
}

static void resume_one(struct task *t, void *data)
{
	if (t->proc == data)
		tracee_resume(t, 0);
}

int backend_attach(pid_t pid)
{
	if (procfs_status_field(pid, "Tgid", 10) != pid) {
		if (kill(pid, 0) && errno == ESRCH)
			explain_attach_failure(pid, ESRCH);
		else
			error_msg("cannot attach to pid %d: not a process "
				  "(a thread id?)",
				  (int)pid);
		return -1;
	}
	struct process *p = process_new(pid);
	int rc = seize_threads(p);
	if (rc) {
		explain_attach_failure(pid, -rc);
		task_foreach(release_one, p);
		return -1;
	}
	struct task *leader = task_lookup(pid);
	bptmem_setup(leader);
	rtld_setup_attach(leader);
	task_foreach(resume_one, p);
	return 0;
}

/* ---- detaching ---- */

static void interrupt_one(struct task *t, void *data)
{
	(void)data;
	t->stopped = false;
	t->detach_sig = tracee_take_pending_signal(t);
	/* On failure collect_stops sees the task end, or stops waiting. */
	(void)tracee_interrupt(t->tid);
}

/* A new task reported during the detach: a thread of a known process is
 * detached with the rest; a fork child gets its copy of our breakpoints
 * removed and is let go at once. */
static void note_new(pid_t tid)
{
	pid_t tgid = (pid_t)procfs_status_field(tid, "Tgid", 10);
	struct task *t = task_lookup(tgid);
	if (t && t->proc) {
		t = task_new(tid, t->proc);
		t->stopped = true;
		return;
	}
	t = task_lookup((pid_t)procfs_status_field(tid, "PPid", 10));
	if (t && t->proc)
		adopt_release_fork_child(tid, process_mem(t->proc));
	else
		tracee_detach(tid, 0);
}

/* A signal T stopped with during the detach, or kept for it: the first
 * goes with the detach, any other is sent again after it. */
static void keep_signal(struct task *t, int sig)
{
	if (fast_fault(t, sig))
		return; /* the recorder's: T is past it, no signal */
	if (sig == SIGTRAP && fast_trap_stop(t))
		return; /* the recorder's: fast_detach handles it */
	if (!t->detach_sig)
		t->detach_sig = sig;
	else
		tracee_set_pending_signal(t, sig);
}

/* Whether T's SIGTRAP stop is one of our breakpoints': a breakpoint's
 * trap (ARCH_BREAKPOINT_SI_CODE) where one of ours leaves the IP, in
 * place or lifted since.  Anything else (the program's own breakpoint
 * instruction, raise, a kill) is the program's. */
static bool our_trap_stop(struct task *t)
{
	struct arch_regs r;
	if (!t->proc || !tracee_trapped(t->tid) || tracee_get_regs(t->tid, &r))
		return false;
	uint64_t at = arch_ip(&r) - ARCH_DECR_PC_AFTER_BREAK;
	const struct breakpoint *b =
		bpt_lookup(&process_mem(t->proc)->bpts, at);
	return b && (b->inserted || bptmem_lifted(b));
}

static void note_report(pid_t tid, const struct tracee_event *ev)
{
	struct task *t = task_lookup(tid);
	if (!t) {
		if (!tracee_ended(ev))
			note_new(tid);
		return;
	}
	if (tracee_ended(ev)) {
		task_drop(t);
		return;
	}
	t->stopped = true;
	if (ev->kind == TRACEE_EXEC) {
		/* A new program: nothing of ours is left in it. */
		process_reset_exec(t->proc);
	} else if (ev->kind == TRACEE_SIGNAL &&
		   (ev->sig != SIGTRAP || !our_trap_stop(t))) {
		keep_signal(t, ev->sig);
	}
}

/* A task /proc shows in a ptrace-stop may have a report not yet
 * consumed: one that came after collect_stops' last waitpid (a
 * signal-delivery stop of the SIGINT the whole group got, say).  Its
 * report is consumed first, or the detach would drop that signal.  The
 * kernel sets the state and the report's code under one lock, so a
 * waitpid after /proc said 't' sees the report if there is one. */
static void check_stopped(struct task *t, void *data)
{
	int *left = data;
	if (!t->stopped && procfs_state(t->tid) == 't') {
		struct tracee_event ev;
		pid_t tid = t->tid;
		if (tracee_wait(tid, WNOHANG, &ev) == tid) {
			note_report(tid, &ev); /* may drop T */
			(*left)++;	       /* another pass looks again */
			return;
		}
		t->stopped = true;
	}
	if (!t->stopped)
		(*left)++;
}

/* Consume stop reports until every task is known to be stopped.  A
 * task stopped before the detach began (the one the loop was handling
 * when the tracer died, a new clone waiting for its parent's report)
 * gives no new report, so /proc/TID/stat is checked too. */
static void collect_stops(void)
{
	for (int tries = 0; tries < 2000; tries++) {
		struct tracee_event ev;
		pid_t tid = tracee_wait(-1, WNOHANG, &ev);
		if (tid > 0) {
			note_report(tid, &ev);
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

/* True when TID has SIGTRAP pending (SigPnd of /proc/TID/status) and
 * not blocked: then a resume takes it at once (a breakpoint's trap,
 * forced, is never blocked). */
static bool trap_pending(pid_t tid)
{
	unsigned long bit = 1UL << (SIGTRAP - 1);
	unsigned long pnd = procfs_status_field(tid, "SigPnd", 16);
	unsigned long blk = procfs_status_field(tid, "SigBlk", 16);
	return pnd != (unsigned long)-1 && blk != (unsigned long)-1 &&
	       (pnd & bit) && !(blk & bit);
}

/* A thread interrupted right after it executed a breakpoint
 * instruction still has the trap's SIGTRAP queued.  Let it reach the
 * signal-delivery stop (pending signals are taken before any
 * instruction runs), keeping any other signal taken on the way.
 * Returns whether that SIGTRAP is a breakpoint's
 * (ARCH_BREAKPOINT_SI_CODE), which the detach discards; the program's own (kill,
 * tgkill: SI_USER, SI_TKILL) is kept for it. */
static bool take_pending_trap(struct task *t)
{
	for (int i = 0; i < 8 && trap_pending(t->tid); i++) {
		struct tracee_event ev;
		if (tracee_cont(t->tid, 0) ||
		    tracee_wait(t->tid, 0, &ev) != t->tid || tracee_ended(&ev))
			return false;
		if (ev.kind == TRACEE_EXIT) {
			/* At its exit stop (--fast): left there, for the
			 * detach (as wait_trap leaves it). */
			tracee_put_back(t->tid);
			return false;
		}
		if (ev.kind != TRACEE_SIGNAL)
			continue;
		if (ev.sig == SIGTRAP && tracee_trapped(t->tid))
			return true;
		keep_signal(t, ev.sig);
	}
	return false;
}

/* Whether T, stopped with its IP where B's trap leaves it, got there by
 * executing B: its trap's SIGTRAP is being delivered, or is still
 * pending (then taken here).  Where a thread can be there otherwise
 * (retbp_ip_ambiguous: a one-byte instruction under B on x86_64, run
 * displaced or stepped, comes back to the same IP and must not run
 * again) only that SIGTRAP tells, never a SIGTRAP someone sent (a kill:
 * kept). */
static bool trapped_at(struct task *t, const struct breakpoint *b)
{
	if (tracee_trapped(t->tid))
		return true;
	return take_pending_trap(t) || !retbp_ip_ambiguous(b);
}

/* Whether T, stopped with its IP where B's trap leaves it, which is no longer in
 * place, had hit it before it was lifted: only a trap of the CPU tells,
 * delivered or still pending. */
static bool trapped_lifted(struct task *t, const struct breakpoint *b)
{
	return bptmem_lifted(b) &&
	       (tracee_trapped(t->tid) || take_pending_trap(t));
}

/* Leave the task at a valid instruction of its own code: back onto the
 * instruction under a breakpoint it has just hit, or out of a displaced
 * copy by stepping through it.  A trap still pending anywhere else is
 * the program's (its own breakpoint instruction just run): taken now and kept for it, or
 * the system calls injected next would take it for theirs. */
static void rewind_one(struct task *t, void *data)
{
	(void)data;
	struct arch_regs r;
	if (!t->stopped || !t->proc || tracee_get_regs(t->tid, &r))
		return;
	struct process *p = process_mem(t->proc);
	uint64_t at = arch_ip(&r) - ARCH_DECR_PC_AFTER_BREAK;
	struct breakpoint *b = bpt_lookup(&p->bpts, at);
	if (b && (b->inserted ? trapped_at(t, b) : trapped_lifted(t, b))) {
		arch_set_ip(&r, at);
		if (tracee_set_regs(t->tid, &r))
			return;
	} else if (!tracee_trapped(t->tid) && take_pending_trap(t)) {
		keep_signal(t, SIGTRAP);
	}
	/* In a displaced system call, or before it: the same place in its
	 * own code, whose bytes are put back before it runs again (a step
	 * could block for ever); a restart the kernel makes there runs the
	 * original instruction. */
	bool again;
	uint64_t home = retbp_syscall_home(p, &r, &again);
	if (home) {
		arch_set_ip(&r, home);
		(void)tracee_set_regs(t->tid, &r);
		return;
	}
	for (int i = 0; i < 64 && scratch_contains(p, arch_ip(&r)); i++) {
		if (tracee_step_trap(t) || tracee_get_regs(t->tid, &r))
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
 * pages, with system calls run from the bytes at a stopped thread's IP
 * (the scratch page itself is going away). */
static void restore_process(struct process *p)
{
	if (p->vfork_parent || p->procmem < 0)
		return;
	fast_detach(p);
	bptmem_restore_bytes(&p->bpts, p->procmem, BPTMEM_INSERTED);
	struct find f = { p, NULL };
	task_foreach(find_stopped, &f);
	struct arch_regs r;
	if (!f.found || tracee_get_regs(f.found->tid, &r))
		return;
	/* The recorder's region first: its munmap runs from the scratch
	 * page's syscall instruction, as injected calls do while tracing. */
	fast_unmap(f.found, &r);
	scratch_unmap(f.found, &r);
	/* Reported if unexpected; the detach follows either way. */
	(void)tracee_set_regs(f.found->tid, &r);
}

/* Detach T with the signal it stopped with; a signal kept besides goes
 * to the thread again, now untraced (tgkill: the program's handler sees
 * SI_TKILL where it would have seen the original sender).  At an event
 * stop (an interrupt's), where the kernel drops the signal a detach
 * gives, the first one is sent so too. */
static void detach_one(struct task *t, void *data)
{
	(void)data;
	int sig = t->detach_sig ? t->detach_sig : tracee_take_pending_signal(t);
	pid_t tgid = t->proc ? t->proc->pid : t->tid;
	bool late = sig && !tracee_takes_signal(t->tid);
	tracee_detach(t->tid, late ? 0 : sig);
	if (late)
		(void)syscall(SYS_tgkill, tgid, t->tid, sig); /* ESRCH: gone */
	while ((sig = tracee_take_pending_signal(t)))
		(void)syscall(SYS_tgkill, tgid, t->tid, sig); /* ESRCH: gone */
	task_drop(t);
}

void attach_detach_all(void)
{
	/* A step out of scratch must end before the scratch goes. */
	tracee_set_cut_count(NULL);
	task_foreach(interrupt_one, NULL);
	collect_stops();
	task_foreach(rewind_one, NULL);
	for (struct process *p = process_first(); p; p = p->next)
		restore_process(p);
	task_foreach(detach_one, NULL);
}

void backend_cleanup(void)
{
	attach_detach_all();
}
