# Sourced by the x_ifunc*.opts: build libifn.so (an IFUNC) into the
# test's directory and link the program with it.
SRC=x_ifunc.c
$CC "${TEST_CFLAGS[@]}" -fPIC -shared -Wl,-soname,libifn.so \
	-o "$d/libifn.so" "$here/tests/x_ifunc_lib.c" || return 1
LDFLAGS_EXTRA=(-L"$d" -lifn -Wl,-rpath,"$d")
check_binary() {
	readelf --dyn-syms "$d/libifn.so" | grep -q 'IFUNC .* xyz$'
}
