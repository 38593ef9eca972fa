/* Values: reading them from tracer or tracee memory, and the dispatch of
 * a value to the lens of its type. */
#include <string.h>

#include "lens.h"
#include "memsrc.h"
#include "strbuf.h"
#include "type.h"

size_t value_read(struct fmt_ctx *c, const struct value *v, void *buf,
		  size_t len)
{
	if (v->remote)
		return memsrc_read(c->mem, v->addr, buf, len);
	memcpy(buf, v->buf, len);
	return len;
}

static size_t value_width(const struct type *t)
{
	size_t n = type_sizeof(t);
	return n > 8 ? 8 : n;
}

/* The N (1 to 8) bytes at P as a little-endian number: fixed-size
 * copies, which the compiler turns into single loads. */
static uint64_t load_le(const unsigned char *p, size_t n)
{
	uint64_t u = 0;
	uint32_t u32;
	uint16_t u16;

	switch (n) {
	case 8:
		memcpy(&u, p, 8);
		break;
	case 4:
		memcpy(&u32, p, 4);
		u = u32;
		break;
	case 2:
		memcpy(&u16, p, 2);
		u = u16;
		break;
	case 1:
		u = *p;
		break;
	default:
		memcpy(&u, p, n);
		break;
	}
	return u;
}

int value_int(struct fmt_ctx *c, const struct value *v, int64_t *out)
{
	size_t n = value_width(v->type);
	unsigned char b[8];
	const unsigned char *p = v->buf;

	if (!n)
		return -1;
	if (v->remote) {
		if (memsrc_read(c->mem, v->addr, b, n) != n)
			return -1;
		p = b;
	}
	uint64_t u = load_le(p, n);
	if (type_is_signed(v->type) && n < 8 && (u >> (8 * n - 1)) & 1)
		u |= ~0ULL << (8 * n);
	*out = (int64_t)u;
	return 0;
}

bool value_localize(struct fmt_ctx *c, struct value *v, unsigned char *local,
		    size_t len)
{
	if (!v->remote)
		return true;
	if (memsrc_read(c->mem, v->addr, local, len) != len)
		return false;
	v->remote = false;
	v->buf = local;
	return true;
}

bool lens_hidden(const struct type *t)
{
	return t->lens == LENS_HIDE;
}

static void lens_addr(struct fmt_ctx *c, const struct value *v)
{
	int64_t a;

	if (value_int(c, v, &a) < 0)
		emit_addr(c, v->addr);
	else
		emit_addr(c, (uint64_t)a);
}

/* hex() and oct() apply to everything below them (members, elements,
 * pointees) that has no lens of its own. */
static void lens_radix(struct fmt_ctx *c, const struct value *v, enum radix r)
{
	enum radix saved = c->radix;

	c->radix = r;
	lens_default(c, v);
	c->radix = saved;
}

/* Room for one element of an array: a string of -s characters, each
 * escaped at its widest (4 bytes), with its quotes, "..." and separator,
 * or a number at its widest (a 64-bit integer in octal is 23 characters,
 * and ", "). */
#define ELT_TEXT 32
/* What nesting may add besides, in one argument list. */
#define SLACK 65536
/* Past any text a call holds: the budget saturates here. */
#define MAX_ROOM (SIZE_MAX / 4)

/* Room for one array of -A + 1 such elements. */
static size_t lens_room(const struct lens_limits *limits)
{
	size_t elt, n, all;

	if (__builtin_mul_overflow(limits->strlen, 4, &elt) ||
	    __builtin_add_overflow(elt, ELT_TEXT, &elt) ||
	    __builtin_add_overflow(limits->arraylen, 1, &n) ||
	    __builtin_mul_overflow(elt, n, &all) || all > MAX_ROOM)
		return MAX_ROOM;
	return all;
}

size_t lens_budget(const struct lens_limits *limits)
{
	return lens_room(limits) + SLACK;
}

void lens_arg_start(struct fmt_ctx *c)
{
	size_t end = c->sb->len + lens_room(c->limits);

	if (c->budget_end && c->budget_end < end)
		c->budget_end = end;
	c->cut = false;
}

static void render(struct fmt_ctx *c, const struct value *v);

void lens_render(struct fmt_ctx *c, const struct value *v)
{
	if (lens_budget_full(c)) {
		/* JSON: a value wherever one is due, or it is not JSON */
		if (!c->cut || c->json)
			emit_ellipsis(c);
		c->cut = true;
		return;
	}
	if (c->renders >= LENS_MAX_RENDERS) {
		emit_ellipsis(c);
		return;
	}
	c->renders++;
	render(c, v);
	c->renders--;
}

static void render(struct fmt_ctx *c, const struct value *v)
{
	switch (v->type->lens) {
	case LENS_DEFAULT:
		lens_default(c, v);
		break;
	case LENS_HEX:
		lens_radix(c, v, RADIX_HEX);
		break;
	case LENS_OCT:
		lens_radix(c, v, RADIX_OCT);
		break;
	case LENS_BOOL:
		lens_bool(c, v);
		break;
	case LENS_ENUM:
		lens_enum(c, v);
		break;
	case LENS_BITVEC:
		lens_bitvec(c, v);
		break;
	case LENS_STRING:
		lens_string(c, v);
		break;
	case LENS_GUESS:
		lens_guess(c, v);
		break;
	case LENS_ADDR:
		lens_addr(c, v);
		break;
	case LENS_FD:
		lens_fd(c, v);
		break;
	case LENS_HIDE:
		emit_void(c); /* JSON: null, where a value must be */
		break;
	}
}
