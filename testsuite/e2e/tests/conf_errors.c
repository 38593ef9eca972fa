/* A conf file with a bad declaration of each kind (conf_errors.conf):
 * the bad ones are reported and skipped, and the good ones after each
 * still describe the program's functions, traced with -x.  Built
 * without debug information, so that only the conf file describes
 * them. */
#define NOINLINE __attribute__((noinline))

struct node {
	int v;
	struct node *next;
};

NOINLINE int ok_count(int c)
{
	return c;
}

NOINLINE int ok_node(const struct node *n)
{
	int s = 0;
	for (; n; n = n->next)
		s += n->v;
	return s;
}

NOINLINE int err_unknown(int x)
{
	return x;
}

NOINLINE int ok_unknown(int x)
{
	return x;
}

NOINLINE int err_expr(const int *a, int n)
{
	return n ? a[0] : 0;
}

NOINLINE int ok_expr(const int *a, int n)
{
	return n ? a[n - 1] : 0;
}

NOINLINE int err_deep(int x)
{
	return x;
}

NOINLINE int ok_deep(int x)
{
	return x;
}

NOINLINE int ok_import(int x)
{
	return x;
}

NOINLINE int err_trailing(int x)
{
	return x;
}

NOINLINE int ok_garbage(int x)
{
	return x;
}

NOINLINE int err_open(int x, const char *s)
{
	return x + (s != 0);
}

NOINLINE int ok_open(const char *s)
{
	return s[0];
}

NOINLINE int ok_twice(int x)
{
	return x;
}

int main(void)
{
	struct node c = { 3, 0 }, b = { 2, &c }, a = { 1, &b };
	int v[3] = { 4, 5, 6 };

	ok_count(1);
	ok_node(&a);
	err_unknown(2);
	ok_unknown(3);
	err_expr(v, 3);
	ok_expr(v, 3);
	err_deep(255);
	ok_deep(255);
	ok_import(4);
	err_trailing(5);
	ok_garbage(6);
	err_open(7, "x");
	ok_open("A");
	ok_twice(8);
	return 0;
}
