#include "output.h"

#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "jsonout.h"
#include "options.h"
#include "strbuf.h"
#include "summary.h"
#include "utf8.h"

/* Flush when this much is buffered even if nobody waits for it: large
 * writes, when the trace is not shared with the program (a file of -o
 * alone, /dev/null); shared output is written out before every block
 * (output_sync). */
#define FLUSH_AT (256 * 1024)
/* A part of a line this long is written from the caller's buffer, not
 * copied (add_text). */
#define DIRECT_AT (64 * 1024)

static struct {
	int fd;
	int align;
	bool to_file;
	bool eager;
	bool pid_prefix;
	struct strbuf buf;
	size_t line_start;  /* offset in buf of the current line */
	size_t flushed_col; /* width of the current line already written */
	bool open;	    /* a call line is open (no newline yet) */
	pid_t open_pid;
	unsigned long open_id;
	bool failed;
	locale_t utf8; /* for wcwidth, whatever the tracer's locale */
	bool utf8_tried;
	/* The options that shape lines (output_set_options) */
	int time_mode;		   /* -t, -tt, -ttt */
	bool relative;		   /* -r */
	bool time_spent;	   /* -T */
	bool show_ip;		   /* -i */
	int indent;		   /* -n */
	bool summary;		   /* -c: no lines */
	enum output_format format; /* --format: JSON through jsonout.h */
	bool where;		   /* -w: a call's backtrace follows it */
	bool need_mono;
	/* The clocks at the current stop (output_clock) */
	uint64_t mono;	      /* CLOCK_MONOTONIC, ns */
	struct timespec wall; /* CLOCK_REALTIME, for -t */
	/* -t: CLOCK_REALTIME - CLOCK_MONOTONIC as output_clock read them,
	 * and the wall clock of the last time set (output_set_time) */
	int64_t wall_offset;
	uint64_t wall_set;
	uint64_t last_line; /* -r: mono at the previous line, 0 before */
	uint64_t stop_ip;   /* -i on lines that are not calls */
} out;

/* Columns a code point takes: wcwidth's in the C.UTF-8 locale (2 for
 * wide CJK, 0 for combining marks), 1 for what it does not know or
 * when that locale is missing. */
static size_t cp_width(uint32_t cp)
{
	if (!out.utf8_tried) {
		out.utf8_tried = true;
		out.utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	}
	if (!out.utf8)
		return 1;
	locale_t saved = uselocale(out.utf8);
	int w = wcwidth((wchar_t)cp);
	uselocale(saved);
	return w < 0 ? 1 : (size_t)w;
}

/* Whether the 8 bytes at P are all ASCII. */
static bool ascii8(const unsigned char *p)
{
	uint64_t eight;

	memcpy(&eight, p, 8);
	return !(eight & 0x8080808080808080ULL);
}

/* The length of the run of ASCII bytes that starts S[0..N): eight bytes
 * at a time, since a line can be megabytes of -s 9999999 strings (issue
 * 12). */
static size_t ascii_run(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (n - i >= 8 && ascii8(s + i))
		i += 8;
	/* the tail: the last eight bytes, some seen already */
	if (n - i < 8 && n >= 8 && ascii8(s + n - 8))
		return n;
	while (i < n && s[i] < 0x80)
		i++;
	return i;
}

/* The display width of S[0..N): one column per ASCII byte and per byte
 * of no valid UTF-8 sequence, cp_width per decoded code point.  Wide
 * characters reach the trace as UTF-8 (lenses/emit.c), so the "= "
 * column must not count their bytes.  Only widths below CAP matter
 * (the -a column): the count stops at CAP or a little past it, so a
 * line of megabytes is not read again for its width. */
static size_t text_width(const char *s, size_t n, size_t cap)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t w = 0;

	for (size_t i = 0; i < n && w < cap;) {
		size_t run = ascii_run(u + i, n - i);
		uint32_t cp;

		w += run;
		i += run;
		if (i == n)
			break;
		size_t len = utf8_decode(u + i, n - i, &cp);
		w += len ? cp_width(cp) : 1;
		i += len ? len : 1;
	}
	return w;
}

/* The column " = " goes to (-a): ltrace pads to align - 2. */
static size_t ret_col(void)
{
	return out.align >= 2 ? (size_t)out.align - 2 : 0;
}

/* The width of the current line's text, what was written out and what
 * is still in the buffer, as far as ret_col needs it. */
static size_t line_width(void)
{
	size_t cap = ret_col();

	if (out.flushed_col >= cap || out.buf.len == out.line_start)
		return out.flushed_col;
	return out.flushed_col + text_width(out.buf.s + out.line_start,
					    out.buf.len - out.line_start,
					    cap - out.flushed_col);
}

void output_init(int fd, int align, bool to_file, bool eager_flush)
{
	out.fd = fd;
	out.align = align;
	out.to_file = to_file;
	out.eager = eager_flush;
	strbuf_init(&out.buf);
}

void output_set_pid_prefix(bool on)
{
	out.pid_prefix = on;
}

static uint64_t ns_of(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec;
}

void output_set_options(const struct options *o)
{
	out.time_mode = o->time_mode;
	out.relative = o->relative;
	out.time_spent = o->time_spent;
	out.show_ip = o->show_ip;
	out.indent = o->indent;
	out.summary = o->summary;
	out.format = o->summary ? FORMAT_TEXT : o->format;
	out.where = o->where > 0;
	out.need_mono = o->relative || o->time_spent || o->summary ||
			o->format != FORMAT_TEXT;
	output_clock();
	if (out.format != FORMAT_TEXT) {
		struct timespec wall;
		clock_gettime(CLOCK_REALTIME, &wall);
		jsonout_begin(&out.buf, out.format, out.mono, ns_of(&wall));
	}
}

void output_clock(void)
{
	struct timespec ts;
	if (out.need_mono && clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
		out.mono = ns_of(&ts);
	if (!out.time_mode || clock_gettime(CLOCK_REALTIME, &out.wall) ||
	    clock_gettime(CLOCK_MONOTONIC, &ts))
		return;
	out.wall_offset = (int64_t)(ns_of(&out.wall) - ns_of(&ts));
	if (ns_of(&out.wall) < out.wall_set) { /* after --fast's records */
		out.wall.tv_sec = (time_t)(out.wall_set / 1000000000u);
		out.wall.tv_nsec = (long)(out.wall_set % 1000000000u);
	}
}

/* The wall clock at monotonic time MONO (--fast's records): the offset
 * between the clocks that output_clock read, never before the last one
 * set (the two clocks are read one after the other, and a thread
 * preempted between them sees an offset off by that much: worked out
 * from the previous record's, the errors added up and -t went back at
 * nearly every line). */
void output_set_time(uint64_t mono)
{
	if (out.time_mode) {
		if (!out.wall_offset)
			output_clock();
		uint64_t wall = mono + (uint64_t)out.wall_offset;
		if (wall < out.wall_set)
			wall = out.wall_set;
		out.wall_set = wall;
		out.wall.tv_sec = (time_t)(wall / 1000000000u);
		out.wall.tv_nsec = (long)(wall % 1000000000u);
	}
	out.mono = mono;
}

uint64_t output_now(void)
{
	return out.mono;
}

bool output_timed(void)
{
	return out.need_mono || out.time_mode;
}

void output_set_ip(uint64_t ip)
{
	out.stop_ip = ip;
}

/* Whether to write again after a write that failed with errno E: an
 * interruption; or a descriptor that the traced program, which shares
 * its open file description (the trace on its stderr), made
 * non-blocking with O_NONBLOCK: wait until it takes more, as a blocking
 * write would. */
static bool write_again(int e)
{
	if (e == EINTR)
		return true;
	if (e != EAGAIN && e != EWOULDBLOCK)
		return false;
	struct pollfd pfd = { .fd = out.fd, .events = POLLOUT };
	while (poll(&pfd, 1, -1) < 0)
		if (errno != EINTR)
			return false;
	return true;
}

/* Write the N pieces of IOV out (IOV is consumed), unless a write
 * failed before. */
static void write_all(struct iovec *iov, int n)
{
	while (n && !out.failed) {
		ssize_t w = writev(out.fd, iov, n);
		if (w < 0 && write_again(errno))
			continue;
		if (w <= 0) {
			out.failed = true; /* e.g. EPIPE: keep tracing */
			break;
		}
		for (; n && (size_t)w >= iov->iov_len; iov++, n--)
			w -= (ssize_t)iov->iov_len;
		if (n) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
}

/* Write out what is buffered, then LEN bytes of MORE, in one writev. */
static void flush_with(const char *more, size_t len)
{
	struct iovec iov[2] = { { out.buf.s, out.buf.len },
				{ (char *)more, len } };

	write_all(out.buf.len ? iov : iov + 1, (out.buf.len > 0) + (len > 0));
	out.flushed_col = line_width();
	if (out.flushed_col < ret_col())
		out.flushed_col +=
			text_width(more, len, ret_col() - out.flushed_col);
	strbuf_reset(&out.buf);
	out.line_start = 0;
}

void output_flush(void)
{
	flush_with(NULL, 0);
}

/* S, a part of the current line: a long one (an array or a string that
 * -A or -s let be megabytes) is written out from the caller's buffer
 * with what is buffered, not copied, so the tracer holds its text once
 * (DESIGN.md, "Output"). */
static void add_text(const char *s)
{
	size_t len = strlen(s);

	if (len < DIRECT_AT)
		strbuf_add(&out.buf, s, len);
	else
		flush_with(s, len);
}

void output_finish(void)
{
	/* Once: dying after the end must not write a second table. */
	if (out.summary)
		summary_write(&out.buf);
	if (out.format != FORMAT_TEXT)
		jsonout_end(&out.buf);
	out.summary = false;
	out.format = FORMAT_TEXT;
	output_flush();
}

void output_sync(void)
{
	if (out.buf.len && (out.eager || out.buf.len >= FLUSH_AT)) {
		/* An open call line stays in the buffer while the callee
		 * runs when the output is not shared with the tracee. */
		output_flush();
	}
}

/* Close an open call line before another line starts. */
static void interrupt_open(void)
{
	if (!out.open)
		return;
	strbuf_addstr(&out.buf, " <unfinished ...>\n");
	out.open = false;
	out.line_start = out.buf.len;
	out.flushed_col = 0;
}

/* NS nanoseconds as ltrace shows a duration, "%*lu.%06d" of the
 * seconds, padded to WIDTH, and the microseconds (no printf: -T and -r
 * put one on every line). */
static void add_seconds(unsigned width, uint64_t ns)
{
	uint64_t us = ns / 1000;
	strbuf_add_udec_w(&out.buf, us / 1000000, width, ' ');
	strbuf_addch(&out.buf, '.');
	strbuf_add_udec_w(&out.buf, us % 1000000, 6, '0');
}

/* -r, or -t, -tt, -ttt: ltrace's formats.  -r is the time since the
 * previous line (CLOCK_MONOTONIC); -t the wall clock, local time. */
static void add_time(void)
{
	if (out.relative) {
		uint64_t prev = out.last_line ? out.last_line : out.mono;
		out.last_line = out.mono;
		add_seconds(3, out.mono - prev);
		strbuf_addch(&out.buf, ' ');
		return;
	}
	if (out.time_mode == 3) {
		add_seconds(0, ns_of(&out.wall));
		strbuf_addch(&out.buf, ' ');
		return;
	}
	struct tm tm;
	localtime_r(&out.wall.tv_sec, &tm);
	strbuf_add_udec_w(&out.buf, (uint64_t)tm.tm_hour, 2, '0');
	strbuf_addch(&out.buf, ':');
	strbuf_add_udec_w(&out.buf, (uint64_t)tm.tm_min, 2, '0');
	strbuf_addch(&out.buf, ':');
	strbuf_add_udec_w(&out.buf, (uint64_t)tm.tm_sec, 2, '0');
	if (out.time_mode == 2) {
		strbuf_addch(&out.buf, '.');
		strbuf_add_udec_w(&out.buf, (uint64_t)(out.wall.tv_nsec / 1000),
				  6, '0');
	}
	strbuf_addch(&out.buf, ' ');
}

/* A line's prefixes in ltrace's order: the pid, the time, -i's address
 * IP, then -n's indentation of DEPTH levels. */
static void begin_line(pid_t pid, uint64_t ip, size_t depth)
{
	interrupt_open();
	out.line_start = out.buf.len;
	out.flushed_col = 0;
	if (out.pid_prefix && out.to_file) {
		strbuf_add_dec(&out.buf, pid);
		strbuf_addch(&out.buf, ' ');
	} else if (out.pid_prefix) {
		strbuf_add(&out.buf, "[pid ", 5);
		strbuf_add_dec(&out.buf, pid);
		strbuf_add(&out.buf, "] ", 2);
	}
	if (out.relative || out.time_mode)
		add_time();
	if (out.show_ip) {
		strbuf_add(&out.buf, "[0x", 3);
		strbuf_add_hex(&out.buf, ip);
		strbuf_add(&out.buf, "] ", 2);
	}
	for (size_t i = 0; i < depth * (size_t)out.indent; i++)
		strbuf_addch(&out.buf, ' ');
}

static void end_line(void)
{
	strbuf_addch(&out.buf, '\n');
	out.line_start = out.buf.len;
	out.flushed_col = 0;
	if (out.buf.len >= FLUSH_AT)
		output_flush();
}

void output_call_entry(const struct output_call *c, const char *name,
		       const char *args)
{
	begin_line(c->tid, c->ret, c->depth);
	strbuf_addstr(&out.buf, name);
	strbuf_addch(&out.buf, '(');
	add_text(args);
	out.open = true;
	out.open_pid = c->tid;
	out.open_id = c->id;
}

/* ltrace pads the line to column align - 2, then writes " = ".  The
 * column counts display width, not bytes. */
static void add_retval(const char *ret)
{
	size_t col = line_width();
	size_t want = ret_col();
	size_t pad = col < want ? want - col : 0;
	char *o = strbuf_reserve(&out.buf, pad + 3);
	memset(o, ' ', pad);
	memcpy(o + pad, " = ", 3);
	strbuf_commit(&out.buf, o + pad + 3);
	add_text(ret);
}

void output_call_return(const struct output_call *c, const char *name,
			bool entry_had_args, const char *more, const char *ret)
{
	if (out.open && out.open_pid == c->tid && out.open_id == c->id) {
		out.open = false;
	} else {
		begin_line(c->tid, c->ret, c->depth);
		strbuf_add(&out.buf, "<... ", 5);
		strbuf_addstr(&out.buf, name);
		strbuf_add(&out.buf, " resumed> ", 10);
	}
	/* As ltrace: the separator stays even on a resumed line. */
	if (*more) { /* most calls show nothing at their return */
		if (entry_had_args)
			strbuf_add(&out.buf, ", ", 2);
		add_text(more);
	}
	strbuf_addch(&out.buf, ')');
	add_retval(ret);
	if (out.time_spent) {
		strbuf_add(&out.buf, " <", 2);
		add_seconds(0, out.mono - c->t_entry);
		strbuf_addch(&out.buf, '>');
	}
	end_line();
}

/* --format: a finished event; written out as a text line would be. */
static void end_event(void)
{
	if (out.buf.len >= FLUSH_AT)
		output_flush();
}

void output_call_done(const struct jsonout_call *c)
{
	/* with -w the object waits for the backtrace (output_frame) */
	jsonout_call(&out.buf, c, out.where && c->ret);
	end_event();
}

/* --format: the event E of task TID of process PID at this stop. */
static void add_event(pid_t pid, pid_t tid, struct jsonout_event e)
{
	e.pid = pid;
	e.tid = tid;
	e.when = out.mono;
	jsonout_event(&out.buf, &e);
	end_event();
}

void output_line(pid_t pid, const char *fmt, ...)
{
	if (out.summary)
		return;
	struct strbuf sb;
	strbuf_init(&sb);
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (out.format != FORMAT_TEXT) {
		add_event(pid, pid,
			  (struct jsonout_event){ .event = "line",
						  .key = "text",
						  .value = sb.s });
	} else {
		begin_line(pid, out.stop_ip, 0);
		strbuf_add(&out.buf, sb.s, sb.len);
		end_line();
	}
	strbuf_destroy(&sb);
}

/* "SIGSEGV", or "SIG99" for a number without a name. */
static const char *signame(int sig, char buf[static 16])
{
	const char *n = sigabbrev_np(sig);
	if (n)
		snprintf(buf, 16, "SIG%s", n);
	else
		snprintf(buf, 16, "SIG%d", sig);
	return buf;
}

void output_signal(pid_t pid, pid_t tid, int sig)
{
	char name[16];
	signame(sig, name);
	if (out.format != FORMAT_TEXT)
		add_event(pid, tid,
			  (struct jsonout_event){ .event = "signal",
						  .key = "signal",
						  .value = name });
	else
		output_line(tid, "--- %s (%s) ---", name, strsignal(sig));
}

void output_exited(pid_t pid, pid_t tid, int status)
{
	if (out.format != FORMAT_TEXT)
		add_event(pid, tid,
			  (struct jsonout_event){ .event = "exit",
						  .has_status = true,
						  .status = status });
	else
		output_line(tid, "+++ exited (status %d) +++", status);
}

void output_killed(pid_t pid, pid_t tid, int sig)
{
	char name[16];
	signame(sig, name);
	if (out.format != FORMAT_TEXT)
		add_event(pid, tid,
			  (struct jsonout_event){ .event = "killed",
						  .key = "signal",
						  .value = name });
	else
		output_line(tid, "+++ killed by %s +++", name);
}

void output_exec(pid_t pid, pid_t tid)
{
	if (out.format != FORMAT_TEXT)
		add_event(pid, tid, (struct jsonout_event){ .event = "exec" });
	else
		output_line(tid, "--- Called exec() ---");
}

/* A line with no prefix: ltrace writes a backtrace's lines bare, right
 * after the return line they belong to. */
static void begin_bare_line(void)
{
	interrupt_open();
	out.line_start = out.buf.len;
	out.flushed_col = 0;
}

void output_frame(pid_t pid, const struct output_frame *f)
{
	(void)pid; /* the text form does not show it */
	if (out.format != FORMAT_TEXT) {
		jsonout_frame(&out.buf, f);
		return;
	}
	begin_bare_line();
	strbuf_addf(&out.buf, " > %s(", f->object);
	if (f->symbol)
		strbuf_addf(&out.buf, "%s+0x%" PRIx64, f->symbol, f->offset);
	else
		strbuf_addstr(&out.buf, "???");
	strbuf_addf(&out.buf, ") [0x%" PRIx64 "]", f->pc);
	end_line();
	if (!f->file)
		return;
	begin_bare_line();
	strbuf_addf(&out.buf, "\t%s", f->file);
	if (f->line > 0)
		strbuf_addf(&out.buf, ":%d", f->line);
	if (f->line > 0 && f->col > 0)
		strbuf_addf(&out.buf, ":%d", f->col);
	end_line();
}

void output_frames_end(pid_t pid)
{
	(void)pid;
	if (out.format != FORMAT_TEXT) {
		jsonout_frames_end(&out.buf);
		end_event();
		return;
	}
	begin_bare_line();
	end_line();
}
