/* Calls whose times are far apart, so that -c's order is known: usleep
 * twice (300 ms in all), nanosleep once (100 ms). */
#include <time.h>
#include <unistd.h>

int main(void)
{
	struct timespec ts = { 0, 100000000 };

	usleep(200000);
	nanosleep(&ts, NULL);
	usleep(100000);
	return 0;
}
