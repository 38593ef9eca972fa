/* A handled signal arrives inside a traced call; the handler's own calls
 * are traced, nested in it. */
#include <signal.h>
#include "libe2e.h"

static void handler(int sig)
{
	e2e_int(sig, 2);
}

int main(void)
{
	e2e_sethandler(SIGUSR1, handler);
	e2e_raise(SIGUSR1);
	e2e_void();
	return 0;
}
