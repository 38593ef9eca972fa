/* Where a unit test finds its fixture sources: $ENV, else under
 * $top_srcdir (set by testsuite/unit/run), else beside the test's source
 * file (FILE is its __FILE__). */
#ifndef LTRACE_TEST_FIXTURES_H
#define LTRACE_TEST_FIXTURES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void fixture_dir(char *buf, size_t size, const char *env,
			       const char *name, const char *file)
{
	const char *dir = getenv(env);
	const char *top = getenv("top_srcdir");
	const char *slash = strrchr(file, '/');

	if (dir)
		snprintf(buf, size, "%s", dir);
	else if (top)
		snprintf(buf, size, "%s/testsuite/unit/%s", top, name);
	else if (slash)
		snprintf(buf, size, "%.*s/%s", (int)(slash - file), file, name);
	else
		snprintf(buf, size, "%s", name);
}

#endif
