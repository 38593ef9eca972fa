/* -y: a FILE * shows its descriptor and path after its address, the
 * descriptor read from glibc's _fileno; fileno and fdopen show theirs. */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	FILE *f;
	int i;

	for (i = 0; i < 2; i++) {
		f = fopen("out.txt", "w");
		fwrite("hi", 1, 2, f);
		fflush(f);
		fileno(f);
		fclose(f);
		f = fdopen(dup(1), "w");
		fclose(f);
	}
	return 0;
}
