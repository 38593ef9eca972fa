/* For the programs a test steps through files: NAME.SUFFIX written
 * (holding the pid) to say a step is done, or looked for to take the
 * next one. */
#include <stdio.h>
#include <unistd.h>

static void step_put(const char *name, const char *suffix)
{
	char path[4096];
	snprintf(path, sizeof path, "%s.%s", name, suffix);
	FILE *f = fopen(path, "w");
	if (f) {
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
	}
}

static int step_there(const char *name, const char *suffix)
{
	char path[4096];
	snprintf(path, sizeof path, "%s.%s", name, suffix);
	return access(path, F_OK) == 0;
}
