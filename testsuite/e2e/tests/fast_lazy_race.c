/* A thread is inside the lazy binding of ifn_f's slot (its IFUNC
 * resolver waits) while another thread binds the slot and calls ifn_f
 * twice; then the first one writes the slot as well.  Every call must be
 * traced: with --fast, a hand-over to the recorder made meanwhile (the
 * slot pointed at the recorder) was undone by that late write, and
 * ifn_f(4) and ifn_f(5) went untraced. */
#include <pthread.h>
#include <stdio.h>

int ifn_f(int x);
int ifn_go(void);
void ifn_done(void);

static volatile int back;

/* It calls ifn_f again once ifn_f(1) has returned: one order of
 * lines. */
static void *binder(void *arg)
{
	(void)arg;
	while (!ifn_go())
		;
	ifn_f(2);
	ifn_f(3);
	ifn_done();
	while (!back)
		;
	ifn_f(4);
	ifn_f(5);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, binder, NULL);
	int r = ifn_f(1);
	back = 1;
	pthread_join(t, NULL);
	printf("%d\n", r);
	return 0;
}
