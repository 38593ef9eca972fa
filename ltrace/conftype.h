/* The types and expressions of the conf language (ltrace.conf(5)), for
 * the declaration parser in conf.c: what a declaration says after its
 * keyword and name, parsed from the declaration's text into types of
 * the protolib being loaded.  Every function reports its error through
 * the lexer (one per declaration, lex.h) and returns NULL after it. */
#ifndef LTRACE_CONFTYPE_H
#define LTRACE_CONFTYPE_H

#include "forward.h"
#include "lex.h"
#include "strbuf.h"

struct type_arena;

/* Types and expressions nest at most this deep in the text: the parser
 * recurses, and so would everything that walks what it built. */
#define CONF_MAX_NESTING 64

/* The state of one file's (or one kept declaration's) parse. */
struct conf_parser {
	struct lex lx;
	struct protolib *pl;  /* what the file defines goes here */
	struct type_arena *a; /* pl's */
	unsigned depth;	      /* of types and expressions */
	struct strbuf decl;   /* the declaration being parsed, terminated */
};

/* The type at the cursor, pointers included ("struct(int, node*)*"),
 * allocated in PS's arena; typedef names are looked up in PS->pl. */
struct type *conftype_parse(struct conf_parser *ps);

/* Fill T, a struct (a new one, or a forward declaration being
 * completed), with the members listed at the cursor: "(T, ...)".
 * Returns T. */
struct type *conftype_struct_body(struct conf_parser *ps, struct type *t);

/* T, or when the tracer cannot hold it (type_check) a plain type in
 * its place, with a warning at AT (in the declaration's text), where T
 * was written: the call is traced all the same.  Never NULL. */
struct type *conftype_hold(struct conf_parser *ps, struct type *t,
			   const char *at);

#endif
