# shellcheck shell=bash disable=SC1091
# A system call run from the tracer's scratch memory (the displaced copy
# of a breakpoint's instruction: -x on a function that starts with the
# system call instruction), or single-stepped in place (x86_64's
# int $0x80): a signal, the program's exit, and the tracer's SIGTERM
# while the call blocks.  The handler must run and the call end as
# untraced (a step from scratch would have run it again, blocked, and
# never delivered the signal); a worker's exit must end the trace (a
# wait for the stepped main thread alone never returned once it was a
# zombie); SIGTERM must end the tracer within 2 s and leave the program
# running correctly.  The program is bin/scratchsys (see there).
# Variant: the mode (p e r i j), then d: SIGTERM to the tracer while the
# call blocks (r: after the handler ran and the read started again).
# variants: p pd e r rd i id j
. "$PROC/lib.sh"

v=$1
m=${v:0:1}
detach=${v:1}
case $m in
i | j) [ "$ARCH" = x86_64 ] || skip "int \$0x80 is x86_64's" ;;
esac
case $m in
p | i) want_out='back -4 got 1' want_st=3 ;;
r) want_out='back 1 got 1' want_st=3 ;;
e | j) want_out='' want_st=7 ;;
esac

# in_call PID: the main thread of PID blocked in its call, state S (the
# traced calls before it stop it in t).  A signal sent before would be
# handled before the call, which would then wait for ever.
in_call() {
	local i
	for ((i = 0; i < 1000; i++)); do
		[ "$(pstate "$1")" = Z ] || [ ! -d "/proc/$1" ] && return 0
		[ "$(pstate "$1")" = S ] && sleep 0.2 && [ "$(pstate "$1")" = S ] &&
			return 0
		sleep 0.01
	done
	fail "main never blocked in its call: state $(pstate "$1")" "$(cat trace 2>/dev/null)"
}

# Untraced first: int $0x80 needs the kernel's ia32 emulation.
rm -f ready go go2 sent out
"$BIN/scratchsys" "$m" &
u=$!
wait_file ready 10 || fail "untraced: never ready"
in_call "$u"
touch go
[ "$m" = r ] && { wait_file sent 10 || fail "untraced: handler never ran"; touch go2; }
wait "$u"
st=$?
got=$(cat out 2>/dev/null)
[ "$m$st$got" = "i3back -38 got 0" ] && skip "no int \$0x80 here"
[ "$st" = "$want_st" ] && [ "$got" = "$want_out" ] ||
	fail "untraced: status $st, '$got'"

rm -f ready go go2 sent out
TMO=60 lt_bg -x 'sys_call*' -o trace "$BIN/scratchsys" "$m"
t=$!
tracer_pid "$t"
wait_file ready 20 || fail "traced: never ready"
p=$(cat "/proc/$tpid/task/$tpid/children" 2>/dev/null)
p=${p%% *}
cleanup() { [ -n "$p" ] && kill -9 "$p" 2>/dev/null; }
trap cleanup EXIT

if [ -n "$detach" ]; then
	if [ "$m" = r ]; then
		in_call "$p"
		touch go
		wait_file sent 20 || fail "traced: the handler never ran" "$(cat trace)"
	fi
	in_call "$p"
	kill -TERM "$tpid"
	wait_tracer "$t" 2
	[ "$tst" = 143 ] || fail "the tracer exited $tst after SIGTERM, not 143"
	echo "STAT SIGTERM ended the tracer after $tsecs"
	if [ "$m" = r ]; then touch go2; else touch go; fi
	wait_gone "$p" 20 || fail "the program did not end: state $(pstate "$p")"
	got=$(cat out 2>/dev/null)
	[ "$got" = "$want_out" ] || fail "after the detach, the program wrote '$got'"
	exit 0
fi

in_call "$p"
touch go
if [ "$m" = r ]; then
	wait_file sent 20 || fail "traced: the handler never ran" "$(cat trace)"
	touch go2
fi
wait_tracer "$t" 10
got=$(cat out 2>/dev/null)
[ "$tst" = "$want_st" ] && [ "$got" = "$want_out" ] ||
	fail "traced: status $tst, '$got'" "$(tail -5 trace)"
case $m in
e | j) grep -q '^+++ exited (status 7) +++$' trace || fail "no exit line" "$(tail -5 trace)" ;;
*)
	ret=${want_out#back }
	ret=${ret%% *}
	grep -q -- '^--- SIGUSR1 ' trace || fail "no SIGUSR1 line" "$(cat trace)"
	grep -qE -- "^(sys_call.*|<\.\.\. sys_call[0-9]* resumed> .*)= $ret\$" trace ||
		fail "no return of sys_call = $ret" "$(cat trace)"
	;;
esac
exit 0
