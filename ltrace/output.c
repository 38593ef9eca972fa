#include "output.h"

#include <errno.h>
#include <stdarg.h>
#include <sys/types.h>
#include <unistd.h>

#include "strbuf.h"

/* Flush when this much is buffered even if nobody waits for it. */
#define FLUSH_AT (64 * 1024)

static struct {
	int fd;
	int align;
	bool to_file;
	bool eager;
	bool pid_prefix;
	struct strbuf buf;
	size_t line_start;  /* offset in buf of the current line */
	size_t flushed_col; /* part of the current line already written */
	bool open;	    /* a call line is open (no newline yet) */
	pid_t open_pid;
	unsigned long open_id;
	bool failed;
} out;

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

void output_flush(void)
{
	size_t off = 0;
	while (off < out.buf.len && !out.failed) {
		ssize_t n = write(out.fd, out.buf.s + off, out.buf.len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			out.failed = true; /* e.g. EPIPE: keep tracing */
		else
			off += n;
	}
	out.flushed_col += out.buf.len - out.line_start;
	strbuf_reset(&out.buf);
	out.line_start = 0;
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

static void begin_line(pid_t pid)
{
	interrupt_open();
	out.line_start = out.buf.len;
	out.flushed_col = 0;
	if (!out.pid_prefix)
		return;
	if (out.to_file)
		strbuf_addf(&out.buf, "%d ", (int)pid);
	else
		strbuf_addf(&out.buf, "[pid %d] ", (int)pid);
}

static void end_line(void)
{
	strbuf_addch(&out.buf, '\n');
	out.line_start = out.buf.len;
	out.flushed_col = 0;
	if (out.buf.len >= FLUSH_AT)
		output_flush();
}

void output_call_entry(pid_t pid, unsigned long id, const char *name,
		       const char *args)
{
	begin_line(pid);
	strbuf_addstr(&out.buf, name);
	strbuf_addch(&out.buf, '(');
	strbuf_addstr(&out.buf, args);
	out.open = true;
	out.open_pid = pid;
	out.open_id = id;
}

/* ltrace pads the line to column align - 2, then writes " = ". */
static void add_retval(const char *ret)
{
	size_t col = out.flushed_col + out.buf.len - out.line_start;
	size_t want = out.align >= 2 ? (size_t)out.align - 2 : 0;
	while (col < want) {
		strbuf_addch(&out.buf, ' ');
		col++;
	}
	strbuf_addstr(&out.buf, " = ");
	strbuf_addstr(&out.buf, ret);
}

void output_call_return(pid_t pid, unsigned long id, const char *name,
			bool entry_had_args, const char *more, const char *ret)
{
	if (out.open && out.open_pid == pid && out.open_id == id) {
		out.open = false;
	} else {
		begin_line(pid);
		strbuf_addf(&out.buf, "<... %s resumed> ", name);
	}
	/* As ltrace: the separator stays even on a resumed line. */
	if (entry_had_args && *more)
		strbuf_addstr(&out.buf, ", ");
	strbuf_addstr(&out.buf, more);
	strbuf_addch(&out.buf, ')');
	add_retval(ret);
	end_line();
}

void output_line(pid_t pid, const char *fmt, ...)
{
	begin_line(pid);
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&out.buf, fmt, ap);
	va_end(ap);
	end_line();
}
