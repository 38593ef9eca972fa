/* libFuzzer target: the conf lexer (ltrace/lex.c) on any bytes.  The
 * input, cut at its first NUL as the conf reader cuts a line, is read
 * as a stream of tokens the way the parser asks for them: keywords,
 * identifiers, numbers, punctuation; an error report is tried at every
 * step, so its line and column arithmetic runs on every position. */
#include <stdint.h>
#include <stdlib.h>

#include "fake.h"
#include "lex.h"

/* One token of any kind at the cursor; false at the end of the text. */
static bool take_token(struct lex *lx)
{
	char id[64];
	long num;

	lex_skip_ws(lx);
	if (!*lx->p)
		return false;
	if (lex_keyword(lx, "struct") || lex_number(lx, &num))
		return true;
	if (lex_ident(lx, id, sizeof(id))) {
		lex_index(id, "arg");
		return true;
	}
	const char *before = lx->p;
	if (*lx->p == ')')
		lex_expect_close(lx);
	else if (*lx->p == ';' || *lx->p == '#')
		lex_expect_end(lx);
	else
		lex_accept(lx, ',');
	if (lx->p == before) /* any other character, or after an error */
		lx->p++;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fake_text(data, size);
	if (!text)
		return 0;

	struct lex lx = { .file = "fuzz", .line = 1 };
	lex_begin(&lx, text);
	for (int i = 0; take_token(&lx); i++)
		if (i % 64 == 63) /* a report now and then, once per text */
			lex_error(&lx, "fuzz ", "token");
	free(text);
	return 0;
}
