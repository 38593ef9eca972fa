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
	act_untraced "$BIN/plthook" atoi
	;;
fork)
	lt -o trace "$BIN/plthook" fork >out 2>err
	st=$?
	[ "$st" = 0 ] && [ "$(cat out)" = ok ] ||
		fail "tracer status $st, program output:" "$(cat out)" "$(cat err)"
	;;
esac
exit 0
