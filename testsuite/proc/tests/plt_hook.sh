# shellcheck shell=bash disable=SC1091
# A program writes its own hook in its GOT slot of atoi while traced (as
# PLT hooking libraries do: the hook calls what the slot held) and needs
# it once the tracer has gone.  With --fast the slot held the recorder's
# trampoline until then.  The detach (or the release of a fork child)
# put back the value from before the hand-over, over the program's (atoi
# answered 5, not the hook's 105), and unmapped the trampoline the hook
# goes on to.
#   attach: -p, the hook written while traced, SIGINT to the tracer, then
#	a call;
#   fork: without -f, the parent hooks and forks; the child calls.
# variants: attach fork
. "$PROC/lib.sh"

case $1 in
attach)
	"$BIN/plthook" attach k >out 2>&1 &
	p=$!
	cleanup_pids+=("$p")
	wait_file k.ready || fail "the program never became ready:" "$(cat out)"
	lt_bg -o trace -p "$p"
	t=$!
	tracer_pid "$t"
	cleanup_pids+=("$t")
	# A few calls shown: atoi is handed over (--fast) by then.
	for ((i = 0; i < 3000; i++)); do
		[ "$(grep -c '^atoi(' trace 2>/dev/null)" -ge 3 ] && break
		sleep 0.01
	done
	[ "$i" -lt 3000 ] || fail "no calls of atoi traced:" "$(head -5 trace)"
	touch k.hook
	wait_file k.hooked || fail "the program never hooked atoi"
	kill -INT "$tpid"
	wait_tracer "$t"
	touch k.call
	wait "$p"
	st=$?
	[ "$st" = 0 ] && [ "$(cat out)" = ok ] ||
		fail "the program ended with status $st:" "$(cat out)"
	;;
fork)
	lt -o trace "$BIN/plthook" fork >out 2>err
	st=$?
	[ "$st" = 0 ] && [ "$(cat out)" = ok ] ||
		fail "tracer status $st, program output:" "$(cat out)" "$(cat err)"
	;;
esac
exit 0
