/* A call that sleeps 100 ms between two quick ones: -T, -t, -r show
 * how long each took and when it ran. */
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	(void)argc;
	size_t n = strlen(argv[0]);
	usleep(100000);
	n += strlen("after");
	return n == 0;
}
