/* Unit test of the trace writer (ltrace/output.c): a call line left open
 * and finished on the same line, or cut by another line as
 * "<unfinished ...>" and finished as "<... name resumed>"; the ", "
 * between the arguments shown at entry and at return; the -a column,
 * also when the start of the line was already written out, counted in
 * display width for UTF-8 text; the pid
 * prefixes; and when output_sync writes.
 *
 * output.c keeps one writer per process, so each case plays its calls in
 * a child process writing to a pipe, and the parent compares the whole
 * text. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "options.h"
#include "output.h"

/* How the writer is set up, as main.c does from the options. */
struct writer {
	int align;	 /* -a */
	bool to_file;	 /* -o FILE */
	bool pid_prefix; /* -f, or several -p */
	bool eager;	 /* output shared with the tracee */
};

static const struct writer plain = { 0 };
static const struct writer aligned = { .align = 24 };
static const struct writer tasks = { .pid_prefix = true };
static const struct writer tasks_file = { .pid_prefix = true, .to_file = true };

/* Call ID of task TID, with no prefix fields (-i, -n, -T) set. */
static const struct output_call *call(pid_t tid, unsigned long id)
{
	static struct output_call c;
	c = (struct output_call){ .tid = tid, .id = id };
	return &c;
}

/* The write end of the pipe, for cases that write around the writer. */
static int trace_fd;

static void play(const struct writer *w, void (*calls)(void), int fd)
{
	trace_fd = fd;
	output_init(fd, w->align, w->to_file, w->eager);
	output_set_pid_prefix(w->pid_prefix);
	calls();
	output_flush();
}

/* What CALLS write through a writer set up as W (a static buffer). */
static const char *trace(const struct writer *w, void (*calls)(void))
{
	static char text[4096];
	int fds[2];

	if (pipe(fds))
		return "(pipe failed)";
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		play(w, calls, fds[1]);
		_exit(0);
	}
	close(fds[1]);
	size_t len = 0;
	ssize_t n;
	while (len < sizeof(text) - 1 &&
	       (n = read(fds[0], text + len, sizeof(text) - 1 - len)) > 0)
		len += (size_t)n;
	text[len] = '\0';
	close(fds[0]);
	int status;
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0);
	return text;
}

static void one_call(void)
{
	output_call_entry(call(101, 1), "puts", "\"hi\"");
	output_call_return(call(101, 1), "puts", true, "", "3");
}

static void void_call(void)
{
	output_call_entry(call(101, 1), "abort_soon", "");
	output_call_return(call(101, 1), "abort_soon", false, "", "<void>");
}

/* A call of task 101 while task 102 is in one. */
static void two_tasks(void)
{
	output_call_entry(call(102, 1), "read", "0");
	output_call_entry(call(101, 2), "getpid", "");
	output_call_return(call(101, 2), "getpid", false, "", "101");
	output_call_return(call(102, 1), "read", true, "\"abc\", 3", "3");
}

/* A callback: a call of the same task inside the open one. */
static void nested(void)
{
	output_call_entry(call(101, 1), "qsort", "0x1000, 2, 4, 0x4000");
	output_call_entry(call(101, 2), "strcmp", "\"b\", \"a\"");
	output_call_return(call(101, 2), "strcmp", true, "", "1");
	output_call_return(call(101, 1), "qsort", true, "", "<void>");
}

static void signal_in_call(void)
{
	output_call_entry(call(101, 1), "sleep", "5");
	output_line(101, "--- %s (%s) ---", "SIGALRM", "Alarm clock");
	output_call_return(call(101, 1), "sleep", true, "", "4");
}

static void test_open_line(void)
{
	CHECK_STR(trace(&plain, one_call), "puts(\"hi\") = 3\n");
	CHECK_STR(trace(&plain, void_call), "abort_soon() = <void>\n");
	CHECK_STR(trace(&plain, two_tasks),
		  "read(0 <unfinished ...>\n"
		  "getpid() = 101\n"
		  "<... read resumed> , \"abc\", 3) = 3\n");
	CHECK_STR(trace(&plain, nested),
		  "qsort(0x1000, 2, 4, 0x4000 <unfinished ...>\n"
		  "strcmp(\"b\", \"a\") = 1\n"
		  "<... qsort resumed> ) = <void>\n");
	CHECK_STR(trace(&plain, signal_in_call),
		  "sleep(5 <unfinished ...>\n"
		  "--- SIGALRM (Alarm clock) ---\n"
		  "<... sleep resumed> ) = 4\n");
}

/* Arguments shown at return (after the prototype's '+'), with and without
 * arguments shown at entry, on the open line and on a resumed one. */
static void more_args(void)
{
	output_call_entry(call(101, 1), "pipe_both", "3");
	output_call_return(call(101, 1), "pipe_both", true, "[ 4, 5 ]", "0");
	output_call_entry(call(101, 2), "pipe_later", "");
	output_call_return(call(101, 2), "pipe_later", false, "[ 6, 7 ]", "0");
}

static void more_args_resumed(void)
{
	output_call_entry(call(101, 1), "pipe_both", "3");
	output_line(101, "--- SIGCHLD (Child exited) ---");
	output_call_return(call(101, 1), "pipe_both", true, "[ 4, 5 ]", "0");
	output_call_entry(call(101, 2), "pipe_later", "");
	output_line(101, "--- SIGCHLD (Child exited) ---");
	output_call_return(call(101, 2), "pipe_later", false, "[ 6, 7 ]", "0");
}

static void test_separator(void)
{
	CHECK_STR(trace(&plain, more_args), "pipe_both(3, [ 4, 5 ]) = 0\n"
					    "pipe_later([ 6, 7 ]) = 0\n");
	/* as ltrace: the ", " stays on a resumed line */
	CHECK_STR(trace(&plain, more_args_resumed),
		  "pipe_both(3 <unfinished ...>\n"
		  "--- SIGCHLD (Child exited) ---\n"
		  "<... pipe_both resumed> , [ 4, 5 ]) = 0\n"
		  "pipe_later( <unfinished ...>\n"
		  "--- SIGCHLD (Child exited) ---\n"
		  "<... pipe_later resumed> [ 6, 7 ]) = 0\n");
}

/* The open line written out while the callee runs (eager output), then
 * finished: the column counts what was written. */
static void flushed_open(void)
{
	output_call_entry(call(101, 1), "puts", "\"hi\"");
	output_flush();
	output_call_return(call(101, 1), "puts", true, "", "3");
}

static void flushed_then_cut(void)
{
	output_call_entry(call(102, 1), "read", "0");
	output_flush();
	output_call_entry(call(101, 2), "getpid", "");
	output_call_return(call(101, 2), "getpid", false, "", "101");
	output_flush();
	output_call_return(call(102, 1), "read", true, "\"abc\", 3", "3");
}

static void long_line(void)
{
	output_call_entry(call(101, 1), "a_long_function_name", "123456789");
	output_call_return(call(101, 1), "a_long_function_name", true, "", "0");
}

/* -a 24: " = " starts at column 22 (ltrace pads to -a minus 2). */
static void test_align(void)
{
	CHECK_STR(trace(&aligned, one_call), "puts(\"hi\")             = 3\n");
	CHECK_STR(trace(&aligned, flushed_open),
		  "puts(\"hi\")             = 3\n");
	CHECK_STR(trace(&aligned, flushed_then_cut),
		  "read(0 <unfinished ...>\n"
		  "getpid()               = 101\n"
		  "<... read resumed> , \"abc\", 3) = 3\n");
	CHECK_STR(trace(&aligned, long_line),
		  "a_long_function_name(123456789) = 0\n");
}

/* Wide strings reach the trace as UTF-8: the column counts display
 * width, one per character, two per wide CJK one, none for a combining
 * mark, also for the part of the line already written out; a byte of no
 * valid sequence counts one. */
static void utf8_calls(void)
{
	output_call_entry(call(101, 1), "ws", "\"\u0424\u044b\u0432\u0430\"");
	output_call_return(call(101, 1), "ws", true, "", "4");
	output_call_entry(call(101, 2), "ws", "\"\u4e2d\u6587\"");
	output_call_return(call(101, 2), "ws", true, "", "2");
	output_call_entry(call(101, 3), "ws", "\"e\u0301\U0001f600\"");
	output_flush();
	output_call_return(call(101, 3), "ws", true, "", "'\u0424'");
	output_call_entry(call(101, 4), "ws", "\xff\xd0 \xe4\xb8");
	output_call_return(call(101, 4), "ws", true, "", "0");
}

static void test_width(void)
{
	CHECK_STR(trace(&aligned, utf8_calls),
		  "ws(\"\u0424\u044b\u0432\u0430\")             = 4\n"
		  "ws(\"\u4e2d\u6587\")             = 2\n"
		  "ws(\"e\u0301\U0001f600\")              = '\u0424'\n"
		  "ws(\xff\xd0 \xe4\xb8)              = 0\n");
}

static void test_pid_prefix(void)
{
	CHECK_STR(trace(&tasks, two_tasks),
		  "[pid 102] read(0 <unfinished ...>\n"
		  "[pid 101] getpid() = 101\n"
		  "[pid 102] <... read resumed> , \"abc\", 3) = 3\n");
	CHECK_STR(trace(&tasks_file, two_tasks),
		  "102 read(0 <unfinished ...>\n"
		  "101 getpid() = 101\n"
		  "102 <... read resumed> , \"abc\", 3) = 3\n");
	CHECK_STR(trace(&tasks_file, signal_in_call),
		  "101 sleep(5 <unfinished ...>\n"
		  "101 --- SIGALRM (Alarm clock) ---\n"
		  "101 <... sleep resumed> ) = 4\n");
}

/* -i and -n: a call's return address and its depth; a status line's
 * address is the stop's, and it is not indented. */
static void ip_indent(void)
{
	struct options o = { .show_ip = true, .indent = 3 };
	output_set_options(&o);
	struct output_call outer = { .tid = 101, .id = 1, .ret = 0x1000 };
	struct output_call inner = {
		.tid = 101, .id = 2, .ret = 0x2000, .depth = 1
	};
	output_call_entry(&outer, "qsort", "0x1");
	output_call_entry(&inner, "strcmp", "\"b\"");
	output_call_return(&inner, "strcmp", true, "", "1");
	output_set_ip(0x3000);
	output_line(101, "--- SIGALRM (Alarm clock) ---");
	output_call_return(&outer, "qsort", true, "", "<void>");
	output_set_ip(UINT64_MAX);
	output_exited(101, 101, 0);
}

static void test_ip_indent(void)
{
	CHECK_STR(trace(&plain, ip_indent),
		  "[0x1000] qsort(0x1 <unfinished ...>\n"
		  "[0x2000]    strcmp(\"b\") = 1\n"
		  "[0x3000] --- SIGALRM (Alarm clock) ---\n"
		  "[0x1000] <... qsort resumed> ) = <void>\n"
		  "[0xffffffffffffffff] +++ exited (status 0) +++\n");
}

/* output_sync before the tracer blocks: writes at once only output
 * shared with the tracee, whose own writes must come after it. */
static void sync_then_write(void)
{
	output_call_entry(call(101, 1), "puts", "\"hi\"");
	output_sync();
	if (write(trace_fd, "hi\n", 3) != 3)
		_exit(1);
	output_call_return(call(101, 1), "puts", true, "", "3");
}

static void test_sync(void)
{
	static const struct writer eager = { .eager = true };

	CHECK_STR(trace(&eager, sync_then_write), "puts(\"hi\"hi\n) = 3\n");
	CHECK_STR(trace(&plain, sync_then_write), "hi\nputs(\"hi\") = 3\n");
}

int main(void)
{
	test_open_line();
	test_separator();
	test_align();
	test_width();
	test_pid_prefix();
	test_ip_indent();
	test_sync();
	return check_exit();
}
