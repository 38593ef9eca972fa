/* Calls a function of its own defined as a GNU indirect function: the
 * call goes through a PLT stub whose slot has an R_X86_64_IRELATIVE
 * relocation. */
#include <stdio.h>

static int answer_impl(void)
{
	return 42;
}

static int (*answer_resolver(void))(void)
{
	return answer_impl;
}

int answer(void) __attribute__((ifunc("answer_resolver")));

int main(void)
{
	printf("%d\n", answer());
	return 0;
}
