/* fd: a file descriptor, and file: a FILE * with its descriptor.
 *
 * Without -y an fd is the integer it is, but AT_FDCWD, which is no
 * descriptor and reads better by name (strace names it too).  With -y
 * (c->limits->fds, FDPATH_* bits) the number is followed by what the
 * traced thread's descriptor refers to, in strace's spelling:
 * "3</etc/passwd>", "4<pipe:[123]>", "AT_FDCWD</home/u>", with -yy
 * "5<TCP:[127.0.0.1:80->127.0.0.1:4242]>" and "0</dev/null<char 1:3>>".
 * A FILE * is its address, then with -y "<3</srv/out.txt>>": its
 * descriptor is glibc's _fileno, at abi_file_fileno in struct _IO_FILE.
 *
 * fd_show is the one function that writes what a descriptor refers to
 * (an output format other than text changes it alone). */
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "callsite.h"
#include "emitjson.h"
#include "fdpath.h"
#include "lens.h"
#include "memsrc.h"
#include "strbuf.h"
#include "type.h"

/* strace's escapes in a path: C letters for the common controls, octal
 * (as short as the next character allows) for other bytes outside
 * printable ASCII, a backslash before '\\' and '"', and '<' and '>' in
 * octal so that they never close the brackets. */
static void emit_path(struct fmt_ctx *c, const char *p, size_t n)
{
	static const char letters[] = "\t\n\v\f\r";
	static const char names[] = "tnvfr";

	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)p[i];
		const char *l = ch ? strchr(letters, ch) : NULL;
		bool digit = i + 1 < n && p[i + 1] >= '0' && p[i + 1] <= '7';

		if (l)
			emit_printf(c, "\\%c", names[l - letters]);
		else if (ch == '\\' || ch == '"')
			emit_printf(c, "\\%c", ch);
		else if (ch < ' ' || ch >= 0x7f || ch == '<' || ch == '>')
			emit_printf(c, digit ? "\\%03o" : "\\%o", ch);
		else
			emit_printf(c, "%c", ch);
	}
}

/* A unix socket's bound name as strace quotes it: an abstract one (a
 * leading NUL) with '@' in its place, all of its bytes. */
static void emit_sun_path(struct fmt_ctx *c, const struct fdinfo *fi)
{
	emit_text(c, ",\"");
	if (fi->pathlen && !fi->path[0]) {
		emit_text(c, "@");
		emit_path(c, fi->path + 1, fi->pathlen - 1);
	} else {
		/* a path's name ends at its NUL, which the kernel keeps */
		emit_path(c, fi->path, strnlen(fi->path, fi->pathlen));
	}
	emit_text(c, "\"");
}

/* What goes between the brackets after the number. */
static void fd_inner(struct fmt_ctx *c, const struct fdinfo *fi)
{
	switch (fi->kind) {
	case FDINFO_NONE:
		break;
	case FDINFO_PATH:
		emit_path(c, fi->path, fi->pathlen);
		if (fi->dev)
			emit_printf(c, "<%s %u:%u>",
				    fi->dev == 'c' ? "char" : "block",
				    fi->major, fi->minor);
		break;
	case FDINFO_PROTO:
		emit_printf(c, "%s:[%lu]", fi->proto, fi->ino);
		break;
	case FDINFO_INET:
		emit_printf(c, "%s:[%s%s%s]", fi->proto, fi->src,
			    fi->dst[0] ? "->" : "", fi->dst);
		break;
	case FDINFO_UNIX:
		emit_printf(c, "%s:[%lu", fi->proto, fi->ino);
		if (fi->peer)
			emit_printf(c, "->%lu", fi->peer);
		if (fi->pathlen)
			emit_sun_path(c, fi);
		emit_text(c, "]");
		break;
	}
}

/* Whether FI is shown under the FDPATH_* bits WHAT: a socket's details
 * with FDPATH_SOCKET, any other path with FDPATH_PATH (strace's
 * --decode-fds=socket shows no file's path). */
static bool fd_shown(const struct fdinfo *fi, unsigned what)
{
	if (fi->kind == FDINFO_NONE)
		return false;
	return fi->kind != FDINFO_PATH || (what & FDPATH_PATH);
}

/* What descriptor FD of the call's thread refers to, in FI: false if
 * nothing is to be shown (no -y, not a descriptor, nothing known). */
static bool fd_info(struct fmt_ctx *c, int64_t fd, struct fdinfo *fi)
{
	unsigned what = c->limits->fds;
	if (!what || !c->cs || fd != (int)fd)
		return false;
	fdpath_get(c->cs->tid, (int)fd, what, fi);
	return fd_shown(fi, what);
}

/* The JSON form (--format): the number (AT_FDCWD as an enum's symbol),
 * or under -y {"fd":3,"path":"/etc/passwd"} with the text form's
 * spelling of what it refers to as "path", and "deleted":true for an
 * unlinked file. */
static void fd_json(struct fmt_ctx *c, int64_t fd)
{
	struct fdinfo fi;
	bool shown = fd_info(c, fd, &fi);
	if (shown)
		strbuf_addstr(c->sb, "{\"fd\":");
	if (fd == FDPATH_AT_FDCWD)
		emit_symbol(c, "AT_FDCWD", fd, true);
	else
		emit_dec(c, fd);
	if (!shown)
		return;
	struct strbuf text, *sb = c->sb;
	struct emit_json *json = c->json;
	strbuf_init(&text);
	c->sb = &text;
	c->json = NULL;
	fd_inner(c, &fi);
	c->sb = sb;
	c->json = json;
	strbuf_addstr(sb, ",\"path\":");
	json_string(sb, text.s ? text.s : "");
	strbuf_destroy(&text);
	if (fi.kind == FDINFO_PATH && fi.deleted)
		strbuf_addstr(sb, ",\"deleted\":true");
	strbuf_addch(sb, '}');
}

/* Descriptor FD of the call's thread: its number (AT_FDCWD by name),
 * then, under -y, "<what it refers to>" when it refers to something. */
static void fd_show(struct fmt_ctx *c, int64_t fd)
{
	struct fdinfo fi;

	if (c->json) {
		fd_json(c, fd);
		return;
	}
	if (fd == FDPATH_AT_FDCWD)
		emit_text(c, "AT_FDCWD");
	else
		emit_dec(c, fd);
	if (!fd_info(c, fd, &fi))
		return;
	emit_text(c, "<");
	fd_inner(c, &fi);
	emit_text(c, ">");
	if (fi.kind == FDINFO_PATH && fi.deleted)
		emit_text(c, "(deleted)");
}

/* A FILE *: its address, and under -y its descriptor in brackets; in
 * JSON {"file":"0x...","fd":FD} with FD as fd_show writes it. */
static void file_show(struct fmt_ctx *c, uint64_t addr)
{
	int32_t fileno;
	size_t off = abi_file_fileno;
	bool shown = c->limits->fds && addr &&
		     memsrc_read(c->mem, addr + off, &fileno, 4) == 4 &&
		     fileno >= 0;

	if (shown && c->json)
		strbuf_addstr(c->sb, "{\"file\":");
	emit_addr(c, addr);
	if (!shown)
		return;
	if (c->json) {
		strbuf_addstr(c->sb, ",\"fd\":");
		fd_show(c, fileno);
		strbuf_addch(c->sb, '}');
		return;
	}
	emit_text(c, "<");
	fd_show(c, fileno);
	emit_text(c, ">");
}

void lens_fd(struct fmt_ctx *c, const struct value *v)
{
	int64_t x;

	if (!lens_int_value(c, v, &x))
		return;
	if (v->type->kind == TYPE_POINTER)
		file_show(c, (uint64_t)x);
	else
		fd_show(c, x);
}
