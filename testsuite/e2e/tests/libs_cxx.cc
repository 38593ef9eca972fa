/* libcx.so for libs_cxx_main.cc: C++ functions, whose symbols are
 * mangled; area calls scale through the library's own PLT (a global
 * function of a DSO may be interposed). */
namespace geo {
struct point {
	int x, y;
};

int scale(int v)
{
	return v;
}

int area(int w, int h)
{
	return scale(w) * h;
}

int dist(const point &a, const point &b)
{
	return (a.x - b.x) + (a.y - b.y);
}
}
