# shellcheck shell=bash disable=SC1091
# -x on an attached program (one thread, or four): the entry of atol,
# and of strlen, an IFUNC whose resolver ran long before the attach (the
# implementation is read from libc's relocated slot).  Every call is
# right while traced; after SIGINT the program runs untraced with its
# maps and read-only bytes as before (every entry breakpoint put back).
# variants: 1 4
. "$PROC/lib.sh"

start_loop a "$1"
p=$lpid
snapshot "$p" >snap
lt_bg -o trace -L -x 'atol@libc.so.6' -x 'strlen@libc.so.6' -p "$p"
t=$!
tracer_pid "$t"
cleanup_pids+=("$t")
wait_grep '^(\[pid [0-9]+\] )?strlen@libc\.so\.6\("[0-9]+"\) += [0-9]+$' trace ||
	fail "no strlen calls traced: $(head trace)"
wait_grep '^(\[pid [0-9]+\] )?atol@libc\.so\.6\("[0-9]+"\) += [0-9]+$' trace ||
	fail "no atol calls traced: $(head trace)"
kill -INT "$tpid"
wait_tracer "$t"
echo "STAT $(grep -c 'strlen@' trace) strlen lines, tracer exited $tst after $tsecs"
check_released "$p" snap
stop_loop a "$p"
