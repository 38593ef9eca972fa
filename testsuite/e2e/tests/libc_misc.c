/* mmap/mprotect/munmap flags, clocks, locale and sscanf through the
 * shipped prototypes. */
#include <locale.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>

int main(void)
{
	struct timespec ts;
	int a = 0;
	char w[8];
	void *p;

	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mprotect(p, 4096, PROT_READ);
	munmap(p, 8192);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	setlocale(LC_NUMERIC, "C");
	sscanf("42 words", "%d %7s", &a, w);
	return 0;
}
