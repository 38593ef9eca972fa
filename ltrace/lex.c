/* The lexer of the conf language: see lex.h. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"

void lex_begin(struct lex *lx, const char *text)
{
	lx->start = lx->p = text;
	lx->failed = false;
}

void lex_skip_ws(struct lex *lx)
{
	while (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\n' ||
	       *lx->p == '\r' || *lx->p == '\f' || *lx->p == '\v')
		lx->p++;
}

/* The line and column of AT, counted from the declaration's start. */
static void where(const struct lex *lx, const char *at, int *line, int *col)
{
	const char *bol = lx->start;

	*line = lx->line;
	for (const char *s = lx->start; s < at; s++)
		if (*s == '\n') {
			(*line)++;
			bol = s + 1;
		}
	*col = (int)(at - bol) + 1;
}

/* The declaration's text may span lines: AT's line and column count
 * from its start. */
void lex_error_at(struct lex *lx, const char *at, const char *msg,
		  const char *what)
{
	if (lx->failed)
		return;
	lx->failed = true;
	lx->nerr++;
	where(lx, at, &lx->err_line, &lx->err_col);
	fprintf(stderr, "%s:%d:%d: error: %s%s\n", lx->file, lx->err_line,
		lx->err_col, msg, what);
}

void lex_warn_at(const struct lex *lx, const char *at, const char *msg)
{
	int line, col;

	while (*at == ' ' || *at == '\t' || *at == '\n' || *at == '\r')
		at++;
	where(lx, at, &line, &col);
	fprintf(stderr, "%s:%d:%d: warning: %s\n", lx->file, line, col, msg);
}

void lex_error(struct lex *lx, const char *msg, const char *what)
{
	const char *at = lx->p;

	/* point at the next token, not at the blanks before it */
	while (*at == ' ' || *at == '\t' || *at == '\n' || *at == '\r')
		at++;
	lex_error_at(lx, at, msg, what);
}

void lex_error_tok(struct lex *lx, const char *msg, const char *id)
{
	char buf[320];

	snprintf(buf, sizeof(buf), "'%s'", id);
	lex_error_at(lx, lx->tok ? lx->tok : lx->p, msg, buf);
}

bool lex_accept(struct lex *lx, char c)
{
	lex_skip_ws(lx);
	if (*lx->p != c)
		return false;
	lx->p++;
	return true;
}

bool lex_expect(struct lex *lx, char c)
{
	if (lx->failed)
		return false;
	if (lex_accept(lx, c))
		return true;
	char what[4] = { '\'', c, '\'', 0 };
	lex_error(lx, "expected ", what);
	return false;
}

bool lex_expect_close(struct lex *lx)
{
	if (lx->failed)
		return false;
	if (lex_accept(lx, ')'))
		return true;
	lex_error(lx, "expected ", "',' or ')'");
	return false;
}

bool lex_expect_end(struct lex *lx)
{
	if (lx->failed)
		return false;
	lex_skip_ws(lx);
	if (!*lx->p || *lx->p == ';' || *lx->p == '#')
		return true;
	lex_error(lx, "expected ", "';' or the end of the line");
	return false;
}

bool lex_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The identifier at the cursor (copied into BUF), or false. */
static bool peek_ident(struct lex *lx, char *buf, size_t size)
{
	lex_skip_ws(lx);
	if (!isalpha((unsigned char)*lx->p) && *lx->p != '_')
		return false;
	size_t n = 0;
	while (lex_ident_char(lx->p[n]) && n + 1 < size) {
		buf[n] = lx->p[n];
		n++;
	}
	buf[n] = 0;
	return true;
}

bool lex_ident(struct lex *lx, char *buf, size_t size)
{
	if (!peek_ident(lx, buf, size))
		return false;
	lx->tok = lx->p;
	while (lex_ident_char(*lx->p))
		lx->p++;
	return true;
}

/* Compared in place: no copy of the identifier. */
bool lex_keyword(struct lex *lx, const char *kw)
{
	size_t n = strlen(kw);

	lex_skip_ws(lx);
	if (strncmp(lx->p, kw, n) || lex_ident_char(lx->p[n]))
		return false;
	lx->p += n;
	return true;
}

bool lex_number(struct lex *lx, long *out)
{
	lex_skip_ws(lx);
	if (!isdigit((unsigned char)*lx->p) &&
	    !(*lx->p == '-' && isdigit((unsigned char)lx->p[1])))
		return false;
	char *end;
	*out = strtol(lx->p, &end, 0);
	lx->p = end;
	return true;
}

long lex_index(const char *id, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(id, prefix, n) || !isdigit((unsigned char)id[n]))
		return -1;
	char *end;
	long v = strtol(id + n, &end, 10);
	return *end ? -1 : v;
}
