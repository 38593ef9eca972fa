/* gstop READY: stops itself with SIGSTOP after writing its pid to READY
 * and, once continued, checks that calls still work. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	FILE *f;
	char tmp[4096];
	if (argc < 2)
		return 2;
	snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]);
	f = fopen(tmp, "w");
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	rename(tmp, argv[1]);
	raise(SIGSTOP);
	printf("resumed %zu\n", strlen("after"));
	return 0;
}
