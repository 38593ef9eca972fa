/* A library whose debug info describes types the tracer cannot hold
 * whole, for hostile_dwarf_size: a struct of 2^62 bytes, an array of
 * 2^59 longs that hostile_dwarf.py makes 2^62 (2^65 bytes: its size
 * overflows), and a struct nested 40 deep by value.  The code only
 * reads a few bytes of each. */
struct big {
	char a[1UL << 61];
	char b[1UL << 61];
};

typedef long huge[1UL << 59];

struct deep0 {
	int v;
};
struct deep1 {
	struct deep0 in;
};
struct deep2 {
	struct deep1 in;
};
struct deep3 {
	struct deep2 in;
};
struct deep4 {
	struct deep3 in;
};
struct deep5 {
	struct deep4 in;
};
struct deep6 {
	struct deep5 in;
};
struct deep7 {
	struct deep6 in;
};
struct deep8 {
	struct deep7 in;
};
struct deep9 {
	struct deep8 in;
};
struct deep10 {
	struct deep9 in;
};
struct deep11 {
	struct deep10 in;
};
struct deep12 {
	struct deep11 in;
};
struct deep13 {
	struct deep12 in;
};
struct deep14 {
	struct deep13 in;
};
struct deep15 {
	struct deep14 in;
};
struct deep16 {
	struct deep15 in;
};
struct deep17 {
	struct deep16 in;
};
struct deep18 {
	struct deep17 in;
};
struct deep19 {
	struct deep18 in;
};
struct deep20 {
	struct deep19 in;
};
struct deep21 {
	struct deep20 in;
};
struct deep22 {
	struct deep21 in;
};
struct deep23 {
	struct deep22 in;
};
struct deep24 {
	struct deep23 in;
};
struct deep25 {
	struct deep24 in;
};
struct deep26 {
	struct deep25 in;
};
struct deep27 {
	struct deep26 in;
};
struct deep28 {
	struct deep27 in;
};
struct deep29 {
	struct deep28 in;
};
struct deep30 {
	struct deep29 in;
};
struct deep31 {
	struct deep30 in;
};
struct deep32 {
	struct deep31 in;
};
struct deep33 {
	struct deep32 in;
};
struct deep34 {
	struct deep33 in;
};
struct deep35 {
	struct deep34 in;
};
struct deep36 {
	struct deep35 in;
};
struct deep37 {
	struct deep36 in;
};
struct deep38 {
	struct deep37 in;
};
struct deep39 {
	struct deep38 in;
};
struct deep40 {
	struct deep39 in;
};

int hs_big(struct big *p)
{
	return p->a[0];
}

int hs_huge(huge *p)
{
	return (int)(*p)[1];
}

/* 40 levels of .in */
#define IN4 in.in.in.in
#define IN20 IN4.IN4.IN4.IN4.IN4
int hs_deep(struct deep40 *p)
{
	return p->IN20.IN20.v;
}
