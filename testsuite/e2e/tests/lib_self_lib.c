/* libself.so: functions that call themselves and each other through the
 * library's own PLT (exported, so the calls may be interposed; noipa
 * keeps GCC from binding self_rec's call of itself straight to itself,
 * which it does for a plain recursive function even with -fPIC). */
__attribute__((noipa)) int self_rec(int n)
{
	return n <= 0 ? 0 : 1 + self_rec(n - 1);
}

__attribute__((noipa)) int self_pong(int n);

__attribute__((noipa)) int self_ping(int n)
{
	return n <= 0 ? 0 : 1 + self_pong(n - 1);
}

__attribute__((noipa)) int self_pong(int n)
{
	return n <= 0 ? 0 : 1 + self_ping(n - 1);
}
