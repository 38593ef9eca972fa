/* A char array inside a struct shown as a string up to its NUL, capped
 * at the array's size: string(array(char, zero(12))). */
#include <string.h>
#include "libe2e.h"

int main(void)
{
	struct e2e_named a = { 1, "eth0" };
	struct e2e_named b = { 2, "" };
	struct e2e_named c;

	c.id = 3;
	memcpy(c.name, "twelve chars", 12);
	e2e_named(&a);
	e2e_named(&b);
	e2e_named(&c);
	return 0;
}
