/* Calls into the C library whose prototypes come from its DWARF
 * (libc6-dbg), where struct _IO_FILE, struct __dirstream, struct
 * __locale_struct and the pthread unions are described whole. */
#include <dirent.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>

int main(void)
{
	char buf[64] = "";
	pthread_mutex_t m;
	FILE *f = fopen("/dev/null", "r");

	setvbuf(f, NULL, _IONBF, 0);
	fgets(buf, sizeof(buf), f);
	fclose(f);
	DIR *d = opendir("/");
	closedir(d);
	pthread_mutex_init(&m, NULL);
	pthread_mutex_destroy(&m);
	locale_t l = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	freelocale(l);
	return 0;
}
