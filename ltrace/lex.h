/* The tokens of the conf language (ltrace.conf(5)) and its error
 * messages, for the parser in conf.c and conftype.c.  The lexer reads
 * one declaration's text at a time and reports at most one error per
 * declaration, as "file:line:col: error: MSG WHAT" on stderr, with the
 * line and column of the token at fault. */
#ifndef LTRACE_LEX_H
#define LTRACE_LEX_H

#include <stdbool.h>
#include <stddef.h>

struct lex {
	const char *file;      /* for messages */
	int line;	       /* of the declaration's first line, 1-based */
	const char *start;     /* the declaration's text */
	const char *p;	       /* the cursor in it */
	const char *tok;       /* start of the last identifier taken */
	int nerr;	       /* errors reported so far */
	bool failed;	       /* the declaration had its error */
	int err_line, err_col; /* of that error, 1-based */
};

/* Start on the declaration TEXT, which begins on line LX->line. */
void lex_begin(struct lex *lx, const char *text);
void lex_skip_ws(struct lex *lx);

/* Report "MSG WHAT" at AT (inside the declaration's text), at the next
 * token, or "MSG 'ID'" at the identifier just taken; only the first
 * error of a declaration is reported. */
void lex_error_at(struct lex *lx, const char *at, const char *msg,
		  const char *what);
void lex_error(struct lex *lx, const char *msg, const char *what);
/* Report "warning: MSG" at the token at or after AT; the declaration
 * goes on (no error counted). */
void lex_warn_at(const struct lex *lx, const char *at, const char *msg);
void lex_error_tok(struct lex *lx, const char *msg, const char *id);

/* Take character C if it comes next (after blanks). */
bool lex_accept(struct lex *lx, char c);
/* The same, else the error "expected 'C'"; false after an error. */
bool lex_expect(struct lex *lx, char c);
/* The end of a list: "expected ',' or ')'" when ')' is not there. */
bool lex_expect_close(struct lex *lx);
/* The end of the declaration: only blanks until the end of its text or
 * a ';' or '#' (which may end it and start a comment), else the error
 * "expected ';' or the end of the line"; false after an error. */
bool lex_expect_end(struct lex *lx);

/* Take the identifier that comes next into BUF (cut to SIZE - 1). */
bool lex_ident(struct lex *lx, char *buf, size_t size);
/* Whether C may be in an identifier (a letter, a digit, '_'). */
bool lex_ident_char(char c);
/* Take the identifier KW if it comes next. */
bool lex_keyword(struct lex *lx, const char *kw);
/* Take a number (C syntax: decimal, 0x, octal; may be negative). */
bool lex_number(struct lex *lx, long *out);

/* N of an identifier PREFIX<N> with N decimal ("arg2": 2), or -1. */
long lex_index(const char *id, const char *prefix);

#endif
