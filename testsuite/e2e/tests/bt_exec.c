/* -w across an exec: the program calls strlen through first(), then
 * runs itself again, which calls it through second(): the frames after
 * the exec name the new program's functions. */
#include <string.h>
#include <unistd.h>

size_t first(const char *s)
{
	return strlen(s); /* line 9 */
}

size_t second(const char *s)
{
	return strlen(s); /* line 14 */
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return second(argv[1]) == 5 ? 0 : 1; /* line 20 */
	if (first("exec") != 4) /* line 21 */
		return 1;
	execl("/proc/self/exe", argv[0], "again", (char *)NULL);
	return 1;
}
