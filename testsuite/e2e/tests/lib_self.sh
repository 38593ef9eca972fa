# Sourced by the lib_self*.opts: libself.so built from lib_self_lib.c
# with LIB_FLAGS, the program linked with it, -l libself.so;
# check_binary makes sure self_rec calls itself and self_ping calls
# self_pong through the library's own PLT, or with -fno-plt (NOPLT=1)
# through the GOT slot the dynamic linker binds to the callee.
SRC=lib_self.c
$CC "${TEST_CFLAGS[@]}" "${LIB_FLAGS[@]}" -fPIC -shared \
	-Wl,-soname,libself.so -o "$d/libself.so" \
	"$here/tests/lib_self_lib.c" || return 1
LDFLAGS_EXTRA=(-L"$d" -lself -Wl,-rpath,"$d")
LTRACE_OPTS=(-l libself.so)

. "$here/tests/calls.sh"

# Whether FUNC of libself.so calls CALLEE through the library's stubs,
# or with NOPLT through the GOT slot bound to the callee.
calls_through_got() {
	local how=$2@plt
	[ -n "${NOPLT:-}" ] && how=*$2
	calls libself.so "$1" | grep -qxF "call $how"
}

check_binary() {
	calls_through_got self_rec self_rec && calls_through_got self_ping self_pong
}
