/* The target of fork_lift: forklift.  Four threads fork children back
 * to back while main calls twenty libc functions for the first time,
 * one after the other, two children apart.  With --fast each first call hands its function over
 * to the recorder and lifts the int3 on its PLT stub; a child forked
 * before a lift and reported after it has a copy of that int3.  Each
 * child calls the twenty functions and exits 0 if all answered right.
 * Prints "ok N" (N children) and exits 0 if every child did, else says
 * which did not and how it ended. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int done, bad, forks;
static char word[] = "Forty-two";

static int call(int i)
{
	switch (i) {
	case 0: return strlen(word) != 9;
	case 1: return strcmp(word, "Forty-two") != 0;
	case 2: return strchr(word, 'y') != word + 4;
	case 3: return strrchr(word, 't') != word + 6;
	case 4: return memchr(word, '-', 9) != word + 5;
	case 5: return atoi("42") != 42;
	case 6: return atol("-42") != -42;
	case 7: return abs(-7) != 7;
	case 8: return labs(-7L) != 7;
	case 9: return toupper('f') != 'F';
	case 10: return tolower('F') != 'f';
	case 11: return strspn(word, "Frot") != 4;
	case 12: return strcspn(word, "-") != 5;
	case 13: return strncmp(word, "Fort", 4) != 0;
	case 14: return memcmp(word, "Forty", 5) != 0;
	case 15: return strnlen(word, 4) != 4;
	case 16: return strtol("0x2a", NULL, 16) != 42;
	case 17: return strtoul("42", NULL, 10) != 42;
	case 18: return strpbrk(word, "yt") != word + 3;
	default: return strncasecmp(word, "FORTY", 5) != 0;
	}
}

#define NCALL 20
#define NFORKER 4

/* Each of the NCALL through its PLT stub (-fno-builtin): the number of
 * wrong answers. */
static int call_all(void)
{
	int wrong = 0;
	for (int i = 0; i < NCALL; i++)
		wrong += call(i);
	return wrong;
}

static void *forker(void *arg)
{
	(void)arg;
	while (!done && !bad) {
		pid_t c = fork();
		if (c == 0)
			_exit(call_all() ? 1 : 0);
		int st = 0;
		if (c < 0 || waitpid(c, &st, 0) != c || st != 0) {
			printf("child %d: status %#x\n", forks, st);
			bad = 1;
		}
		__sync_fetch_and_add(&forks, 1);
	}
	return NULL;
}

/* Until the forkers have made N more children (or one went wrong). */
static void forks_go_on(int n)
{
	for (int until = forks + n; forks < until && !bad;)
		sched_yield();
}

int main(void)
{
	pthread_t t[NFORKER];
	for (int i = 0; i < NFORKER; i++)
		if (pthread_create(&t[i], NULL, forker, NULL))
			return 2;
	int wrong = 0;
	for (int i = 0; i < NCALL; i++) {
		/* The first call binds the function (lazily), the second
		 * one hands it over. */
		forks_go_on(2);
		wrong += call(i) + call(i);
	}
	forks_go_on(2 * NFORKER);
	done = 1;
	for (int i = 0; i < NFORKER; i++)
		pthread_join(t[i], NULL);
	if (wrong)
		printf("main: %d wrong\n", wrong);
	if (bad || wrong)
		return 1;
	printf("ok %d\n", forks);
	return 0;
}
