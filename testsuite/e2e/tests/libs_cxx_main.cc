/* Calls the C++ functions of libcx.so (libs_cxx.cc), for -C. */
#include <cstdio>

namespace geo {
struct point {
	int x, y;
};
int area(int w, int h);
int dist(const point &a, const point &b);
}

int main()
{
	geo::point a = { 5, 7 }, b = { 1, 2 };
	int n = geo::area(3, 4);

	std::printf("%d %d\n", n, geo::dist(a, b));
	return 0;
}
