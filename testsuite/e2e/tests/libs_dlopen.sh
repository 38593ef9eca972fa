# Sourced by the libs_dlopen_*.opts: build libone.so and libtwo.so into
# the test's directory, where the program dlopens them by a relative
# path.
SRC=libs_dlopen.c
t=$here/tests
$CC "${TEST_CFLAGS[@]}" -fPIC -shared -Wl,-soname,libtwo.so \
	-o "$d/libtwo.so" "$t/libs_two.c" || return 1
$CC "${TEST_CFLAGS[@]}" -fPIC -shared -Wl,-soname,libone.so \
	-o "$d/libone.so" "$t/libs_one.c" || return 1
LDFLAGS_EXTRA=(-ldl)
