# Sourced by the tail_x*.opts: tail_x.c built -O2, checked to hold the
# two tail calls (a `jmp` to the next function) the tests are about.
SRC=tail_x.c
CFLAGS_EXTRA=(-O2)
check_binary() {
	local dis
	dis=$(objdump -d --no-show-raw-insn "$1") || return 1
	grep -A8 '<tail1>:$' <<<"$dis" | grep -Eq 'jmp +[0-9a-f]+ <tail2>' &&
		grep -A8 '<tail2>:$' <<<"$dis" |
		grep -Eq 'jmp +[0-9a-f]+ <tail3>'
}
