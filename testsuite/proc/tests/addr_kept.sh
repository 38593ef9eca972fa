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
	"$BIN/addrkeep" attach k >out 2>&1 &
	p=$!
	cleanup_pids+=("$p")
	wait_file k.ready || fail "the program never became ready"
	lt_bg -o trace -p "$p"
	t=$!
	tracer_pid "$t"
	cleanup_pids+=("$t")
	# A few calls shown: free is handed over (--fast) by then.
	for ((i = 0; i < 3000; i++)); do
		[ "$(grep -c '^free(' trace 2>/dev/null)" -ge 3 ] && break
		sleep 0.01
	done
	[ "$i" -lt 3000 ] || fail "no calls of free traced:" "$(head -5 trace)"
	touch k.load
	wait_file k.loaded || fail "the program never kept the address"
	kill -INT "$tpid"
	wait_tracer "$t"
	touch k.call
	wait "$p"
	st=$?
	[ "$st" = 0 ] && [ "$(cat out)" = ok ] ||
		fail "the program ended with status $st:" "$(cat out)"
	;;
fork)
	lt -o trace "$BIN/addrkeep" fork >out 2>err
	st=$?
	[ "$st" = 0 ] && [ "$(cat out)" = ok ] ||
		fail "tracer status $st, program output:" "$(cat out)" "$(cat err)"
	;;
esac
exit 0
