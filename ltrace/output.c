#include "output.h"

#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>
#include <wchar.h>

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
	size_t flushed_col; /* width of the current line already written */
	bool open;	    /* a call line is open (no newline yet) */
	pid_t open_pid;
	unsigned long open_id;
	bool failed;
	locale_t utf8; /* for wcwidth, whatever the tracer's locale */
	bool utf8_tried;
} out;

/* The length of the UTF-8 sequence at S (N bytes available) and its code
 * point in *CP; 0 when S does not start a valid one (a stray byte, an
 * overlong form, a surrogate, past U+10FFFF, or cut short). */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 :
		     s[0] >= 0xe0 && s[0] <= 0xef ? 3 :
		     s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 :
						    0;
	if (!len || len > n)
		return 0;
	uint32_t c = s[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	static const uint32_t least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (c < least[len] || c > 0x10ffff || (c >= 0xd800 && c < 0xe000))
		return 0;
	*cp = c;
	return len;
}

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

/* The display width of S[0..N): one column per ASCII byte and per byte
 * of no valid UTF-8 sequence, cp_width per decoded code point.  Wide
 * characters reach the trace as UTF-8 (lenses/emit.c), so the "= "
 * column must not count their bytes. */
static size_t text_width(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t w = 0;

	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t len = u[i] < 0x80 ? 0 : utf8_decode(u + i, n - i, &cp);

		w += len ? cp_width(cp) : 1;
		i += len ? len : 1;
	}
	return w;
}

/* The width of the current line's text still in the buffer. */
static size_t buffered_width(void)
{
	if (out.buf.len == out.line_start)
		return 0;
	return text_width(out.buf.s + out.line_start,
			  out.buf.len - out.line_start);
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
	out.flushed_col += buffered_width();
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

/* ltrace pads the line to column align - 2, then writes " = ".  The
 * column counts display width, not bytes. */
static void add_retval(const char *ret)
{
	size_t col = out.flushed_col + buffered_width();
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
	begin_bare_line();
	end_line();
}
