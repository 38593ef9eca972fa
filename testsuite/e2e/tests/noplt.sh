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

# Whether the disassembly of FILE has a line matching the regex RE.
has_insn() {
	objdump -d --no-show-raw-insn "$1" | grep -Eq "$2"
}

check_noplt() {
	if [ -n "${PLT:-}" ]; then
		has_insn "$1" 'call +[0-9a-f]+ <np_one@plt>' &&
			has_insn libnoplt.so 'jmp +[0-9a-f]+ <puts@plt>'
		return
	fi
	local got='\*0x[0-9a-f]+\(%rip\) +# [0-9a-f]+ <'
	has_insn "$1" "call +${got}np_one@" &&
		has_insn "$1" "jmp +${got}puts@" &&
		has_insn libnoplt.so "call +${got}strdup@" &&
		has_insn libnoplt.so "call +${got}np_one" &&
		has_insn libnoplt.so "jmp +${got}puts@" &&
		objdump -d --no-show-raw-insn "$1" |
		grep -EA1 "call +${got}np_one@" | grep -Eq "call +${got}np_two@"
}
check_binary() { check_noplt "$1"; }
