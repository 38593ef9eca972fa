# shellcheck shell=bash disable=SC1091
# -x on atol with -p, atol's stub traced too (no -L): with --fast the
# stub's calls go on at the patched entry's relocated copy, in scratch
# memory.  After SIGINT the program runs on untraced with its maps,
# read-only bytes and GOT as before: the detach put atol's slot back to
# atol, not to the copy that the unmapped scratch held (the program died
# of SIGSEGV), and every call it made gave the right result.
. "$PROC/lib.sh"

start_loop a 1
p=$lpid
# Its GOT slots are bound at its first calls, right after it is ready.
sleep 0.2
export SNAP_GOT=1
snapshot "$p" >snap
lt_bg -o trace -x 'atol@libc.so.6' -p "$p"
t=$!
tracer_pid "$t"
cleanup_pids+=("$t")
wait_grep '^atol(@libc\.so\.6)?\("[0-9]+"\) += [0-9]+$' trace ||
	fail "no atol calls traced: $(head trace)"
kill -INT "$tpid"
wait_tracer "$t"
echo "STAT $(grep -c 'atol' trace) atol lines, tracer exited $tst after $tsecs"
sleep 0.2
check_released "$p" snap
stop_loop a "$p"
