/* Makes its stderr, which it shares with the tracer writing the trace
 * there, non-blocking (O_NONBLOCK is on the open file description, so
 * the tracer's writes become non-blocking too), then makes ARGV[1]
 * (default 3000) traced calls. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3000;
	size_t t = 0;
	fcntl(2, F_SETFL, fcntl(2, F_GETFL) | O_NONBLOCK);
	for (int i = 0; i < n; i++)
		t += strlen("a string that makes the trace lines long");
	return t == (size_t)n * 40 ? 0 : 1;
}
