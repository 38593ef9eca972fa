/* A main() for the fuzz targets without libFuzzer: each file named on
 * the command line (each file in a directory named there) is read and
 * given once to LLVMFuzzerTestOneInput, as libFuzzer would replay it.
 * The ordinary build links it with each fuzz/NAME.c, so the suite (and
 * its ASan+UBSan pass) runs every seed and regression input without
 * clang.  Prints one line per input on stderr; exits 1 if an input or a
 * directory cannot be read, and dies with the target when it crashes. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* Read PATH whole into a buffer of its exact size, as libFuzzer hands
 * inputs (a read past the end is then caught by ASan). */
static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap)
			buf = realloc(buf, cap *= 2);
	}
	int bad = !buf || ferror(f);
	fclose(f);
	if (bad) {
		fprintf(stderr, "%s: read failed\n", path);
		free(buf);
		return -1;
	}
	uint8_t *exact = malloc(len ? len : 1);
	memcpy(exact, buf, len);
	free(buf);
	fprintf(stderr, "standalone: %s (%zu bytes)\n", path, len);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	return 0;
}

static int run_dir(const char *path)
{
	struct dirent **names;
	int n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		perror(path);
		return -1;
	}
	int rc = 0;
	for (int i = 0; i < n; i++) {
		char sub[4096];
		if (names[i]->d_name[0] != '.' &&
		    snprintf(sub, sizeof(sub), "%s/%s", path,
			     names[i]->d_name) < (int)sizeof(sub) &&
		    run_file(sub))
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int rc = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			rc |= run_dir(argv[i]) != 0;
		else
			rc |= run_file(argv[i]) != 0;
	}
	return rc;
}
