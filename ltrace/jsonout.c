/* JSON Lines and the Trace Event Format, one event at a time.
 *
 * JSON Lines, one object a line (ltrace(1) has the whole schema):
 *   {"event":"trace","version":2,"timestamp":1796089672203000}
 *   {"event":"call","pid":1,"tid":1,"timestamp":1796089672203626,
 *    "duration":12.345,"caller":"prog","library":"libc.so.6",
 *    "function":"strlen","args":["abc"],"return":3}
 *   (a failed call adds "errno":2,"errname":"ENOENT"; -w "backtrace")
 *   {"event":"signal",...,"signal":"SIGUSR1"}  {"event":"exit",...,
 *    "status":0}  "killed" (with "signal"), "exec", "noreturn" (a call
 *   without "return")
 * Chrome: {"otherData":{"version":2},"traceEvents":[ complete ("X")
 * events for calls, instant ("i") events for the rest, one track per
 * thread (pid, tid) ]}. */
#include "jsonout.h"

#include <inttypes.h>

#include "output.h"
#include "strbuf.h"
#include "utf8.h"

static struct {
	enum output_format format;
	uint64_t mono0; /* the monotonic clock at jsonout_begin, ns */
	uint64_t wall0; /* the wall clock then, ns since the Epoch */
	bool any;	/* chrome: an event was written (a comma before the
			   next) */
	bool open;	/* a call's object waits for its backtrace */
	size_t nframes; /* the frames it has */
} js;

/* S[0..N) as a JSON string: quotes, backslashes and control characters
 * escaped; bytes of no valid UTF-8 sequence as \udcXX, XX the byte, as
 * the lenses write strings (lenses/emitjson.c). */
static void add_string_n(struct strbuf *out, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	strbuf_addch(out, '"');
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t len = u[i] < 0x80 ? 1 : utf8_decode(u + i, n - i, &cp);
		if (u[i] == '"' || u[i] == '\\') {
			strbuf_addch(out, '\\');
			strbuf_addch(out, (char)u[i]);
		} else if (u[i] < 0x20) {
			strbuf_addf(out, "\\u%04x", u[i]);
		} else if (!len) {
			strbuf_addf(out, "\\udc%02x", u[i]);
		} else {
			strbuf_add(out, u + i, len);
		}
		i += len ? len : 1;
	}
	strbuf_addch(out, '"');
}

/* "key":"value", or "key":null for no VALUE. */
static void add_field(struct strbuf *out, const char *key, const char *value)
{
	strbuf_addf(out, ",\"%s\":", key);
	if (!value) {
		strbuf_addstr(out, "null");
		return;
	}
	for (size_t n = 0;; n++)
		if (!value[n]) {
			add_string_n(out, value, n);
			return;
		}
}

/* NS nanoseconds as microseconds, three decimals. */
static void add_us(struct strbuf *out, const char *key, uint64_t ns)
{
	strbuf_addf(out, ",\"%s\":%" PRIu64 ".%03u", key, ns / 1000,
		    (unsigned)(ns % 1000));
}

/* "args": each a JSON value the lenses wrote (null if none). */
static void add_args(struct strbuf *out, const struct jsonout_call *c)
{
	strbuf_addstr(out, ",\"args\":[");
	for (size_t i = 0; i < c->nargs; i++) {
		size_t n = c->spans[2 * i + 1] - c->spans[2 * i];
		if (i)
			strbuf_addch(out, ',');
		if (n)
			strbuf_add(out, c->args + c->spans[2 * i], n);
		else
			strbuf_addstr(out, "null");
	}
	strbuf_addch(out, ']');
}

/* "return": the JSON value the lenses wrote; none if it never did. */
static void add_return(struct strbuf *out, const struct jsonout_call *c)
{
	if (!c->ret)
		return;
	strbuf_addstr(out, ",\"return\":");
	strbuf_addstr(out, *c->ret ? c->ret : "null");
}

/* The start of an object: chrome's separator, then the fields every
 * event has. */
static void open_object(struct strbuf *out, const char *event, pid_t pid,
			pid_t tid)
{
	if (js.format == FORMAT_CHROME && js.any)
		strbuf_addstr(out, ",\n");
	js.any = true;
	/* EVENT is one of our names: nothing to escape */
	strbuf_addf(out, "{\"%s\":\"%s\",\"pid\":%d,\"tid\":%d",
		    js.format == FORMAT_CHROME ? "cat" : "event", event,
		    (int)pid, (int)tid);
}

static void close_object(struct strbuf *out)
{
	strbuf_addch(out, '}');
	if (js.format == FORMAT_JSON)
		strbuf_addch(out, '\n');
}

/* Close the call object left open for a backtrace: its "backtrace"
 * array, chrome's "args", the object. */
static void close_open(struct strbuf *out)
{
	if (!js.open)
		return;
	js.open = false;
	if (js.nframes)
		strbuf_addch(out, ']');
	if (js.format == FORMAT_CHROME)
		strbuf_addch(out, '}');
	close_object(out);
}

void jsonout_begin(struct strbuf *out, enum output_format f, uint64_t mono,
		   uint64_t wall)
{
	js.format = f;
	js.mono0 = mono;
	js.wall0 = wall;
	js.any = false;
	js.open = false;
	if (f == FORMAT_CHROME)
		strbuf_addf(out,
			    "{\"displayTimeUnit\":\"ns\",\"otherData\":"
			    "{\"version\":%d},\"traceEvents\":[\n",
			    JSONOUT_VERSION);
	else if (f == FORMAT_JSON)
		strbuf_addf(out,
			    "{\"event\":\"trace\",\"version\":%d,"
			    "\"timestamp\":%" PRIu64 "}\n",
			    JSONOUT_VERSION, wall / 1000);
}

void jsonout_end(struct strbuf *out)
{
	close_open(out);
	if (js.format == FORMAT_CHROME)
		strbuf_addstr(out, "\n]}\n");
	js.format = FORMAT_TEXT;
}

/* A failed call's "errno" (a number) and "errname" ("ENOENT"). */
static void add_error(struct strbuf *out, const struct jsonout_call *c)
{
	if (!c->error)
		return;
	strbuf_addf(out, ",\"errno\":%d", c->error);
	if (c->errname)
		add_field(out, "errname", c->errname);
}

static void json_call(struct strbuf *out, const struct jsonout_call *c)
{
	open_object(out, c->ret ? "call" : "noreturn", c->pid, c->tid);
	strbuf_addf(out, ",\"timestamp\":%" PRIu64,
		    (js.wall0 + c->start - js.mono0) / 1000);
	add_us(out, "duration", c->end - c->start);
	add_field(out, "caller", c->caller);
	add_field(out, "library", c->library);
	add_field(out, "function", c->function);
	add_args(out, c);
	add_return(out, c);
	add_error(out, c);
}

static void chrome_call(struct strbuf *out, const struct jsonout_call *c)
{
	open_object(out, c->ret ? "call" : "noreturn", c->pid, c->tid);
	add_field(out, "name", c->function);
	strbuf_addstr(out, ",\"ph\":\"X\"");
	add_us(out, "ts", c->start - js.mono0);
	add_us(out, "dur", c->end - c->start);
	strbuf_addstr(out, ",\"args\":{\"returned\":");
	strbuf_addstr(out, c->ret ? "true" : "false");
	add_field(out, "caller", c->caller);
	add_field(out, "library", c->library);
	add_args(out, c);
	add_return(out, c);
	add_error(out, c);
}

void jsonout_call(struct strbuf *out, const struct jsonout_call *c, bool frames)
{
	close_open(out);
	if (js.format == FORMAT_CHROME)
		chrome_call(out, c);
	else if (js.format == FORMAT_JSON)
		json_call(out, c);
	else
		return;
	js.open = true;
	js.nframes = 0;
	if (!frames)
		close_open(out);
}

/* {"address":"0x...","object":"libc.so.6","function":"f","offset":16,
 * "file":"f.c","line":3,"column":7}: "function" and "offset" null when
 * no symbol is known, "file" and after only when the source is. */
void jsonout_frame(struct strbuf *out, const struct output_frame *f)
{
	if (!js.open)
		return;
	strbuf_addstr(out, js.nframes++ ? "," : ",\"backtrace\":[");
	strbuf_addf(out, "{\"address\":\"0x%" PRIx64 "\"", f->pc);
	add_field(out, "object", f->object);
	add_field(out, "function", f->symbol);
	if (f->symbol)
		strbuf_addf(out, ",\"offset\":%" PRIu64, f->offset);
	else
		strbuf_addstr(out, ",\"offset\":null");
	if (f->file) {
		add_field(out, "file", f->file);
		if (f->line > 0)
			strbuf_addf(out, ",\"line\":%d", f->line);
		if (f->line > 0 && f->col > 0)
			strbuf_addf(out, ",\"column\":%d", f->col);
	}
	strbuf_addch(out, '}');
}

void jsonout_frames_end(struct strbuf *out)
{
	close_open(out);
}

/* Chrome's name for an instant event: the signal's name or the line's
 * text, else the event's, with an exit's status. */
static void chrome_name(struct strbuf *out, const struct jsonout_event *e)
{
	if (e->key) {
		add_field(out, "name", e->value);
		return;
	}
	strbuf_addf(out, ",\"name\":\"%s", e->event);
	if (e->has_status)
		strbuf_addf(out, " %d", e->status);
	strbuf_addch(out, '"');
}

void jsonout_event(struct strbuf *out, const struct jsonout_event *e)
{
	if (js.format == FORMAT_TEXT)
		return;
	close_open(out);
	open_object(out, e->event, e->pid, e->tid);
	if (js.format == FORMAT_CHROME) {
		chrome_name(out, e);
		strbuf_addstr(out, ",\"ph\":\"i\",\"s\":\"t\"");
		add_us(out, "ts", e->when - js.mono0);
	} else {
		strbuf_addf(out, ",\"timestamp\":%" PRIu64,
			    (js.wall0 + e->when - js.mono0) / 1000);
		if (e->key)
			add_field(out, e->key, e->value);
		if (e->has_status)
			strbuf_addf(out, ",\"status\":%d", e->status);
	}
	close_object(out);
}
