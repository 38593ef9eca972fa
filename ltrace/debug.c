#include "debug.h"

#include <stdarg.h>

#include "error.h"

static unsigned debug_mask;

void debug_init(unsigned mask)
{
	debug_mask = mask;
}

bool debug_on(enum debug_bit bit)
{
	return debug_mask & bit;
}

void debug_msg(enum debug_bit bit, const char *fmt, ...)
{
	if (!debug_on(bit))
		return;
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	error_msg("debug: %s", buf);
}

/* Worded after ltrace's -Dh, with this tracer's bits. */
/* clang-format off */
void debug_usage(FILE *f)
{
	fprintf(f,
"ltrace debugging option, --debug=<octal> or -D<octal>:\n"
"\n"
" number  description\n"
"      1  general: what is traced, start-up and end\n"
"     10  events: every report of a traced task, decoded\n"
"     20  breakpoints: placed and removed, per object\n"
"     40  libraries: objects added and removed (dlopen, dlclose)\n"
"\n"
"Debugging options are mixed using bitwise-or.\n"
"Note that the meanings and values are subject to change.\n");
}
/* clang-format on */
