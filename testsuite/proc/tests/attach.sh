# shellcheck shell=bash disable=SC1091
# Attach with -p to a running program, see its calls, then send the tracer
# SIG: it must exit promptly, leaving the program untraced, running, with
# its mappings (scratch pages gone) and text bytes exactly as before; the
# program then finishes with the right output and status.  EPIPE: the
# tracer's stderr is a pipe whose reader goes away (a real SIGPIPE).
# variants: INT TERM HUP QUIT PIPE EPIPE
. "$PROC/lib.sh"

start_loop a
p=$lpid
snapshot "$p" >snap
if [ "$1" = EPIPE ]; then
	mkfifo fifo
	head -n 20 <fifo >head.out &
	h=$!
	cleanup_pids+=("$h")
	lt_bg -p "$p" 2>fifo
	t=$!
else
	lt_bg -o trace -p "$p"
	t=$!
	tracer_pid "$t"
fi
cleanup_pids+=("$t")
if [ "$1" = EPIPE ]; then
	wait "$h"
	[ "$(grep -c 'atol(' head.out)" -ge 1 ] || fail "no calls seen: $(cat head.out)"
else
	wait_grep '^atol\("[0-9]+"\) += [0-9]+$' trace || fail "no calls traced: $(head trace)"
	[ "$(tracer_of "$p")" = "$tpid" ] || fail "TracerPid is $(tracer_of "$p"), not $tpid"
	kill -"$1" "$tpid"
fi
wait_tracer "$t"
echo "tracer exited $tst after $tsecs"
check_released "$p" snap
stop_loop a "$p"
