# shellcheck shell=bash disable=SC1091,SC2016,SC2086,SC2317
# The terminal's signals when the tracer started the program: the tracer
# runs as the foreground job of a pseudo-terminal (bin/ptyjob, a shell's
# job control) and the test types at it.  Ctrl-C (SIGINT to the whole
# foreground group) belongs to the program: the trace goes on to its
# end and the tracer exits with the program's status.  The program is
# bin/ctrlc.  Variants:
#   INTh, QUITh  Ctrl-C or Ctrl-\ with a handler: the signal line, the
#                handler's call, the exit line; the tracer exits 0
#   INTd, QUITd  no handler: killed by the signal, the tracer exits
#                128 + its number
#   INTi, INTb   SIGINT ignored or blocked: one Ctrl-C leaves the trace
#                going; two within a second detach (exit 130), and the
#                program runs on untraced
#   kill         kill -INT to the tracer alone: it detaches (exit 130);
#                the program runs on, and the next Ctrl-C is its own
#   pgrp         the program in a process group of its own: Ctrl-C
#                reaches the tracer alone, which detaches
#   attach       the tracer attached with -p to a program of its job:
#                Ctrl-C detaches it, and the program's handler runs
#   TSTP, TSTPh  Ctrl-Z (the program's SIGTSTP at its default action, or
#                a handler that stops it after a call): program and
#                tracer stop, the job shows stopped; `fg` continues both
#                and the trace goes on to Ctrl-C's end
# variants: INTh QUITh INTd QUITd INTi INTb kill pgrp attach TSTP TSTPh
. "$PROC/lib.sh"

v=$1
# The program's mode (see ctrlc.c).
case $v in
*d) pmode=d ;;
INTi) pmode=i ;;
INTb) pmode=b ;;
pgrp) pmode=g ;;
TSTPh) pmode=t ;;
*) pmode=h ;;
esac

cleanup() {
	exec 3>&- 2>/dev/null
	[ -n "${p:-}" ] && kill -9 "$p" 2>/dev/null
	[ -n "${tpid:-}" ] && kill -9 "$tpid" 2>/dev/null
	wait
}
trap cleanup EXIT

# The tracer as the terminal's foreground job; $p the program, $tpid
# the tracer (the job), $ctl the controller.  With attach, a shell
# starts the program, then becomes the tracer.
mkfifo keys
if [ "$v" = attach ]; then
	"$BIN/ptyjob" jobs tty bash -c '"$1" r out stop h &
		while [ ! -s r ]; do sleep 0.01; done
		exec "$2" $MODE -o trace -p "$!"' x "$BIN/ctrlc" "$LTRACE" <keys &
else
	"$BIN/ptyjob" jobs tty "$LTRACE" $MODE -o trace "$BIN/ctrlc" r out \
		stop "$pmode" <keys &
fi
exec 3>keys
wait_grep '^job ' jobs || fail "the job never started"
tpid=$(sed -n 's/^job //p' jobs)
ctl=$(sed -n 's/^ctl //p' jobs)
wait_file r || fail "the program never started: $(cat tty)"
p=$(cat r)
# Ready for the keys once the tracer catches SIGINT (its loop runs).
for ((i = 0; i < 1000; i++)); do
	cgt=$(awk '/^SigCgt:/ { print $2 }' "/proc/$tpid/status" 2>/dev/null)
	[ -n "$cgt" ] && (((0x$cgt >> 1) & 1)) && [ "$(tracer_of "$p")" = "$tpid" ] &&
		break
	sleep 0.01
done
[ "$i" -lt 1000 ] || fail "the tracer never ran: $(cat tty)"

# keys KEYS: typed at the terminal (printf %b escapes).
keys() { printf '%b' "$1" >&3; }

# job_state: the last thing the controller saw of the tracer.
job_state() { tail -n 1 jobs; }

# wait_end SECS: the tracer's end; $tst its status as "exited N" or
# "killed N".
wait_end() {
	wait_grep '^(exited|killed) ' jobs "$1" ||
		fail "the tracer did not end within $1 s: $(job_state)" \
			"$(tail -n 5 trace)"
	tst=$(job_state)
}

# traced_by PID: TracerPid of the program.
traced_by() { tracer_of "$p"; }

# The trace without the loop's calls.
lines() { grep -vE '^(access|usleep|time)\(' trace | sed 's/ \{2,\}= / = /'; }

# expect_lines LINE...: these lines in this order, last the last.
expect_lines() {
	local got want
	got=$(lines | grep -F -x "${@/#/-e}")
	want=$(printf '%s\n' "$@")
	[ "$got" = "$want" ] || fail "trace: want" "$want" "got" "$(lines | tail -n 12)"
	[ "$(lines | tail -n 1)" = "${*: -1}" ] ||
		fail "the trace does not end with '${*: -1}':" "$(lines | tail -n 5)"
}

# released: the program runs on untraced; STOP ends it as it would.
released() {
	local s
	[ "$(traced_by)" = 0 ] || fail "the program is still traced by $(traced_by)"
	s=$(pstate "$p")
	case $s in R | S | D) ;; *) fail "the program left in state $s" ;; esac
	touch stop
	wait_gone "$p" 10 || fail "the program did not end: state $(pstate "$p")"
	[ "$(cat out)" = stopped ] || fail "the program wrote '$(cat out)'"
}

# Ctrl-Z: both stop, the job shows stopped, the program stays stopped;
# fg continues both.
stop_and_fg() {
	local i s
	keys '\032'
	wait_grep '^stopped ' jobs 10 || fail "the job did not stop: $(job_state)" \
		"program state $(pstate "$p")" "$(lines | tail -n 5)"
	for ((i = 0; i < 20; i++)); do
		s=$(pstate "$p")
		case $s in t | T) ;; *) fail "the program runs while stopped: $s" ;; esac
		sleep 0.01
	done
	kill -USR1 "$ctl"
	wait_grep '^continued$' jobs 10 || fail "fg did not continue the job: $(job_state)"
	for ((i = 0; i < 500; i++)); do
		s=$(pstate "$p")
		case $s in R | S | D) [ "$(traced_by)" = "$tpid" ] && break ;; esac
		sleep 0.01
	done
	[ "$i" -lt 500 ] || fail "the program did not continue: state $s"
}

case $v in
INTh | QUITh)
	case $v in INT*) keys '\003' ;; *) keys '\034' ;; esac
	wait_end 10
	sig=${v%h}
	num=$(kill -l "$sig")
	[ "$tst" = "exited 0" ] || fail "tracer: $tst, want exited 0" "$(tail -n 5 trace)"
	[ "$(cat out)" = "handled $num" ] || fail "the program wrote '$(cat out)'"
	desc=Interrupt
	[ "$sig" = QUIT ] && desc=Quit
	expect_lines "--- SIG$sig ($desc) ---" 'strlen("in handler") = 10' \
		'+++ exited (status 0) +++'
	;;
INTd | QUITd)
	case $v in INT*) keys '\003' ;; *) keys '\034' ;; esac
	wait_end 10
	sig=${v%d}
	num=$(kill -l "$sig")
	[ "$tst" = "exited $((128 + num))" ] ||
		fail "tracer: $tst, want exited $((128 + num))" "$(tail -n 5 trace)"
	expect_lines "+++ killed by SIG$sig +++"
	;;
INTi | INTb)
	keys '\003'
	# One: the trace goes on.
	sleep 1.5
	[ "$(traced_by)" = "$tpid" ] || fail "one Ctrl-C detached: $(job_state)"
	# Two within a second: detached.  (Two typed at once may come as
	# one signal: again until the tracer ends.)
	for ((k = 0; k < 5; k++)); do
		keys '\003'
		sleep 0.2
		keys '\003'
		wait_grep '^(exited|killed) ' jobs 2 && break
	done
	wait_end 5
	[ "$tst" = "exited 130" ] || fail "tracer: $tst, want exited 130"
	released
	[ "$v" = INTb ] || grep -q -- '^--- SIGINT (Interrupt) ---$' trace ||
		fail "no SIGINT line:" "$(lines | tail -n 5)"
	;;
kill)
	kill -INT "$tpid"
	wait_end 10
	[ "$tst" = "exited 130" ] || fail "tracer: $tst, want exited 130"
	[ "$(traced_by)" = 0 ] || fail "the program is still traced"
	# Still in the foreground: the next Ctrl-C is the program's.
	keys '\003'
	wait_gone "$p" 10 || fail "the program did not end: state $(pstate "$p")"
	[ "$(cat out)" = "handled 2" ] || fail "the program wrote '$(cat out)'"
	;;
attach)
	keys '\003'
	wait_end 10
	[ "$tst" = "exited 130" ] || fail "tracer: $tst, want exited 130"
	wait_gone "$p" 10 || fail "the program did not end: state $(pstate "$p")"
	[ "$(cat out)" = "handled 2" ] || fail "the program wrote '$(cat out)'"
	;;
pgrp)
	keys '\003'
	wait_end 10
	[ "$tst" = "exited 130" ] || fail "tracer: $tst, want exited 130"
	released
	;;
TSTP | TSTPh)
	stop_and_fg
	keys '\003'
	wait_end 10
	[ "$tst" = "exited 0" ] || fail "tracer: $tst, want exited 0" "$(tail -n 5 trace)"
	[ "$(cat out)" = "handled 2" ] || fail "the program wrote '$(cat out)'"
	if [ "$v" = TSTP ]; then
		expect_lines '--- SIGTSTP (Stopped) ---' '--- SIGCONT (Continued) ---' \
			'--- SIGINT (Interrupt) ---' 'strlen("in handler") = 10' \
			'+++ exited (status 0) +++'
	else
		expect_lines '--- SIGTSTP (Stopped) ---' 'strlen("stopping") = 8' \
			'--- SIGTSTP (Stopped) ---' '--- SIGCONT (Continued) ---' \
			'--- SIGINT (Interrupt) ---' 'strlen("in handler") = 10' \
			'+++ exited (status 0) +++'
	fi
	;;
esac
exit 0
