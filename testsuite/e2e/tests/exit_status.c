/* ltrace exits with the traced program's status (0.7.3 always exits 0). */
#include <stdio.h>

int main(void)
{
	puts("bye");
	return 3;
}
