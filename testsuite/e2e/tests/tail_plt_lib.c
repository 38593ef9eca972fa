/* libtail.so, built -O2 -fPIC: tail_top ends in `jmp tail_mid@plt`,
 * tail_mid in `jmp tail_leaf@plt` (exported functions: calls between
 * them go through the library's own PLT).  noipa: no inlining, no
 * clones. */
__attribute__((noipa)) int tail_leaf(int x)
{
	__asm__ volatile("");
	return x * 3 + 1;
}

__attribute__((noipa)) int tail_mid(int x)
{
	__asm__ volatile("");
	return tail_leaf(x + 2);
}

__attribute__((noipa)) int tail_top(int x)
{
	__asm__ volatile("");
	return tail_mid(x + 1);
}
