/* Tracee memory the program itself never reads: memchr with n = 0 is
 * declared in mem_edge.conf as taking a plain string, so the tracer reads
 * each pointer up to a NUL (bounded by -s) while the program touches
 * nothing.  A string that runs into an unmapped page, one inside a
 * PROT_NONE page (read through /proc/PID/mem), misaligned pointers. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void *volatile sink;

int main(void)
{
	long pg = 4096;
	char *p = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	munmap(p + pg, pg);
	memset(p, 'z', pg);
	memcpy(p + pg - 5, "edge!", 5);		/* no NUL: the page ends */
	strcpy(p + 2 * pg + 3, "hidden text");
	mprotect(p + 2 * pg, pg, PROT_NONE);
	sink = memchr(p + pg - 5, 0, 0);		/* runs into the hole */
	sink = memchr(p + pg - 1, 0, 0);		/* one byte, then the hole */
	sink = memchr(p + 2 * pg + 3, 0, 0);		/* unreadable to the program */
	sink = memchr(p + 2 * pg + 10, 0, 0);		/* misaligned, inside it */
	sink = memchr(p + pg, 0, 0);			/* unmapped: an address */
	return 0;
}
