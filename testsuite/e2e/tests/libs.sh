# Sourced by the libs_*.opts: build libfoo.so (which needs libbar.so)
# and libbar.so into the test's directory and link the program with both.
SRC=libs_main.c
t=$here/tests
$CC "${TEST_CFLAGS[@]}" -fPIC -shared -Wl,-soname,libbar.so \
	-o "$d/libbar.so" "$t/libs_bar.c" || return 1
$CC "${TEST_CFLAGS[@]}" -fPIC -shared -Wl,-soname,libfoo.so \
	-o "$d/libfoo.so" "$t/libs_foo.c" -L"$d" -lbar \
	-Wl,-rpath,"$d" || return 1
LDFLAGS_EXTRA=(-L"$d" -lfoo -lbar -Wl,-rpath,"$d")
