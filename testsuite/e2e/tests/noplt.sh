# Sourced by the noplt_*.opts: build libnoplt.so and the program
# noplt_main.c against it, both without a PLT (-fno-plt) unless PLT=1,
# with the prototypes of noplt.conf.  check_binary (check_noplt) makes
# sure the program is what the test is about: its calls go through the
# GOT, or through stubs.
SRC=noplt_main.c
t=$here/tests
if [ -n "${PLT:-}" ]; then
	CFLAGS_EXTRA=()
else
	CFLAGS_EXTRA=(-fno-plt)
fi
$CC "${TEST_CFLAGS[@]}" "${CFLAGS_EXTRA[@]}" -fPIC -shared \
	-Wl,-soname,libnoplt.so -o "$d/libnoplt.so" "$t/noplt_lib.c" || return 1
LDFLAGS_EXTRA=(-L"$d" -lnoplt -Wl,-rpath,"$d")
LTRACE_OPTS=(-F "$t/noplt.conf")

. "$here/tests/calls.sh"

# Whether FILE makes the call CALL (a line of calls FILE).
has_call() {
	calls "$1" | grep -qxF "$2"
}

check_noplt() {
	if [ -n "${PLT:-}" ]; then
		has_call "$1" 'call np_one@plt' &&
			has_call libnoplt.so 'jump puts@plt'
		return
	fi
	has_call "$1" 'call *np_one' && has_call "$1" 'jump *puts' &&
		has_call libnoplt.so 'call *strdup' &&
		has_call libnoplt.so 'call *np_one' &&
		has_call libnoplt.so 'jump *puts' &&
		calls "$1" main | grep -xFA1 'call *np_one' |
		grep -qxF 'call *np_two'
}
check_binary() { check_noplt "$1"; }
