/* libbar.so for libs_main.c and libs_foo.c. */
int bar_add(int a, int b)
{
	return a + b;
}
