/* The fortified entry points of -D_FORTIFY_SOURCE=2 with their extra
 * flag and object-size arguments. */
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	/* buf zeroed: memcpy copies its byte after snprintf's NUL too. */
	char buf[16] = "", small[8];
	volatile int n = 5;
	FILE *f;
	int fd;

	(void)argv;
	printf("argc %d\n", argc);
	fprintf(stdout, "%s\n", "out");
	snprintf(buf, sizeof(buf), "n=%d", n);
	sprintf(small, "%d", 12);
	memcpy(small, buf, n);
	strcpy(buf, small);
	/* The mode is passed so its register is not left over from earlier
	 * code: open(2) reads it only with O_CREAT, but the trace shows it. */
	fd = open("input", O_RDONLY, 0);
	read(fd, buf, n);
	close(fd);
	f = fopen("input", "r");
	fgets(buf, n, f);
	fclose(f);
	fflush(stdout);
	return 0;
}
