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

# Whether FUNC of libself.so calls CALLEE through the library's GOT.
calls_through_got() {
	local body slot
	body=$(objdump -d --no-show-raw-insn libself.so |
		grep -A20 "<$1>:\$") || return 1
	if [ -z "${NOPLT:-}" ]; then
		grep -Eq "call +[0-9a-f]+ <$2@plt>" <<<"$body"
		return
	fi
	slot=$(grep -Eo 'call +\*0x[0-9a-f]+\(%rip\) +# [0-9a-f]+' <<<"$body" |
		head -1 | awk '{ print $NF }')
	[ -n "$slot" ] && readelf -rW libself.so |
		grep -Eq "^0*$slot +[0-9a-f]+ R_X86_64_GLOB_DAT +[0-9a-f]+ $2 "
}

check_binary() {
	calls_through_got self_rec self_rec && calls_through_got self_ping self_pong
}
