# shellcheck shell=bash disable=SC1091
# A program reads a library function's address in its GOT slot (free,
# kept as a callback) and calls it once the tracer has gone.  With
# --fast the slot held the recorder's trampoline then: the trampolines
# must outlive the tracer and forward the calls.  Before, the detach
# unmapped them (attach: the program died of SIGSEGV), and a fork child
# let go without -f filled a ring nobody read (fork: it died of SIGTRAP).
#   attach: -p, the address kept while traced, SIGINT to the tracer, then
#	10000 calls through it;
#   fork: without -f, a fork child makes 100000 calls through it.
# variants: attach fork
. "$PROC/lib.sh"

if command -v objdump >/dev/null &&
	! objdump -d "$BIN/addrkeep" | grep -q 'free@plt'; then
	skip "addrkeep does not call free through a stub"
fi
case $1 in
attach)
	act_untraced "$BIN/addrkeep" free
	;;
fork)
	lt -o trace "$BIN/addrkeep" fork >out 2>err
	st=$?
	[ "$st" = 0 ] && [ "$(cat out)" = ok ] ||
		fail "tracer status $st, program output:" "$(cat out)" "$(cat err)"
	;;
esac
exit 0
