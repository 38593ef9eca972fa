# Sourced by the tail_x*.opts: tail_x.c built -O2, checked to hold the
# two tail calls (a jump to the next function: jmp, b) the tests are about.
SRC=tail_x.c
CFLAGS_EXTRA=(-O2)
. "$here/tests/calls.sh"
check_binary() {
	calls "$1" tail1 | grep -qxF 'jump tail2' &&
		calls "$1" tail2 | grep -qxF 'jump tail3'
}
